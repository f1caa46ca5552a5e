[.results[] | select(.benchmark == "gemm")] as $g | ($g | length) == 2 and all($g[]; .status == "ok" and .verified and .verify.passed and .verify.checked_entries == 1024)
