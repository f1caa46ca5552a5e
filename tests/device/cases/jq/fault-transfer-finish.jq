(.results | length == 20) and all(.results[]; .status == "error" and (.reason | test("^clFinish: CL_OUT_OF_RESOURCES")))
