#ifndef CLBENCH_BENCH_MICRO_H
#define CLBENCH_BENCH_MICRO_H

/*
 * The measurements that explain GEMM figures, with clbench's own kernels
 * (kernels/peak.cl, stream.cl, latency.cl): peak arithmetic rate, device
 * memory bandwidth, host<->device transfer, launch latency. Each fills plain
 * rows; every figure comes from a result the host checked. bandwidth times
 * each call on the device's clock (the kernel's profiling event) and keeps
 * the host's clock beside it (clb_micro_row's timer, host_times_s).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/bench/stats.h"
#include "clbench/cl/device.h"
#include "clbench/core/types.h"

struct clb_micro_row {
    const struct clb_device *device; /* NULL: the host CPU itself (clbench/hostpeak.h) */
    const char *backend;        /* who measured: "host" (clb_host_peak_run); NULL: clbench's kernels */
    const char *benchmark;      /* "peak", "bandwidth", "transfer", "latency", "collective" */
    char case_[64];             /* "fp32 x8", "triad", "h2d pinned 16 MiB", "round trip" */
    const char *metric;         /* "gflops", "giops", "gbps", "us" */
    const char *precision;      /* peak: "fp32", "fp64", "fp16", "bf16", "int32", "int16",
                                   "int8", "int8dot"; bandwidth: "fp32", "fp64"; else NULL */
    unsigned width;             /* peak: vector width (int8dot: 4, one packed dot); else 0 */
    bool headline;              /* peak: the best width of its precision */
    enum clb_row_status status;
    char reason[512];           /* for every status but OK */
    double work;                /* per timed call: operations or bytes (0: latency) */
    double *times_s;            /* owned; every timed call */
    size_t n_times;
    struct clb_stats time_s;
    double value;               /* headline figure: median or best, as stat_best says */
    double median;              /* from the median call */
    double best;                /* from the fastest call (latency: the lowest) */
    bool stat_best;             /* value is best (--stat best); else the median */
    size_t times_cap;           /* room in times_s (clb_micro_push) */
    double measured_s;          /* the sum of times_s */
    char check[256];            /* what was verified, e.g. "max rel err 2e-7" */
    /* collective (clbench/mpi/collective.h) only: */
    int ranks;                  /* ranks that took part */
    double algbw;               /* GB/s from the median call; value is busbw */
    double path_median_s;       /* device buffers: median whole path (read, MPI, write); else 0 */
    struct clb_datasheet_ref datasheet; /* peak (vector figure), bandwidth (memory) */
    double clock_ghz;           /* host peak: the cores' clock measured during its FMA run
                                   (0: none; clb_host_fma_clock_ghz) */
    double clock_under_fma;     /* host peak: the share of that clock call the threads spent
                                   in the FMA kernel (0..1) */
    /*
     * The timed kernel's launch, as run, so that tests hold `work` to it (0s where
     * nothing was launched; the JSON row's "launch").
     * peak (clbench's kernels and the host's): work = global_size x rounds x chains x
     * (operations of one chain step on a `width`-element vector).
     * bandwidth: work = the bytes the kernel's work-items move (elements, global_size,
     * local_size; local: rounds of 16 reads each).
     */
    struct clb_micro_launch {
        uint64_t global_size;   /* work-items per launch; host peak: threads */
        uint64_t local_size;    /* bandwidth: per work-group; 0: the runtime's choice */
        uint64_t rounds;        /* peak: loop rounds each work-item (thread) runs; bandwidth
                                   local: the kernel's `rounds` argument; else 0 */
        uint64_t elements;      /* bandwidth: per array (the streams; 0 for local) */
        unsigned width;         /* peak: the kernel's vector width (WIDTH; int8dot: 1, a
                                   packed uint) */
        unsigned chains;        /* peak: independent chains per work-item, the kernel's CHAINS
                                   (clb_peak_chains; host: accumulators) */
        char options[160];      /* peak on OpenCL: the kernel's build options; else "" */
    } launch;
    /* bandwidth of the three stream arrays only (set by clb_bandwidth_run, then the attach
     * step of clbench/commands' common.h): */
    uint64_t array_bytes;       /* bytes of each of the three arrays (0: not of them) */
    uint64_t llc_bytes;         /* the last-level cache they were held against (0: unknown) */
    bool cache_resident;        /* 3 x array_bytes <= llc_bytes: cache, not DRAM, fed it */
    bool datasheet_withheld;    /* a memory figure exists but, cache-resident, is not applied */
    /*
     * bandwidth only (NULL/0 elsewhere): the clock times_s is from, "device" (each call the
     * kernel's profiling event, CL_PROFILING_COMMAND_START to END) or "host" (clb_now_s
     * around the enqueue and its clFinish, as BabelStream times; the fallback where the
     * device gives no profiling info, timer_why says so). With the device's clock,
     * host_times_s holds the same calls timed on the host (enqueue to clFinish's return),
     * call i of each the same launch: the figure BabelStream would give, never the headline.
     */
    const char *timer;
    char timer_why[160];        /* "host" only: why not the device's clock */
    double *host_times_s;       /* owned; n_host_times == n_times, or 0 */
    size_t n_host_times, host_times_cap;
    double host_value;          /* from host_times_s, by the headline's statistic (GB/s) */
    const char *code_path;      /* bandwidth's stream rows: "cpu" or "gpu", the kernels' variant */
    const char *kernel;         /* bandwidth: the kernel, "triad", "dot chunked", "local"; else NULL */
};

struct clb_micro_results {
    struct clb_micro_row *rows;
    size_t n_rows, cap;
};

