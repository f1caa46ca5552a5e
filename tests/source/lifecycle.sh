#!/bin/sh
# One lifecycle (src/commands/runner.h): the fleet's lifecycle calls live in
# src/commands/runner.c, src/commands/fleet.c and src/mpi/ only, and gemm_main
# stays a short call of the runner (under 60 lines).
# Usage: lifecycle.sh SOURCE_ROOT
set -u
root=${1:?usage: lifecycle.sh SOURCE_ROOT}
status=0
calls='clb_fleet_(enter|enter_world|leave|agree|plan|step|signal|emit|selection|gather_text|abort)\(|clb_mpi_fleet\(|clb_mpi_abort_fleet\('
hits=$(cd "$root" && grep -rnE "$calls" src --include=*.c |
       grep -vE '^src/commands/(runner|fleet)\.c:|^src/mpi/')
if [ -n "$hits" ]; then
    echo "FAIL: a fleet lifecycle call outside runner.c, fleet.c and src/mpi/ (give it a hook):"
    echo "$hits"
    status=1
fi
lines=$(awk '/^static int gemm_main\(/ { on = 1 } on { n++ } on && /^}/ { print n; exit }' \
        "$root/src/commands/gemm.c")
if [ -z "$lines" ] || [ "$lines" -ge 60 ]; then
    echo "FAIL: gemm_main is ${lines:-not found} lines, expected under 60"
    status=1
fi
[ $status = 0 ] && echo "ok: fleet calls in runner.c, fleet.c and src/mpi/; gemm_main $lines lines"
exit $status
