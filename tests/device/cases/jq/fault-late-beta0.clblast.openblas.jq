[.results[] | select(.status != "unavailable")] | length == 3 and all(.[]; .status == "failed" and (.reason | test("^wrong result [(]last timed call[)]")))
