#!/bin/sh
# `clbench report` in a real browser: headless Chromium renders the page, a
# screenshot must not be blank, and the rendered DOM must hold the charts.
set -u
clbench=$1
chromium=$(command -v chromium || command -v chromium-browser) ||
    { echo "SKIP: chromium not installed"; exit 77; }
command -v identify >/dev/null || { echo "SKIP: imagemagick not installed"; exit 77; }
. "$(dirname "$0")/../device/require.sh"
clb_require_device "$clbench"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

"$clbench" gemm -n 16,32,64 -p fp32,fp64 --runs 2 -o "$tmp/a.json" >/dev/null ||
    { echo "FAIL: clbench gemm failed"; exit 1; }
cp "$tmp/a.json" "$tmp/b.json"
"$clbench" report "$tmp/a.json" "$tmp/b.json" -o "$tmp/report.html" ||
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
for want in 'class="chart line-chart"' 'class="chart bar-chart"' '<polyline' '<circle' \
            'class="bar"' 'GFLOP/s' 'matrix size' 'class="legend"' '<table class="devices">'; do
    n=$(grep -c -F "$want" "$tmp/dom.html")
    [ "$n" -gt 0 ] || { echo "FAIL: rendered DOM lacks $want"; exit 1; }
done
# Two precisions, so two line charts.
[ "$(grep -o 'class="chart line-chart"' "$tmp/dom.html" | wc -l)" -eq 2 ] ||
    { echo "FAIL: expected a line chart for fp32 and one for fp64"; exit 1; }
echo PASS
