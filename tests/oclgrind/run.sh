#!/bin/sh
# Runs one clbench command line on Oclgrind, the simulator that checks every
# memory access, and fails on any diagnostic it raises.
#
# Usage: run.sh CLBENCH [CHECKS...] -- ARGS...
#        run.sh --scan FILE     exit 1 when FILE holds an Oclgrind diagnostic, else 0
#   --rc N              exit status must be N (default 0)
#   --jq FILTER         jq -e FILTER on stdout must be true; repeatable
#   --device-name NAME  every device row names NAME (default: Oclgrind Simulator):
#                       each of .results[] but the host's, or each of .devices[]
#   --any-device        no check of the rows' device (a listing of every platform)
# An argument @OCLGRIND@ becomes Oclgrind's P:D as clbench lists it.
#
# Oclgrind's ICD (Debian's package: /usr/lib/oclgrind/liboclgrind-rt-icd.so) is
# loaded with clbench's own --icd, as a user loads a driver no .icd file registers;
# the test skips (77) where it is not installed. The checks Oclgrind runs come from
# the test's environment (tests/oclgrind/meson.build: OCLGRIND_CHECK_API,
# OCLGRIND_DATA_RACES, OCLGRIND_UNINITIALIZED); out-of-bounds and invalid accesses
# are always checked. Oclgrind writes its diagnostics to OCLGRIND_LOG (a file of
# this run's own here) and some to stderr; the test fails when that log holds
# anything, when stderr holds a line of Oclgrind's formats (clb_oclgrind_scan), when
# the exit status or a filter is wrong, or when TMPDIR (a folder of this run's own)
# is left with a file in it.
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

if [ "${1:-}" = --scan ]; then
    [ -r "${2:-}" ] || { echo "run.sh --scan: cannot read ${2:-}" >&2; exit 99; }
    clb_oclgrind_scan "$2"
    exit $?
fi

clbench=$1
shift
rc_want=0 name='Oclgrind Simulator' any=0
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/jq"
nf=0
while [ $# -gt 0 ]; do
    case "$1" in
        --rc) rc_want=$2; shift 2 ;;
        --jq) nf=$((nf + 1)); printf '%s' "$2" >"$tmp/jq/$nf"; shift 2 ;;
        --device-name) name=$2; shift 2 ;;
        --any-device) any=1; shift ;;
        --) shift; break ;;
        *) echo "run.sh: unknown check $1" >&2; exit 99 ;;
    esac
done

icd=
for f in /usr/lib/oclgrind/liboclgrind-rt-icd.so /usr/lib/x86_64-linux-gnu/liboclgrind-rt-icd.so \
    /usr/local/lib/liboclgrind-rt-icd.so; do
    [ -r "$f" ] && { icd=$f; break; }
done
[ -n "$icd" ] || { echo "SKIP: Oclgrind is not installed (no liboclgrind-rt-icd.so)"; exit 77; }

mkdir "$tmp/tmpdir"
# @OCLGRIND@ in ARGS: Oclgrind's P:D in this run's listing (the ICD loader orders platforms).
id=$("$clbench" devices --json --icd "$icd" </dev/null 2>/dev/null |
    jq -r '[.devices[] | select(.name == "Oclgrind Simulator") | .id][0] // empty')
[ -n "$id" ] || { echo "SKIP: clbench lists no Oclgrind device with --icd $icd"; exit 77; }
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
echo "ran in $(echo "$t1 - $t0" | bc) s: clbench $* --icd $icd"

fail=0
bad() { echo "FAIL: $*"; fail=1; }
[ "$rc" = "$rc_want" ] || bad "exit status $rc, expected $rc_want"
if [ -s "$OCLGRIND_LOG" ]; then
    bad "Oclgrind reported (OCLGRIND_LOG, first 40 lines):"
    head -n 40 "$OCLGRIND_LOG"
fi
if ! clb_oclgrind_scan "$tmp/err"; then
    bad "Oclgrind reported on stderr (first 40 lines):"
    head -n 40 "$tmp/err"
fi
if ! jq -e . "$tmp/out" >/dev/null 2>&1; then
    bad "stdout is not JSON"
else
    if [ $any -eq 0 ] && ! jq -e --arg n "$name" \
        'if has("results") then [.results[] | select(.device != "host") | .device_name]
         else [.devices[].name] end | length > 0 and all(. == $n)' "$tmp/out" >/dev/null; then
        bad "not every device row names '$name' (or there is none): $(jq -c \
            '[.results[]? | select(.device != "host") | .device_name] + [.devices[]?.name] | unique' "$tmp/out")"
    fi
    i=0
    while [ $i -lt $nf ]; do
        i=$((i + 1))
        f=$(cat "$tmp/jq/$i")
        jq -e "$f" "$tmp/out" >/dev/null || bad "jq filter false: $f"
    done
fi
left=$(find "$TMPDIR" -mindepth 1 | head -n 5)
[ -z "$left" ] && [ -d "$TMPDIR" ] || bad "left in TMPDIR: $left"
if [ $fail -ne 0 ]; then
    echo "--- stderr (last 20 lines)"
    tail -n 20 "$tmp/err"
    echo "--- stdout (first 2000 bytes)"
    head -c 2000 "$tmp/out"
    echo
fi
exit $fail
