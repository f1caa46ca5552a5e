# shellcheck shell=sh disable=SC2154 # $tmp: the sourcing script's
# Shell helpers shared by the test scripts (tests/*/) and the benchmarks (ci/bench-*), which
# source it: `. "$(dirname "$0")/../lib.sh"` from a test, `. "$root/tests/lib.sh"` from ci/
# (as they source tests/hermetic.sh: the tests' helpers live with the tests).

# fail MESSAGE...: prints "FAIL: MESSAGE" and exits 1. Where the script keeps what the failed
# command printed in $tmp/out and $tmp/err and sets clb_fail_lines (a count, or all), that
# much of both follows, lines matching the extended regex $clb_fail_skip left out; then
# clb_fail_more, where the script defines it (daemons' logs, say).
fail() {
    echo "FAIL: $*"
    if [ -n "${clb_fail_lines-}" ]; then
        cat "$tmp/out" "$tmp/err" 2>/dev/null | {
            if [ -n "${clb_fail_skip-}" ]; then grep -v -E -e "$clb_fail_skip"; else cat; fi
        } | { if [ "$clb_fail_lines" = all ]; then cat; else head -n "$clb_fail_lines"; fi; }
    fi
    if command -v clb_fail_more >/dev/null 2>&1; then clb_fail_more; fi
    exit 1
}

# clb_run SECONDS COMMAND...: COMMAND killed after SECONDS, its stdout in $tmp/out and its
# stderr in $tmp/err; its exit status (124 when it ran out of time).
clb_run() {
    _clb_limit=$1
    shift
    timeout "$_clb_limit" "$@" >"$tmp/out" 2>"$tmp/err"
}

# median: the median of the numbers on stdin, one a line (the mean of the middle two of an
# even count); sort -g reads 1e-05 as the number it is.
median() {
    sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
