#!/bin/sh
# docs/result-schema.md against a real result file: every field written is
# documented, and every field documented as "always" is written.
set -u
clbench=$1 doc=$2
. "$(dirname "$0")/../device/require.sh"
clb_require_device "$clbench"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

# Every kind of row: GEMM (with end-to-end times), peak and bandwidth (run), GEMM of a
# model's layer (--shapes), transfer and latency, and an int32 peak.
# A device name the datasheet table knows (test hook), for the "datasheet" fields.
CLBENCH_FAKE_DEVICE_NAME="NVIDIA H100 PCIe" \
    "$clbench" run -n 24 -p fp32,fp16 --runs 2 --transfers -o "$tmp/r.json" >/dev/null &&
"$clbench" gemm --shapes phi-3-mini --context 2 -b clbench --runs 1 --no-peak \
    -o "$tmp/s.json" >/dev/null &&
"$clbench" gemm --mnk 9,7,5 --trans NT --layout col --ld 1 --offset 2 -b clbench --runs 1 \
    --no-peak -o "$tmp/g.json" >/dev/null &&
"$clbench" transfer --sizes 4K --runs 1 --min-time 0 -o "$tmp/t.json" >/dev/null &&
"$clbench" latency --runs 1 --min-time 0 -o "$tmp/l.json" >/dev/null &&
"$clbench" peak --runs 1 --min-time 0 -o "$tmp/p.json" >/dev/null ||
    { echo "FAIL: a clbench command failed"; exit 1; }
# A collective row, from a lone process (a world of one rank), where built with
# MPI; under sanitizers without leak checks (tests/mpi/collective.sh says why).
files="r s g t l p"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:detect_leaks=0}" \
    "$clbench" collective --op allreduce --sizes 8 --runs 1 -o "$tmp/c.json" >/dev/null \
    2>"$tmp/c.err"
case $? in
    0) files="$files c" ;;
    *) grep -q 'built without MPI' "$tmp/c.err" ||
           { echo "FAIL: clbench collective failed"; cat "$tmp/c.err"; exit 1; } ;;
esac
# A fleet file: two ranks of Open MPI's mpirun on this machine, where built with MPI.
if [ "${files% c}" != "$files" ] && mpirun --version 2>/dev/null | grep -q 'Open MPI'; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 POCL_MAX_PTHREAD_COUNT=1 \
    OMPI_MCA_btl_vader_single_copy_mechanism=none \
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:detect_leaks=0}" \
        timeout 120 mpirun --oversubscribe -np 2 "$clbench" gemm -n 24 -b openblas,clbench \
        --runs 1 --no-peak -o "$tmp/f.json" >/dev/null 2>"$tmp/f.err" ||
        { echo "FAIL: a fleet run failed"; cat "$tmp/f.err"; exit 1; }
    files="$files f"
fi
for f in $files; do
    jq -r '[paths | map(if type == "number" then "[]" else . end) | join(".")
            | gsub("\\.\\[\\]"; "[]")] | unique[]' "$tmp/$f.json"
done | grep -v '^devices\[\]\.unavailable\.' | sort -u >"$tmp/written"
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
