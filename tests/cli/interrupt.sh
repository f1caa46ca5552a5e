#!/bin/sh
# Ctrl-C during a long run: clbench stops after the call in flight, writes
# what it measured to the -o file (valid JSON, marked incomplete), exits 130.
set -u
clbench=$1
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

"$clbench" gemm -b openblas -n 64,128 --min-time 60 -o "$tmp/r.json" >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 2
kill -INT $pid
start=$(date +%s)
wait $pid
rc=$?
took=$(( $(date +%s) - start ))
cat "$tmp/err"
[ $rc -eq 130 ] || { echo "FAIL: exit status $rc, expected 130"; exit 1; }
[ $took -le 10 ] || { echo "FAIL: took ${took}s to stop"; exit 1; }
jq -e '.complete == false and .interrupted_by == "Interrupt" and (.results | length) >= 1
       and (.results[0].times_s | length) >= 1 and .results[0].status == "ok"' "$tmp/r.json" ||
    { echo "FAIL: the -o file does not hold the measured, incomplete results"; exit 1; }
grep -q 'interrupted' "$tmp/err" || { echo "FAIL: no word on stderr"; exit 1; }
ls "$tmp" | grep -q 'r.json.' && { echo "FAIL: temporary file left"; exit 1; }
echo PASS
