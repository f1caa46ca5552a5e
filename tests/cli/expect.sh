#!/bin/sh
# Runs one clbench command line and checks what a user would see.
# Usage: expect.sh [CHECKS...] -- CLBENCH [ARGS...]
#        expect.sh --case FILE INDEX NAME BUILD_ROOT CLBENCH
#   the second runs record INDEX (named NAME) of the case file FILE, whose fields are these
#   checks, the arguments and the environment (tests/case.jq turns it into this command line)
#   --rc N            exit status must be N (default 0)
#   --out RE          stdout must match the extended regex RE (grep -E); repeatable,
#                     every one must match
#   --no-out RE       stdout must not match RE; repeatable
#   --err RE          stderr must match RE; repeatable
#   --no-err RE       stderr must not match RE; repeatable
#   --err-once RE     exactly one line of stderr matches RE; repeatable
#   --one-line-error  stderr is exactly one line starting with "clbench"
#   --no-stdout       stdout must be empty (nothing that looks like a result)
#   --no-stderr       stderr must be empty
#   --json            stdout must be valid JSON (jq)
#   --jq FILTER       jq -e FILTER on stdout must be true; repeatable, every one must hold
#   --jq-file FILE    the same, the filter read from FILE
#   --jq-file-args FILE JSON  the same, $args bound to JSON in the filter (one filter file for
#                     several cases, each with its own values)
#   --file-jq F FILTER  file F must exist (written by the command) and jq -e FILTER on it be true
#   --file-jq-file F FILE  the same, the filter read from FILE
#   --no-platform     run with OCL_ICD_VENDORS pointing at an empty folder
#   --needs-device    skip (exit 77, one line why) when clbench lists no OpenCL device
#   --needs-pocl      skip (exit 77) when clbench lists no pocl device
#   --needs-oclgrind  skip (exit 77) when Oclgrind is not installed or clbench lists no device
#                     with it (tests/oclgrind/run.sh --require)
#   --clbench PATH    the clbench a --needs check probes (default: the command's first word; a
#                     command with a launcher before clbench names it)
set -u

# A case's environment is set before anything runs (TMPDIR, say, is one of them).
if [ "${1-}" = --case ]; then
    [ $# -eq 6 ] || { echo "expect.sh: usage: --case FILE INDEX NAME BUILD_ROOT CLBENCH" >&2; exit 99; }
    tests=$(cd "$(dirname "$0")/.." && pwd) || exit 99
    words=$(jq -r --arg index "$3" --arg name "$4" --arg build "$5" --arg clbench "$6" \
        --arg tests "$tests" --arg jqdir "$(dirname "$2")/jq" -f "$tests/case.jq" "$2") || exit 99
    eval "$words"
fi

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/out_res"
: >"$tmp/err_res"
: >"$tmp/no_out_res"
: >"$tmp/no_err_res"
: >"$tmp/err_once_res"
: >"$tmp/jq_res"
rc_want=0 one_line=0 no_stdout=0 no_stderr=0 json=0 no_platform=0 needs=
file= file_filter= probe=
while [ $# -gt 0 ]; do
    case "$1" in
        --rc) rc_want=$2; shift 2 ;;
        --out) printf '%s\n' "$2" >>"$tmp/out_res"; shift 2 ;;
        --no-out) printf '%s\n' "$2" >>"$tmp/no_out_res"; shift 2 ;;
        --err) printf '%s\n' "$2" >>"$tmp/err_res"; shift 2 ;;
        --no-err) printf '%s\n' "$2" >>"$tmp/no_err_res"; shift 2 ;;
        --err-once) printf '%s\n' "$2" >>"$tmp/err_once_res"; shift 2 ;;
        --one-line-error) one_line=1; shift ;;
        --no-stdout) no_stdout=1; shift ;;
        --no-stderr) no_stderr=1; shift ;;
        --json) json=1; shift ;;
        --jq) json=1; printf '%s\0' "$2" >>"$tmp/jq_res"; shift 2 ;;
        --jq-file) json=1; f=$(cat "$2") || exit 99; printf '%s\0' "$f" >>"$tmp/jq_res"; shift 2 ;;
        --jq-file-args) json=1; f=$(cat "$2") || exit 99
            printf '(%s) as $args |\n%s\0' "$3" "$f" >>"$tmp/jq_res"; shift 3 ;;
        --file-jq) file=$2; file_filter=$3; shift 3 ;;
        --file-jq-file) file=$2; file_filter=$(cat "$3") || exit 99; shift 3 ;;
        --no-platform) no_platform=1; shift ;;
        --needs-device) needs=device; shift ;;
        --needs-pocl) needs=pocl; shift ;;
        --needs-oclgrind) needs=oclgrind; shift ;;
        --clbench) probe=$2; shift 2 ;;
        --) shift; break ;;
        *) echo "expect.sh: unknown check $1" >&2; exit 99 ;;
    esac
