#!/bin/sh
# Runs one golden case and holds what it printed against the recorded output, byte for byte.
# Usage: run.sh CASES NAME CLBENCH CLBENCH_MANUAL [--record]
#
# CASES (tests/golden/cases) holds one case a line: NAME, then flags, then the arguments as
# shell words ('...' quotes one with spaces; no $ or backquote):
#   @rc=N         exit status N (default 0)
#   @env=VAR=VAL  set VAR for the command; repeatable
#   @no-platform  OCL_ICD_VENDORS is an empty folder: no OpenCL platform
#   @pocl         pocl's ICD alone (OCL_ICD_VENDORS a folder with its .icd file); skip (77)
#                 without it or without a device on it
#   @filter=NAME  filters/NAME.sed (sed -E) rewrites stdout, stderr and the file first: the
#                 live figures a fixed input cannot pin (each filter says which)
#   @manual       run CLBENCH_MANUAL (the man page and completion writer), not clbench
#   @file=FILE    the command writes FILE too; it is held like stdout
# The command runs in a fresh folder holding a link to every file of tests/data, so a case
# names its inputs by their bare names and its outputs print no machine's paths.
# expected/NAME.out, NAME.err and NAME.file are what stdout, stderr and FILE must be; a
# missing one means empty (or, for FILE, not written). --record writes them instead (after
# running the case twice and refusing an output that differs between the two runs):
#   meson test -C BUILD --suite golden --test-args=--record
set -u
[ $# -ge 4 ] || { echo "usage: run.sh CASES NAME CLBENCH CLBENCH_MANUAL [--record]" >&2; exit 99; }
cases=$1 name=$2 clbench=$3 manual=$4 mode=${5:-check}
here=$(cd "$(dirname "$cases")" && pwd) || exit 99
data=$(cd "$here/../data" && pwd) || exit 99
expected=$here/expected
case "$clbench" in /*) ;; *) clbench=$PWD/$clbench ;; esac
case "$manual" in /*) ;; *) manual=$PWD/$manual ;; esac

line=$(awk -v n="$name" '$1 == n { sub(/^[ \t]*[^ \t]+[ \t]*/, ""); print; c++ } END { exit c != 1 }' "$cases") ||
    { echo "FAIL: $cases has no single case named $name"; exit 99; }
case "$line" in *'$'* | *'`'*) echo "FAIL: case $name holds \$ or a backquote"; exit 99 ;; esac

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/work" "$tmp/got"
for f in "$data"/*; do ln -s "$f" "$tmp/work/"; done

eval "set -- $line"
rc_want=0 prog=$clbench filter= file= pocl=0
while [ $# -gt 0 ]; do
    case "$1" in
        @rc=*) rc_want=${1#@rc=} ;;
        @env=*) export "${1#@env=}" ;;
        @no-platform) mkdir -p "$tmp/vendors"; export OCL_ICD_VENDORS="$tmp/vendors" ;;
        @pocl) pocl=1 ;;
        @filter=*) filter=$here/filters/${1#@filter=}.sed
                   [ -f "$filter" ] || { echo "FAIL: no filter $filter"; exit 99; } ;;
        @manual) prog=$manual ;;
        @file=*) file=${1#@file=} ;;
        @*) echo "FAIL: case $name: unknown flag $1"; exit 99 ;;
        *) break ;;
    esac
    shift
done

if [ $pocl -eq 1 ]; then
    mkdir -p "$tmp/vendors"
    for icd in /etc/OpenCL/vendors/*.icd; do
        grep -q pocl "$icd" 2>/dev/null && cp "$icd" "$tmp/vendors/"
    done
    ls "$tmp/vendors"/*.icd >/dev/null 2>&1 || { echo "SKIP: no pocl ICD in /etc/OpenCL/vendors"; exit 77; }
    export OCL_ICD_VENDORS="$tmp/vendors"
    "$clbench" devices --format json 2>/dev/null </dev/null | jq -e '.devices | length > 0' >/dev/null 2>&1 ||
        { echo "SKIP: no device on pocl"; exit 77; }
fi

keep() { # RAW DEST: DEST is RAW filtered
    if [ -n "$filter" ]; then sed -E -f "$filter" "$1" >"$2"; else cp "$1" "$2"; fi
}
once() { # DIR ARGS...: the case once; DIR gets out, err, file (if written) and rc
    d=$1; shift
    mkdir -p "$d"
    (cd "$tmp/work" && { [ -z "$file" ] || rm -f -- "$file"; } &&
        exec "$prog" "$@" >"$tmp/raw.out" 2>"$tmp/raw.err" </dev/null)
    echo $? >"$d/rc"
    keep "$tmp/raw.out" "$d/out"
    keep "$tmp/raw.err" "$d/err"
    if [ -n "$file" ] && [ -f "$tmp/work/$file" ]; then keep "$tmp/work/$file" "$d/file"; fi
}

echo "\$ ${prog##*/} $*"
once "$tmp/got" "$@"
rc=$(cat "$tmp/got/rc")
echo "exit $rc, expected $rc_want"
fail=0
[ "$rc" -eq "$rc_want" ] || { echo "FAIL: exit status $rc, expected $rc_want"; fail=1; }
[ "$rc" -lt 128 ] || { echo "FAIL: killed by a signal"; fail=1; }
grep -q -E 'AddressSanitizer|runtime error:|LeakSanitizer' "$tmp/raw.err" && { echo "FAIL: sanitizer report"; fail=1; }

if [ "$mode" = --record ]; then
    [ $fail -eq 0 ] || { cat "$tmp/got/err"; exit 1; }
    once "$tmp/again" "$@"
    for part in out err file; do
        if [ -f "$tmp/got/$part" ] || [ -f "$tmp/again/$part" ]; then
            cmp -s "$tmp/got/$part" "$tmp/again/$part" ||
                { echo "FAIL: $part differs between two runs: not recorded"; exit 1; }
        fi
    done
    for part in out err file; do
        if [ -s "$tmp/got/$part" ]; then cp "$tmp/got/$part" "$expected/$name.$part"
        else rm -f "$expected/$name.$part"; fi
    done
    [ -z "$file" ] || [ -f "$tmp/got/file" ] || { echo "FAIL: $file was not written"; exit 1; }
    echo "RECORDED $(cd "$expected" && ls "$name".* 2>/dev/null | tr '\n' ' ')"
    exit 0
fi

for part in out err file; do
    want=$expected/$name.$part
    got=$tmp/got/$part
    if [ "$part" = file ] && [ -n "$file" ]; then
        [ -f "$got" ] || { echo "FAIL: $file was not written"; fail=1; continue; }
    fi
    [ -f "$want" ] || want=/dev/null
    [ -f "$got" ] || got=/dev/null
    if ! cmp -s "$want" "$got"; then
        echo "FAIL: $part differs from ${want#"$here"/}: $(cmp "$want" "$got" 2>&1 | head -n 1)"
        diff -u "$want" "$got" | head -n 60
        fail=1
    fi
done
[ $fail -eq 0 ] && echo PASS
exit $fail
