[.results[] | select(.device != "host" and (.precision | IN("fp32", "int32", "int16", "int8")))] | length == 20 and all(.[]; .status == "error" and (.reason | test("CL_BUILD_PROGRAM_FAILURE")))
