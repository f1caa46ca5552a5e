#!/bin/sh
# A fleet of three hosts (tests/hosts/netns.sh: network + UTS namespaces, Open
# MPI over TCP only, a hostfile and a launcher agent), ranks 2 + 1 + 1. Modes:
#   gather   gemm on 4 ranks: one file with every host's record, each rank's
#            rows stamped with its own host and its rank on that host, a
#            device per rank, and OpenBLAS's threads split only among the
#            ranks that share a host's CPUs (h1's two), not across hosts
#   compare  two fleet files whose ranks sit on the hosts in another order
#            (slot, then round robin): compare pairs every row by host and
#            rank on that host, never by global rank
#   straggler  h3's rank slowed (test hook: every timed GEMM call 10x and 50 ms
#            longer): its rows, and only they, are flagged, each naming h3
#   collective every operation across the three hosts over TCP on 4 ranks,
#            verified on every rank (busbw against a bare MPI_Allreduce on
#            the same links: ci/bench-fleet)
#   kill     h3's rank killed (SIGKILL) 2 s into a 20 s run: the job ends,
#            non-zero, well within the limit (never a hang), and the error
#            names the host that lost its rank
# Usage: hosts.sh CLBENCH MPIRUN MODE
set -u
clbench=$1 mode=$3
export MPIRUN=$2
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT # clb_hosts_up's trap adds the namespaces
. "$(dirname "$0")/../device/require.sh"
clb_require_device "$clbench"
. "$(dirname "$0")/netns.sh"
. "$(dirname "$0")/../mpi/ctrlc.sh"
clb_hosts_up "$tmp"
export POCL_MAX_PTHREAD_COUNT=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
[ -z "${ASAN_OPTIONS:-}" ] || export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"
export CLBENCH_TUNING_FILE="$tmp/tuning.json"
. "$(dirname "$0")/../lib.sh"
# shellcheck disable=SC2034 # read by fail (tests/lib.sh)
clb_fail_lines=60 clb_fail_skip='^clbench: warning: OPENBLAS_CORETYPE'
run() { # ARGS...: clb_hosts_mpirun with a hard limit, output in $tmp/out, $tmp/err
    clb_run 150 sh -c '. "$0"; clb_ns=$1 clb_net=$2 clb_hosts_tmp=$3; shift 3; clb_hosts_mpirun "$@"' \
        "$(dirname "$0")/netns.sh" "$clb_ns" "$clb_net" "$tmp" "$@"
}

case $mode in
gather)
    run -np 4 "$clbench" gemm -n 33,64 -b openblas,clbench --no-peak --runs 2 -o "$tmp/r.json" ||
        fail "gemm on 3 hosts exited $?"
    grep -q '^Fleet: 4 ranks on 3 hosts' "$tmp/out" || fail "the table does not name the fleet"
    cpus=$(nproc)
    jq -e --argjson cpus "$cpus" '
        def host_of($r): if $r < 2 then "h1" elif $r == 2 then "h2" else "h3" end;
        (.results | length == 16) and
        ([.results[].rank] | unique == [0, 1, 2, 3]) and
        (.results | all(.host == host_of(.rank) and
                        .local_rank == (if .rank < 2 then .rank else 0 end) and
                        .status == "ok" and .verified)) and
        (.devices | length == 4 and all(.host == host_of(.rank))) and
        ([.fleet.hosts[] | {hostname, ranks}] ==
            [{hostname: "h1", ranks: [0, 1]}, {hostname: "h2", ranks: [2]},
             {hostname: "h3", ranks: [3]}]) and
        (.fleet.hosts | all(.host.hostname == .hostname)) and
        (.fleet.ranks == 4) and .complete and .fleet.missing == [] and
        # OpenBLAS: h1 two ranks share the CPUs, each takes half; h2 and h3 all.
        ([.results[] | select(.backend == "openblas") | {rank, t: .config.threads}] |
            all(if .rank < 2 then .t == ([1, ($cpus / 2 | floor)] | max)
                else .t == $cpus end))' "$tmp/r.json" >/dev/null ||
        { jq -c '[.results[] | {rank, host, local_rank, backend, t: .config.threads}],
                 .fleet.hosts' "$tmp/r.json"; fail "the gathered file does not hold each host's ranks"; }
    ;;
compare)
    gemm="gemm -n 33 -b openblas,clbench --no-peak --runs 2"
    run -np 4 "$clbench" $gemm -o "$tmp/a.json" || fail "the first run exited $?"
    CLB_HOSTS_MAP=node run -np 4 "$clbench" $gemm -o "$tmp/b.json" || fail "the second run exited $?"
    jq -e '[.results[] | select(.rank == 1)] | all(.host == "h2")' "$tmp/b.json" >/dev/null ||
        fail "the second run did not deal its ranks round robin"
    "$clbench" compare "$tmp/a.json" "$tmp/b.json" --format json >"$tmp/out" 2>"$tmp/err" ||
        fail "compare exited $?"
    jq -e '(.rows | length == 8) and .unpaired == [] and
        (.rows | all(.hosts[0] == .hosts[1] and .local_ranks[0] == .local_ranks[1] and
                     (.values | length == 2))) and
        ([.rows[] | "\(.hosts[0]):\(.local_ranks[0])"] | unique == ["h1:0", "h1:1", "h2:0", "h3:0"]) and
        (.rows | any(.ranks[0] != .ranks[1]))' "$tmp/out" >/dev/null ||
        fail "compare does not pair the rows by host and local rank"
    ;;
