#!/bin/sh
# Why clbench builds int8dot with -cl-std=CL3.0: with cl_khr_integer_dot_product and its 4x8-bit
# features on, clang (what pocl and Intel's NEO compile OpenCL C with) declares the extension's
# built-ins only in OpenCL C 3.0 mode. kernels/peak.cl's int8dot kernel, with the build options
# src/bench/peak.c passes, must fail in the default 1.2 mode for want of the built-in, and build
# in 3.0, in both its forms (packed and uchar4). Skips (77) without clang.
# Usage: int8dot-std.sh SOURCE_ROOT
set -u
root=$1
cc=
for c in clang-15 clang-19 clang; do
    if command -v "$c" >/dev/null 2>&1; then cc=$c; break; fi
done
[ -n "$cc" ] || { echo "skip: no clang"; exit 77; }
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
fail=0
ext=+cl_khr_integer_dot_product,+__opencl_c_integer_dot_product_input_4x8bit_packed,+__opencl_c_integer_dot_product_input_4x8bit
compile() { # STD FORM: the kernel for a SPIR target, its messages in $out
    "$cc" -target spir64 -cl-std="$1" -Xclang -finclude-default-header -Xclang -cl-ext="$ext" \
        -DT=uint -DWIDTH=1 -DITERS=1024 -DT_IS_DOT -D"$2" \
        -c -emit-llvm -o /dev/null -x cl "$root/kernels/peak.cl" >"$out" 2>&1
}
for form in DOT_PACKED:dot_acc_sat_4x8packed_uu_uint DOT_VECTOR:dot_acc_sat; do
    define=${form%%:*} builtin=${form#*:}
    if compile CL1.2 "$define"; then
        echo "FAIL: $cc built int8dot ($define) in OpenCL C 1.2: the built-ins are declared there"
        fail=1
    elif ! grep -q "undeclared identifier '$builtin'" "$out"; then
        echo "FAIL: $cc refused int8dot ($define) in OpenCL C 1.2, but not for want of $builtin:"
        cat "$out"
        fail=1
    fi
    if ! compile CL3.0 "$define"; then
        echo "FAIL: $cc did not build int8dot ($define) with -cl-std=CL3.0:"
        cat "$out"
        fail=1
    fi
done
[ "$fail" = 0 ] && echo "ok: $cc: int8dot fails in OpenCL C 1.2 (built-ins undeclared), builds in 3.0"
exit "$fail"
