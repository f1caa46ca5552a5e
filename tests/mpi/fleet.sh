#!/bin/sh
# Fleet runs: measuring commands as ranks of mpirun on this machine (pocl,
# one thread per rank), rank 0 writing one file. Modes:
#   gather NP   gemm on NP ranks: one file with every rank's rows (host, rank,
#               local rank), every rank's device, the fleet's figures; the
#               same as CSV, and the table names the fleet
#   micro       peak, bandwidth, transfer, latency and tune on 2 ranks: every
#               rank's rows, verified
#   straggler   3 ranks, one slowed in its timed calls (test hook: 10x and 50 ms
#               more each, far below any rank the oversubscribed CPU slows): it
#               and only it is flagged on every GEMM figure (of three ranks, only
#               one below the middle one can be); --fail-on-straggler exits 1
#   noisy       the same slowed rank among two whose every second call takes
#               100 ms more (test hook): its 50 ms calls are within their spread,
#               so every figure reads "not judged", none STRAGGLER, and
#               --fail-on-straggler exits 0
#   identical   two identical ranks, 10 runs each of `latency --min-time 0.1` and
#               `gemm -n 64,128 -b openblas,clbench` (runs that flagged noise
#               before the rule knew it): no straggler on any figure
#   share       2 ranks not bound to CPUs of their own (--bind-to none): each
#               rank's pocl device takes half of them (POCL_MAX_PTHREAD_COUNT,
#               its compute units), as OpenBLAS takes half the threads; a count
#               the user set stands
#   fail        a device error on one rank (test hook): its rows say error,
#               the others' are fine, the file holds both, exit 1
#   kill        a rank killed mid-run ends the run, non-zero, well within
#               the timeout: never a hang
#   signal      Ctrl-C (SIGINT) on mpirun: every rank stops at the next step,
#               rank 0 writes what was measured (complete: false), non-zero
#   uneven      ranks with different device counts (pocl made to list three
#               devices on one rank): the one with fewer takes the others'
#               second step empty; each device's rows are their own figure
# Usage: fleet.sh CLBENCH MPIRUN MODE [ARGS]
set -u
clbench=$1 mpirun=$2 mode=$3
export HOST_NAME="$(hostname)"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../device/require.sh"
. "$(dirname "$0")/ctrlc.sh"
clb_require_device "$clbench"
export POCL_MAX_PTHREAD_COUNT=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
# Open MPI leaves its components' allocations behind at MPI_Finalize (see collective.sh).
[ -z "${ASAN_OPTIONS:-}" ] || export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"
export CLBENCH_TUNING_FILE="$tmp/tuning.json"
. "$(dirname "$0")/../lib.sh"
# shellcheck disable=SC2034 # read by fail (tests/lib.sh)
clb_fail_lines=60

gemm="gemm -n 33,64 -b openblas,clbench,clblast --no-peak --runs 2"
run() { # mpirun ARGS...: with a hard limit, output in $tmp/out, $tmp/err
    clb_run 150 "$mpirun" --oversubscribe "$@"
}

case $mode in
gather)
    np=$4
    run -np "$np" "$clbench" $gemm -o "$tmp/r.json" || fail "gemm on $np ranks exited $?"
    grep -q "^Fleet: $np ranks on 1 host" "$tmp/out" || fail "the table does not name the fleet"
    jq -e --argjson n "$np" '
        (.results | length == 6 * $n) and
        ([.results[].rank] | unique == [range($n)]) and
        ([.results[] | select(.rank == 0)] | length == 6) and
        (.results | all(.host == $ENV.HOST_NAME and .local_rank == .rank and .status == "ok" and
                        .verified and (.fleet_median > 0) and (.straggler | type == "boolean"))) and
        (.devices | length == $n and all(.host == $ENV.HOST_NAME)) and
        (.fleet.ranks == $n and .fleet.hosts == [{hostname: $ENV.HOST_NAME, ranks: [range($n)],
                                                  host: .host}]) and
        (.fleet.figures | length == 6 and all(.ranks == $n and .sum >= .max and .max >= .median and
                                              .median >= .min and .min > 0)) and
        .complete and .fleet.missing == []' "$tmp/r.json" >/dev/null ||
        fail "the gathered file is not every rank's rows"
    run -np "$np" "$clbench" $gemm --format csv || fail "gemm --format csv exited $?"
    [ "$(grep -c "^$HOST_NAME,[0-9]*,[0-9]*,gemm," "$tmp/out")" = $((6 * np)) ] ||
        fail "the CSV does not hold every rank's rows"
    ;;
