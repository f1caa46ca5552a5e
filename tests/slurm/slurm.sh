#!/bin/sh
# A real Slurm on this machine (Debian's slurm-wlm and munge, configured and
# started by the test, torn down at its end): slurmctld, and a slurmd in each
# of two hosts h1 and h2 (tests/hosts/netns.sh: network + UTS namespaces,
# their own hostnames and addresses), munge on a socket of the test's own.
# srun and sbatch start clbench's ranks through the PMI that Slurm and Open
# MPI share (PMIx where `srun --mpi=list` has it, else PMI2), over TCP only.
# Modes:
#   gemm        srun -N 2 -n 2 clbench gemm: one file, rank 0 on h1 and rank 1
#               on h2, each alone on its node (local rank 0, every CPU's
#               OpenBLAS threads), every row verified; then -n 3: ranks 0 and 1
#               on h1 (local ranks 0 and 1, half the CPUs' threads each), 2 on h2
#   collective  srun -N 2 -n 3 clbench collective: every operation verified on
#               the 3 ranks
#   sbatch      a batch script (-N 2 -n 2) whose srun runs `clbench run`: the
#               job completes and leaves one result file with both ranks' rows,
#               rank 0 on h1 and rank 1 on h2
# Skipped (77) without root, namespaces, or Slurm's and munge's daemons.
# Usage: slurm.sh CLBENCH MODE
set -u
clbench=$(readlink -f "$1") mode=$2
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
for c in slurmctld slurmd srun sbatch scontrol sinfo munged; do
    command -v $c >/dev/null || { echo "SKIP: no $c (Debian's slurm-wlm and munge)"; exit 77; }
