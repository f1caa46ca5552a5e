#!/bin/sh
# Files no fixture can hold: a huge one (sparse, 300 MiB), a deeply nested
# one, NaN and Infinity (not JSON), a FIFO. Each: one line naming the file, exit 2.
set -u
clbench=$1
good=$(dirname "$0")/../data/pocl-gemm-256.json
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
status=0

truncate -s 300M "$tmp/huge.json"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; for (i = 0; i < 100000; i++) printf "]" }' >"$tmp/deep.json"
sed 's/"gflops": [0-9.e+-]*/"gflops": NaN/' "$good" >"$tmp/nan.json"
sed 's/"gflops": [0-9.e+-]*/"gflops": Infinity/' "$good" >"$tmp/inf.json"
mkfifo "$tmp/fifo.json"

for f in huge deep nan inf fifo; do
    for cmd in compare report; do
        "$clbench" $cmd "$good" "$tmp/$f.json" >"$tmp/out" 2>"$tmp/err" </dev/null
        rc=$?
        msg=$(cat "$tmp/err")
        if [ $rc -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || [ -s "$tmp/out" ] ||
           ! grep -q "$f.json" "$tmp/err" || grep -q -E 'Sanitizer|runtime error' "$tmp/err"; then
            echo "FAIL: $cmd $f.json: exit $rc, stderr: $msg"
            status=1
        else
            echo "ok: $cmd $f.json: $msg"
        fi
    done
done
[ $status -eq 0 ] && echo PASS
exit $status
