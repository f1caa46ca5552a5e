all(.results[]; .status == "ok" and (.times_s | add) >= 0.05)
