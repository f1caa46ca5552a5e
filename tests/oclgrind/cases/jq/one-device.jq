[.results[] | .device] | unique | length == 1