done

if [ "$needs" = oclgrind ]; then
    sh "$(dirname "$0")/../oclgrind/run.sh" --require "${probe:-$1}" || exit $?
elif [ -n "$needs" ]; then
    . "$(dirname "$0")/../device/require.sh"
    clb_require_$needs "${probe:-$1}"
fi
if [ $no_platform -eq 1 ]; then
    mkdir "$tmp/vendors"
    export OCL_ICD_VENDORS="$tmp/vendors"
fi

[ -n "$file" ] && rm -f "$file"
"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
echo "\$ $*  (exit $rc)"
echo "--- stdout"; head -c 4000 "$tmp/out"
echo "--- stderr"; head -c 4000 "$tmp/err"

. "$(dirname "$0")/../lib.sh" # fail

[ "$rc" -eq "$rc_want" ] || fail "exit status $rc, expected $rc_want"
[ $rc -lt 128 ] || fail "killed by a signal"
grep -q -E 'AddressSanitizer|runtime error:|LeakSanitizer' "$tmp/err" && fail "sanitizer report"
while IFS= read -r re; do
    grep -q -E -- "$re" "$tmp/out" || fail "stdout lacks /$re/"
done <"$tmp/out_res"
while IFS= read -r re; do
    if grep -q -E -- "$re" "$tmp/out"; then fail "stdout matches /$re/"; fi
done <"$tmp/no_out_res"
while IFS= read -r re; do
    grep -q -E -- "$re" "$tmp/err" || fail "stderr lacks /$re/"
done <"$tmp/err_res"
while IFS= read -r re; do
    if grep -q -E -- "$re" "$tmp/err"; then fail "stderr matches /$re/"; fi
done <"$tmp/no_err_res"
while IFS= read -r re; do
    [ "$(grep -c -E -- "$re" "$tmp/err")" -eq 1 ] || fail "stderr has not exactly one line matching /$re/"
done <"$tmp/err_once_res"
if [ $one_line -eq 1 ]; then
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "stderr is not exactly one line"
    head -n1 "$tmp/err" | grep -q '^clbench' || fail "stderr does not start with 'clbench'"
fi
if [ $no_stdout -eq 1 ]; then [ ! -s "$tmp/out" ] || fail "stdout is not empty"; fi
if [ $no_stderr -eq 1 ]; then [ ! -s "$tmp/err" ] || fail "stderr is not empty"; fi
if [ $json -eq 1 ]; then
    # jq -e on empty input succeeds: an empty stdout must not pass a JSON check.
    [ -s "$tmp/out" ] || fail "stdout is empty, JSON expected"
    jq -e . "$tmp/out" >/dev/null || fail "stdout is not valid JSON"
    # Filters are NUL-separated: one may span lines.
    n=$(tr -cd '\0' <"$tmp/jq_res" | wc -c)
    i=1
    while [ "$i" -le "$n" ]; do
        f=$(tr '\0\n' '\n\001' <"$tmp/jq_res" | sed -n "${i}p" | tr '\001' '\n')
        jq -e "$f" "$tmp/out" >/dev/null || fail "jq '$f' is not true"
        i=$((i + 1))
    done
fi
if [ -n "$file" ]; then
    [ -f "$file" ] || fail "$file was not written"
    [ -s "$file" ] || fail "$file is empty"
    case "$file" in
        *.json) jq -e "$file_filter" "$file" >/dev/null || fail "jq '$file_filter' on $file is not true" ;;
        *) jq -R -s -e "$file_filter" "$file" >/dev/null || fail "jq -R '$file_filter' on $file is not true" ;;
    esac
    ls "$file".* 2>/dev/null | grep -q . && fail "a temporary file was left beside $file"
    rm -f "$file"
fi
echo PASS
