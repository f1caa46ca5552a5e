# Sourced by fleet.sh and tests/hosts/hosts.sh: Ctrl-C on a launcher run in
# the background, never under timeout(1), which would signal the ranks too.
#   clb_ctrl_c PID AFTER CMD...   after AFTER seconds, CMD (it sends the
#                                 SIGINT); then waits for PID under a watchdog
#                                 (SIGKILL at 150 s) and fails (the caller's
#                                 fail) when it exited 0 or hung
clb_ctrl_c() {
    _pid=$1 _after=$2
    shift 2
    (sleep 150 && kill -KILL "$_pid") >/dev/null 2>&1 &
    _dog=$!
    sleep "$_after"
    "$@"
    wait "$_pid"
    _rc=$?
    pkill -P $_dog sleep 2>/dev/null
    kill $_dog 2>/dev/null
    [ $_rc != 0 ] || fail "a run stopped by Ctrl-C exited 0"
    [ $_rc != 137 ] || fail "Ctrl-C made the run hang (killed by the watchdog)"
}
