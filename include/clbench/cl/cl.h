#ifndef CLBENCH_CL_CL_H
#define CLBENCH_CL_CL_H

/*
 * The one door to the OpenCL API: the headers at the 1.2 level (what NVIDIA,
 * AMD, Intel and pocl all accept), error names, and the checking helper that
 * every call's status goes through.
 */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
/* clGetExtensionFunctionAddress: the only way to reach loader extensions at 1.2. */
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <stdbool.h>
#include <stddef.h>

#include "clbench/util/error.h"

/* "CL_OUT_OF_RESOURCES" for -5; "CL_UNKNOWN_ERROR" for a code it does not know. */
const char *clb_cl_errname(cl_int err);

/*
 * If err is not CL_SUCCESS, fills e with "CALL: ERRNAME (CODE)". Returns err,
 * so that it reads `if (clb_cl_check(e, "clFinish", clFinish(q))) goto fail;`.
 */
cl_int clb_cl_check(struct clb_error *e, const char *call, cl_int err);

/* Checks a call that returns its status, naming it after itself. */
#define CLB_CL(e, fn, ...) clb_cl_check((e), #fn, fn(__VA_ARGS__))

/*
 * Builds `source` for one device with `options` (may be NULL). On failure,
 * prints the build log to stderr (prefixed with the device name) and returns
 * NULL with e set. The caller owns the returned program (clReleaseProgram).
 */
cl_program clb_cl_build(cl_context ctx, cl_device_id dev, const char *source,
                        const char *options, struct clb_error *e);
/*
 * The same, and on a failed build also fills log (log_len bytes, may be 0)
 * with clb_cl_log_digest of the build log ("" when the driver gives none).
 */
cl_program clb_cl_build_log(cl_context ctx, cl_device_id dev, const char *source,
                            const char *options, char *log, size_t log_len, struct clb_error *e);
/*
 * A build log in one line for a row's reason: from the first line that says
 * "error" (else the start), lines joined by " | ", blank lines dropped, cut
 * to out_len - 1 bytes (ending in "..." when cut).
 */
void clb_cl_log_digest(const char *log, char *out, size_t out_len);

/*
 * clCreateBuffer through the fault-injection hook below; use it for every
 * buffer clbench allocates itself.
 */
cl_mem clb_cl_buffer(cl_context ctx, cl_mem_flags flags, size_t size, void *host,
                     cl_int *err);

/*
 * Fault injection for tests, from the environment (never set in normal use):
 *   CLBENCH_FAULT_BUILD=TEXT  builds whose options contain TEXT ("*": all) get
 *                             a source that does not compile: a real compiler
 *                             error and build log;
 *   CLBENCH_FAULT_ALLOC=N     the N-th buffer clbench allocates (from 1), and
 *                             every later one, fails with
 *                             CL_MEM_OBJECT_ALLOCATION_FAILURE;
 *   CLBENCH_FAULT_CONTEXT=1   creating a context fails with CL_DEVICE_NOT_AVAILABLE;
 *   CLBENCH_FAULT_FINISH=N    the N-th clb_cl_finish, and every later one, reports
 *                             CL_OUT_OF_RESOURCES (a device fault mid-run);
 *   CLBENCH_FAULT_FINISH_DELAY_US=N  every clb_cl_finish sleeps N microseconds after
 *                             clFinish returns (a driver whose wait returns late):
 *                             host-clock times grow by N, the device's do not;
 *   CLBENCH_FAULT_NO_PROFILING=1  clb_cl_event_seconds reports
 *                             CL_PROFILING_INFO_NOT_AVAILABLE (a device without
 *                             profiling info: bandwidth falls back to the host clock);
 *   CLBENCH_FAULT_KERNEL_WG_SIZE=N  bandwidth takes N as the largest work-group its
 *                             kernels allow where CL_KERNEL_WORK_GROUP_SIZE says more (a
 *                             kernel whose registers or local memory allow less than
 *                             the device's maximum);
 *   CLBENCH_FAULT_STREAM_ENQUEUE=KERNEL  bandwidth's enqueue of KERNEL (copy, mul,
 *                             add, triad, dot, read, chunked or local) fails with
 *                             CL_OUT_OF_RESOURCES before reaching the driver: its row
 *                             is an error, every other kernel's row stands;
 *   CLBENCH_FAULT_CLBLAST=1   CLBlast is called with a leading dimension of C too
 *                             large for its buffer: a real CLBlast error;
 *   CLBENCH_FAULT_TILE=1      every GEMM result from a device gets one 16x16 block
 *                             zeroed at a random place before it is verified (as a
 *                             kernel that skips a tile): every such row must fail;
 *   CLBENCH_FAULT_PAD=1       every GEMM result from a device in a mode with padding
 *                             or an offset gets one element of C's buffer outside
 *                             the matrix changed (src/bench/gemm_run.c): every such
 *                             row must fail;
 *   CLBENCH_FAULT_STREAM_INDEX=KERNEL  bandwidth builds kernels/stream.cl with
 *                             -DCLB_WRAP, so that KERNEL (copy, mul, add, triad, dot,
 *                             read, chunked or local) reads the right count of the
 *                             wrong elements: its index wrapped to the first 4096
 *                             elements (local: 64 tile entries). Its row must fail.
 *   CLBENCH_FAULT_LATE=1      every GEMM result but a row's first call's, from any
 *                             backend, gets C's first element changed before it is
 *                             verified (as a kernel whose later calls go wrong): every
 *                             row must fail, whatever beta is.
 *   CLBENCH_FAULT_SLOW=1      every timed GEMM call (src/bench/gemm_run.c) sleeps 9x
 *                             its own time plus 50 ms after it returns, so its time is
 *                             10x + 50 ms (a straggler rank: tests/mpi/fleet.sh).
 */
bool clb_fault_build(const char *options);
bool clb_fault_alloc(void);
bool clb_fault(const char *name); /* CLBENCH_FAULT_<name> is set and not "0" */
const char *clb_fault_str(const char *name); /* its value then, else NULL */

/* clFinish through the CLBENCH_FAULT_FINISH and _FINISH_DELAY_US hooks; use it for every wait. */
cl_int clb_cl_finish(cl_command_queue q);

/*
 * A completed command's CL_PROFILING_COMMAND_START and _END, in seconds from
 * START to END (through the CLBENCH_FAULT_NO_PROFILING hook). The queue must
 * have CL_QUEUE_PROFILING_ENABLE. Returns CL_SUCCESS, the call's error, or
 * CL_PROFILING_INFO_NOT_AVAILABLE where END is not after START (a device
 * whose counters say nothing).
 */
cl_int clb_cl_event_seconds(cl_event ev, double *seconds);

/*
 * The ICD loader's name and version ("OpenCL ICD Loader", "2.3.1") through
 * the clGetICDLoaderInfoOCLICD extension (ocl-icd and Khronos's loader);
 * "unknown" for a loader without it.
 */
void clb_icd_loader_info(char *name, size_t name_len, char *version, size_t version_len);

/*
 * One context and in-order queue on one device, the unit every benchmark runs
 * in. `profiling` enables CL_QUEUE_PROFILING_ENABLE.
 */
struct clb_cl_env {
    cl_context ctx;
    cl_command_queue queue;
    cl_device_id device;
};

int clb_cl_env_init(struct clb_cl_env *env, cl_device_id dev, bool profiling,
                    struct clb_error *e);
/* Releases what init created; safe on a zeroed or half-initialised env. */
void clb_cl_env_finish(struct clb_cl_env *env);

#endif
