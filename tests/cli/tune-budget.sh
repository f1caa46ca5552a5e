#!/bin/sh
# `clbench tune` keeps to its budget (plus one candidate) and stores only a
# verified configuration, with every stored value a valid one.
set -u
clbench=$1
. "$(dirname "$0")/../device/require.sh"
clb_require_device "$clbench"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
export CLBENCH_TUNING_FILE="$tmp/tuning.json"

start=$(date +%s)
"$clbench" tune -d 0:0 --only clbench --size 128 --budget 8s --runs 1 --format json >"$tmp/out" ||
    { echo "FAIL: tune failed"; exit 1; }
took=$(( $(date +%s) - start ))
echo "tune took ${took}s"
[ "$took" -le 40 ] || { echo "FAIL: an 8 s budget took ${took}s"; exit 1; }
jq -e '.devices[0].trials | length >= 2 and all(.[]; .status == "ok" or .reason != null)' \
    "$tmp/out" >/dev/null || { echo "FAIL: trials"; cat "$tmp/out"; exit 1; }
if [ -f "$CLBENCH_TUNING_FILE" ]; then
    best=$(jq '.devices[0].clbench_best_gflops' "$tmp/out")
    jq -e --argjson b "$best" '.entries | length == 1 and .[0].gflops == $b and
        (.[0].params | keys == ["KC", "LX", "LY", "TM", "TN"])' "$CLBENCH_TUNING_FILE" >/dev/null ||
        { echo "FAIL: stored entry is not the verified best"; exit 1; }
fi
echo PASS
