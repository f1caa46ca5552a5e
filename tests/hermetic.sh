#!/bin/sh
# Runs a test with none of the outside variables that change clbench's or its
# libraries' behaviour: OpenBLAS's (OPENBLAS_CORETYPE, OPENBLAS_L2_SIZE, thread
# counts), OpenMP's, pocl's, Oclgrind's, the ICD loader's, qemu-user's (a cross build's
# emulator), MPI launchers' (a test inside an
# outer mpirun or Slurm step would think it is one rank of a fleet), clbench's
# own, the XDG folders, TMPDIR and the locale.
#
# Usage: hermetic.sh COMMAND [ARGS...]   (the exe_wrapper of every test setup in
#                                         tests/meson.build)
#        . tests/hermetic.sh; clb_hermetic_clear   (a ci/ script, before it runs clbench)
#
# Under meson the test setups list, in CLBENCH_HERMETIC, the names a test may
# set itself, each preset to the sentinel @clbench-unset@; the test's own env:
# overrides the sentinel. So a listed variable keeps the value its test gave it
# and is unset when it still holds the sentinel, and every other variable of
# those families is unset. Without CLBENCH_HERMETIC every one is unset.
# tests/source/hermetic.sh checks that the list names every variable the tests set.

clb_hermetic_clear() {
    _clb_listed=" ${CLBENCH_HERMETIC-} "
    # awk lists names only: a value holding a newline cannot pass for a name.
    for _clb_name in $(awk 'BEGIN { for (k in ENVIRON) print k }'); do
        case "$_clb_name" in
            OPENBLAS_* | GOTO_* | GOTOBLAS_* | OMP_* | GOMP_* | KMP_* | POCL_* | OCL_ICD_* | \
                OPENCL_* | OCLGRIND_* | CLBENCH_* | OMPI_* | PMI_* | PMIX_* | SLURM_* | XDG_* | QEMU_* | \
                TMPDIR | LANG | LANGUAGE | LC_*) ;;
            *) continue ;;
        esac
        case "$_clb_listed" in
            *" $_clb_name "*)
                eval "_clb_value=\${$_clb_name}"
                [ "$_clb_value" = "@clbench-unset@" ] || continue ;;
        esac
        unset "$_clb_name"
    done
    unset _clb_listed _clb_name _clb_value
    # Numbers and messages as clbench prints them everywhere (grep and jq read them).
    export LC_ALL=C
}

if [ "${0##*/}" = hermetic.sh ]; then
    clb_hermetic_clear
    exec "$@"
fi
