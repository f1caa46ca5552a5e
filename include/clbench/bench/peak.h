#ifndef CLBENCH_BENCH_PEAK_H
#define CLBENCH_BENCH_PEAK_H

/*
 * The peak arithmetic rate of one device with kernels/peak.cl, per precision
 * and vector width, and what each launch must return (src/bench/peak.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/bench/micro.h"
#include "clbench/cl/env.h"

/* Measures one device in `env` and appends its rows; faults land in rows. */
int clb_peak_run(const struct clb_device *dev, const struct clb_cl_env *env,
                 const struct clb_micro_options *opt, struct clb_micro_results *out);

/*
 * What every work-item of one peak launch must return, exposed for unit
 * tests. Floating point: chain k of lane l of work-item g starts at
 * -1 + u 2^-10, u = k + 8 l + 128 (g mod 7), and each round adds exactly
 * 2^-10; int32: x0 = k + 1000 l + 7919 g, then x <- 1664525 x + 1013904223
 * (mod 2^32); int16, int8: x0 = k + 9 l + 7919 g and the same recurrence
 * mod 2^16, 2^8 (the coefficients truncated: a = 1 mod 4, b odd, so full
 * period; peak runs int8 for 1000 rounds, no multiple of 256, the others
 * for 1024); int8dot: x0 = 0x01010101 (1 + k + 8 (g mod 7)), then
 * x <- x + the dot product of x's bytes with (3, 5, 7, 11) (unsigned,
 * cl_khr_integer_dot_product's dot_acc_sat, never saturating). A
 * work-item returns the sum of its chains (k = 0 .. chains - 1) over its lanes (wrapping in
 * uint32 for int32 and int8dot; int16 and int8 sum their chains' values
 * in uint32, which never wraps): exact in every precision, so any
 * difference is a fault (a skipped round, a lane or a work-item computed
 * once and copied).
 *
 * The peak command's types, in its order: fp32, fp64, fp16, bf16 (always
 * unavailable: OpenCL C has no bfloat16 arithmetic), int32, int16, int8
 * (all at widths 1..16, "giops" for the integers), int8dot (one width, 4;
 * 8 operations per dot_acc_sat, as clpeak counts: 4 multiplies, 4 adds).
 * int8dot needs cl_khr_integer_dot_product; the test hook
 * CLBENCH_FAKE_INTEGER_DOT_PRODUCT=1 runs it anyway, the dot product
 * written out in OpenCL C (its check says so).
 */
enum clb_peak_form {
    CLB_PEAK_BY_CLASS, /* floating point, int8dot: work-item g returns by_class[g % 7] */
    CLB_PEAK_LINEAR,   /* int32: slope g + offset (mod 2^32) */
    CLB_PEAK_WRAPPED,  /* int16, int8: each chain wraps, their sum does not: the sum over
                          chains j of (ends[j] + u) & mask, u = slope g & mask (a sum of
                          chains x W chains mod 2^8 could not tell a loop that never ran) */
};

struct clb_peak_expect {
    enum clb_peak_form form;
    bool integer;           /* int8, int16, int32, int8dot: out holds uint32 */
    size_t out_size;        /* bytes per output element: 4 (float, uint32) or 8 (double) */
    double by_class[7];
    uint32_t slope, offset, mask; /* WRAPPED: offset is the sum of ends */
    uint32_t ends[128];     /* WRAPPED: each chain's end for g = 0, sorted */
    unsigned n_chains;      /* WRAPPED: chains x width */
};

/*
 * Independent chains per work-item (the kernel's -DCHAINS) for vectors of
 * `width` elements of `element_bytes` each (the kernel's WIDTH and T: int8dot
 * 1 and 4). CPUs (gpu false) take 8: pocl vectorises across work-items, and
 * an FMA's latency (~4 cycles) times its 2 pipes needs 8 in flight. GPUs
 * hold a work-item's live accumulators, chains x width elements of at least
 * one 32-bit register each (narrow types are not reliably packed), to
 * CLB_PEAK_GPU_WORDS: chains = min(8, max(1, 64 / (width x words))). Every
 * FMA pipe there is fed by other warps as well (a GPU interleaves many
 * per scheduler), so 64 independent element FMAs per work-item and round
 * are ample, while 64 words leave room in a 128-register work-item for
 * temporaries and the occupancy that hides latency, far below the 255-256
 * registers past which NVIDIA's and AMD's compilers spill (8 chains of
 * fp64 x16 would be 256 words before any temporary).
 */
