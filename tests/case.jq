# One test case, a record of a case file (tests/cli/cases/*.json, tests/device/cases/*.json),
# as the shell words that tests/cli/expect.sh runs it with: `export` lines for its own
# environment and a `set --` of expect.sh's checks, `--`, the command line.
#
# A case file: {"about": [lines], "defaults": {fields}, "cases": [records]}; a record's fields
# win over the file's defaults. A record:
#   name         the meson test name (one name may have several records, each for the builds
#                its `when` picks: tests/cases.sh lists only the record a build takes)
#   about        why the case is there, lines of text (not read)
#   when         build facts that must all hold, "!" before one that must not (tests/meson.build
#                names them: clblast, openblas, mpi, x86_64, arm_emulated, openblas-0.3.21)
#   suite        meson suites; timeout: seconds; is_parallel: false for one that runs alone
#   args         clbench's arguments; launcher: words before clbench (e.g. env VAR=value)
#   env          ["VAR=value", ...]: the case's whole environment of those the tests set; without
#                it the suites' test_env (tests/meson.build)
#   rc           expected exit status (0)
#   out, no_out, err, no_err, err_once   lists of extended regexes (expect.sh --out etc.)
#   one_line_error, no_stdout, no_stderr, json, no_platform   true: that check of expect.sh
#   needs        "device", "pocl" or "oclgrind": skip (77) without one (a case with a launcher
#                probes the clbench after it, not the launcher)
#   jq           jq filter files (in the case file's jq/ folder) that must hold on stdout; an entry
#                {"file": F, "args": {...}} runs filter file F with $args bound to those values (one
#                filter for several cases, each its own values)
#   file_jq      {"file": F, "jq": filter file}: F written by the command, the filter true on it
# In a string @DATA@ is tests/data/, @TESTS@ the tests/ folder, @BUILD@ the build root.
def expand: if type == "string"
    then split("@DATA@") | join($tests + "/data/") | split("@TESTS@") | join($tests)
       | split("@BUILD@") | join($build)
    else . end;
def many($flag; $list): ($list // [])[] | ($flag, expand);

(.defaults // {}) + .cases[$index | tonumber]
| if .name != $name then error("case \($index) of \(input_filename) is \(.name), not \($name)") else . end
| (.env // [] | map("export " + (expand | @sh)) | join("\n")),
  "set -- " + ([
    (if .needs then "--needs-" + .needs, (if .launcher then "--clbench", $clbench else empty end)
     else empty end),
    (if .no_platform then "--no-platform" else empty end),
    (if .rc then "--rc", (.rc | tostring) else empty end),
    (if .one_line_error then "--one-line-error" else empty end),
    (if .no_stdout then "--no-stdout" else empty end),
    (if .no_stderr then "--no-stderr" else empty end),
    (if .json then "--json" else empty end),
    many("--out"; .out), many("--no-out"; .no_out),
    many("--err"; .err), many("--no-err"; .no_err), many("--err-once"; .err_once),
    ((.jq // [])[] | if type == "object" then "--jq-file-args", $jqdir + "/" + .file, (.args | tojson)
                     else "--jq-file", $jqdir + "/" + . end),
    (if .file_jq then "--file-jq-file", (.file_jq.file | expand), $jqdir + "/" + .file_jq.jq else empty end),
    "--", ((.launcher // [])[] | expand), $clbench, (.args[] | expand)
  ] | @sh)
