#ifndef CLBENCH_BENCH_HOSTPEAK_H
#define CLBENCH_BENCH_HOSTPEAK_H

/*
 * The host CPU's own arithmetic peak: multiply-add throughput on every CPU in
 * this process's affinity mask, fp32 and fp64, in plain C with intrinsics,
 * the instruction set picked at run time (clbench/util/cpu.h). It is the physical
 * yardstick the OpenBLAS and OpenCL-on-CPU figures are held against.
 *
 * Each thread keeps `acc` independent vectors of `lanes` elements and runs
 * `rounds` rounds of x <- x * a + q on every lane (one fused multiply-add
 * where the ISA has one, else a multiply and an add: 2 flops either way),
 * with a = 1 and q a power of two read from memory, so nothing folds. Lane
 * `index` (counted over all threads: thread-major, then accumulator, then
 * lane) starts at index * q, and every value on the way is an integer
 * multiple of q small enough to be exact, so the result must be exactly
 * (index + rounds) * q: the host checks every lane of every thread with
 * zero tolerance. A skipped round, a lane computed once and broadcast, or a
 * thread that did nothing all show.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/bench/micro.h"
#include "clbench/util/cpu.h"

struct clb_host_peak_variant {
    const char *name;       /* the ISA: "avx512f", "avx2+fma", "sse2", "sve", "neon", "scalar" */
    enum clb_precision precision; /* CLB_FP32 (float lanes) or CLB_FP64 (double lanes) */
    unsigned lanes;         /* elements per vector; 0 where the length is the OS's (SVE): read
                               every variant's through clb_host_peak_lanes */
    /* SVE: the elements per vector at this process's vector length (clb_cpu_isa.sve_bits),
     * 0 where it has none; NULL for fixed-width ISAs. Runs no SVE instruction. */
    unsigned (*lanes_now)(void);
    unsigned acc;           /* independent accumulator vectors per thread */
    bool fused;             /* one FMA per lane-round; false: a multiply and an add */
    /* Whether this CPU (and its OS) can run the kernel. */
    bool (*supported)(const struct clb_cpu_isa *isa);
    /*
     * Runs `rounds` rounds on acc * lanes elements at x (float or double, per
     * precision), in place: x[i] <- x[i] * aq[0] + aq[1] (NEON: x[i] + aq[0] *
     * aq[1], the same with aq[0] = 1). Borrows both.
     */
    void (*kernel)(void *x, const void *aq, uint64_t rounds);
};

/*
 * The variants built for this architecture, best first within each precision;
 * the table is static (n receives its length). Scalar is always there and
 * always supported.
 */
const struct clb_host_peak_variant *const *clb_host_peak_variants(size_t *n);

/* The best variant of precision (fp32, fp64) that isa supports; NULL for
 * any other precision. */
const struct clb_host_peak_variant *clb_host_peak_pick(const struct clb_cpu_isa *isa,
                                                       enum clb_precision precision);

/*
 * The best variant of precision that isa supports among those a CPU of
 * `level` could run (a variant's name is its level's, clb_cpu_level_name):
 * the peak of the kernels a library built for that level runs. NULL when none,
 * and for AVX without FMA (256-bit multiplies and adds: no variant runs them).
 */
const struct clb_host_peak_variant *clb_host_peak_for_level(const struct clb_cpu_isa *isa,
                                                            enum clb_precision precision,
                                                            enum clb_cpu_level level);

/* Elements per vector of v in this process: v->lanes, or v->lanes_now() (SVE). */
unsigned clb_host_peak_lanes(const struct clb_host_peak_variant *v);

/* Floating-point operations in one call: threads * rounds * acc * lanes * 2. */
double clb_host_peak_flops(const struct clb_host_peak_variant *v, unsigned threads,
                           uint64_t rounds);

/*
 * The exactness bound of precision: a call may run at most this many rounds,
 * on at most this many lanes in all (0 for an unknown precision).
 */
uint64_t clb_host_peak_max_rounds(enum clb_precision precision);
uint64_t clb_host_peak_max_lanes(enum clb_precision precision);

/* Lane `index` after `rounds` rounds: (index + rounds) * q, exact (rounds 0: its start). */
double clb_host_peak_expected(enum clb_precision precision, uint64_t index, uint64_t rounds);

/*
 * Checks the n lanes at values (float or double, per v's precision) after
 * `rounds` rounds against clb_host_peak_expected, with zero tolerance.
 * Returns true, or false with why filled (how many lanes are wrong, and the
 * first one's thread, accumulator, lane, value and rounds off).
 */
bool clb_host_peak_check(const struct clb_host_peak_variant *v, const void *values, size_t n,
                         uint64_t rounds, char *why, size_t why_len);

/*
 * One timed call: `threads` threads are created and wait on a barrier; the
 * clock starts when the first is released and stops when the last has
 * finished (each reads it itself).
 * values (threads * acc * lanes elements, borrowed) is filled with the starts
 * and holds the results afterwards; check it with clb_host_peak_check.
 * Returns 0 with *seconds set, or -1 with why filled (bounds exceeded, a
 * thread that could not be created).
 */
int clb_host_peak_call(const struct clb_host_peak_variant *v, unsigned threads, uint64_t rounds,
                       void *values, double *seconds, char *why, size_t why_len);

/*
 * The clock the cores keep during v's FMA run, in GHz: each of `threads`
 * threads sizes a chunk of v's kernel to take chunk_s seconds on its core,
 * then runs `windows` times that chunk (from its lanes' starts) followed by
 * one window of the add chain (clb_hp_add_chain, 2^12 iterations of 16
 * dependent adds, checked exactly), timed by itself. Clocks follow load over
 * a millisecond or more, a window lasts tens of microseconds: it reads the
 * clock the FMA load set. Each thread keeps its fastest window (another
 * process only slows one); the clock is the slowest thread's. *under_fma
 * receives the share of the windows' and chunks' time spent in the FMA
 * kernel (about 0.98 with 1 ms chunks). Every thread's last chunk is checked
 * lane by lane. 0 with why filled when not measured (another architecture, a
 * thread that could not start, a wrong sum or lane) or above the CPU's
 * maximum clock (clb_cpu_max_khz) by over 5 %.
 */
double clb_host_fma_clock_ghz(const struct clb_host_peak_variant *v, unsigned threads,
                              double chunk_s, unsigned windows, double *under_fma, char *why,
                              size_t why_len);

/*
 * Measures the host CPU and appends rows: benchmark "peak", metric "gflops",
 * device NULL, backend "host", precision "fp32"/"fp64" (filtered by
 * opt->precisions; others are ignored), case "fp32 avx512f", width = lanes.
 * Per precision the best supported variant only (and opt->host_also's, when
 * another), or, with opt->all_variants,
 * every variant of the table (those this CPU lacks as UNAVAILABLE rows);
 * headline marks the fastest verified row of each precision. One thread per
 * available CPU (clb_cpu_count_available), nothing pinned. Rounds grow from
 * a small start until one call takes opt->target_s (0: 0.02 s) or the
 * exactness bound stops them (the check string says so); then opt->runs
 * timed calls, each verified. Then the clock during that variant's FMA run
 * (clb_host_fma_clock_ghz, on as many threads: 40 windows, each after
 * about 1 ms of FMA), kept in the row's clock_ghz and clock_under_fma; the row's
 * launch records threads, rounds, lanes and accumulators. Faults land in
 * rows; returns -1 only when a row cannot be added (out of memory).
 */
int clb_host_peak_run(const struct clb_micro_options *opt, struct clb_micro_results *out);

#endif
