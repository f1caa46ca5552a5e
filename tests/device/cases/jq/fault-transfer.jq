(.results | length == 20) and all(.results[]; .status == "failed" and (.reason | test("^wrong result: the data that arrived differs [(]first at byte (2048|500001)[)]$")))