micro)
    for c in "peak --runs 1 --min-time 0" "bandwidth --bytes 1000003 --runs 2 --min-time 0" \
             "transfer --sizes 4K,1000003 --runs 2 --min-time 0" "latency --runs 2 --min-time 0"; do
        run -np 2 "$clbench" $c --format json || fail "$c on 2 ranks exited $?"
        jq -e '(.results | length > 0) and
               ([.results[] | select(.rank == 0)] | length) == ([.results[] | select(.rank == 1)] | length) and
               (.results | all(.status == "ok" or .status == "unavailable")) and
               ([.results[] | select(.status == "ok") | .rank] | unique == [0, 1]) and (.fleet.ranks == 2)' "$tmp/out" >/dev/null ||
            fail "$c: not every rank's rows, verified"
    done
    run -np 2 "$clbench" tune -n 64 --budget 2 --format json || fail "tune on 2 ranks exited $?"
    jq -e '.ranks == 2 and ([.fleet[].rank] == [0, 1]) and
           (.fleet | all(.tune.searches | length == 1))' "$tmp/out" >/dev/null ||
        fail "tune: not every rank's search"
    ;;
straggler)
    gemm="${gemm%--runs 2}--runs 3" # a rank's row is judged on 3 calls or more
    slow="-np 1 env CLBENCH_FAULT_SLOW=1 $clbench $gemm"
    run -np 2 "$clbench" $gemm -o "$tmp/r.json" : $slow || fail "a straggler made the run exit $?"
    jq -e '(.results | map(select(.straggler)) | map(.rank) | unique == [2]) and
           (.results | map(select(.rank == 2)) | all(.straggler)) and
           (.fleet.figures | all(.stragglers == [2] and .not_judged == [])) and
           .fleet.stragglers == 6 and .fleet.not_judged == 0 and (.results | all(.judged))' \
        "$tmp/r.json" >/dev/null || fail "rank 2 (slowed) is not the one straggler"
    [ "$(grep -c ' ok  STRAGGLER$' "$tmp/out")" = 6 ] || fail "the table does not mark rank 2's rows"
    run -np 2 "$clbench" $gemm --fail-on-straggler : $slow --fail-on-straggler
    rc=$?
    [ $rc = 1 ] || fail "--fail-on-straggler exited $rc, not 1"
    grep -q '6 stragglers (--fail-on-straggler)' "$tmp/err" || fail "no line says why"
    ;;
noisy)
    gemm="${gemm%--runs 2}--runs 5" # the noisy ranks' median call is one without the 100 ms
    run -np 2 env CLBENCH_FAULT_NOISY=1 "$clbench" $gemm -o "$tmp/r.json" --fail-on-straggler : \
        -np 1 env CLBENCH_FAULT_SLOW=1 "$clbench" $gemm --fail-on-straggler ||
        fail "a figure not judged made --fail-on-straggler exit $?"
    jq -e '(.results | map(select(.judged | not)) | map(.rank) | unique == [2]) and
           (.results | map(select(.rank == 2)) | all(.judged == false and .straggler == false)) and
           (.fleet.figures | all(.not_judged == [2] and .stragglers == [])) and
           .fleet.stragglers == 0 and .fleet.not_judged == 6' \
        "$tmp/r.json" >/dev/null || fail "rank 2 within the others' noise is not 'not judged'"
    [ "$(grep -c ' ok  not judged$' "$tmp/out")" = 6 ] || fail "the table does not say 'not judged'"
    grep -q '^6 rows beyond it are not judged' "$tmp/out" || fail "no line counts the rows not judged"
    ! grep -q ' ok  STRAGGLER$' "$tmp/out" || fail "a row not judged is marked STRAGGLER"
    ;;
identical)
    i=0
    while [ $i -lt 10 ]; do
        for c in "latency --min-time 0.1" "gemm -n 64,128 -b openblas,clbench --no-peak"; do
            run -np 2 "$clbench" $c -o "$tmp/r.json" || fail "$c on 2 ranks exited $?"
            jq -e '.fleet.stragglers == 0 and (.fleet.figures | length > 0) and
                   (.results | all(.status == "ok" and .straggler == false))' "$tmp/r.json" \
                >/dev/null || { cp "$tmp/r.json" "$tmp/out"; fail "run $i: $c flagged a straggler"; }
        done
        i=$((i + 1))
    done
    ;;
