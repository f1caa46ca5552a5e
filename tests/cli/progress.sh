#!/bin/sh
# Progress lines go to stderr only when it is a terminal: under a pseudo-
# terminal (script) they appear; piped, stderr stays quiet.
set -u
clbench=$1
command -v script >/dev/null || { echo "SKIP: script (util-linux) not installed"; exit 77; }
out=$(script -qec "$clbench gemm -b openblas -n 16,24 --runs 1" /dev/null) ||
    { echo "FAIL: clbench failed"; echo "$out"; exit 1; }
echo "$out"
echo "$out" | grep -q -E '^\[1/2\] gemm fp32 16x16x16 host CPU \(openblas\) \.\.\. [0-9.]+ s' ||
    { echo "FAIL: no progress line on a terminal"; exit 1; }
# Only progress is held back: a note (OpenBLAS's core on a CPU it does not know) still shows.
err=$("$clbench" gemm -b openblas -n 16 --runs 1 2>&1 >/dev/null)
! echo "$err" | grep -q -E '\[[0-9]+/[0-9]+\] .*\.\.\.' || { echo "FAIL: progress written to a pipe: $err"; exit 1; }
echo PASS
