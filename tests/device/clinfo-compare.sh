#!/bin/sh
# `clbench devices --json` against `clinfo --raw`, device by device: compute
# units, global memory and largest allocation must be the same numbers.
set -u
clbench=$1

command -v clinfo >/dev/null || { echo "SKIP: clinfo not installed"; exit 77; }
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
. "$(dirname "$0")/require.sh"
clb_require_device "$clbench"
json=$("$clbench" devices --json) || { echo "SKIP: no OpenCL device ($?)"; exit 77; }
raw=$(clinfo --raw) || { echo "FAIL: clinfo failed"; exit 1; }

n=$(printf '%s' "$json" | jq '.devices | length')
[ "$n" -gt 0 ] || { echo "SKIP: no OpenCL device"; exit 77; }
status=0
for i in $(seq 0 $((n - 1))); do
    id=$(printf '%s' "$json" | jq -r ".devices[$i].id")
    p=${id%%:*} d=${id##*:}
    for pair in CL_DEVICE_MAX_COMPUTE_UNITS:compute_units \
                CL_DEVICE_GLOBAL_MEM_SIZE:global_mem_bytes \
                CL_DEVICE_MAX_MEM_ALLOC_SIZE:max_alloc_bytes \
                CL_DEVICE_MAX_CLOCK_FREQUENCY:max_clock_mhz; do
        param=${pair%%:*} key=${pair##*:}
        # clinfo --raw: "[PLATFORM/D]   PARAM   VALUE"; platform P is the (P+1)-th platform
        # block, so take the D-th device line of that parameter in platform order.
        want=$(printf '%s\n' "$raw" | awk -v param="$param" '$2 == param { print $3 }' |
               sed -n "$((i + 1))p")
        got=$(printf '%s' "$json" | jq -r ".devices[$i].$key")
        echo "$id $key: clbench $got, clinfo $want"
        [ "$got" = "$want" ] || { echo "FAIL: $id $key differs"; status=1; }
    done
done
[ $status -eq 0 ] && echo PASS
exit $status
