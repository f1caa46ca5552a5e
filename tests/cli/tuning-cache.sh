#!/bin/sh
# Tuned parameters are applied only when they are this device's: a valid
# cache entry shows as "clbench (tuned)"; a corrupt file, another device or
# another CLBlast version gives a warning and the defaults.
set -u
clbench=$1
. "$(dirname "$0")/../device/require.sh"
clb_require_device "$clbench"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
export CLBENCH_TUNING_FILE="$tmp/tuning.json"

dev=$("$clbench" devices --json -d 0:0) || { echo "SKIP: no OpenCL device"; exit 77; }
name=$(printf '%s' "$dev" | jq -r '.devices[0].name')
driver=$(printf '%s' "$dev" | jq -r '.devices[0].driver_version')
clblast=$("$clbench" gemm -b clblast -n 8 --no-peak --format json | jq -r '.libraries.clblast.version')
version=$("$clbench" --version | cut -d' ' -f2)

cache() { # DEVICE CLBLAST
    jq -n --arg d "$1" --arg r "$driver" --arg c "$2" --arg v "$version" \
        '{schema: "clbench-tuning/1", entries: [{device: $d, driver: $r, clblast: $c, clbench: $v,
          kernel: "clbench-gemm", precision: "fp32", gflops: 1.0,
          params: {TM: 4, TN: 8, LX: 4, LY: 2, KC: 64}}]}' >"$CLBENCH_TUNING_FILE"
}
gemm() { "$clbench" gemm -d 0:0 -b clbench -n 33,130 --runs 1 --no-peak >"$tmp/out" 2>"$tmp/err"; }
fail() { echo "FAIL: $*"; cat "$tmp/out" "$tmp/err"; exit 1; }

cache "$name" "$clblast"
gemm || fail "gemm with a valid cache"
grep -qE 'clbench \(tuned\) +fp32 +130x130x130 .* OK' "$tmp/out" || fail "valid entry not applied"
[ ! -s "$tmp/err" ] || fail "warnings with a valid cache"

echo '{"schema": "clbench-tuning/1", "entr' >"$CLBENCH_TUNING_FILE"
gemm || fail "gemm with a corrupt cache"
grep -q 'warning: ignoring the tuning cache' "$tmp/err" || fail "no warning for a corrupt cache"
grep -q '(tuned)' "$tmp/out" && fail "corrupt cache applied"

cache "Some Other Device" "$clblast"
gemm || fail "gemm with another device's cache"
grep -q 'other devices only' "$tmp/err" || fail "no warning for another device"
grep -q '(tuned)' "$tmp/out" && fail "another device's tuning applied"

cache "$name" "0.0.1"
gemm || fail "gemm with another CLBlast's cache"
grep -q 'made with CLBlast 0.0.1' "$tmp/err" || fail "no warning for another CLBlast version"
grep -q '(tuned)' "$tmp/out" && fail "another CLBlast version's tuning applied"
echo PASS