/* Appends a zeroed row (NULL when out of memory). */
struct clb_micro_row *clb_micro_add(struct clb_micro_results *r, const struct clb_device *dev,
                                    const char *benchmark, const char *metric);
void clb_micro_results_finish(struct clb_micro_results *r);
/* Fills time_s, median, best and value from times_s and work (or from times for latency). */
void clb_micro_row_summarize(struct clb_micro_row *row);

/*
 * Marks the headline of each peak figure (device, backend, precision) again:
 * the verified width with the highest value, after value changed meaning
 * (--stat best). A figure with no verified width keeps its mark.
 */
void clb_micro_pick_headlines(struct clb_micro_results *r);

/*
 * The fewest elements a bandwidth array holds: its arrays are whole chunks of
 * the dot kernel's 1024 elements (DOT_CHUNK in src/bench/bandwidth.c), so a
 * smaller --bytes or --sizes entry would skip every row. The commands refuse one.
 */
enum { CLB_STREAM_MIN_ELEMENTS = 1024 };

/* Timed calls one figure takes at most, however short they are. */
enum { CLB_MICRO_MAX_CALLS = 20000 };

/*
 * Whether row takes another timed call: it has fewer than `calls`, or its
 * calls add up to less than min_time_s seconds (and fewer than
 * CLB_MICRO_MAX_CALLS): clpeak's rule of measuring for a while rather than
 * a count, so a wandering clock or a busy neighbour averages out.
 */
bool clb_micro_want(const struct clb_micro_row *row, size_t calls, double min_time_s);
/* Appends one call's seconds to times_s (grown as needed); -1 when out of memory. */
int clb_micro_push(struct clb_micro_row *row, double seconds);
/* Appends one call's host-clock seconds to host_times_s; -1 when out of memory. */
int clb_micro_push_host(struct clb_micro_row *row, double seconds);

/*
 * bandwidth's code paths (`--code-path`, enum clb_code_path in
 * clbench/core/types.h): cpu, the read pass in contiguous chunks, the chunked
 * dot, BabelStream's CPU dot grid; gpu, the coalesced read, no chunked dot,
 * the GPU dot grid.
 */

struct clb_micro_options {
    unsigned runs;            /* timed calls per figure, at least (>= 1) */
    double min_time_s;        /* and at least this many seconds of them (0: runs alone) */
    uint64_t bytes;           /* bandwidth: bytes per array (0: default) */
    const uint64_t *sizes;    /* transfer: sizes in bytes (NULL: default) */
    size_t n_sizes;
    unsigned transfer_modes;  /* transfer: bits 1 << enum clb_transfer_mode (0: the default) */
    double target_s;          /* peak: seconds one launch should take at least */
    const char *const *precisions; /* peak: only these ("fp32", ...); NULL: all */
    size_t n_precisions;
    bool all_variants;        /* host peak: every ISA variant, not only the best (for -v) */
    enum clb_code_path code_path; /* bandwidth: the kernels' variant; peak: whose chain counts
                                     (clb_peak_chains); auto: the device's type */
};

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

/* Each measures one device in `env` and appends its rows; faults land in rows. */
int clb_peak_run(const struct clb_device *dev, const struct clb_cl_env *env,
                 const struct clb_micro_options *opt, struct clb_micro_results *out);
int clb_bandwidth_run(const struct clb_device *dev, const struct clb_cl_env *env,
                      const struct clb_micro_options *opt, struct clb_micro_results *out);
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
/* Needs a queue with CL_QUEUE_PROFILING_ENABLE for its enqueue-to-start figure. */
int clb_latency_run(const struct clb_device *dev, const struct clb_cl_env *env,
                    const struct clb_micro_options *opt, struct clb_micro_results *out);

/*
 * The measured peak of dev (NULL: the host CPU) in precision ("fp32"), or 0:
 * the headline width's fastest verified call (GFLOP/s or GIOP/s), the limit
 * other figures are held against, since another process only slows a call.
 */
double clb_micro_peak(const struct clb_micro_results *r, const struct clb_device *dev,
                      const char *precision);
/* The measured triad bandwidth (GB/s) of dev, or 0. */
double clb_micro_bandwidth(const struct clb_micro_results *r, const struct clb_device *dev);

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
void clb_peak_expect_init(struct clb_peak_expect *x, const char *precision, unsigned width,
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
 * Peak's launch sizing. The next launch's work-items after one of `global`
 * took `seconds`: unchanged once seconds >= target_s (or global reached
 * max_global); else global x target_s / seconds x 1.25 (at most x 1024 in
 * one step), rounded up to whole groups of 256 and held to max_global
 * (rounded down to 256). Launches grow from compute units x 256 by this
 * rule until one takes target_s, each step timed.
 */
uint64_t clb_peak_next_global(double seconds, uint64_t global, double target_s,
                              uint64_t max_global);
/*
 * The most work-items one peak launch takes: one out_size-byte output each
 * within max_alloc_bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE), indices within
 * 32 bits, a multiple of 256. Their outputs are read back and checked 2^20
 * at a time, so host memory stays bounded.
 */
uint64_t clb_peak_max_global(uint64_t max_alloc_bytes, size_t out_size);
/* Whether a CL_DEVICE_OPENCL_C_VERSION string ("OpenCL C 3.0 ...") is 3.0 or later: int8dot
 * is then built with -cl-std=CL3.0 (so is it where CL_DEVICE_OPENCL_C_ALL_VERSIONS lists 3.0). */
bool clb_peak_c_version_3(const char *c_version);

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
