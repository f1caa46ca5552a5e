#!/bin/sh
# A run killed before it finishes never leaves a half-written result where a
# good one was: -o writes a temporary file and renames it into place.
set -u
clbench=$1
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

echo '{"previous": "result"}' >"$tmp/r.json"
cp "$tmp/r.json" "$tmp/before.json"
"$clbench" gemm -b openblas -n 256 --min-time 60 -o "$tmp/r.json" >/dev/null 2>&1 &
pid=$!
sleep 1
kill -KILL $pid
wait $pid 2>/dev/null
cmp -s "$tmp/r.json" "$tmp/before.json" || { echo "FAIL: the previous result was damaged"; exit 1; }
[ "$(ls "$tmp" | wc -l)" -eq 2 ] || { echo "FAIL: files left behind: $(ls "$tmp")"; exit 1; }
# And a run that completes replaces it whole.
"$clbench" gemm -b openblas -n 16 --runs 1 -o "$tmp/r.json" >/dev/null 2>&1 || { echo "FAIL: run"; exit 1; }
jq -e '.schema == "clbench-result/1" and .complete' "$tmp/r.json" >/dev/null || { echo "FAIL: new file"; exit 1; }
echo PASS
