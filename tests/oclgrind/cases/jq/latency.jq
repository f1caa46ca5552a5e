[.results[] | .case] == ["round trip", "enqueue to start", "kernel run"] and all(.results[]; .status == "ok")
