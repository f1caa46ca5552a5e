all(.results[]; .baseline_handicap | startswith("OpenBLAS runs core Prescott (sse3 kernels) on this sse4.2 CPU; core Nehalem would"))
