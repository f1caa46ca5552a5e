#!/bin/sh
# Pins ci/function-lengths' counting on a made-up tree: a 100-line function
# passes the 100-line limit and a 101-line one fails it (both braces counted),
# and what is no function (a long initialiser, a struct, a namespace) is not
# counted, while C++ functions, static inline functions in headers and a brace
# at the end of the signature line are.
# Usage: function-lengths.sh SOURCE_ROOT
set -u
root=${1:?usage: function-lengths.sh SOURCE_ROOT}
script=$root/ci/function-lengths
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# body NAME LINES: a C function whose braces and body span LINES lines.
body() {
    printf 'static int %s(int a,\n              int b)\n{\n' "$1"
    i=2
    while [ "$i" -lt $(($2 - 1)) ]; do echo "    a += b; /* { } */"; i=$((i + 1)); done
    printf '    return a;\n}\n\n'
}
mkdir "$tmp/src"
{
    echo '/* A comment (with parentheses) that ends before the function. */'
    body hundred 100
    echo 'static const int table[sizeof(int) * 40] ='
    echo '{'
    i=0; while [ $i -lt 150 ]; do echo "    $i,"; i=$((i + 1)); done
    echo '};'
    echo 'struct wide'
    echo '{'
    i=0; while [ $i -lt 150 ]; do echo "    int f$i;"; i=$((i + 1)); done
    echo '};'
    echo 'static const struct wide w = {'
    echo '    0,'
    echo '};'
    echo 'int same_line(void) {'
    echo '    return 0;'
    echo '}'
} >"$tmp/src/a.c"
body hundred_one 101 >"$tmp/src/b.c"
cat >"$tmp/src/c.cpp" <<'CPP'
namespace {
bool helper(const std::string &s)
{
    return s.empty();
}
} // namespace

int Wrapper::call(int x) const
{
    try {
        return x;
    } catch (...) {
        return 0;
    }
}
CPP
cat >"$tmp/src/d.h" <<'H'
static inline unsigned
twice(unsigned x)
{
    return 2 * x;
}
H

out=$(sh "$script" --top 100 "$tmp/src" 2>"$tmp/err"); rc=$?
[ "$rc" -eq 1 ] || bad "a 101-line function: exit $rc, not 1"
want="101 hundred_one $tmp/src/b.c:3
100 hundred $tmp/src/a.c:4
7 Wrapper::call $tmp/src/c.cpp:9
3 same_line $tmp/src/a.c:414
3 helper $tmp/src/c.cpp:3
3 twice $tmp/src/d.h:3"
got=$(printf '%s\n' "$out" | awk '{ print $1, $2, $3 }')
[ "$got" = "$want" ] || bad "listed
$got
not
$want"
grep -q "hundred_one ($tmp/src/b.c:3) is 101 lines, over the limit of 100" "$tmp/err" ||
    bad "the 101-line function is not named as over the limit: $(cat "$tmp/err")"
grep -q "hundred (" "$tmp/err" && bad "the 100-line function is named as over the limit"

sh "$script" --top 0 "$tmp/src/a.c" "$tmp/src/c.cpp" >"$tmp/out" 2>&1 ||
    bad "100 lines fails the 100-line limit: $(cat "$tmp/out")"
[ -s "$tmp/out" ] && bad "--top 0 printed: $(cat "$tmp/out")"
sh "$script" --top 1 --limit 101 "$tmp/src" >"$tmp/out" 2>&1 || bad "--limit 101 fails 101 lines"
[ "$(wc -l <"$tmp/out")" -eq 1 ] || bad "--top 1 printed $(wc -l <"$tmp/out") lines"
sh "$script" --limit 99 "$tmp/src/a.c" >/dev/null 2>&1 && bad "--limit 99 passes 100 lines"
sh "$script" --top 1x "$tmp/src" >/dev/null 2>&1; [ $? -eq 2 ] || bad "--top 1x is not a usage error"
exit $fail
