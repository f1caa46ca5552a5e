[.results[] | select(.device != "host" and .status == "ok")] | length == 25 and all(.[]; .verified and .launch.global_size == 4) and ([.[] | select(.width == 16) | .launch.chains] == [4, 2, 4, 4, 4])
