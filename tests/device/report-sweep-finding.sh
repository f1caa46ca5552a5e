#!/bin/sh
# report's "Bandwidth by array size" finding is bandwidth's own: the same words and figures
# as the SWEEP line under the table of the same fresh --sizes run.
# Usage: report-sweep-finding.sh CLBENCH REQUIRE_SH
set -u
. "$2"
clb_require_device "$1"
t=$(mktemp -d) || exit 99
trap 'rm -rf "$t"' EXIT
"$1" bandwidth --min-time 0 --sizes 64K,1M,16M --runs 2 -p fp32 -d 0:0 -o "$t/s.json" \
    >"$t/table" || { echo "FAIL: bandwidth"; exit 1; }
"$1" report "$t/s.json" -o "$t/r.html" || { echo "FAIL: report"; exit 1; }
table=$(sed -n 's/^SWEEP: .* fp32 triad: //p' "$t/table")
page=$(sed -n 's|^<p class="caption sweep-finding">fp32 triad: \(.*\)</p>$|\1|p' "$t/r.html")
echo "table: $table"
echo "page:  $page"
[ -n "$table" ] && [ "$table" = "$page" ] || { echo "FAIL: the page says otherwise"; exit 1; }
case $table in
caches\ help*) grep -q -F "<title>fp32 triad: $table</title>" "$t/r.html" || { echo "FAIL: no marker"; exit 1; } ;;
*) ! grep -q 'class="cache-edge"' "$t/r.html" || { echo "FAIL: a marker without an edge"; exit 1; } ;;
esac
echo PASS
