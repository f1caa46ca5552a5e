#!/bin/sh
# Lists the test cases of case files (tests/case.jq describes them) that this build takes,
# one a line for tests/meson.build: FILE, INDEX, NAME, SUITES (comma-separated), TIMEOUT,
# IS_PARALLEL, ENV ("own": the case sets its environment; "suite": test_env), tab-separated.
# Usage: cases.sh "FACT ..." FILE...   (the build's facts: tests/meson.build)
set -eu
facts=" $1 "
shift
for f in "$@"; do
    jq -r --arg facts "$facts" --arg file "$f" '
        def has_fact($f): $facts | contains(" " + $f + " ");
        def holds: if startswith("!") then has_fact(.[1:]) | not else has_fact(.) end;
        (.defaults // {}) as $d | .cases | to_entries[] | .key as $i | ($d + .value)
        | select(all((.when // [])[]; holds))
        | [$file, $i, .name, (.suite | join(",")), .timeout, (.is_parallel // true),
           (if .env then "own" else "suite" end)] | @tsv' "$f"
done
