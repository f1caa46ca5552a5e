map(select(.name == "llama-3-8b"))[0].kv_heads == 8
