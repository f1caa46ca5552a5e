all(.results[]; .status == "ok")
