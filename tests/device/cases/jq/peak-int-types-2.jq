[.results[] | select(.precision == "bf16")] | length == 1 and all(.[]; .status == "unavailable" and (.reason | test("OpenCL C has no bfloat16 arithmetic")))
