(.results | length == 8) and all(.results[]; .status == "ok" and (.times_s | add) >= 0.2 and (.times_s | length) > 1)
