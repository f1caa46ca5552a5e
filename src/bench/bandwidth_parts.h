#ifndef CLBENCH_BENCH_BANDWIDTH_PARTS_H
#define CLBENCH_BENCH_BANDWIDTH_PARTS_H

/*
 * Private to src/bench/bandwidth*.c (clbench/bench/bandwidth.h): what the
 * parts share.
 *   bandwidth.c         the stream benchmark's OpenCL driver: buffers, kernels, rounds
 *   bandwidth_model.c   the stream model: array sizes, bytes a call, the values every
 *                       element and sum must hold, which clock a row reports
 *   bandwidth_timing.c  a launch timed on both clocks, and a row's clock made final
 *   bandwidth_local.c   local-memory bandwidth, a benchmark of its own
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/bench/bandwidth.h"
#include "clbench/bench/micro.h"
#include "clbench/cl/env.h"

/* BabelStream's scalar (mul, triad). */
#define SCALAR 0.4

enum { K_COPY, K_MUL, K_ADD, K_TRIAD, K_DOT, K_READ, K_DOT_CHUNKED, N_KERNELS };
/* Elements per work-item of clb_stream_dot_chunked and clb_stream_read_chunked (DOT_CHUNK,
 * READ_CHUNK in stream.cl); the gpu path's read adds 16 a work-item. */
enum { DOT_CHUNK = 1024, READ_CHUNK = 1024, READ_STRIDED = 16 };

/* Elements of arrays of at most `bytes`, elem bytes each: whole chunks of DOT_CHUNK (0 when
 * not one fits). */
size_t clb_bw_elements(uint64_t bytes, size_t elem);

/* Bytes kernel k (K_COPY ...) moves a call over n elements of elem bytes: the arrays it
 * reads plus writes, the reductions' partial sums with them; cpu: the cpu path's read. */
double clb_bw_bytes_per_call(int k, bool cpu, size_t n, size_t elem);

/* The sum of a[j] (or a[j] * b[j], b not NULL) over the first n elements of arrays of float
 * or double (fp64), compensated: exact to the last bit or two (millions of terms would
 * otherwise add the host's own rounding, as large as the device's in double). */
double clb_bw_exact_sum(const void *a, const void *b, bool fp64, size_t n);

/* stream.cl's build options in buf (len bytes): the precision, and the test hook's
 * -DCLB_WRAP=K for the kernel CLBENCH_FAULT_STREAM_INDEX names (clbench/cl/fault.h; K as
 * stream.cl numbers them). NULL: none. */
const char *clb_bw_build_options(bool fp64, char *buf, size_t len);

/* The largest work-group kernel k allows on dev (CL_KERNEL_WORK_GROUP_SIZE) in *most, at
 * most CLBENCH_FAULT_KERNEL_WG_SIZE where that test hook is set; 0, or -1 with e set. */
int clb_bw_kernel_wg_size(cl_kernel k, cl_device_id dev, size_t *most, struct clb_error *e);

/*
 * One launch of k (CLBENCH_FAULT_STREAM_ENQUEUE's name for it: `name`) on `global` (and
 * `local`, or NULL for the runtime's choice), timed twice, in seconds: on the device's clock
 * (*device_s: its event's START to END, the kernel alone) and on the host's around the
 * enqueue and clFinish (*host_s: what BabelStream times, the driver's round trip too).
 * *profiling gets the profiling info's error (0 when *device_s holds the kernel's time).
 * 0, or -1 with e set.
 */
int clb_bw_timed_launch(cl_command_queue q, cl_kernel k, const char *name, size_t global,
                        const size_t *local, double *device_s, double *host_s,
                        cl_int *profiling, struct clb_error *e);

/* Appends one call to row: the device's time as its time, the host's beside it; a call
 * without profiling info (as clb_bw_timed_launch gave it) is timed on the host
 * (clb_bw_timer_finish makes the row all host). -1 when out of memory, the row unchanged. */
int clb_bw_timed_push(struct clb_row *row, double device_s, double host_s,
                      cl_int profiling);

/*
 * Names the row's clock and summarizes it: the device's where every call had profiling info
 * (profiling: the first error a call's gave, else 0) and the device is not a CPU whose clock
 * leaves out its own work (clb_bandwidth_host_clock), else the host's for every call, with
 * why.
 */
void clb_bw_timer_finish(struct clb_row *row, cl_int profiling);

/* Local memory's row in one precision appended to out (bandwidth_local.c); -1 only when out
 * of memory for the row, every fault on it. */
int clb_bw_measure_local(const struct clb_device *dev, const struct clb_cl_env *env,
                         const struct clb_micro_options *opt, bool fp64,
                         struct clb_micro_results *out);

#endif
