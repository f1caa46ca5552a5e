[.results[] | select(.benchmark == "gemm" and .device != "host")] | length == 4 and all(.[]; .status == "ok" and .verify.passed and .verify.checked_entries == .m * .n)
