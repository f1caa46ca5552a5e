[.results[] | select(.status != "unavailable")] | length == 2 and all(.[]; .status == "failed" and (.reason | test("^wrong result [(]last timed call[)]")))
