# A GEMM row verified in its mode ($args: the case's m, n, k, trans, layout, offset, precision):
# the shape, the transposes, the layout, the padding, the offset.
[.results[] | select(.status != "unavailable")] | length == 1 and all(.[]; .backend == "clbench" and .status == "ok" and .verified and .verify.method == "full" and .m == $args.m and .n == $args.n and .k == $args.k and .trans == $args.trans and .layout == $args.layout and .offset == $args.offset and .precision == $args.precision)
