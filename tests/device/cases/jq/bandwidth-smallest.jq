(.results | length == 8) and all(.results[]; .status == "ok")
