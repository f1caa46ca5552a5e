.devices[0] | has("fp64") and has("extensions")
