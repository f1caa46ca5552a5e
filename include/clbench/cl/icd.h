#ifndef CLBENCH_CL_ICD_H
#define CLBENCH_CL_ICD_H

/*
 * The ICD loader: which OpenCL drivers (ICDs) it sees, adding ones no .icd
 * file registers (NVIDIA's libnvidia-opencl.so.1 in containers, typically),
 * and the loader's own name and version (src/cl/icd.c).
 */
#include <stddef.h>

#include "clbench/util/error.h"

struct clb_icd {
    char file[256];    /* the .icd file */
    char library[512]; /* the library it names */
};

/* The vendors folder the loader reads: $OCL_ICD_VENDORS or /etc/OpenCL/vendors. */
const char *clb_icd_vendors_dir(void);

/* The .icd entries of that folder, sorted, at most `cap`; returns how many. */
size_t clb_icd_list(struct clb_icd *out, size_t cap);

/*
 * Makes the loader also load the libraries in `libs` (colon-separated paths,
 * from --icd or $CLBENCH_ICD): writes a private vendors folder holding the
 * current folder's entries plus one .icd per library, and points
 * OCL_ICD_VENDORS at it. Must run before the first OpenCL call. The folder
 * ($TMPDIR or /tmp, "clbench-icd-XXXXXX") is removed at exit (atexit). -1
 * with e set when a library does not exist or the folder cannot be made.
 */
int clb_icd_add(const char *libs, struct clb_error *e);

/*
 * The ICD loader's name and version ("OpenCL ICD Loader", "2.3.1") through
 * the clGetICDLoaderInfoOCLICD extension (ocl-icd and Khronos's loader);
 * "unknown" for a loader without it.
 */
void clb_icd_loader_info(char *name, size_t name_len, char *version, size_t version_len);

#endif
