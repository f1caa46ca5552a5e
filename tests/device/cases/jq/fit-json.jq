.estimate.weights_bytes == 14000000000 and .estimate.kv_cache_bytes == null and (.devices[0] | has("fits") and has("headroom_bytes"))
