all(.results[]; .status == "unavailable" and (.reason | test("fp16")))
