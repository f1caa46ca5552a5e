[.results[] | select(.status != "unavailable")] | length == 2 and all(.[]; .status == "ok" and .verify.passed and .verify.results_checked == 2)
