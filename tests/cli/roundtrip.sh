#!/bin/sh
# A file written by `clbench gemm -o` reads back: compare against itself
# gives ratio 1 everywhere, and report renders it.
set -u
clbench=$1
. "$(dirname "$0")/../device/require.sh"
clb_require_device "$clbench"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

"$clbench" gemm -n 16,40 -p fp32,fp64 --runs 2 -o "$tmp/r.json" >/dev/null || { echo "FAIL: gemm"; exit 1; }
"$clbench" compare "$tmp/r.json" "$tmp/r.json" --format json >"$tmp/c.json" || { echo "FAIL: compare"; exit 1; }
jq -e '([.rows[] | select(.benchmark == "gemm")] | length) == 12 and all(.rows[]; .ratios == [1, 1])
       and all(.geomeans[]; .geomean == 1)' "$tmp/c.json" >/dev/null ||
    { echo "FAIL: compare r.json r.json is not 1.00 everywhere"; cat "$tmp/c.json"; exit 1; }
"$clbench" compare "$tmp/r.json" "$tmp/r.json" | grep -Eq '\((≈)?1\.00x\)' || { echo "FAIL: table"; exit 1; }
# Each row's "config" as written equals the one derived for a file without it
# (files written before "config" existed): every row pairs, both ways round.
"$clbench" peak -v --runs 1 --min-time 0 -o "$tmp/p.json" >/dev/null || { echo "FAIL: peak"; exit 1; }
"$clbench" bandwidth --bytes 4M --runs 2 --min-time 0 -o "$tmp/b.json" >/dev/null || { echo "FAIL: bandwidth"; exit 1; }
for f in r p b; do
    jq 'del(.results[].config)' "$tmp/$f.json" >"$tmp/$f-old.json" || exit 99
    n=$(jq '.results | length' "$tmp/$f.json")
    for pair in "$f.json $f-old.json" "$f-old.json $f.json"; do
        set -- $pair
        "$clbench" compare "$tmp/$1" "$tmp/$2" --format json >"$tmp/c.json" ||
            { echo "FAIL: compare $1 $2"; exit 1; }
        jq -e --argjson n "$n" '(.rows | length) == $n and .unpaired == []' "$tmp/c.json" >/dev/null ||
            { echo "FAIL: compare $1 $2: a written config differs from the derived one"; cat "$tmp/c.json"; exit 1; }
    done
done
"$clbench" report "$tmp/r.json" -o "$tmp/r.html" || { echo "FAIL: report"; exit 1; }
grep -q '<svg class="chart line-chart"' "$tmp/r.html" || { echo "FAIL: no chart"; exit 1; }
echo PASS
