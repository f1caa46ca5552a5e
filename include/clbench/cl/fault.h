#ifndef CLBENCH_CL_FAULT_H
#define CLBENCH_CL_FAULT_H

/*
 * The OpenCL calls clbench makes through a fault-injection hook, and the hooks
 * themselves, which tests set from the environment (src/cl/fault.c).
 */
#include <stdbool.h>
#include <stddef.h>

#include "clbench/cl/cl.h"

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
 *   CLBENCH_FAULT_NOISY=1     every second timed GEMM call (the 2nd, 4th, ...) sleeps
 *                             100 ms after it returns (a rank too noisy to judge another
 *                             by: tests/mpi/fleet.sh).
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

#endif
