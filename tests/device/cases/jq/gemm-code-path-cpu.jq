[.results[] | select(.backend == "clbench")] | length >= 1 and all(.[]; .status == "ok" and .code_path == "cpu" and (.kernel | startswith("packed panels: ")))
