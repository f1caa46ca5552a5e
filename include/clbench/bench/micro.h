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
 * (clb_row's timer, alt_timer).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/bench/stats.h"
#include "clbench/cl/device.h"
#include "clbench/core/row.h"
#include "clbench/core/types.h"
#include "clbench/util/cpu.h"


struct clb_micro_results {
    struct clb_row *rows;
    size_t n_rows, cap;
};

/* Appends a zeroed row (NULL when out of memory). */
struct clb_row *clb_micro_add(struct clb_micro_results *r, const struct clb_device *dev,
                                    enum clb_benchmark benchmark, const char *metric);
void clb_micro_results_finish(struct clb_micro_results *r);
/* Fills time_s, median, best and value from times_s and work (or from times for latency). */
void clb_micro_row_summarize(struct clb_row *row);

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
bool clb_micro_want(const struct clb_row *row, size_t calls, double min_time_s);
/* Appends one call's seconds to times_s (grown as needed); -1 when out of memory. */
int clb_micro_push(struct clb_row *row, double seconds);
/* Appends one call's other-clock seconds to alt_times_s; -1 when out of memory. */
int clb_micro_push_alt(struct clb_row *row, double seconds);

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
const struct clb_row *clb_micro_peak_row(const struct clb_micro_results *r,
                                               const struct clb_device *dev,
                                               enum clb_precision precision, const char *isa);

#endif
