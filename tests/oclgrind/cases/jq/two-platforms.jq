([.platforms[].name] | sort) == ["Oclgrind", "Portable Computing Language"] and ([.devices[].name] | index("Oclgrind Simulator")) != null and (.devices | length >= 2)
