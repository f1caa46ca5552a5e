# shellcheck shell=sh disable=SC2154 # check_step: set by the step that sources this
# Sourced by the ci/ steps that report checks (ci/fuzz, ci/valgrind, ci/test-bundle and
# ci/package): one check's result is a line for people ("STEP NAME: ok[, what]"
# or "STEP NAME: FAILED: why") and, where CI_CHECKS_FILE names a file, a JSON line there that
# ci/test counts with the tests ({"name": "STEP NAME", "result": "OK" or "FAIL", "detail": ...}).
# ci/test reads the records, never the words of the lines. Set check_step first. (The name is
# outside the families tests/hermetic.sh clears, which ci/fuzz and ci/valgrind clear first.)
check_record() { # NAME OK|FAIL DETAIL
    [ -n "${CI_CHECKS_FILE:-}" ] || return 0
    jq -cn --arg n "$check_step $1" --arg r "$2" --arg d "$3" \
        '{name: $n, result: $r, detail: $d}' >>"$CI_CHECKS_FILE"
}
check_ok() { # NAME [WHAT]
    echo "$check_step $1: ok${2:+, $2}"
    check_record "$1" OK "${2:-}"
}
check_failed() { # NAME WHY
    echo "$check_step $1: FAILED: $2"
    check_record "$1" FAIL "$2"
}
