#!/bin/sh
# The launcher of the oclgrind suite's cases (tests/oclgrind/cases, run by tests/cli/expect.sh
# as any case, these words before clbench): runs one clbench command line on Oclgrind, the
# simulator that checks every memory access, and fails on any diagnostic it raises.
#
# Usage: run.sh [--device-name NAME | --any-device] CLBENCH ARGS...
#        run.sh --require CLBENCH   skip (exit 77, one line why) where Oclgrind is not installed
#                                   or CLBENCH lists no Oclgrind device with it; else 0
#                                   (expect.sh --needs-oclgrind)
#        run.sh --scan FILE         exit 1 when FILE holds an Oclgrind diagnostic, else 0
#   --device-name NAME  every device row names NAME (default: Oclgrind Simulator):
#                       each of .results[] but the host's, or each of .devices[]
#   --any-device        no check of the rows' device (a listing of every platform)
# An argument @OCLGRIND@ becomes Oclgrind's P:D as clbench lists it.
#
# clbench's stdout and stderr pass through, for the case's checks; its exit status is run.sh's
# when every check of this launcher holds, else 99 with the failed checks on stderr, first.
#
# Oclgrind's ICD (Debian's package: /usr/lib/oclgrind/liboclgrind-rt-icd.so) is
# loaded with clbench's own --icd, as a user loads a driver no .icd file registers;
# the case skips (77) where it is not installed. The checks Oclgrind runs come from
# the case's environment (tests/oclgrind/cases: OCLGRIND_CHECK_API,
# OCLGRIND_DATA_RACES, OCLGRIND_UNINITIALIZED); out-of-bounds and invalid accesses
# are always checked. Oclgrind writes its diagnostics to OCLGRIND_LOG (a file of
# this run's own here) and some to stderr; the run fails when that log holds
# anything, when stderr holds a line of Oclgrind's formats (clb_oclgrind_scan), when
# stdout is not JSON or a device row names another device, or when TMPDIR (a folder
# of this run's own) is left with a file in it.
set -u

# The lines Oclgrind writes: its checkers' messages (MemCheck: "Invalid read of size",
# "Invalid write", "Dereferencing NULL pointer"; RaceDetector: "Read-write data race";
# Uninitialized: "Uninitialized value ...", "Controlflow depends on uninitialized
# value", "Uninitialized address"), the API checker's "Oclgrind - OpenCL runtime error
# detected" block, the location lines under every message ("Kernel:", "Entity:"), the
# "Oclgrind: N errors generated" summary, a fatal error and barrier divergence.
clb_oclgrind_re='Invalid (read|write)|NULL pointer|data race|[Uu]ninitiali[sz]ed (value|address)|Controlflow depends|OpenCL runtime error|^[[:space:]]*(Kernel|Entity): |^Oclgrind( -|:)|OCLGRIND FATAL|[Dd]ivergence'

clb_oclgrind_scan() { # FILE: 0 when it holds no diagnostic
    ! grep -q -E "$clb_oclgrind_re" "$1"
}

# Sets icd (Oclgrind's ICD) and id (its P:D in CLBENCH's listing: the ICD loader orders
# platforms), or says why not and exits 77.
clb_oclgrind_find() { # CLBENCH
    icd=
    for f in /usr/lib/oclgrind/liboclgrind-rt-icd.so /usr/lib/x86_64-linux-gnu/liboclgrind-rt-icd.so \
        /usr/local/lib/liboclgrind-rt-icd.so; do
        [ -r "$f" ] && { icd=$f; break; }
    done
    [ -n "$icd" ] || { echo "SKIP: Oclgrind is not installed (no liboclgrind-rt-icd.so)"; exit 77; }
    id=$("$1" devices --json --icd "$icd" </dev/null 2>/dev/null |
        jq -r '[.devices[] | select(.name == "Oclgrind Simulator") | .id][0] // empty')
    [ -n "$id" ] || { echo "SKIP: clbench lists no Oclgrind device with --icd $icd"; exit 77; }
}

case "${1:-}" in
    --scan)
        [ -r "${2:-}" ] || { echo "run.sh --scan: cannot read ${2:-}" >&2; exit 99; }
        clb_oclgrind_scan "$2"
        exit $? ;;
    --require)
        [ $# -eq 2 ] || { echo "run.sh: usage: --require CLBENCH" >&2; exit 99; }
        clb_oclgrind_find "$2"
        exit 0 ;;
esac

name='Oclgrind Simulator' any=0
while [ $# -gt 0 ]; do
    case "$1" in
        --device-name) name=$2; shift 2 ;;
        --any-device) any=1; shift ;;
        -*) echo "run.sh: unknown check $1" >&2; exit 99 ;;
        *) break ;;
    esac
done
[ $# -ge 1 ] || { echo "run.sh: usage: run.sh [CHECKS] CLBENCH ARGS..." >&2; exit 99; }
clbench=$1
shift
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
clb_oclgrind_find "$clbench" >&2

mkdir "$tmp/tmpdir"
n=$#
while [ $n -gt 0 ]; do
    a=$1
    shift
    [ "$a" = @OCLGRIND@ ] && a=$id
    set -- "$@" "$a"
    n=$((n - 1))
done
export TMPDIR="$tmp/tmpdir" OCLGRIND_LOG="$tmp/oclgrind.log"
t0=$(date +%s.%N)
"$clbench" "$@" --icd "$icd" >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
t1=$(date +%s.%N)

fail=0
bad() { echo "run.sh: FAIL: $*" >&2; fail=1; }
if [ -s "$OCLGRIND_LOG" ]; then
    bad "Oclgrind reported (OCLGRIND_LOG, first 40 lines):"
    head -n 40 "$OCLGRIND_LOG" >&2
fi
if ! clb_oclgrind_scan "$tmp/err"; then
    bad "Oclgrind reported on stderr (first 40 lines):"
    head -n 40 "$tmp/err" >&2
fi
if ! jq -e . "$tmp/out" >/dev/null 2>&1; then
    bad "stdout is not JSON"
elif [ $any -eq 0 ] && ! jq -e --arg n "$name" \
    'if has("results") then [.results[] | select(.device != "host") | .device_name]
     else [.devices[].name] end | length > 0 and all(. == $n)' "$tmp/out" >/dev/null; then
    bad "not every device row names '$name' (or there is none): $(jq -c \
        '[.results[]? | select(.device != "host") | .device_name] + [.devices[]?.name] | unique' "$tmp/out")"
fi
left=$(find "$TMPDIR" -mindepth 1 | head -n 5)
[ -z "$left" ] && [ -d "$TMPDIR" ] || bad "left in TMPDIR: $left"
cat "$tmp/out"
cat "$tmp/err" >&2
echo "run.sh: ran in $(echo "$t1 - $t0" | bc) s on Oclgrind: clbench $* --icd $icd" >&2
[ $fail -eq 0 ] || exit 99
exit $rc
