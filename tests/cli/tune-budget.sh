#!/bin/sh
# `clbench tune` keeps to its budget (plus one candidate per backend and
# size), spreads it over the sizes asked for, and stores per size only a
# verified, confirmed winner (or that the built-in choice won), with every
# stored value a valid one.
set -u
clbench=$1
. "$(dirname "$0")/../device/require.sh"
clb_require_device "$clbench"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
export CLBENCH_TUNING_FILE="$tmp/tuning.json"

start=$(date +%s)
"$clbench" tune -d 0:0 --only clbench --size 64,128 --budget 8s --runs 1 --format json >"$tmp/out" ||
    { echo "FAIL: tune failed"; exit 1; }
took=$(( $(date +%s) - start ))
echo "tune took ${took}s"
[ "$took" -le 40 ] || { echo "FAIL: an 8 s budget took ${took}s"; exit 1; }
jq -e '[.searches[].size] == [64, 128] and all(.searches[]; .precision == "fp32" and
    .budget_s > 0 and (.trials | length >= 1 and all(.[]; .status == "ok" or .reason != null)))' \
    "$tmp/out" >/dev/null || { echo "FAIL: searches"; cat "$tmp/out"; exit 1; }
# The budget rule, held to each search's own clock (its budget_s share, setup_s and
# every trial's seconds; the time between trials is not in them, so each sum is at most
# what the search saw): a candidate after the first starts only while the time spent
# plus the longest candidate yet fits in the share; the first always runs. So the
# search stops after the first only when setup + 2 x that first's time spent the share
# (a slow or loaded machine, where compiling a candidate takes seconds), and stops
# before the candidates run out only when one more would not have fit (10 % for what
# the trials' own clocks leave out). Whichever way the machine's speed takes it, the
# output must agree with the rule.
jq -e 'all(.searches[]; [.trials[].seconds] as $s | ($s | length) as $n |
    (.outcomes[] | select(.backend == "clbench")) as $o |
    if $n == 1 then
        ($o.note | test("^budget spent after the built-in choice")) and
        ($s[0] * 2 + .setup_s >= 0.9 * .budget_s)
    else
        (.setup_s + ($s[:-1] | add) + ($s[:-1] | max) <= .budget_s + 0.01) and
        (if ($o.note // "" | test("before the budget ran out"))
         then .setup_s + ($s | add) + ($s | max) >= 0.9 * .budget_s else true end)
    end)' "$tmp/out" >/dev/null ||
    { echo "FAIL: a search broke the budget rule"; jq -c '.searches[] | {size, budget_s,
      setup_s, trials: [.trials[].seconds], notes: [.outcomes[].note]}' "$tmp/out"; exit 1; }
# Each stored entry is its size's confirmed winner: the best's parameters with
# the lower of its two figures at least 3% above the higher of the built-in
# choice's, or no parameters when the built-in choice won after others ran.
for size in 64 128; do
    s=$(jq -c --argjson n "$size" '.searches[] | select(.size == $n) | .outcomes[] |
        select(.backend == "clbench")' "$tmp/out")
    entries=$(jq -c --argjson n "$size" '[.entries[]? | select(.size == $n)]' \
        "$CLBENCH_TUNING_FILE" 2>/dev/null || echo '[]')
    if [ "$(printf '%s' "$s" | jq '.stored and .builtin_won')" = true ]; then
        jq -n -e --argjson e "$entries" --argjson s "$s" '$e | length == 1 and
            (.[0] | .kernel == "clbench-gemm" and .params == {} and $s.trials >= 2)' >/dev/null ||
            { echo "FAIL: built-in entry for $size"; echo "$entries"; exit 1; }
    elif [ "$(printf '%s' "$s" | jq '.stored')" = true ]; then
        jq -n -e --argjson e "$entries" --argjson s "$s" '$e | length == 1 and
            (.[0] | .kernel == "clbench-gemm" and
            (.params | keys == if .VARIANT == 0 then ["KC", "LX", "LY", "NV", "TM", "VARIANT", "VW"]
                                else ["KW", "LX", "LY", "NV", "TM", "VARIANT", "VW"] end) and
            .gflops == ([$s.best_gflops, $s.confirm_best_gflops] | min) and
            .default_gflops == ([$s.default_gflops, $s.confirm_default_gflops] | max) and
            .gflops >= 1.03 * .default_gflops)' >/dev/null ||
            { echo "FAIL: stored entry for $size is not the confirmed best"; echo "$entries"; exit 1; }
    else
        [ "$entries" = '[]' ] || { echo "FAIL: entry for $size not reported stored"; exit 1; }
    fi
done
echo PASS