done
. "$(dirname "$0")/../device/require.sh"
clb_require_device "$clbench"
. "$(dirname "$0")/../hosts/netns.sh"
clb_hosts_up "$tmp"
# munged wants every directory above its socket searchable, not only root's.
chmod 755 "$tmp"
. "$(dirname "$0")/../lib.sh"
# shellcheck disable=SC2034 # read by fail (tests/lib.sh)
clb_fail_lines=40 clb_fail_skip='^clbench: warning: OPENBLAS_CORETYPE'
clb_fail_more() { for f in "$tmp"/log/*; do echo "== $f"; tail -n 15 "$f"; done; }
# nsenter, not `ip netns exec`: that remounts /sys for the namespace, without
# the cgroup filesystem slurmd needs.
in_host() { # HOST CMD...: CMD in HOST's network namespace, with its hostname
    _h=$1
    shift
    nsenter --net="/run/netns/$clb_ns$_h" unshare --uts sh -c 'hostname "$0" && exec "$@"' "$_h" "$@"
}
daemons=
slurm_down() {
    for p in $daemons; do kill "$p" 2>/dev/null; done
    for _ in $(seq 50); do
        alive=
        for p in $daemons; do kill -0 "$p" 2>/dev/null && alive="$alive $p"; done
        [ -z "$alive" ] && break
        sleep 0.1
    done
    for p in $alive; do kill -KILL "$p" 2>/dev/null; done
    # A job step's slurmstepd outlives its slurmd: ours are the ones in our namespaces.
    for p in $(ip netns pids "${clb_ns}h1" 2>/dev/null) $(ip netns pids "${clb_ns}h2" 2>/dev/null); do
        kill -KILL "$p" 2>/dev/null
    done
}
trap 'slurm_down; clb_hosts_down; rm -rf "$tmp"' EXIT

# Each node's /tmp of its own: the PMIx plugin makes a directory of the job's there.
mkdir -p "$tmp/log" "$tmp/state" "$tmp/munge" "$tmp/spool/h1" "$tmp/spool/h2" "$tmp/tmp/h1" \
    "$tmp/tmp/h2"
# munge: a key and a daemon of this test's own.
sock=$tmp/munge/munge.socket
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 600 "$tmp/munge/munge.key"
munged -F --socket="$sock" --key-file="$tmp/munge/munge.key" --pid-file="$tmp/munge/pid" \
    --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge/seed" >"$tmp/log/munged.out" 2>&1 &
daemons="$!"
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
munge -n -S "$sock" | unmunge -S "$sock" >/dev/null 2>&1 || fail "munged does not answer"

export SLURM_CONF="$tmp/slurm.conf"
cat >"$SLURM_CONF" <<CONF
ClusterName=clbench
SlurmctldHost=h1($clb_net.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool/%n
TmpFS=$tmp/tmp/%n
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd-%n.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
ReturnToService=2
MailProg=/bin/true
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=h1 NodeAddr=$clb_net.1 CPUs=2 State=UNKNOWN
NodeName=h2 NodeAddr=$clb_net.2 CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
in_host h1 slurmctld -D -f "$SLURM_CONF" >"$tmp/log/slurmctld.out" 2>&1 &
daemons="$daemons $!"
for h in h1 h2; do
    in_host "$h" slurmd -D -N "$h" -f "$SLURM_CONF" >"$tmp/log/slurmd-$h.out" 2>&1 &
    daemons="$daemons $!"
done
for _ in $(seq 150); do
    [ "$(in_host h1 sinfo -h -t idle -o %D 2>/dev/null)" = 2 ] && break
    sleep 0.2
done
[ "$(in_host h1 sinfo -h -t idle -o %D 2>/dev/null)" = 2 ] || fail "the nodes are not idle: $(in_host h1 sinfo 2>&1)"

if in_host h1 srun --mpi=list 2>&1 | grep -qw pmix; then pmi=pmix
elif in_host h1 srun --mpi=list 2>&1 | grep -qw pmi2; then pmi=pmi2
else echo "SKIP: this Slurm has neither PMIx nor PMI2"; exit 77
fi
echo "PMI: $pmi"
# What srun gives the ranks: Open MPI over TCP on the hosts' link, one pocl thread each.
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=tcp,self OMPI_MCA_btl_tcp_if_include="$clb_net.0/24"
export POCL_MAX_PTHREAD_COUNT=1 CLBENCH_TUNING_FILE="$tmp/tuning.json"
[ -z "${ASAN_OPTIONS:-}" ] || export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"
srun_h1() { # ARGS...: srun in h1, with a hard limit, output in $tmp/out, $tmp/err
    timeout 150 nsenter --net="/run/netns/${clb_ns}h1" unshare --uts \
        sh -c 'hostname h1 && exec "$@"' sh srun --mpi="$pmi" "$@" >"$tmp/out" 2>"$tmp/err"
}
cd "$tmp" || exit 99
cpus=$(nproc)

case $mode in
gemm)
    srun_h1 -N 2 -n 2 "$clbench" gemm -n 33,64 -b openblas,clbench --no-peak --runs 2 \
        -o "$tmp/r.json" || fail "srun -n 2 clbench gemm exited $?"
    grep -q '^Fleet: 2 ranks on 2 hosts: h1 (rank 0); h2 (rank 1)' "$tmp/out" ||
        fail "the table does not name the fleet"
    jq -e --argjson cpus "$cpus" '
        (.results | length == 8) and
        (.results | all(.host == (if .rank == 0 then "h1" else "h2" end) and .local_rank == 0 and
                        .status == "ok" and .verified)) and
        (.devices | length == 2) and
        ([.fleet.hosts[] | {hostname, ranks}] == [{hostname: "h1", ranks: [0]}, {hostname: "h2", ranks: [1]}]) and
        ([.results[] | select(.backend == "openblas") | .config.threads] | all(. == $cpus)) and
        .complete' "$tmp/r.json" >/dev/null ||
        fail "the gathered file: $(jq -c '[.results[] | {rank, host, local_rank, backend, status}]' "$tmp/r.json")"
    srun_h1 -N 2 -n 3 "$clbench" gemm -n 33 -b openblas,clbench --no-peak --runs 2 \
        -o "$tmp/r.json" || fail "srun -n 3 clbench gemm exited $?"
    jq -e --argjson cpus "$cpus" '
        (.results | length == 6) and
        ([.fleet.hosts[] | {hostname, ranks}] == [{hostname: "h1", ranks: [0, 1]}, {hostname: "h2", ranks: [2]}]) and
        (.results | all(.local_rank == (if .rank < 2 then .rank else 0 end) and
                        .host == (if .rank < 2 then "h1" else "h2" end) and .status == "ok")) and
        ([.results[] | select(.backend == "openblas") | {rank, t: .config.threads}] |
            all(if .rank < 2 then .t == ([1, ($cpus / 2 | floor)] | max) else .t == $cpus end))' \
        "$tmp/r.json" >/dev/null ||
        fail "2 + 1 ranks: $(jq -c '[.results[] | {rank, host, local_rank, backend, t: .config.threads}]' "$tmp/r.json")"
    ;;
collective)
    srun_h1 -N 2 -n 3 "$clbench" collective --sizes 4,4000012 --runs 2 --host-buffers \
        -o "$tmp/r.json" || fail "srun -n 3 clbench collective exited $?"
    jq -e '(.results | length == 10) and ([.results[].case | split(" ")[0]] | unique | length == 5) and
           (.results | all(.ranks == 3 and .status == "ok" and .verified and .gbps > 0))' \
        "$tmp/r.json" >/dev/null ||
        fail "rows: $(jq -c '[.results[] | {case, ranks, status}]' "$tmp/r.json")"
    ;;
sbatch)
    cat >"$tmp/job.sh" <<JOB
#!/bin/sh
#SBATCH -N 2
#SBATCH -n 2
#SBATCH -o $tmp/job.out
srun --mpi=$pmi $clbench run -n 64 -b openblas,clbench --no-peak -o $tmp/result.json
JOB
    job=$(in_host h1 sbatch --parsable "$tmp/job.sh" 2>"$tmp/err") || fail "sbatch exited $?"
    for _ in $(seq 900); do
        state=$(in_host h1 scontrol -o show job "$job" 2>/dev/null | sed -n 's/.* JobState=\([A-Z_]*\).*/\1/p')
        case $state in PENDING|CONFIGURING|RUNNING|COMPLETING|"") sleep 0.2 ;; *) break ;; esac
    done
    cp "$tmp/job.out" "$tmp/out" 2>/dev/null
    [ "$state" = COMPLETED ] || fail "the batch job ended $state"
    [ "$(ls "$tmp"/*.json | grep -vc tuning)" = 1 ] || fail "not one result file: $(ls "$tmp")"
    jq -e '(.results | length > 0) and
           ([.fleet.hosts[] | {hostname, ranks}] == [{hostname: "h1", ranks: [0]}, {hostname: "h2", ranks: [1]}]) and
           (.results | all(.local_rank == 0 and .host == (if .rank == 0 then "h1" else "h2" end))) and
           ([.results[] | select(.status == "ok") | .rank] | unique == [0, 1]) and
           ([.results[] | select(.rank == 0)] | length) == ([.results[] | select(.rank == 1)] | length) and
           .complete' \
        "$tmp/result.json" >/dev/null ||
        fail "the job's file: $(jq -c '[.results[] | {rank, host, local_rank, backend, status}]' "$tmp/result.json")"
    ;;
*)
    echo "usage: slurm.sh CLBENCH gemm|collective|sbatch" >&2
    exit 2
    ;;
esac
echo PASS
