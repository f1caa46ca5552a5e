#!/bin/sh
# `clbench report` of two fleet files (tests/data/fleet-*.json, no device needed)
# in headless Chromium: the page renders, and the rendered DOM holds a fleet chart
# per figure, the stragglers' bars marked and each chart's median line.
set -u
clbench=$1
data=$2
chromium=$(command -v chromium || command -v chromium-browser) ||
    { echo "SKIP: chromium not installed"; exit 77; }
command -v identify >/dev/null || { echo "SKIP: imagemagick not installed"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

"$clbench" report "$data/fleet-gemm-a.json" "$data/fleet-gemm-b.json" -o "$tmp/report.html" ||
    { echo "FAIL: clbench report failed"; exit 1; }
grep -q -E '<script|https?://' "$tmp/report.html" &&
    { echo "FAIL: the page is not self-contained"; exit 1; }

flags="--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --user-data-dir=$tmp/profile"
timeout 120 "$chromium" $flags --window-size=1100,1600 --screenshot="$tmp/shot.png" \
    "file://$tmp/report.html" >/dev/null 2>&1
timeout 120 "$chromium" $flags --dump-dom "file://$tmp/report.html" >"$tmp/dom.html" 2>/dev/null
[ -s "$tmp/shot.png" ] || { echo "FAIL: no screenshot"; exit 1; }

colors=$(identify -format '%k' "$tmp/shot.png")
echo "screenshot: $(identify -format '%wx%h' "$tmp/shot.png"), $colors colours"
[ "$colors" -ge 16 ] || { echo "FAIL: the screenshot is (nearly) blank"; exit 1; }
count() { grep -o -F "$1" "$tmp/dom.html" | wc -l; }
# a: every figure has a straggler or a failed rank (3 charts); b: one straggler, and
# its two other figures are headline ones (3 charts).
[ "$(count 'class="chart fleet-chart"')" -eq 6 ] || { echo "FAIL: expected 6 fleet charts"; exit 1; }
[ "$(count 'class="median"')" -eq 6 ] || { echo "FAIL: expected a median line per chart"; exit 1; }
# Stragglers: a's node1 r1 (GEMM) and node2 r2 (latency), b's node2 r0 (GEMM).
[ "$(count 'class="bar straggler"')" -eq 3 ] || { echo "FAIL: expected 3 straggler bars"; exit 1; }
[ "$(count '>straggler</text>')" -eq 3 ] || { echo "FAIL: expected 3 straggler marks"; exit 1; }
[ "$(count 'class="unmeasured"')" -eq 1 ] || { echo "FAIL: expected one rank drawn as failed"; exit 1; }
echo PASS
