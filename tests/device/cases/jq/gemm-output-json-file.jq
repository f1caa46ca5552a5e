.schema == "clbench-result/1" and (.results | length == 3) and (.devices | length > 0)