share)
    half=$(( $(nproc) / 2 )); [ $half -ge 1 ] || half=1
    (unset POCL_MAX_PTHREAD_COUNT
     run --bind-to none -np 2 "$clbench" gemm -n 33 -b openblas,clbench --no-peak --runs 1 \
         --format json) || fail "2 ranks sharing the CPUs exited $?"
    jq -e --argjson h "$half" '(.devices | length == 2 and all(.compute_units == $h)) and
        ([.results[] | select(.backend == "openblas") | .config.threads] | all(. == $h))' \
        "$tmp/out" >/dev/null ||
        fail "ranks sharing the CPUs did not take $half each: $(jq -c '[.devices[].compute_units]' "$tmp/out")"
    run --bind-to none -np 2 env POCL_MAX_PTHREAD_COUNT=1 "$clbench" gemm -n 33 -b clbench \
        --no-peak --runs 1 --format json || fail "a count set by the user: exit $?"
    jq -e '.devices | all(.compute_units == 1)' "$tmp/out" >/dev/null ||
        fail "the user's POCL_MAX_PTHREAD_COUNT did not stand"
    ;;
fail)
    run -np 2 "$clbench" $gemm -o "$tmp/r.json" : -np 1 env CLBENCH_FAULT_FINISH=1 "$clbench" \
        $gemm -o "$tmp/r.json"
    rc=$?
    [ $rc != 124 ] || fail "a failing rank made the run hang"
    [ $rc = 1 ] || fail "a failing rank exited $rc, not 1"
    jq -e '(.results | map(select(.rank == 2 and .backend != "openblas")) | length == 4 and
                       all(.status == "error")) and
           (.results | map(select(.rank < 2)) | length == 12 and all(.status == "ok"))' \
        "$tmp/r.json" >/dev/null || fail "the failing rank's rows are not marked, or others lost"
    ;;
kill)
    start=$(date +%s)
    run -np 2 "$clbench" gemm -n 512 -b openblas --no-peak --min-time 20 : \
        -np 1 timeout -s KILL 2 "$clbench" gemm -n 512 -b openblas --no-peak --min-time 20
    rc=$?
    took=$(( $(date +%s) - start ))
    [ $rc != 0 ] || fail "a killed rank left exit status 0"
    [ $rc != 124 ] || fail "a killed rank made the run hang (killed by the timeout)"
    [ $took -le 90 ] || fail "a killed rank took ${took}s to end the run"
    ;;
signal)
    # Ctrl-C on mpirun: it sends SIGTERM to every rank; each finishes its call in
    # flight, they agree to stop at the next step, rank 0 writes what was measured.
    "$mpirun" --oversubscribe -np 2 "$clbench" gemm -n 256,257,258 -b openblas \
        --no-peak --min-time 6 -o "$tmp/r.json" >"$tmp/out" 2>"$tmp/err" &
    clb_ctrl_c $! 3 kill -INT $!
    grep -q 'interrupted by Terminated; the results measured so far were kept' "$tmp/err" ||
        fail "no line says the run was interrupted"
    jq -e '.complete == false and (.results | length == 2) and
           ([.results[].rank] == [0, 1]) and (.results | all(.status == "ok" and .time.n > 0))' \
        "$tmp/r.json" >/dev/null || fail "the rows measured before the signal were not kept"
    ;;
uneven)
    args="gemm -n 33 -b openblas,clbench --no-peak --runs 2 -o $tmp/r.json"
    run -np 1 env POCL_DEVICES="pthread pthread pthread" "$clbench" $args : \
        -np 1 "$clbench" $args || fail "ranks with 2 and 1 devices exited $?"
    jq -e '([.results[] | select(.rank == 0 and .backend == "clbench") | .slot] == [0, 1]) and
           ([.results[] | select(.rank == 1 and .backend == "clbench") | .slot] == [0]) and
           (.results | all(.status == "ok")) and (.devices | length == 3) and
           ([.fleet.figures[] | select(.backend == "clbench") | [.slot, .ranks]] == [[0, 2], [1, 1]])' \
        "$tmp/r.json" >/dev/null || fail "uneven device counts: wrong rows or figures"
    ;;
*)
    echo "usage: fleet.sh CLBENCH MPIRUN gather NP|micro|straggler|noisy|identical|share|fail|kill|signal|uneven" >&2
    exit 99 ;;
esac
echo PASS
