([.results[] | .case] == (["copy", "mul", "add", "triad", "dot", "read", "dot chunked"] | map("fp32 " + . + " 4 KiB")) + ["fp32 local"]) and all(.results[]; .status == "ok" and .verified)
