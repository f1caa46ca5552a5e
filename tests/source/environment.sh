#!/bin/sh
# Every environment variable clbench's sources read or set (getenv, setenv, unsetenv, and
# the names mpi.c counts ranks by) is named in the manual's ENVIRONMENT list
# (src/cli/docs.c, clb_environment), or is one of the test hooks that list names by prefix
# (CLBENCH_FAKE_*, CLBENCH_FAULT_*, CLBENCH_TEST*).
# Usage: environment.sh SOURCE_ROOT
set -eu
root=$1
docs=$root/src/cli/docs.c
names=$(grep -rhoE '(getenv|setenv|unsetenv|env_count)\("[A-Z][A-Z0-9_]*"|#define ENV_[A-Z]+ "[A-Z][A-Z0-9_]*"' \
        "$root/src" | grep -oE '"[A-Z][A-Z0-9_]*"' | tr -d '"' | sort -u)
n=0
missing=
for v in $names; do
    case $v in
        CLBENCH_FAKE_* | CLBENCH_FAULT_* | CLBENCH_TEST*) continue ;;
    esac
    n=$((n + 1))
    # An entry's name: "NAME" or a list "A, NAME, B" in the first string of a line.
    grep -Eq "\{ \"([A-Z0-9_]+, )*$v(, [A-Z0-9_]+)*\"" "$docs" || missing="$missing $v"
done
# The sources read a dozen and more (CLBENCH_ICD, TMPDIR, POCL_CACHE_DIR, ...).
[ "$n" -ge 12 ] || { echo "environment: only $n variables found in the sources" >&2; exit 1; }
if [ -n "$missing" ]; then
    echo "environment: read by the sources, not in the manual's ENVIRONMENT (src/cli/docs.c):$missing" >&2
    exit 1
fi
echo "environment: $n variables, each in the manual"
