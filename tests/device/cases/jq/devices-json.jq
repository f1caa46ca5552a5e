(.devices | length > 0) and (.devices[0].global_mem_bytes > 0) and (.devices[0].max_alloc_bytes > 0) and (.platforms | length > 0)
