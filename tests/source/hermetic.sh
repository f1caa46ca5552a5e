#!/bin/sh
# The tests are hermetic (tests/hermetic.sh, the exe_wrapper of every test setup):
# 1. the wrapper unsets the outside families and keeps only what a test set;
# 2. this test, run through it, sees none of the outside variables (.ci/run sets
#    OPENBLAS_CORETYPE=Haswell OPENBLAS_L2_SIZE=512 around the whole test command);
# 3. tests/meson.build's hermetic_vars names every variable clbench reads by name
#    (src/, include/) and every one of those families a test sets (tests/, by name
#    in an env list, a case file's env or a VAR=value argument), so none is unset
#    under a test that meant to set it.
# Usage: hermetic.sh SOURCE_ROOT
set -u
root=$1
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# 1. The wrapper's rule, in an environment of our own making.
out=$(env -i PATH="$PATH" HOME=/h CLBENCH_HERMETIC='CLBENCH_FAKE_CPU_ID CLBENCH_FAULT_ALLOC' \
    OPENBLAS_CORETYPE=Haswell OPENBLAS_L2_SIZE=512 OMP_NUM_THREADS=1 GOTO_NUM_THREADS=1 \
    POCL_DEBUG=all OCLGRIND_QUICK=1 OCL_ICD_VENDORS=/elsewhere SLURM_STEP_NUM_TASKS=4 PMI_SIZE=4 \
    XDG_CACHE_HOME=/x TMPDIR=/t LANG=de_DE.UTF-8 CLBENCH_ICD=/x.so QEMU_CPU=a64fx \
    CLBENCH_FAULT_ALLOC=@clbench-unset@ CLBENCH_FAKE_CPU_ID=AuthenticAMD:0x1a:0x2 KEEP_ME=1 \
    sh "$root/tests/hermetic.sh" env)
for v in OPENBLAS_CORETYPE OPENBLAS_L2_SIZE OMP_NUM_THREADS GOTO_NUM_THREADS POCL_DEBUG OCLGRIND_QUICK \
    OCL_ICD_VENDORS SLURM_STEP_NUM_TASKS PMI_SIZE XDG_CACHE_HOME TMPDIR LANG CLBENCH_ICD QEMU_CPU \
    CLBENCH_FAULT_ALLOC CLBENCH_HERMETIC; do
    printf '%s\n' "$out" | grep -q "^$v=" && bad "hermetic.sh kept $v"
done
for kv in CLBENCH_FAKE_CPU_ID=AuthenticAMD:0x1a:0x2 KEEP_ME=1 HOME=/h LC_ALL=C; do
    printf '%s\n' "$out" | grep -qx "$kv" || bad "hermetic.sh did not keep $kv"
done

# 2. This test's own environment (it sets nothing of those families).
families='^(OPENBLAS_|GOTO_|GOTOBLAS_|OMP_|GOMP_|KMP_|POCL_|OCL_ICD_|OPENCL_|OCLGRIND_|CLBENCH_|OMPI_|PMI_|PMIX_|SLURM_|XDG_|QEMU_|TMPDIR=|LANG=|LANGUAGE=)'
leaked=$(env | grep -E "$families" | cut -d= -f1 | tr '\n' ' ')
[ -z "$leaked" ] || bad "outside variables reached a test: $leaked"
[ "${LC_ALL-}" = C ] || bad "LC_ALL is '${LC_ALL-}', not C"
case "${HOME-}" in */test-home) ;; *) bad "HOME is '${HOME-}', not the build's test-home" ;; esac

# 3. The list against the tree.
listed=$(sed -n '/^hermetic_vars = \[/,/^\]/p' "$root/tests/meson.build" |
    grep -oE "'[A-Z][A-Z0-9_]*'" | tr -d "'" | sort -u)
[ -n "$listed" ] || bad "no hermetic_vars list in tests/meson.build"
# Read by name: getenv, clb_fault's CLBENCH_FAULT_ names, mpi.c's launcher counts.
read_by_name=$(grep -rhoE '(getenv|env_count)\("[A-Z][A-Z0-9_]*"\)' "$root/src" "$root/include" |
        sed 's/.*("\(.*\)")/\1/'
    grep -rhoE 'clb_fault(_str)?\("[A-Z][A-Z0-9_]*"\)' "$root/src" |
        sed 's/clb_fault[_a-z]*("\(.*\)")/CLBENCH_FAULT_\1/')
in_families() {
    case "$1" in
        OPENBLAS_* | GOTO_* | GOTOBLAS_* | OMP_* | GOMP_* | KMP_* | POCL_* | OCL_ICD_* | OPENCL_* | \
            OCLGRIND_* | CLBENCH_* | OMPI_* | PMI_* | PMIX_* | SLURM_* | XDG_* | QEMU_* | TMPDIR) return 0 ;;
    esac
    return 1
}
for v in $(printf '%s\n' "$read_by_name" | sort -u); do
    [ "$v" = HOME ] && continue # the setups set it to the build's test-home
    in_families "$v" || bad "clbench reads $v, which hermetic.sh leaves as it finds it"
    # clbench's own (test hooks, its cache, its ICDs) must be settable by a test.
    case "$v" in
        CLBENCH_*) printf '%s\n' "$listed" | grep -qx "$v" ||
            bad "clbench reads $v, which is not in tests/meson.build's hermetic_vars" ;;
    esac
done
# Set by a test, in an env: list or as a VAR=value argument (of env or a script).
set_by_tests=$(grep -rhoE "['\" ](OPENBLAS|GOTO|OMP|GOMP|KMP|POCL|OCL_ICD|OPENCL|OCLGRIND|CLBENCH|OMPI|PMI|PMIX|SLURM|XDG|QEMU)_[A-Z0-9_]*=|['\" ]TMPDIR=" \
    "$root/tests" --include=meson.build --include="*.json" | grep -oE '[A-Z][A-Z0-9_]*'
    grep -rhoE "\.set\('[A-Z][A-Z0-9_]*'" "$root/tests" --include=meson.build | grep -oE '[A-Z][A-Z0-9_]*' |
        while read -r v; do in_families "$v" && echo "$v"; done)
for v in $(printf '%s\n' "$set_by_tests" | sort -u); do
    printf '%s\n' "$listed" | grep -qx "$v" ||
        bad "a test sets $v, which is not in tests/meson.build's hermetic_vars (hermetic.sh would unset it)"
done
[ $fail -eq 0 ] && echo "hermetic: the wrapper's rule, this test's environment and $(printf '%s\n' "$listed" | wc -l) listed variables hold"
exit $fail
