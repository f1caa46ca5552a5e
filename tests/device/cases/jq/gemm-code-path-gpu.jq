[.results[] | select(.backend == "clbench")] | length >= 1 and all(.[]; .status == "ok" and .code_path == "gpu" and (.kernel | test("^gpu tiles: TM=8 TN=8 .* split-K=2$")))
