#ifndef CLBENCH_BACKENDS_IDENTITY_H
#define CLBENCH_BACKENDS_IDENTITY_H

/*
 * What the CLBlast and OpenBLAS backends are called, whether built with their
 * library (clblast.c, openblas.c) or as the stand-ins without it
 * (clblast_missing.c, openblas_missing.c): the name -b, --help and result files
 * use, the library the run record names, the summary's common start and the
 * Xgemm tuning part's kernel, label and parameter names (the tuning cache's
 * keys). One place, so the two builds cannot drift; tests/unit/test_backends.c
 * holds whichever was built to it.
 */
#define CLB_CLBLAST_NAME "clblast"
#define CLB_CLBLAST_LIBRARY "CLBlast"
#define CLB_CLBLAST_SUMMARY "CLBlast's GEMM on each selected device"
#define CLB_CLBLAST_XGEMM_KERNEL "Xgemm"
#define CLB_CLBLAST_XGEMM_LABEL "CLBlast Xgemm"
/* An initialiser of a NULL-terminated const char *const[]. */
#define CLB_CLBLAST_XGEMM_PARAMS                                                               \
    { "GEMMK", "KREG", "KWG",  "KWI",  "MDIMA", "MDIMC", "MWG", "NDIMB", "NDIMC",             \
      "NWG",   "SA",   "SB",   "STRM", "STRN",  "VWM",   "VWN", NULL }

#define CLB_OPENBLAS_NAME "openblas"
#define CLB_OPENBLAS_LIBRARY "OpenBLAS"
#define CLB_OPENBLAS_SUMMARY "OpenBLAS on the host CPU, the baseline"

#endif
