#!/bin/sh
# Lists the test cases of case files (tests/case.jq describes them) that this build takes,
# one a line for tests/meson.build: FILE, INDEX, NAME, SUITES (comma-separated), TIMEOUT,
# IS_PARALLEL, ENV ("own": the case sets its environment; "suite": test_env), tab-separated.
# A field, or a fact in `when`, that it does not know is an error: a misspelt check or fact
# would otherwise drop an assertion or a test without a word; so is a jq entry of another shape.
# Usage: cases.sh "FACT=1 FACT=0 ..." FILE...   (the build's facts: tests/meson.build)
set -eu
facts=$1
shift
for f in "$@"; do
    jq -r --arg facts "$facts" --arg file "$f" '
        ($facts | split(" ") | map(select(. != "") | split("=") | {(.[0]): (.[1] == "1")}) | add) as $known
        | def holds: ltrimstr("!") as $n
              | if $known | has($n) | not then error("\($file): unknown fact \($n) in when")
                elif startswith("!") then $known[$n] | not else $known[$n] end;
        ["name", "about", "when", "suite", "timeout", "is_parallel", "args", "launcher", "env",
         "rc", "out", "no_out", "err", "no_err", "err_once", "one_line_error", "no_stdout",
         "no_stderr", "json", "no_platform", "needs", "jq", "file_jq"] as $fields
        | if keys - ["about", "defaults", "cases"] != [] then error("\($file): unknown \(keys)") else . end
        | (.defaults // {}) as $d | .cases | to_entries[] | .key as $i | ($d + .value)
        | if keys - $fields != [] then error("\($file): case \($i): unknown fields \(keys - $fields)") else . end
        | if any((.jq // [])[]; type != "string" and (type != "object" or keys != ["args", "file"]))
          then error("\($file): case \($i): a jq entry is a file name or {\"file\", \"args\"}") else . end
        | select(all((.when // [])[]; holds))
        | [$file, $i, .name, (.suite | join(",")), .timeout, (.is_parallel // true),
           (if .env then "own" else "suite" end)] | @tsv' "$f"
done
