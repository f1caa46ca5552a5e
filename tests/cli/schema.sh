#!/bin/sh
# docs/result-schema.md against a real result file: every field written is
# documented, and every field documented as "always" is written.
set -u
clbench=$1 doc=$2
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

"$clbench" gemm -n 24 -p fp32,fp16 --runs 2 --transfers -o "$tmp/r.json" >/dev/null ||
    { echo "FAIL: clbench gemm failed"; exit 1; }
jq -r '[paths | map(if type == "number" then "[]" else . end) | join(".")
        | gsub("\\.\\[\\]"; "[]")] | unique[]' "$tmp/r.json" |
    grep -v '^devices\[\]\.unavailable\.' >"$tmp/written"
grep '^| `' "$doc" | sed 's/^| `\([^`]*\)`.*/\1/' | sort -u >"$tmp/documented"
grep '^| `' "$doc" | awk -F'|' '$4 ~ /always/ { print $2 }' | tr -d ' `' | sort -u >"$tmp/required"

status=0
undocumented=$(comm -23 "$tmp/written" "$tmp/documented")
missing=$(comm -13 "$tmp/written" "$tmp/required")
[ -z "$undocumented" ] || { echo "FAIL: written but not in $doc:"; echo "$undocumented"; status=1; }
[ -z "$missing" ] || { echo "FAIL: documented as always, not written:"; echo "$missing"; status=1; }
echo "$(wc -l <"$tmp/written") fields written, $(wc -l <"$tmp/documented") documented"
[ $status -eq 0 ] && echo PASS
exit $status
