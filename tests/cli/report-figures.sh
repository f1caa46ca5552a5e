#!/bin/sh
# `clbench report`'s "Datasheet vs measured" bars and "Estimates" table hold the
# figures the other commands give for the same files:
#   - a fresh `peak` and `bandwidth` of a device the datasheet hook names an
#     H100: one bar per headline figure (best width per precision, triad), its
#     percent 100 x figure / the row's datasheet value, its figure and value;
#   - DATA/report-llama-h100.json (a `run --shapes llama-2-7b --context 16`):
#     each device's row of the table as `fit --model llama-2-7b --context 16
#     --from` that file computes it (JSON), formatted as fit's table does.
# Usage: report-figures.sh CLBENCH DATA
set -u
clbench=$1 data=$2
. "$(dirname "$0")/../device/require.sh"
clb_require_device "$clbench"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"

CLBENCH_FAKE_DEVICE_NAME="NVIDIA H100 PCIe" "$clbench" peak --min-time 0 --runs 1 -d 0:0 \
    -o "$tmp/peak.json" >/dev/null || fail "peak"
# The last-level cache below the arrays (hook), so they are held against DRAM on any machine.
CLBENCH_FAKE_DEVICE_NAME="NVIDIA H100 PCIe" CLBENCH_FAKE_LLC_BYTES=1M \
    "$clbench" bandwidth --min-time 0 --runs 1 \
    --bytes 1000003 -d 0:0 -o "$tmp/bw.json" >/dev/null || fail "bandwidth"
"$clbench" report "$tmp/peak.json" "$tmp/bw.json" -o "$tmp/ds.html" || fail "report"

# The bars the files call for: figure, datasheet (or derived peak) value, unit; formatted as
# the page has them.
for f in peak bw; do
    jq -r '.results[] | (.datasheet // .derived_peak) as $d | select($d and .status == "ok" and
             ((.benchmark == "peak" and .headline) or
              (.benchmark == "bandwidth" and (.case | test("^fp(32|64) triad$")))))
           | [.[.metric], $d.value, (if .metric == "gbps" then "GB/s" else "GFLOP/s" end)]
           | @tsv' "$tmp/$f.json"
done | awk -F '\t' '{
    pct = 100 * $1 / $2
    printf(pct >= 1 ? "%.1f%%" : "%.2g%%", pct)
    printf("\t%.4g of ", $1)
    printf($2 >= 1e4 ? "%.0f" : "%.4g", $2)
    printf(" %s\n", $3)
}' >"$tmp/want.tsv"
[ -s "$tmp/want.tsv" ] || fail "no row of the runs has a datasheet figure"
# The page's bars: percent, then "VALUE of DATASHEET UNIT".
sed -n 's/.*<text class="percent"[^>]*>\([^<]*\)<\/text><text [^>]*>\([^<]*\)<\/text>$/\1\t\2/p' \
    "$tmp/ds.html" >"$tmp/got.tsv"
cmp -s "$tmp/want.tsv" "$tmp/got.tsv" ||
    { echo "FAIL: the bars differ from the files' figures (want, got):"; cat "$tmp/want.tsv";
      echo ---; cat "$tmp/got.tsv"; exit 1; }
[ "$(grep -c 'class="chart datasheet-chart"' "$tmp/ds.html")" -ge 2 ] ||
    fail "expected a chart per file's device"

# The estimates table against fit --from's figures for the same file.
file=$data/report-llama-h100.json
"$clbench" fit --model llama-2-7b --context 16 --from "$file" --format json >"$tmp/fit.json" ||
    fail "fit --from"
"$clbench" report "$file" -o "$tmp/est.html" || fail "report of $file"
jq -r '.speed.devices[] | [.device_name, .backend // "", .precision // "",
       .inputs.prefill_gflops, .inputs.bandwidth_gbps, .prefill_tokens_per_s // 0,
       .decode_tokens_per_s // 0] | @tsv' "$tmp/fit.json" | awk -F '\t' '{
    rate = "-"; pre = "-"; bw = "-"; dec = "-"; backend = "-"
    if ($4 > 0) {
        rate = sprintf($4 >= 1000 ? "%.2f TFLOP/s" : $4 >= 100 ? "%.1f GFLOP/s" : "%.2f GFLOP/s",
                       $4 >= 1000 ? $4 / 1000 : $4)
        pre = sprintf("%.3g", $6); backend = $2 " " $3
    }
    if ($5 > 0) { bw = sprintf("%.4g GB/s", $5); dec = sprintf("&lt;= %.3g", $7) }
    printf("<tr><td>%s</td><td class=\"num\">%s</td><td>%s</td><td class=\"num\">%s</td>" \
           "<td class=\"num\">%s</td><td class=\"num\">%s</td></tr>\n", $1, rate, backend, pre, bw, dec)
}' >"$tmp/want-rows.txt"
[ "$(wc -l <"$tmp/want-rows.txt")" -eq 2 ] || fail "fit --from gives $(wc -l <"$tmp/want-rows.txt") devices, expected 2"
sed -n '/<table class="estimates">/,/<\/table>/p' "$tmp/est.html" | grep '^<tr><td>' >"$tmp/got-rows.txt"
cmp -s "$tmp/want-rows.txt" "$tmp/got-rows.txt" ||
    { echo "FAIL: the estimates differ from fit --from's (want, got):"; cat "$tmp/want-rows.txt";
      echo ---; cat "$tmp/got-rows.txt"; exit 1; }
echo PASS
