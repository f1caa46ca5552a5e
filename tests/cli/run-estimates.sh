#!/bin/sh
# `run --shapes MODEL` ends with what its figures mean for the model: the
# estimates `fit --from` gives for the file the same run wrote, row for row,
# with the formulas, at the same context (the file's: fit is given none);
# without --shapes there are none.
set -u
clbench=$1
. "$(dirname "$0")/../device/require.sh"
clb_require_device "$clbench"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

"$clbench" run --shapes phi-3-mini --context 16 --runs 1 -b openblas,clbench -d 0:0 -o "$tmp/r.json" --price 0:0=2 \
    >"$tmp/run.txt" 2>"$tmp/run.err" || { echo "FAIL: run"; cat "$tmp/run.txt" "$tmp/run.err"; exit 1; }
# --price names what it priced; pocl's device (named after the host's CPU, as pocl names
# its device) and the host's rows are one CPU, priced under one name only: a warning.
grep -q "^clbench run: note: --price '0:0=2' prices .* (0:0)$" "$tmp/run.err" ||
    { echo "FAIL: no note of what --price priced"; cat "$tmp/run.err"; exit 1; }
if jq -e '.host.cpu as $c | .devices[0] | .type == "CPU" and (.name | contains($c))' "$tmp/r.json" >/dev/null; then
    grep -q "^clbench run: warning: .* (0:0) and host CPU (host) are the same CPU, .*, but only the first has a price" "$tmp/run.err" ||
        { echo "FAIL: no warning of the host CPU unpriced"; cat "$tmp/run.err"; exit 1; }
fi
"$clbench" fit --model phi-3-mini --from "$tmp/r.json" --price 0:0=2 >"$tmp/fit.txt" ||
    { echo "FAIL: fit --from"; cat "$tmp/fit.txt"; exit 1; }
grep -q '^Estimates at context 16, batch 1, from the figures measured in this run (upper bounds' "$tmp/run.txt" ||
    { echo "FAIL: run prints no estimates at context 16"; cat "$tmp/run.txt"; exit 1; }
grep -q "^Estimates at context 16, batch 1, from the figures measured in $tmp/r.json (upper bounds" "$tmp/fit.txt" ||
    { echo "FAIL: fit --from's estimates are not at the file's context 16"; cat "$tmp/fit.txt"; exit 1; }
# The table and formulas after the heading, in both.
sed -n '/^Estimates at/,/^training time/p' "$tmp/run.txt" | tail -n +2 >"$tmp/run-est.txt"
sed -n '/^Estimates at/,/^training time/p' "$tmp/fit.txt" | tail -n +2 >"$tmp/fit-est.txt"
[ "$(wc -l <"$tmp/run-est.txt")" -ge 6 ] || { echo "FAIL: short estimates"; cat "$tmp/run.txt"; exit 1; }
grep -Eq ' clbench fp32 +[0-9.]+ GFLOP/s +[0-9.]+ +[0-9.]+ GB/s +<= [0-9.]+ ' "$tmp/run-est.txt" ||
    { echo "FAIL: no device row with prefill and decode"; cat "$tmp/run-est.txt"; exit 1; }
cmp -s "$tmp/run-est.txt" "$tmp/fit-est.txt" ||
    { echo "FAIL: run's estimates differ from fit --from on its file"; diff "$tmp/run-est.txt" "$tmp/fit-est.txt"; exit 1; }
# The costs at the same price: of the same timed calls, from the structs and from the file.
sed -n '/^Costs at/,/^USD per million/p' "$tmp/run.txt" | tail -n +2 >"$tmp/run-cost.txt"
sed -n '/^Costs at/,/^USD per million/p' "$tmp/fit.txt" | tail -n +2 >"$tmp/fit-cost.txt"
grep -Eq '^pthread.* [$]2\.00/h +[0-9.]+ m?s +[$][0-9.e-]+ +[$][0-9.,]+ +[$][0-9.,]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$' "$tmp/run-cost.txt" ||
    { echo "FAIL: no cost row"; cat "$tmp/run.txt"; exit 1; }
cmp -s "$tmp/run-cost.txt" "$tmp/fit-cost.txt" ||
    { echo "FAIL: run's costs differ from fit --from on its file"; diff "$tmp/run-cost.txt" "$tmp/fit-cost.txt"; exit 1; }
"$clbench" run -n 64 --runs 1 -b clbench -d 0:0 --no-peak >"$tmp/plain.txt" || { echo "FAIL: run -n"; exit 1; }
if grep -q '^Estimates' "$tmp/plain.txt"; then echo "FAIL: estimates without --shapes"; exit 1; fi
echo PASS
