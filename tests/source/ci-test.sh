#!/bin/sh
# ci/test's own verdict: the harness (ci/test, ci/summarize, ci/checks.sh, ci/build, and
# tests/hermetic.sh, with which the check steps clear the environment) copied into a scratch
# tree with phases of its own (tests/source/ci-test/: a meson project with a passing, a failing
# and a skipped test, a build that fails, a check step that records one passed and one failed
# check, a step that fails without a record). Every failure must be named, by name, before the
# last line, and the last line count them; a run of passing phases alone names none and exits 0.
# Usage: ci-test.sh SOURCE_ROOT
set -u
root=$1
fail=0
bad() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

tree() { # DIR PHASES: the harness and the fixtures in DIR, with PHASES as ci/phases
    mkdir -p "$1/ci" "$1/tests"
    for f in test summarize checks.sh build; do cp "$root/ci/$f" "$1/ci/"; done
    cp "$root/tests/hermetic.sh" "$1/tests/"
    cp "$root/tests/source/ci-test/meson.build" "$root/tests/source/ci-test/meson_options.txt" \
        "$root/tests/source/ci-test/checks" \
        "$root/tests/source/ci-test/silent" "$1/"
    mv "$1/checks" "$1/silent" "$1/ci/"
    cp "$root/tests/source/ci-test/$2" "$1/ci/phases"
}

tree "$tmp/failing" phases-failing
sh "$tmp/failing/ci/test" >"$tmp/failing.out" 2>&1
rc=$?
[ $rc -eq 1 ] || bad "failing phases: exit $rc, not 1"
last=$(tail -n 1 "$tmp/failing.out")
[ "$last" = "2 passed, 4 failed, 1 skipped" ] || bad "failing phases: last line '$last'"
# The names, all of them and only those, just before the last line.
names=$(tail -n 5 "$tmp/failing.out" | sed '$d')
expected="FAILED: build: fails
FAILED: ci/build broken -Dno-such-option=1
FAILED: checks second
FAILED: ci/silent exited 3 after 0 checks"
[ "$(printf '%s\n' "$names" | sort)" = "$(printf '%s\n' "$expected" | sort)" ] ||
    bad "failing phases: the failed checks named are
$names
not
$expected"
[ "$(grep -c '^FAILED: ' "$tmp/failing.out")" = 4 ] || bad "failing phases: other FAILED lines: $(grep '^FAILED: ' "$tmp/failing.out")"
# The check step's own lines are for people; the counts come from its records.
grep -qx 'checks first: ok, counted' "$tmp/failing.out" && grep -qx 'checks second: FAILED: on purpose' "$tmp/failing.out" ||
    bad "the check step's lines are not 'checks NAME: ok, ...' and 'checks NAME: FAILED: why'"
grep -q '^phase the tiny project: [0-9]* s$' "$tmp/failing.out" || bad "no phase time printed"

tree "$tmp/passing" phases-passing
sh "$tmp/passing/ci/test" >"$tmp/passing.out" 2>&1
rc=$?
[ $rc -eq 0 ] || bad "passing phases: exit $rc, not 0: $(tail -n 3 "$tmp/passing.out")"
[ "$(tail -n 1 "$tmp/passing.out")" = "2 passed, 0 failed, 0 skipped" ] ||
    bad "passing phases: last line '$(tail -n 1 "$tmp/passing.out")'"
! grep -q '^FAILED: ' "$tmp/passing.out" || bad "passing phases name a failure: $(grep '^FAILED: ' "$tmp/passing.out")"

[ $fail -eq 0 ] || { echo "--- the failing run's output:"; cat "$tmp/failing.out"; }
exit $fail