enum { CLB_PEAK_GPU_WORDS = 64, CLB_PEAK_MAX_CHAINS = 8 };
unsigned clb_peak_chains(bool gpu, unsigned width, size_t element_bytes);

/* For `iters` rounds (the kernel's arithmetic is exact up to 1024) of `chains` (1..8)
 * chains of WIDTH-lane vectors (1..16; int8dot: 4). */
void clb_peak_expect_init(struct clb_peak_expect *x, enum clb_precision precision, unsigned width,
                          unsigned chains, unsigned iters);
/* The value work-item `item` must return (integers: the unsigned value as a double). */
double clb_peak_expected(const struct clb_peak_expect *x, uint64_t item);
/*
 * Checks n outputs of a launch, those of work-items first .. first + n - 1
 * (float for fp16 and fp32, double for fp64, uint32 for the integers), each
 * against its own expected value, exactly.
 * Returns true, or false with `why` naming the first wrong work-item.
 */
bool clb_peak_verify(const struct clb_peak_expect *x, uint64_t first, const void *out, size_t n,
                     char *why, size_t why_len);

/*
 * Peak's launch shape. Every launch is whole work-groups of an explicit
 * local size, so no runtime may run a small launch as one work-group on one
 * core (pocl does so up to 4096 work-items): clb_peak_local_size is the
 * largest multiple of the kernel's preferred multiple
 * (CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE) within CLB_PEAK_LOCAL_MAX,
 * the kernel's largest work-group (CL_KERNEL_WORK_GROUP_SIZE) and the
 * device's (CL_DEVICE_MAX_WORK_GROUP_SIZE); 0 for any of the three: not
 * reported, no bound. Never below 1; the bounds win over the multiple.
 */
enum { CLB_PEAK_LOCAL_MAX = 256, CLB_PEAK_GROUPS_PER_CU = 4 };
uint64_t clb_peak_local_size(uint64_t preferred_multiple, uint64_t kernel_max,
                             uint64_t device_max);
/*
 * The first launch: CLB_PEAK_GROUPS_PER_CU work-groups of `local` per compute
 * unit (0 units: read as 1), held to max_global (clb_peak_max_global).
 */
uint64_t clb_peak_first_global(uint64_t compute_units, uint64_t local, uint64_t max_global);
/* Whether a launch of `global` work-items in groups of `local` holds CLB_PEAK_GROUPS_PER_CU
 * work-groups per compute unit: its rate is then the whole device's (0 units: false). */
bool clb_peak_fills_device(uint64_t global, uint64_t local, uint64_t compute_units);
/*
 * Peak's launch sizing. Each size is launched twice and the faster call, the
 * lower of seconds[0] and seconds[1], decides: one call slowed by another
 * process does not end the growth early. The next launch's work-items after
 * two of `global`: unchanged once the faster took target_s (or global
 * reached max_global); else global x target_s / seconds x 1.25 (at most
 * x 1024 in one step), rounded up to whole groups of `local` and held to
 * max_global (a multiple of local). Launches grow from clb_peak_first_global
 * by this rule until the faster of two takes target_s.
 */
uint64_t clb_peak_next_global(const double seconds[2], uint64_t global, uint64_t local,
                              double target_s, uint64_t max_global);
/*
 * The most work-items one peak launch takes: one out_size-byte output each
 * within max_alloc_bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE), indices within
 * 32 bits, whole groups of `local` (0: read as 1). Their outputs are read
 * back and checked 2^20 at a time, so host memory stays bounded.
 */
uint64_t clb_peak_max_global(uint64_t max_alloc_bytes, size_t out_size, uint64_t local);
/* Whether a CL_DEVICE_OPENCL_C_VERSION string ("OpenCL C 3.0 ...") is 3.0 or later: int8dot
 * is then built with -cl-std=CL3.0 (so is it where CL_DEVICE_OPENCL_C_ALL_VERSIONS lists 3.0). */
bool clb_peak_c_version_3(const char *c_version);

#endif
