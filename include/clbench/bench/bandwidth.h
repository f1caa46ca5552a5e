#ifndef CLBENCH_BENCH_BANDWIDTH_H
#define CLBENCH_BENCH_BANDWIDTH_H

/*
 * Device memory bandwidth with kernels/stream.cl (BabelStream's copy, mul,
 * add, triad and dot, a read pass, the CPU's chunked dot, local memory), and
 * what every element must hold after it (src/bench/bandwidth.c: the stream benchmark's
 * OpenCL driver; bandwidth_model.c: sizes, bytes a call, the expected values, the clock rule;
 * bandwidth_timing.c: launches on both clocks; bandwidth_local.c: local memory).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/bench/micro.h"
#include "clbench/cl/env.h"

/*
 * The fewest elements a bandwidth array holds: its arrays are whole chunks of
 * the dot kernel's 1024 elements (DOT_CHUNK in src/bench/bandwidth_parts.h), so a
 * smaller --bytes or --sizes entry would skip every row. The commands refuse one.
 */
enum { CLB_STREAM_MIN_ELEMENTS = 1024 };

/*
 * bandwidth's default bytes per array for a device with `global_bytes` of
 * global memory and allocations of at most `max_alloc_bytes`: 1 GiB where a
 * device other than a CPU (`cpu`: CL_DEVICE_TYPE_CPU) has 16 GB (16 x 10^9
 * bytes) or more, else 256 MiB, far beyond the caches either way; then at
 * most one allocation and a quarter of global memory (the three arrays and
 * room to spare). A CPU device keeps 256 MiB: its global memory is the host's
 * RAM, which pocl reports from what is free at the time (5.6 GB and 17.5 GB
 * on one VM an hour apart), so the default, and with it which rows compare,
 * would follow the neighbours' memory.
 */
uint64_t clb_stream_default_bytes(uint64_t global_bytes, uint64_t max_alloc_bytes, bool cpu);

/* How far a CPU device's clock may read above the host's (a ratio) and stay the headline. */
#define CLB_CLOCK_AGREE 0.10

/*
 * Which clock a bandwidth row's headline is from: true the host's, false the device's.
 * cpu: the device is a CPU; device_gbps, host_gbps: the same calls' median figure on each
 * clock (the median whatever --stat, so the choice is the same either way). A GPU keeps its device clock (the host's adds the driver's round
 * trip over the bus); a CPU device keeps it only where it reads at most CLB_CLOCK_AGREE above
 * the host's, since there what it leaves out is the device's own threads starting.
 */
bool clb_bandwidth_host_clock(bool cpu, double device_gbps, double host_gbps);

/* Measures one device in `env` and appends its rows; faults land in rows. */
int clb_bandwidth_run(const struct clb_device *dev, const struct clb_cl_env *env,
                      const struct clb_micro_options *opt, struct clb_micro_results *out);

/*
 * The stream arrays' pattern. Element j of a starts from
 *   v(j) = (1 + g 2^-14) 2^e,  g = 10123 (j mod 16381) mod 16381,  e = (j mod 61) - 30
 * (b from v(j + 1), c from v(j + 2)), exact in float and double. 16381 and 61
 * are primes, so within a period of 16381 x 61 = 999241 elements (no power of
 * two, no multiple of a work-group) every element's start is its own; the
 * multiplier puts neighbours' mantissas far apart (2^-14 is 512 float ulps,
 * and the neighbours' exponents differ). A power of two commutes with every
 * rounding while nothing under- or overflows (2^-30 x 0.96^200 x 0.4 is far
 * above float's 2^-126, 2^31 x 1.4 far below 2^128), so an element's rounds
 * are its mantissa's rounds scaled by 2^e: the host replays 16381 mantissas,
 * not every element.
 */
enum { CLB_STREAM_PERIOD = 16381 * 61 };
double clb_stream_start(uint64_t j);

