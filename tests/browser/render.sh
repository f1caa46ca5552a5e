#!/bin/sh
# `clbench report` in a real browser: headless Chromium renders the page, a
# screenshot must not be blank, and the rendered DOM must hold the charts.
#   render.sh CLBENCH          a fresh device run's GEMM charts (needs a device)
#   render.sh CLBENCH DATA     the fleet section of tests/data/fleet-gemm-{a,b}.json
#                              (no device): a chart per figure, each with its median
#                              line, the stragglers' bars marked; with them
#                              report-llama-h100.json: its datasheet charts and estimates;
#                              bandwidth-sweep.json: a bandwidth-by-size chart per precision
#   render.sh CLBENCH DATA layout  report-llama-h100.json (a `run --shapes`) with
#                              report-untuned.json (a `gemm --untuned`): model shapes
#                              on a chart of their own, not on the sizes' axis
# Every page is also laid out in the browser with layout.js: any text of a chart
# that runs outside its SVG or overlaps another text fails the test.
set -u
clbench=$1 data=${2:-} mode=${3:-}
chromium=$(command -v chromium || command -v chromium-browser) ||
    { echo "SKIP: chromium not installed"; exit 77; }
command -v identify >/dev/null || { echo "SKIP: imagemagick not installed"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

if [ "$mode" = layout ]; then
    set -- "$data/report-llama-h100.json" "$data/report-untuned.json"
elif [ -n "$data" ]; then
    set -- "$data/fleet-gemm-a.json" "$data/fleet-gemm-b.json" "$data/report-llama-h100.json" \
        "$data/bandwidth-sweep.json"
else
    . "$(dirname "$0")/../device/require.sh"
    clb_require_device "$clbench"
    "$clbench" gemm -n 16,32,64 -p fp32,fp64 --runs 2 -o "$tmp/a.json" >/dev/null ||
        { echo "FAIL: clbench gemm failed"; exit 1; }
    cp "$tmp/a.json" "$tmp/b.json"
    set -- "$tmp/a.json" "$tmp/b.json"
fi
"$clbench" report "$@" -o "$tmp/report.html" || { echo "FAIL: clbench report failed"; exit 1; }
# Nothing fetched: no script, stylesheet link or other address in an attribute or CSS (a
# datasheet's source may name its address as text).
grep -q -E '<script|<link|(src|href)=["'\'']?(https?:)?//|url\(' "$tmp/report.html" &&
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

# The layout as the browser makes it: layout.js, put into a copy of the page, writes what
# it finds into the DOM ("LAYOUT OK" when nothing).
awk -v js="$(dirname "$0")/layout.js" '/<\/body>/ {
    print "<script>"; while ((getline l < js) > 0) print l; print "</script>" } { print }' \
    "$tmp/report.html" >"$tmp/layout.html"
timeout 120 "$chromium" $flags --window-size=1100,1600 --dump-dom "file://$tmp/layout.html" \
    >"$tmp/layout-dom.html" 2>/dev/null
sed -n '/<pre id="layout-findings">/,/<\/pre>/p' "$tmp/layout-dom.html" | sed 's/<[^>]*>//g' \
    >"$tmp/layout.txt"
grep -q -x 'LAYOUT OK' "$tmp/layout.txt" ||
    { echo "FAIL: the charts' text does not fit:"; head -20 "$tmp/layout.txt"; exit 1; }
echo "layout: every chart's text inside its SVG, no two overlapping"
if [ "$mode" = layout ]; then
    # The square sizes on the line chart, the model's shapes (8 of them) on their own.
    [ "$(count 'class="chart line-chart"')" -eq 1 ] || { echo "FAIL: expected one line chart"; exit 1; }
    [ "$(count 'class="chart shape-chart"')" -eq 1 ] || { echo "FAIL: expected one shape chart"; exit 1; }
    [ "$(count 'class="shape-label"')" -eq 8 ] || { echo "FAIL: expected 8 shapes named"; exit 1; }
    [ "$(count 'class="chart bar-chart"')" -eq 1 ] || { echo "FAIL: expected the speedup chart"; exit 1; }
    echo PASS
    exit 0
fi
if [ -n "$data" ]; then
    # a: every figure has a straggler or a failed rank (3 charts); b: one straggler, and
    # its two other figures are headline ones (3 charts).
    [ "$(count 'class="chart fleet-chart"')" -eq 6 ] || { echo "FAIL: expected 6 fleet charts"; exit 1; }
    [ "$(count 'class="median"')" -eq 6 ] || { echo "FAIL: expected a median line per chart"; exit 1; }
    # Stragglers: a's node1 r1 (GEMM) and node2 r2 (latency), b's node2 r0 (GEMM).
    [ "$(count 'class="bar straggler"')" -eq 3 ] || { echo "FAIL: expected 3 straggler bars"; exit 1; }
    [ "$(count '>straggler</text>')" -eq 3 ] || { echo "FAIL: expected 3 straggler marks"; exit 1; }
    [ "$(count 'class="unmeasured"')" -eq 1 ] || { echo "FAIL: expected one rank drawn as failed"; exit 1; }
    # Datasheet vs measured: host CPU (peak, GEMM) and the H100-named device (peak, triad, GEMM).
    [ "$(count 'class="chart datasheet-chart"')" -eq 2 ] || { echo "FAIL: expected 2 datasheet charts"; exit 1; }
    [ "$(count 'class="bar measured"')" -eq 5 ] || { echo "FAIL: expected 5 measured bars"; exit 1; }
    [ "$(count '<table class="estimates">')" -eq 1 ] || { echo "FAIL: expected the estimates table"; exit 1; }
    # Bandwidth by array size: fp32 and fp64, a line per kernel (copy, mul, add, triad, dot,
    # read, dot chunked; "local" has no size), the caches' edge marked in fp32 only.
    [ "$(count 'class="chart sweep-chart"')" -eq 2 ] || { echo "FAIL: expected 2 bandwidth-by-size charts"; exit 1; }
    [ "$(count 'class="sweep-line"')" -eq 14 ] || { echo "FAIL: expected 7 kernel lines per chart"; exit 1; }
    [ "$(count 'class="cache-edge"')" -eq 1 ] || { echo "FAIL: expected one cache-edge marker"; exit 1; }
    [ "$(count 'class="caption sweep-finding"')" -eq 2 ] || { echo "FAIL: expected a finding per chart"; exit 1; }
    echo PASS
    exit 0
fi
for want in 'class="chart line-chart"' 'class="chart bar-chart"' '<polyline' '<circle' \
            'class="bar"' 'GFLOP/s' 'matrix size' 'class="legend"' '<table class="devices">'; do
    [ "$(count "$want")" -gt 0 ] || { echo "FAIL: rendered DOM lacks $want"; exit 1; }
done
# Two precisions, so two line charts.
[ "$(count 'class="chart line-chart"')" -eq 2 ] ||
    { echo "FAIL: expected a line chart for fp32 and one for fp64"; exit 1; }
echo PASS
