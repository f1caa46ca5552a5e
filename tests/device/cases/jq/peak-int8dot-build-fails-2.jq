[.results[] | select(.precision == "fp32" and .device != "host")] | length == 5 and all(.[]; .status == "ok")
