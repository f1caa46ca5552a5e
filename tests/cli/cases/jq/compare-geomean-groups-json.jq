(.geomeans | length) == 2 and all(.geomeans[]; .benchmark == "gemm" and .metric == "gflops" and .n == 1)
