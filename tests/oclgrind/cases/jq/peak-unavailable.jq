[.results[] | select(.device != "host" and .status != "ok") | .precision] == ["fp16", "bf16", "int8dot"]
