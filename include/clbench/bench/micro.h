#ifndef CLBENCH_BENCH_MICRO_H
#define CLBENCH_BENCH_MICRO_H

/*
 * The measurements that explain GEMM figures, with clbench's own kernels
 * (kernels/peak.cl, stream.cl, latency.cl): peak arithmetic rate, device
 * memory bandwidth, host<->device transfer, launch latency, each in its own
 * header (clbench/bench/peak.h, bandwidth.h, transfer.h, latency.h). This is
 * what they share: the plain rows each fills, their options and the rule of
 * how many calls a figure takes. Every figure comes from a result the host
 * checked. bandwidth times each call on the device's clock (the kernel's
 * profiling event) and the host's, one the headline and the other beside it
 * (clb_micro_row's timer, alt_timer).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/bench/stats.h"
#include "clbench/cl/device.h"
#include "clbench/core/row.h"
#include "clbench/core/types.h"
#include "clbench/util/cpu.h"

struct clb_micro_row {
    const struct clb_device *device; /* NULL: the host CPU itself (clbench/bench/hostpeak.h) */
    const char *backend;        /* who measured: "host" (clb_host_peak_run); NULL: clbench's kernels */
    enum clb_benchmark benchmark; /* peak, bandwidth, transfer, latency, collective */
    char case_[64];             /* "fp32 x8", "triad", "h2d pinned 16 MiB", "round trip" */
    const char *metric;         /* "gflops", "giops", "gbps", "us" */
    enum clb_precision precision; /* peak: any; bandwidth: fp32, fp64; else NONE (what
                                     clb_micro_add sets) */
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
        uint64_t local_size;    /* work-items per work-group (peak on OpenCL: always given,
                                   clb_peak_local_size); 0: the runtime's choice */
        uint64_t rounds;        /* peak: loop rounds each work-item (thread) runs; bandwidth
                                   local: the kernel's `rounds` argument; else 0 */
        uint64_t elements;      /* bandwidth: per array (the streams; 0 for local) */
        unsigned width;         /* peak: the kernel's vector width (WIDTH; int8dot: 1, a
                                   packed uint) */
        unsigned chains;        /* peak: independent chains per work-item, the kernel's CHAINS
                                   (clb_peak_chains; host: accumulators) */
        char options[160];      /* peak on OpenCL: the kernel's build options; else "" */
        bool fills_device;      /* peak on OpenCL: global_size holds CLB_PEAK_GROUPS_PER_CU
                                   work-groups per compute unit (clb_peak_fills_device); false:
                                   the figure may be of part of the device (a launch the
                                   device's room or the test hook held smaller) */
    } launch;
    /* bandwidth of the three stream arrays only (set by clb_bandwidth_run, then the attach
     * step of clbench/commands' common.h): */
    uint64_t array_bytes;       /* bytes of each of the three arrays (0: not of them) */
    uint64_t llc_bytes;         /* the last-level cache they were held against (0: unknown) */
    bool cache_resident;        /* 3 x array_bytes <= llc_bytes: cache, not DRAM, fed it */
    bool datasheet_withheld;    /* a memory figure exists but, cache-resident, is not applied */
    /*
     * The clock times_s is from: "host" (clb_now_s around the call; what
     * clb_micro_row_summarize sets where a benchmark names none) or "device" (the
     * command's profiling events: latency's enqueue to start and kernel run; bandwidth, as
     * follows). NULL while the row has no calls.
     * bandwidth: the clock times_s is from, "device" (each call the
     * kernel's profiling event, CL_PROFILING_COMMAND_START to END) or "host" (clb_now_s
     * around the enqueue and its clFinish, as BabelStream times), and the other clock's
     * times of the same calls beside it (alt_timer, alt_times_s: call i of each the same
     * launch; never the headline). A GPU's headline is its device clock: the host's adds
     * the driver's round trip over the bus. A CPU device's is the host clock where its own
     * reads more than CLB_CLOCK_AGREE faster (clb_bandwidth_host_clock): there the device
     * clock leaves out the device's own cores waking up, work a program launching the
     * kernel waits for. Without profiling info the host clock is all there is. timer_why says why
     * a row is on the host's clock.
     */
    const char *timer;
    char timer_why[200];        /* "host" only: why not the device's clock */
    const char *alt_timer;      /* bandwidth: "host" or "device", alt_times_s's clock; NULL:
                                   none */
    double *alt_times_s;        /* owned; n_alt_times == n_times, or 0 */
    size_t n_alt_times, alt_times_cap;
    double alt_value;           /* from alt_times_s, by the headline's statistic (GB/s) */
    const char *code_path;      /* bandwidth's stream rows: "cpu" or "gpu", the kernels' variant */
    const char *kernel;         /* bandwidth: the kernel, "triad", "dot chunked", "local"; else NULL */
    const char *isa;            /* host peak: the variant's instruction set, "avx2+fma"; else
                                   NULL. Static. */
};

struct clb_micro_results {
    struct clb_micro_row *rows;
    size_t n_rows, cap;
};

/* Appends a zeroed row (NULL when out of memory). */
struct clb_micro_row *clb_micro_add(struct clb_micro_results *r, const struct clb_device *dev,
                                    enum clb_benchmark benchmark, const char *metric);
void clb_micro_results_finish(struct clb_micro_results *r);
/* Fills time_s, median, best and value from times_s and work (or from times for latency). */
void clb_micro_row_summarize(struct clb_micro_row *row);

/*
 * Marks the headline of each peak figure (device, backend, precision) again:
 * the verified width with the highest value, after value changed meaning
 * (--stat best). A figure with no verified width keeps its mark.
 */
void clb_micro_pick_headlines(struct clb_micro_results *r);

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
/* Appends one call's other-clock seconds to alt_times_s; -1 when out of memory. */
int clb_micro_push_alt(struct clb_micro_row *row, double seconds);

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
    const enum clb_precision *precisions; /* peak: only these; NULL: all */
    size_t n_precisions;
    bool all_variants;        /* host peak: every ISA variant, not only the best (for -v) */
    /* host peak: also the variant a CPU of this level would run (clb_host_peak_for_level),
     * the instruction set a handicapped baseline's kernels use; NULL: none. Borrowed. */
    const enum clb_cpu_level *host_also;
    enum clb_code_path code_path; /* bandwidth: the kernels' variant; peak: whose chain counts
                                     (clb_peak_chains); auto: the device's type */
};

/*
 * The measured peak of dev (NULL: the host CPU) in precision, or 0:
 * the headline width's fastest verified call (GFLOP/s or GIOP/s), the limit
 * other figures are held against, since another process only slows a call.
 */
double clb_micro_peak(const struct clb_micro_results *r, const struct clb_device *dev,
                      enum clb_precision precision);

/*
 * The verified peak row behind clb_micro_peak: dev's (NULL: the host CPU's) headline in
 * precision; for the host, with isa ("avx2+fma", clbench/bench/hostpeak.h's
 * variant names) the row of that instruction set instead. NULL when there is none.
 * Borrowed from r.
 */
const struct clb_micro_row *clb_micro_peak_row(const struct clb_micro_results *r,
                                               const struct clb_device *dev,
                                               enum clb_precision precision, const char *isa);

#endif
