#!/bin/sh
# CLBlast's own buffers and database on pocl:
# - its indirect GEMM on an odd size (1001, above pocl's XGEMM_MIN_INDIRECT_SIZE of 896) copies
#   A, B and C padded to its work-group tiles (32 on pocl's parameters, CLBlast's global
#   default) into one temporary buffer: 3 x 1024^2 x 4 bytes = 12 MiB, which the row reports;
# - pocl's CPU has no entry in CLBlast 1.5.3's database: the row says the vendor default ran;
# - a size whose A, B and C each fit the device's largest allocation but whose temporary
#   buffer (about the three together) does not is skipped before anything is allocated.
# Usage: clblast-temp.sh CLBENCH
set -u
clbench=$1
. "$(dirname "$0")/../device/require.sh"
clb_require_pocl "$clbench"
fail=0

row=$("$clbench" gemm -b clblast --mnk 1001,1001,1001 -p fp32 --runs 1 --no-peak -d 0:0 \
          --format json) || { echo "FAIL: gemm 1001 exited $?"; exit 1; }
kernel=$(printf '%s' "$row" | jq -r '.results[] | select(.backend == "clblast") | .status + " " + .kernel')
want="ok Xgemm; temp 12 MiB; vendor default: no CLBlast entry for this device"
[ "$kernel" = "$want" ] || { echo "FAIL: 1001^3 row: '$kernel', want '$want'"; fail=1; }

# n with n^2 x 4 bytes within the largest allocation, 3 n^2 x 4 (CLBlast's copies) over it.
max=$("$clbench" devices -d 0:0 --json | jq '.devices[0].max_alloc_bytes')
n=$(awk -v m="$max" 'BEGIN { n = int(sqrt(m * 0.8 / 4)); if (n % 2 == 0) n++; print n }')
out=$("$clbench" gemm -b clblast --mnk "$n,$n,$n" -p fp32 --runs 1 --no-peak -d 0:0 \
          --format json) || { echo "FAIL: gemm $n exited $?"; exit 1; }
printf '%s' "$out" | jq -e '[.results[] | select(.backend == "clblast")] | length == 1 and
    (.[0] | .status == "skipped" and (.reason |
     test("^clblast.s temporary buffer [(][0-9.]+ GiB[)] is over the device.s largest allocation")))' \
    >/dev/null || { echo "FAIL: ${n}^3 (largest allocation $max bytes) was not skipped for the temporary buffer:"; printf '%s\n' "$out" | jq -c '.results'; fail=1; }
[ "$fail" = 0 ] && echo "PASS: 12 MiB temporary at 1001^3, vendor default named, ${n}^3 skipped"
exit "$fail"
