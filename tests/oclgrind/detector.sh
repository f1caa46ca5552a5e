#!/bin/sh
# run.sh's detector against Oclgrind's own words: each tests/data/oclgrind-diag-*.txt (the
# log of a real run on a kernel broken on purpose: an out-of-bounds read, a data race, an
# uninitialized value, an API error) must be caught, and oclgrind-clean-*.txt (clbench's
# stderr of clean runs) must not.
# Usage: detector.sh RUN.SH DATA_DIR
set -u
run=$1 data=$2
fail=0 n=0
tmp=$(mktemp) || exit 99
trap 'rm -f "$tmp"' EXIT
for f in "$data"/oclgrind-diag-*.txt; do
    [ -e "$f" ] || continue
    n=$((n + 1))
    sh "$run" --scan "$f"
    [ $? -eq 1 ] || { echo "FAIL: the diagnostic in ${f##*/} was not caught"; fail=1; }
    # Its first line alone too (the message, without the location lines under it).
    grep -m 1 . "$f" >"$tmp"
    sh "$run" --scan "$tmp"
    [ $? -eq 1 ] || { echo "FAIL: the first line of ${f##*/} was not caught: $(cat "$tmp")"; fail=1; }
done
[ $n -ge 4 ] || { echo "FAIL: $n diagnostic samples, expected at least 4"; fail=1; }
for f in "$data"/oclgrind-clean-*.txt; do
    sh "$run" --scan "$f" || { echo "FAIL: ${f##*/} (no diagnostic) was taken for one"; fail=1; }
done
[ $fail -eq 0 ] && echo "detector: $n diagnostics caught, clean stderr passed"
exit $fail