straggler)
    gemm="gemm -n 33,64 -b openblas,clbench --no-peak --runs 3"
    run -np 3 "$clbench" $gemm -o "$tmp/r.json" : -np 1 env CLBENCH_FAULT_SLOW=1 "$clbench" $gemm ||
        fail "a slowed host made the run exit $?"
    jq -e '(.results | map(select(.straggler)) | map(.host) | unique == ["h3"]) and
           (.results | map(select(.host == "h3")) | length == 4 and all(.straggler)) and
           .fleet.stragglers == 4' "$tmp/r.json" >/dev/null ||
        { jq -c '[.results[] | select(.straggler or (.judged | not)) | {host, rank, case, backend, straggler, judged}]' "$tmp/r.json"
          fail "h3 (slowed) is not the one straggler"; }
    [ "$(grep -c ' h3  *3 .* ok  STRAGGLER$' "$tmp/out")" = 4 ] || fail "the table does not mark h3's rows"
    ;;
collective)
    run -np 4 "$clbench" collective --sizes 4,4000012 --runs 2 --host-buffers -o "$tmp/r.json" ||
        fail "collective on 3 hosts exited $?"
    jq -e '(.results | length == 10) and ([.results[].case | split(" ")[0]] | unique | length == 5) and
           (.results | all(.ranks == 4 and .status == "ok" and .verified and .gbps > 0))' \
        "$tmp/r.json" >/dev/null ||
        fail "rows: $(jq -c '[.results[] | {case, ranks, status}]' "$tmp/r.json")"
    ;;
kill)
    start=$(date +%s)
    run -np 3 "$clbench" gemm -n 512 -b openblas --no-peak --min-time 20 : \
        -np 1 timeout -s KILL 2 "$clbench" gemm -n 512 -b openblas --no-peak --min-time 20
    rc=$?
    took=$(( $(date +%s) - start ))
    [ $rc != 0 ] || fail "a killed rank left exit status 0"
    [ $rc != 124 ] || fail "a killed rank made the run hang (killed by the timeout)"
    [ $took -le 60 ] || fail "a killed rank took ${took}s to end the run"
    grep -q "node h3" "$tmp/err" || fail "the error does not name h3, the host whose rank died"
    grep 'node h3' "$tmp/err" | head -n 1
    echo "the run ended ${took}s after it started, rc $rc"
    ;;
signal)
    clb_hosts_mpirun -np 4 "$clbench" gemm -n 256,257,258 -b openblas --no-peak --min-time 6 \
        -o "$tmp/r.json" >"$tmp/out" 2>"$tmp/err" &
    # The SIGINT to mpirun alone (h1's), as a terminal sends it.
    hit() { pkill -INT -x mpirun -P "$1" || pkill -INT -f "^${MPIRUN} --hostfile $tmp/hosts"; }
    clb_ctrl_c $! 4 hit $!
    jq -e '.complete == false and ([.results[].rank] | unique == [0, 1, 2, 3]) and
           (.results | all(.status == "ok" and .time.n > 0))' "$tmp/r.json" >/dev/null ||
        fail "the rows measured before the signal were not kept"
    ;;
*)
    echo "usage: hosts.sh CLBENCH MPIRUN gather|compare|straggler|collective|kill|signal" >&2
    exit 2
    ;;
esac
echo PASS
