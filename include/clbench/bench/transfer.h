#ifndef CLBENCH_BENCH_TRANSFER_H
#define CLBENCH_BENCH_TRANSFER_H

/* Host<->device transfer along each of OpenCL's paths (src/bench/transfer.c). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/bench/micro.h"
#include "clbench/cl/env.h"

/*
 * transfer's paths, each a row per direction and size, in this order; the
 * case names them: "h2d pageable 4 KiB", "d2h pinned async 1 MiB",
 * "h2d map 16 MiB", "d2h zero-copy 1 MiB".
 *   PAGEABLE   clEnqueueWrite/ReadBuffer, blocking, from malloc'd memory;
 *   PINNED     the same from a mapped CL_MEM_ALLOC_HOST_PTR buffer;
 *   ASYNC      PINNED enqueued non-blocking, completed by clFinish ("pinned async");
 *   MAP        clEnqueueMapBuffer (h2d: CL_MAP_WRITE_INVALIDATE_REGION, d2h:
 *              CL_MAP_READ) of a device buffer + memcpy + unmap + clFinish;
 *   ZERO_COPY  a CL_MEM_USE_HOST_PTR buffer over page-aligned host memory:
 *              only the handover is timed, map (CL_MAP_WRITE or _READ) + unmap +
 *              clFinish with no copy by the host (near zero where the device
 *              shares host memory); its figure is that time (metric "us", no
 *              bytes counted); h2d is checked by a device-side copy.
 * Every call is timed on the host around the whole path; every row compares
 * every byte. CLBENCH_FAULT_TRANSFER=1 (tests) flips one byte of what arrived
 * before it is compared: every row must fail.
 */
enum clb_transfer_mode {
    CLB_TRANSFER_PAGEABLE,
    CLB_TRANSFER_PINNED,
    CLB_TRANSFER_ASYNC,
    CLB_TRANSFER_MAP,
    CLB_TRANSFER_ZERO_COPY,
    CLB_TRANSFER_MODE_COUNT
};
/* --modes names: "pageable", "pinned", "async", "map", "zero-copy". */
extern const char *const clb_transfer_mode_names[CLB_TRANSFER_MODE_COUNT];
/* What transfer_modes 0 means: the two paths transfer always had. */
#define CLB_TRANSFER_DEFAULT_MODES ((1u << CLB_TRANSFER_PAGEABLE) | (1u << CLB_TRANSFER_PINNED))
int clb_transfer_run(const struct clb_device *dev, const struct clb_cl_env *env,
                     const struct clb_micro_options *opt, struct clb_micro_results *out);

#endif
