#!/bin/sh
# Holds the source tree to the room graph that docs/architecture.md draws:
# every "#include "clbench/ROOM/..." in src/ROOM2 or include/clbench/ROOM2
# must be an arrow of the drawing, every arrow must point to a room drawn
# above (so there is no cycle), and tune/ may include no backend but the
# interface (backends/backend.h) while no backend includes tune/.
# Usage: rooms.sh SOURCE_ROOT
set -u
root=${1:?usage: rooms.sh SOURCE_ROOT}
doc=$root/docs/architecture.md
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The drawing: the first fenced block after "## The rooms". A line starting
# with a word opens a room; its arrow ("-> a b", "-> every room above",
# "-> everything", "-> (C library only)") may sit on a later line.
awk '
    /^## The rooms/ { inside = 1; next }
    inside && /^```/ { if (++fence == 2) exit; next }
    inside && fence == 1 {
        if (match($0, /^[a-z]+/)) { room = substr($0, 1, RLENGTH); order[++n] = room }
        if (room == "" || !match($0, /-> .*$/)) next
        arrow = substr($0, RSTART + 3)
        if (arrow ~ /^every room above|^everything/) {
            for (i = 1; i < n; i++) print room, order[i]
        } else if (arrow !~ /^\(/) {
            k = split(arrow, to, " ")
            for (i = 1; i <= k; i++) print room, to[i]
        }
        print room, room
    }
    END { for (i = 1; i <= n; i++) print i, order[i] > "/dev/stderr" }
' "$doc" >"$tmp/allowed" 2>"$tmp/order"
if [ "$(wc -l <"$tmp/order")" -lt 5 ]; then
    echo "rooms: no room drawing found in $doc" >&2
    exit 1
fi

fail=0
# Arrows point up the drawing only.
while read -r from to; do
    f=$(awk -v r="$from" '$2 == r { print $1 }' "$tmp/order")
    t=$(awk -v r="$to" '$2 == r { print $1 }' "$tmp/order")
    if [ -z "$t" ]; then
        echo "rooms: $doc draws an arrow $from -> $to, a room it does not draw" >&2
        fail=1
    elif [ "$t" -gt "$f" ]; then
        echo "rooms: $doc draws $from -> $to, a room drawn below it (a cycle is possible)" >&2
        fail=1
    fi
done <"$tmp/allowed"

# Every include of the tree against the drawing.
cd "$root" || exit 1
n=0
for f in $(find src include -name '*.[ch]' | sort); do
    case $f in
    src/*/*) from=$(echo "$f" | cut -d/ -f2) ;;
    include/clbench/*/*) from=$(echo "$f" | cut -d/ -f3) ;;
    *) continue ;; # src/main.c: the top
    esac
    for inc in $(sed -n 's|^#include "clbench/\([a-z0-9_]*/[a-z0-9_]*\.h\)".*|\1|p' "$f"); do
        n=$((n + 1))
        to=${inc%%/*}
        if ! grep -qx "$from $to" "$tmp/allowed"; then
            echo "rooms: $f includes clbench/$inc: $from -> $to is not drawn in docs/architecture.md" >&2
            fail=1
        fi
        case $from/$inc in
        tune/backends/backend.h) ;;
        tune/backends/*)
            echo "rooms: $f includes clbench/$inc: tune/ knows backends only through backend.h" >&2
            fail=1 ;;
        backends/tune/*)
            echo "rooms: $f includes clbench/$inc: no backend includes tune/" >&2
            fail=1 ;;
        esac
    done
done
if [ "$n" -lt 50 ]; then
    echo "rooms: only $n includes found under $root; wrong source root?" >&2
    exit 1
fi
[ "$fail" = 0 ] && echo "rooms: $n includes follow the drawing ($(wc -l <"$tmp/order") rooms)"
exit "$fail"
