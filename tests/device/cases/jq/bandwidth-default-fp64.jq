(.results | length == 8) and all(.results[]; .precision == "fp64" and .status == "ok" and (.work_per_call > 0))
