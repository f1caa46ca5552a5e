#ifndef CLBENCH_CL_ICD_H
#define CLBENCH_CL_ICD_H

/*
 * Which OpenCL drivers (ICDs) the loader sees, and adding ones no .icd file
 * registers (NVIDIA's libnvidia-opencl.so.1 in containers, typically).
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
 * pocl lists its platform with no device at all when it cannot create its
 * kernel cache ($POCL_CACHE_DIR, else $XDG_CACHE_HOME/pocl/kcache, else
 * $HOME/.cache/pocl/kcache), as with a read-only or missing home in
 * containers and CI runners. When an ICD of the vendors folder is pocl,
 * POCL_CACHE_DIR is unset (or empty, which makes pocl abort) and the
 * default folder cannot be made, this points POCL_CACHE_DIR at a private
 * folder ($TMPDIR or /tmp, "clbench-pocl-UID", 0700, never one owned by
 * someone else) and writes one line saying so into `note`. Returns 1 when it
 * did, 0 when nothing was needed, -1 when no folder could be found (`note`
 * says why). Must run before the first OpenCL call.
 */
int clb_pocl_cache_prepare(char *note, size_t len);

#endif
