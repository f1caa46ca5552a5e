[.results[] | select(.status != "unavailable")] | length == 1 and all(.[]; .status == "failed" and (.reason | test("^wrong result [(]last timed call[)]")))
