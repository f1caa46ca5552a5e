#!/bin/sh
# ci/fresh's promises, on a stand-in for its Debian base (this machine's sh and sleep with
# their libraries, in place of debootstrap's minbase; the real base is .ci/run's): COMMAND runs
# as root in a clean clone of HEAD, in a root that is a mount point with proc, /dev (null, a
# devpts, a tmpfs shm), tmpfs /run and /tmp, with the caller's environment but HOME, PATH and
# TMPDIR; its exit status is ci/fresh's; when it ends, fails, or ci/fresh gets SIGINT or
# SIGTERM or is killed, no process it started is left and no mount; the copy is deleted (but
# after KILL, which leaves it for the disk alone); a second run sees nothing the first left.
# Skips (77) where it cannot mount: not root, or no unshare.
# Usage: fresh.sh SOURCE_ROOT
set -u
root=$1
[ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null && command -v git >/dev/null ||
    { echo "SKIP: needs root, unshare (util-linux) and git"; exit 77; }
fail=0
bad() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CLBENCH_FRESH_CACHE="$tmp/cache"
base=$CLBENCH_FRESH_CACHE/bookworm-$(dpkg --print-architecture)
mkdir -p "$base/usr/bin" "$base/usr/lib" "$base/usr/lib64" "$base/etc/apt/sources.list.d" \
    "$base/etc/apt/apt.conf.d" "$base/root" "$base/proc" "$base/sys/fs/cgroup" "$base/dev" \
    "$base/run" "$base/tmp" "$base/var/tmp"
ln -s usr/bin "$base/bin"
ln -s usr/lib "$base/lib"
ln -s usr/lib64 "$base/lib64"
for p in sh sleep; do
    f=$(command -v "$p")
    cp "$(readlink -f "$f")" "$base/usr/bin/$p"
    for l in $(ldd "$f" | grep -oE '/[^ ]+'); do
        d=$base$(dirname "$l" | sed 's|^/lib|/usr/lib|')
        mkdir -p "$d"
        cp -L "$l" "$d/"
    done
done
# The clone: ci/fresh clones the checkout it is in; a copy of this one's ci/fresh in a
# scratch repository, so the test needs no commit of the tree under test.
repo=$tmp/repo
mkdir -p "$repo/ci"
cp "$root/ci/fresh" "$repo/ci/"
echo "made by the fresh test" >"$repo/marker"
git -C "$repo" init -q && git -C "$repo" add -A &&
    git -C "$repo" -c user.name=t -c user.email=t@t commit -qm fixture || { echo "FAIL: git"; exit 1; }

# fresh NAME COMMAND: ci/fresh in the background, its pid in $fresh_pid, output in $tmp/NAME.
fresh() {
    env --default-signal=INT,TERM sh "$repo/ci/fresh" "$2" >"$tmp/$1.out" 2>"$tmp/$1.err" &
    fresh_pid=$!
}
copy_of() { sed -n 's/^fresh: copied the base into \([^ ]*\) .*/\1/p' "$tmp/$1.err"; }
running() { # MARK: a process whose command line holds MARK (sleep MARK) is alive
    for c in /proc/[0-9]*/cmdline; do
        { tr '\0' ' ' <"$c"; } 2>/dev/null | grep -q "^sleep $1 *\$" && return 0
    done
    return 1
}
left() { # NAME: a process, a mount or the copy left by run NAME
    r=$(copy_of "$1")
    [ -n "$r" ] || { echo "no copy named on stderr: $(cat "$tmp/$1.err")"; return; }
    ! grep -q " ${r}[/ ]" /proc/self/mountinfo || echo "mounts under $r"
    [ "${2:-}" = kept ] || [ ! -e "$r" ] || echo "$r not deleted"
}
await() { # MARK: until sleep MARK runs (10 s at most)
    i=0
    while ! running "$1" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    running "$1"
}

# 1. What COMMAND sees, and its status.
OPENBLAS_CORETYPE=Haswell TMPDIR=/nowhere HOME=/elsewhere fresh seen '
    read -r m <marker && [ "$m" = "made by the fresh test" ] || echo "no clone of HEAD in $PWD"
    [ "$PWD" = /root/clbench ] || echo "cwd $PWD"
    [ "$HOME" = /root ] && [ -z "${TMPDIR+set}" ] || echo "HOME $HOME TMPDIR ${TMPDIR-unset}"
    [ "$OPENBLAS_CORETYPE" = Haswell ] || echo "the caller environment did not reach COMMAND"
    root_mounted=
    while read -r _ _ _ _ point _; do [ "$point" = / ] && root_mounted=1; done </proc/self/mountinfo
    [ -n "$root_mounted" ] || echo "/ is not a mount point"
    [ -c /dev/null ] && [ -c /dev/urandom ] && [ -d /dev/pts ] && [ -e /dev/ptmx ] && [ -d /dev/shm ] ||
        echo "/dev lacks null, urandom, pts, ptmx or shm"
    [ -d /proc/self ] && [ -d /run/lock ] || echo "no proc or /run/lock"
    [ $$ -lt 10 ] || echo "not in a PID namespace of its own (pid $$)"
    echo left >/tmp/t && echo left >/root/r && echo left >/var/tmp/v
    sleep 3131 &
    exit 7'
wait "$fresh_pid"
rc=$?
[ $rc -eq 7 ] || bad "COMMAND exit 7, ci/fresh exit $rc: $(cat "$tmp/seen.err")"
[ ! -s "$tmp/seen.out" ] || bad "inside: $(cat "$tmp/seen.out")"
! running 3131 || bad "the background sleep outlived COMMAND"
w=$(left seen)
[ -z "$w" ] || bad "after COMMAND: $w"

# 2. A second run sees nothing of the first.
fresh second '[ ! -e /tmp/t ] && [ ! -e /root/r ] && [ ! -e /var/tmp/v ] || echo "the first run left files"'
wait "$fresh_pid" || bad "second run: exit $?: $(cat "$tmp/second.err")"
[ ! -s "$tmp/second.out" ] || bad "second run: $(cat "$tmp/second.out")"

# 3. Interrupted: SIGINT, SIGTERM, and SIGKILL (no cleanup of ci/fresh's own can run).
for sig in INT TERM KILL; do
    mark=$(($(date +%s) % 1000 + 4000))
    fresh "$sig" "sleep $mark & sleep $((mark + 1))"
    await "$mark" || { bad "$sig: COMMAND did not start: $(cat "$tmp/$sig.err")"; continue; }
    kill -"$sig" "$fresh_pid"
    wait "$fresh_pid" 2>/dev/null
    rc=$?
    case $sig in
        INT) [ $rc -eq 130 ] || bad "INT: exit $rc, not 130" ;;
        TERM) [ $rc -eq 143 ] || bad "TERM: exit $rc, not 143" ;;
    esac
    i=0
    while { running "$mark" || running $((mark + 1)); } && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    ! running "$mark" && ! running $((mark + 1)) || bad "$sig: processes outlived ci/fresh"
    if [ "$sig" = KILL ]; then
        w=$(left "$sig" kept)
        r=$(copy_of "$sig")
        [ -z "$r" ] || rm -rf --one-file-system "$r"
    else
        w=$(left "$sig")
    fi
    [ -z "$w" ] || bad "$sig: $w"
done
[ $fail -eq 0 ] && echo "fresh: status, environment, mounts, processes and copies hold"
exit $fail
