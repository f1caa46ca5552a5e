(.results | length == 16) and all(.results[]; .status == "ok")
