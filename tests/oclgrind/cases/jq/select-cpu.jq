([.results[] | .device_name] | unique | length == 2) and ([.results[] | .device_name] | index("Oclgrind Simulator")) != null and all(.results[]; .status == "ok")