/*
 * What every element may hold after `iters` rounds of copy, mul, add, triad
 * (BabelStream's order and scalar, 0.4) in float or, with fp64, double: for
 * each start mantissa, the range [lo, hi] of a, b and c over every way the
 * device may round the triad b + 0.4 c (the product rounded, or fused into
 * the add: OpenCL C may contract either way, in any round). Each operation is
 * monotone in its inputs (all positive), so replaying the lowest and highest
 * values through both forms bounds every mix; a device with correctly rounded
 * add, multiply and fma (OpenCL's full profile) lands inside, to the bit.
 */
struct clb_stream_expect {
    unsigned iters;
    bool fp64;
    double *lo, *hi;        /* owned: [3 g + array], array 0 a, 1 b, 2 c */
};
/* 0, or -1 when out of memory. */
int clb_stream_expect_init(struct clb_stream_expect *x, unsigned iters, bool fp64);
void clb_stream_expect_free(struct clb_stream_expect *x);
/* The range element j of array (0 a, 1 b, 2 c) may hold; after 0 rounds, its start. */
void clb_stream_expected(const struct clb_stream_expect *x, uint64_t j, int array, double *lo,
                         double *hi);

/* What one precision's bandwidth run left behind, for clb_stream_verify. */
struct clb_stream_outcome {
    const void *a, *b, *c;  /* n elements each, float or double (fp64); any may be NULL */
    size_t n;
    bool fp64;
    unsigned iters;         /* rounds since the arrays were set */
    double dot, read;       /* the last dot product and read pass's sums */
    bool read_chunked;      /* the read pass was the cpu path's (chunks of 1024, 2 x 16
                               lanes), not the gpu path's (16 elements strided by n / 16) */
    bool has_chunked;       /* and the CPU's chunked dot product's */
    double dot_chunked;
    size_t dot_global, dot_local; /* the dot's grid: work-items, and per work-group */
};

/*
 * What the host expects of BabelStream's dot over o's grid and o's arrays
 * a and b (as the device left them): each work-item's slot adds its
 * products in sequence (each product rounded, or fused into the add), the
 * work-group halves its slots in a tree, the host sums the partials
 * compensated. NAN without both arrays, for a grid that is not whole
 * work-groups, or out of memory.
 */
double clb_stream_dot_replay(const struct clb_stream_outcome *o, bool fused);

/*
 * What clb_stream_verify found, one message per check ("" when it passed):
 * the arrays (which copy, mul, add and triad wrote), BabelStream's dot, the
 * read pass's sum and the chunked dot. Each row of a bandwidth run takes its
 * own kernel's: a wrong read sum fails the read row, not triad's.
 */
struct clb_stream_verdict {
    char arrays[256], dot[256], read[256], chunked[256];
};

/*
 * Checks the bandwidth benchmark's outcome: every element of every array
 * against its range after `iters` rounds from its own start
 * (clb_stream_expected); then, against the arrays themselves, BabelStream's
 * dot against its exact replay (clb_stream_dot_replay, within 4 ulps), the
 * read sum against the sum of a (gpu path: 16 ulps; cpu path: 64) and the chunked dot against the
 * sum of a * b (64 ulps). Returns whether all passed; v says which did not.
 */
bool clb_stream_verify(const struct clb_stream_outcome *o, struct clb_stream_verdict *v);

/*
 * Local memory's tile (clb_stream_local in stream.cl): entry j's bits, a float
 * (double with fp64) in [1, 2) whose mantissa is a multiplicative hash of j; and
 * what every work-item must return, each of the 256 entries read 64 times
 * (16 reads x 1024 rounds / 256) and their bits summed, modulo 2^32 (2^64).
 * A read of fewer entries changes it; a permutation of the same entries does
 * not (every entry is still read).
 */
uint64_t clb_stream_local_bits(unsigned entry, bool fp64);
uint64_t clb_stream_local_expected(bool fp64);

#endif
