# --version: the commit clbench was built from (git's 12 hex digits, -dirty in a changed tree)
# changes with every commit, and OpenBLAS's running configuration names the CPU core its
# DYNAMIC_ARCH build picked on this machine; each is normalized, the rest held as it is.
s/^(clbench [0-9]+\.[0-9]+\.[0-9]+ \(commit )[0-9a-f]{12}(-dirty)?\)$/\1COMMIT)/
s/^(  OpenBLAS .* DYNAMIC_ARCH .* )[A-Za-z0-9_]+( MAX_THREADS=[0-9]+)$/\1CORE\2/
