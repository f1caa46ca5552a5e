[.results[] | select(.status != "unavailable")] | length == 1 and all(.[]; .status == "failed" and (.reason | test("^wrong result [(]call after the timed ones[)]")) and .verify.results_checked == 2)
