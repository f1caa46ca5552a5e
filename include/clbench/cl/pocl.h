#ifndef CLBENCH_CL_POCL_H
#define CLBENCH_CL_POCL_H

/* What pocl, the CPU driver of CI, needs before the first OpenCL call (src/cl/pocl.c). */
#include <stddef.h>

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
