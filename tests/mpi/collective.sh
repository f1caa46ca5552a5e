#!/bin/sh
# `clbench collective` as ranks of mpirun on this machine (pocl, one thread
# per rank). Modes:
#   verified NP BUFFERS  every operation at 1, 3 and 1000003 floats on NP
#                        (2 or 3) ranks: one row each (allgather's and
#                        reduce-scatter's 1 and 3 round to one shape), every
#                        one verified on every rank, busbw = algbw x
#                        nccl-tests' factor
#   error                a device error on one rank (test hook) ends each
#                        row as an error naming the rank, on every rank
#                        together: exit 1, no hang
#   fail                 a rank whose result is wrong (test hook) fails its
#                        rows, named by rank, and the run exits 1
#   kill                 a rank killed mid-run ends the run, non-zero, well
#                        within the timeout: never a hang
# Usage: collective.sh CLBENCH MPIRUN MODE [ARGS]
set -u
clbench=$1 mpirun=$2 mode=$3
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
export POCL_MAX_PTHREAD_COUNT=1 OMPI_MCA_rmaps_base_oversubscribe=1
# Root in CI containers; a shared-memory transport without ptrace permission.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
# Under the sanitize setup: Open MPI unloads its components at MPI_Finalize
# and leaves their allocations behind, which LeakSanitizer can then neither
# name nor suppress; leak checking is off for these runs (ASan and UBSan stay).
[ -z "${ASAN_OPTIONS:-}" ] || export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"
. "$(dirname "$0")/../lib.sh"
# shellcheck disable=SC2034 # read by fail (tests/lib.sh)
clb_fail_lines=40

run() { # NP [clbench args...]: mpirun with a hard limit
    np=$1
    shift
    clb_run 120 "$mpirun" --oversubscribe -np "$np" "$clbench" collective "$@"
}

case $mode in
verified)
    np=$4 buffers=$5
    if [ "$buffers" = device ]; then
        . "$(dirname "$0")/../device/require.sh"
        clb_require_device "$clbench"
        extra=
    else
        extra=--host-buffers
    fi
    run "$np" --sizes 4,12,4000012 --runs 2 --warmup 1 $extra -o "$tmp/r.json" ||
        fail "collective on $np ranks exited $?"
    jq -e --argjson n "$np" --arg b "$buffers" '
        def factor: if startswith("allreduce") then 2 * ($n - 1) / $n
                    elif startswith("allgather") or startswith("reduce-scatter") then ($n - 1) / $n
                    else 1 end;
        (.results | length == 13 and all(.[];
            .benchmark == "collective" and .backend == "mpi" and .ranks == $n and
            .status == "ok" and .verified and
            .config == {ranks: $n, buffers: $b, bytes_per_call: .work_per_call} and
            (.gbps - .algbw_gbps * (.case | factor) | fabs) <= 1e-9 * .algbw_gbps + 1e-12 and
            (if $b == "device" then .path_median_s >= .time.median_s else .path_median_s == null end)))
        and ([.results[].case] | map(split(" ")[0]) | unique | length == 5)
        # Bytes moved: whole floats, split ops in n equal parts of at least one.
        and all(.results[]; . as $r | (.case | split(" ")[0]) as $op
            | [4, 12, 4000012] | map(if $op == "allgather" or $op == "reduce-scatter"
                                     then ([(. / 4 / $n | floor), 1] | max) * $n * 4 else . end)
            | any(.[]; . == $r.work_per_call))' \
        "$tmp/r.json" >/dev/null || fail "rows: $(jq -c '[.results[] | {case, ranks, status, gbps, algbw_gbps, config}]' "$tmp/r.json")"
    # One table, from rank 0 only.
    [ "$(grep -c '^allreduce ' "$tmp/out")" = 3 ] || fail "not one table from rank 0"
    ;;
fail)
    CLBENCH_TEST_FAIL_RANK=1 run 3 --host-buffers --op allreduce,sendrecv --sizes 12 --runs 2
    rc=$?
    [ $rc = 1 ] || fail "a wrong result on rank 1 exited $rc, not 1"
    [ "$(grep -c 'failed: rank 1 on .*: element 1 is' "$tmp/out")" = 2 ] ||
        fail "the wrong rows are not marked with their rank"
    ;;
error)
    CLBENCH_TEST_ERROR_RANK=2 run 3 --host-buffers --op allreduce,broadcast --sizes 12,1K --runs 2
    rc=$?
    [ $rc != 124 ] || fail "an error on one rank made the run hang"
    [ $rc = 1 ] || fail "an error on rank 2 exited $rc, not 1"
    [ "$(grep -c 'error: rank 2 on .*: OpenCL error' "$tmp/out")" = 4 ] ||
        fail "the rows do not name the rank that failed"
    [ "$(grep -c 'OpenCL error moving the buffers: .*: CL_OUT_OF_RESOURCES (-5)' "$tmp/out")" = 4 ] ||
        fail "the rows do not name the OpenCL error"
    ;;
kill)
    start=$(date +%s)
    CLBENCH_TEST_KILL_RANK=1 run 3 --host-buffers --op allreduce --sizes 12 --runs 2
    rc=$?
    took=$(( $(date +%s) - start ))
    [ $rc != 0 ] || fail "a killed rank left exit status 0"
    [ $rc != 124 ] || fail "a killed rank made the run hang (killed by the timeout)"
    [ $took -le 60 ] || fail "a killed rank took ${took}s to end the run"
    grep -q 'rank 1 .*signal 9' "$tmp/err" || fail "mpirun did not report rank 1 killed"
    ;;
*)
    echo "usage: collective.sh CLBENCH MPIRUN verified|fail|error|kill" >&2
    exit 99 ;;
esac
echo PASS
