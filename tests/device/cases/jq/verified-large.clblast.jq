[.results[] | select(.benchmark == "gemm" and .device != "host")] | length == 8 and all(.[]; .status == "ok" and .verify.passed and .verify.checked_entries == .m * .n)
