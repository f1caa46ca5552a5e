[.results[] | select(.status == "ok")] | length >= 4 and all(.[]; .stat == "best" and .gflops == .gflops_best and .gflops_median <= .gflops and .config.stat == "best")
