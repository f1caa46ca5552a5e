#include "clbench/bench/hostpeak.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/util/cpu.h"
#include "clbench/util/interrupt.h"
#include "clbench/util/timer.h"
#include "hostpeak_kernel.h"

static const struct clb_host_peak_variant *const variants[] = {
#if defined(__x86_64__)
    &clb_hp_avx512f_fp32, &clb_hp_avx2_fp32, &clb_hp_sse2_fp32,
#elif defined(__aarch64__)
    &clb_hp_sve_fp32, &clb_hp_neon_fp32,
#endif
    &clb_hp_scalar_fp32,
#if defined(__x86_64__)
    &clb_hp_avx512f_fp64, &clb_hp_avx2_fp64, &clb_hp_sse2_fp64,
#elif defined(__aarch64__)
    &clb_hp_sve_fp64, &clb_hp_neon_fp64,
#endif
    &clb_hp_scalar_fp64,
};

/*
 * Exactness: a lane only ever holds m * q, m = index + rounds done so far,
 * and every integer m below 2^(significand bits) times a power of two is
 * exact, so each x * 1 + q, fused or not, in any rounding mode, is exact too
 * (and never subnormal: values are 0 or >= q).
 *   fp32, 24 bits: index < 2^22, rounds <= 2^23: m < 2^22 + 2^23 < 2^24,
 *                  |x| < 12 with q = 2^-20.
 *   fp64, 53 bits: index < 2^40, rounds <= 2^40: m < 2^41, |x| < 2^11 with q = 2^-30.
 */
#define FP32_Q_EXP (-20)
#define FP32_MAX_LANES (UINT64_C(1) << 22)
#define FP32_MAX_ROUNDS (UINT64_C(1) << 23)
#define FP64_Q_EXP (-30)
#define FP64_MAX_LANES (UINT64_C(1) << 40)
#define FP64_MAX_ROUNDS (UINT64_C(1) << 40)
_Static_assert(FP32_MAX_LANES + FP32_MAX_ROUNDS <= (UINT64_C(1) << FLT_MANT_DIG), "fp32 exactness");
_Static_assert(FP64_MAX_LANES + FP64_MAX_ROUNDS <= (UINT64_C(1) << DBL_MANT_DIG), "fp64 exactness");

/* Read through a volatile, so that no compiler, even across files, sees a = 1. */
static volatile double coef_a = 1.0;

static bool is_fp64(enum clb_precision precision)
{
    return precision == CLB_FP64;
}

static bool known(enum clb_precision precision)
{
    return precision == CLB_FP64 || precision == CLB_FP32;
}

const struct clb_host_peak_variant *const *clb_host_peak_variants(size_t *n)
{
    *n = sizeof(variants) / sizeof(variants[0]);
    return variants;
}

const struct clb_host_peak_variant *clb_host_peak_pick(const struct clb_cpu_isa *isa,
                                                       enum clb_precision precision)
{
    for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++)
        if (variants[i]->precision == precision && variants[i]->supported(isa))
            return variants[i];
    return NULL;
}

const struct clb_host_peak_variant *clb_host_peak_for_level(const struct clb_cpu_isa *isa,
                                                            enum clb_precision precision,
                                                            enum clb_cpu_level level)
{
    /* AVX without FMA: 256-bit multiplies and adds, which no variant runs (sse2's 128-bit
     * peak is half of what such kernels reach). */
    if (level == CLB_CPU_AVX)
        return NULL;
    for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
        enum clb_cpu_level v;
        if (variants[i]->precision == precision && variants[i]->supported(isa) &&
            clb_cpu_level_parse(variants[i]->name, &v) && v <= level)
            return variants[i];
    }
    return NULL;
}

unsigned clb_host_peak_lanes(const struct clb_host_peak_variant *v)
{
    return v->lanes_now ? v->lanes_now() : v->lanes;
}

double clb_host_peak_flops(const struct clb_host_peak_variant *v, unsigned threads,
                           uint64_t rounds)
{
    return (double)threads * (double)rounds * v->acc * clb_host_peak_lanes(v) * 2.0;
}

uint64_t clb_host_peak_max_rounds(enum clb_precision precision)
{
    return !known(precision) ? 0 : is_fp64(precision) ? FP64_MAX_ROUNDS : FP32_MAX_ROUNDS;
}

uint64_t clb_host_peak_max_lanes(enum clb_precision precision)
{
    return !known(precision) ? 0 : is_fp64(precision) ? FP64_MAX_LANES : FP32_MAX_LANES;
}

double clb_host_peak_expected(enum clb_precision precision, uint64_t index, uint64_t rounds)
{
    return ldexp((double)(index + rounds), is_fp64(precision) ? FP64_Q_EXP : FP32_Q_EXP);
}

bool clb_host_peak_check(const struct clb_host_peak_variant *v, const void *values, size_t n,
                         uint64_t rounds, char *why, size_t why_len)
{
    const bool fp64 = is_fp64(v->precision);
    const size_t lanes = clb_host_peak_lanes(v), per_thread = (size_t)v->acc * lanes;
    size_t wrong = 0, first = 0;
    double first_got = 0, first_want = 0;

    for (size_t i = 0; i < n; i++) {
        double got = fp64 ? ((const double *)values)[i] : ((const float *)values)[i];
        double want = clb_host_peak_expected(v->precision, i, rounds);
        if (got != want && !wrong++) {
            first = i;
            first_got = got;
            first_want = want;
        }
    }
    if (!wrong)
        return true;
    snprintf(why, why_len,
             "%zu of %zu lanes wrong; first: thread %zu, accumulator %zu, lane %zu holds %.*g, "
             "expected %.*g (%+.0f rounds)",
             wrong, n, first / per_thread, first % per_thread / lanes, first % lanes,
             fp64 ? 17 : 9, first_got, fp64 ? 17 : 9, first_want,
             (first_got - first_want) / clb_host_peak_expected(v->precision, 1, 0));
    return false;
}

struct team {
    pthread_mutex_t gate;  /* held by the caller while it creates the threads */
    bool abort;            /* a thread could not be created: the others leave */
    pthread_barrier_t start;
};

struct worker {
    pthread_t tid;
    struct team *team;
    void (*fn)(void *ctx, unsigned thread);
    void *ctx;
    unsigned index;
    double start_s, end_s;
};

static void *work(void *arg)
{
    struct worker *w = arg;

    /* Only once every thread exists can the barrier, sized for all of them, open. */
    pthread_mutex_lock(&w->team->gate);
    bool abort = w->team->abort;
    pthread_mutex_unlock(&w->team->gate);
    if (abort)
        return NULL;
    pthread_barrier_wait(&w->team->start);
    /* The workers read the clock, not the caller: with every CPU busy, the
     * caller may be scheduled long after the kernels have started. */
    w->start_s = clb_now_s();
    w->fn(w->ctx, w->index);
    w->end_s = clb_now_s();
    return NULL;
}

/*
 * fn(ctx, t) on threads t = 0 .. threads - 1, released together; *seconds
 * runs from the first one's start to the last one's end. -1 with why filled
 * when a thread could not be created.
 */
static int team_call(unsigned threads, void (*fn)(void *ctx, unsigned thread), void *ctx,
                     double *seconds, char *why, size_t why_len)
{
    struct team team = { .abort = false };
    struct worker *workers = NULL;
    unsigned created = 0;
    int rc = -1, err;

    if (threads == 0) {
        snprintf(why, why_len, "no threads");
        return -1;
    }
    if (!(workers = calloc(threads, sizeof(*workers)))) {
        snprintf(why, why_len, "out of host memory");
        return -1;
    }
    if ((err = pthread_mutex_init(&team.gate, NULL))) {
        snprintf(why, why_len, "pthread_mutex_init: %s", strerror(err));
        goto error_mutex;
    }
    if ((err = pthread_barrier_init(&team.start, NULL, threads))) {
        snprintf(why, why_len, "pthread_barrier_init: %s", strerror(err));
        goto error_start;
    }
    pthread_mutex_lock(&team.gate);
    for (; created < threads; created++) {
        struct worker *w = &workers[created];
        *w = (struct worker){ .team = &team, .fn = fn, .ctx = ctx, .index = created };
        if ((err = pthread_create(&w->tid, NULL, work, w))) {
            snprintf(why, why_len, "pthread_create (thread %u of %u): %s", created + 1, threads,
                     strerror(err));
            team.abort = true;
            break;
        }
    }
    pthread_mutex_unlock(&team.gate);
    for (unsigned i = 0; i < created; i++)
        pthread_join(workers[i].tid, NULL);
    if (!team.abort) {
        double first = workers[0].start_s, last = workers[0].end_s;
        for (unsigned i = 1; i < threads; i++) {
            first = fmin(first, workers[i].start_s);
            last = fmax(last, workers[i].end_s);
        }
        *seconds = last - first;
        rc = 0;
    }
    pthread_barrier_destroy(&team.start);
error_start:
    pthread_mutex_destroy(&team.gate);
error_mutex:
    free(workers);
    return rc;
}

struct peak_call {
    const struct clb_host_peak_variant *v;
    char *values;        /* every thread's lanes, thread-major */
    size_t thread_bytes; /* one thread's share of values */
    const void *aq;
    uint64_t rounds;
};

/* Lanes first .. first + count - 1 of values (counted over all threads) to their starts. */
static void set_starts(const struct clb_host_peak_variant *v, void *values, size_t first,
                       size_t count)
{
    const bool fp64 = is_fp64(v->precision);

    for (size_t i = first; i < first + count; i++) {
        const double start = clb_host_peak_expected(v->precision, i, 0);
        if (fp64)
            ((double *)values)[i] = start;
        else
            ((float *)values)[i] = (float)start;
    }
}

static void peak_thread(void *ctx, unsigned thread)
{
    const struct peak_call *c = ctx;

    c->v->kernel(c->values + thread * c->thread_bytes, c->aq, c->rounds);
}

/* The kernel's a (1, read through a volatile) and q, in its precision. */
union coefficients {
    float f[2];
    double d[2];
};

static void set_coefficients(const struct clb_host_peak_variant *v, union coefficients *aq)
{
    const double q = clb_host_peak_expected(v->precision, 1, 0);

    if (is_fp64(v->precision)) {
        aq->d[0] = coef_a;
        aq->d[1] = q;
    } else {
        aq->f[0] = (float)coef_a;
        aq->f[1] = (float)q;
    }
}

int clb_host_peak_call(const struct clb_host_peak_variant *v, unsigned threads, uint64_t rounds,
                       void *values, double *seconds, char *why, size_t why_len)
{
    const bool fp64 = is_fp64(v->precision);
    const size_t per_thread = (size_t)v->acc * clb_host_peak_lanes(v);
    const size_t n = (size_t)threads * per_thread;
    union coefficients aq;

    if (rounds > clb_host_peak_max_rounds(v->precision) ||
        n > clb_host_peak_max_lanes(v->precision)) {
        snprintf(why, why_len, "%u threads x %zu lanes x %llu rounds exceed the exactness bound",
                 threads, per_thread, (unsigned long long)rounds);
        return -1;
    }
    set_coefficients(v, &aq);
    set_starts(v, values, 0, n);
    struct peak_call call = { v, values, per_thread * (fp64 ? sizeof(double) : sizeof(float)),
                              &aq, rounds };
    return team_call(threads, peak_thread, &call, seconds, why, why_len);
}

/*
 * The clock during the FMA run: each thread alternates a chunk of its FMA kernel (about a
 * millisecond) with one short window of the add chain (clb_hp_add_chain: one add a cycle),
 * so the windows run on cores that the FMA load has set the clock of. Clocks move with load
 * over a millisecond or more (voltage and frequency steps; Intel's AVX licences drop within
 * about 0.5 ms and rise only ~2 ms after the last wide instruction), and a window lasts
 * some 20-60 us: it reads the clock the FMA chunk left, not an idle one.
 */
struct fma_clock_call {
    const struct clb_host_peak_variant *v;
    char *values;           /* every thread's lanes, thread-major */
    size_t thread_bytes;    /* one thread's share of values */
    const union coefficients *aq;
    double chunk_s;         /* seconds of FMA before each window, at least */
    uint64_t iterations;    /* add-chain iterations per window */
    unsigned windows;
    double *best_ghz;       /* one per thread: its fastest window */
    double *fma_s, *chain_s; /* one per thread: seconds in each */
    bool *wrong;            /* one per thread: a chain's sum or a lane was off */
};

/* One chunk of FMA from the lanes' starts (so they stay within the exactness bound); its
 * seconds. */
static double fma_chunk(const struct fma_clock_call *c, unsigned thread, uint64_t rounds)
{
    const size_t per_thread = (size_t)c->v->acc * clb_host_peak_lanes(c->v);

    set_starts(c->v, c->values, thread * per_thread, per_thread);
    const double t0 = clb_now_s();
    c->v->kernel(c->values + thread * c->thread_bytes, c->aq, rounds);
    return clb_now_s() - t0;
}

static void fma_clock_thread(void *ctx, unsigned thread)
{
#if CLB_HP_HAS_ADD_CHAIN
    struct fma_clock_call *c = ctx;
    const size_t per_thread = (size_t)c->v->acc * clb_host_peak_lanes(c->v);
    const uint64_t want = thread + CLB_HP_ADDS_PER_ITERATION * c->iterations;
    const uint64_t most = clb_host_peak_max_rounds(c->v->precision);
    uint64_t rounds = 1024;

    /* Each thread sizes its own chunk, on its own core under its own load (a call's time
     * includes waking the threads, which on a busy machine is milliseconds). This is FMA
     * load too. */
    for (double s; (s = fma_chunk(c, thread, rounds)) < c->chunk_s && rounds < most;)
        rounds = (uint64_t)fmin((double)most,
                                (double)rounds * fmin(64.0, ceil(c->chunk_s / fmax(s, 1e-7) * 1.2)));
    for (unsigned w = 0; w < c->windows; w++) {
        c->fma_s[thread] += fma_chunk(c, thread, rounds);
        const double t1 = clb_now_s();
        const uint64_t sum = clb_hp_add_chain(thread, c->iterations);
        const double t2 = clb_now_s();
        c->wrong[thread] |= sum != want;
        c->chain_s[thread] += t2 - t1;
        /* Another process or the hypervisor only ever lengthens a window: the fastest is
         * the least disturbed. */
        if (t2 > t1)
            c->best_ghz[thread] = fmax(c->best_ghz[thread], CLB_HP_ADDS_PER_ITERATION *
                                                                (double)c->iterations /
                                                                (t2 - t1) * 1e-9);
    }
    /* The last chunk's lanes, exactly: the FMA load was real work. */
    const bool fp64 = is_fp64(c->v->precision);
    for (size_t i = 0; i < per_thread; i++) {
        const size_t at = thread * per_thread + i;
        const double got = fp64 ? ((const double *)c->values)[at] : ((const float *)c->values)[at];
        c->wrong[thread] |= got != clb_host_peak_expected(c->v->precision, at, rounds);
    }
#else
    (void)ctx;
    (void)thread;
#endif
}

double clb_host_fma_clock_ghz(const struct clb_host_peak_variant *v, unsigned threads,
                              double chunk_s, unsigned windows, double *under_fma, char *why,
                              size_t why_len)
{
    const size_t per_thread = (size_t)v->acc * clb_host_peak_lanes(v);
    const size_t n = (size_t)threads * per_thread;
    const size_t elem = is_fp64(v->precision) ? sizeof(double) : sizeof(float);
    union coefficients aq;
    double seconds, ghz = 0, fma = 0, all = 0;

    *under_fma = 0;
    if (!CLB_HP_HAS_ADD_CHAIN) {
        snprintf(why, why_len, "no add-chain clock on this architecture");
        return 0;
    }
    if (threads == 0 || windows == 0 || n > clb_host_peak_max_lanes(v->precision)) {
        snprintf(why, why_len, "%u threads x %zu lanes, %u windows: nothing to run or over the "
                 "exactness bound", threads, per_thread, windows);
        return 0;
    }
    set_coefficients(v, &aq);
    /* 2^12 iterations: 65536 adds, 16-66 us between 4 and 1 GHz; the clock read around
     * them (tens of ns) stays under 0.3 % of that. */
    struct fma_clock_call c = { .v = v, .values = malloc(n * elem), .thread_bytes = per_thread * elem,
                                .aq = &aq, .chunk_s = chunk_s,
                                .iterations = 1 << 12, .windows = windows,
                                .best_ghz = calloc(threads, sizeof(double)),
                                .fma_s = calloc(threads, sizeof(double)),
                                .chain_s = calloc(threads, sizeof(double)),
                                .wrong = calloc(threads, sizeof(bool)) };
    if (!c.values || !c.best_ghz || !c.fma_s || !c.chain_s || !c.wrong) {
        snprintf(why, why_len, "out of host memory");
        goto done;
    }
    if (team_call(threads, fma_clock_thread, &c, &seconds, why, why_len))
        goto done;
    for (unsigned t = 0; t < threads; t++) {
        if (c.wrong[t]) {
            snprintf(why, why_len, "thread %u's add chain did not sum to %llu, or a lane of its "
                     "last FMA chunk was wrong", t,
                     (unsigned long long)(t + CLB_HP_ADDS_PER_ITERATION * c.iterations));
            ghz = 0;
            goto done;
        }
        ghz = t ? fmin(ghz, c.best_ghz[t]) : c.best_ghz[t];
        fma += c.fma_s[t];
        all += c.fma_s[t] + c.chain_s[t];
    }
    const double most = clb_cpu_max_khz() * 1e-6;
    if (ghz > 0 && most > 0 && ghz > 1.05 * most) {
        snprintf(why, why_len, "the add chain ran at %.3g GHz, above the CPU's maximum %.3g GHz",
                 ghz, most);
        ghz = 0;
        goto done;
    }
    *under_fma = all > 0 ? fma / all : 0;
done:
    free(c.values);
    free(c.best_ghz);
    free(c.fma_s);
    free(c.chain_s);
    free(c.wrong);
    return ghz;
}

enum sizing { SIZED, SIZE_FAULT, SIZE_WRONG };

/*
 * Grows the call (*rounds) until it takes `target` seconds: thread wake-ups then vanish.
 * Each size is timed twice and the faster counts (*seconds): a call slowed by another
 * process would stop the growth early, and the timed calls would be short enough for the
 * next interruption to show as half the peak. Every call is checked; why says what failed.
 */
static enum sizing size_call(const struct clb_host_peak_variant *v, unsigned threads,
                             double target, void *values, size_t n, uint64_t *rounds,
                             double *seconds, char *why, size_t len)
{
    const uint64_t max_rounds = clb_host_peak_max_rounds(v->precision);

    for (;;) {
        double again;
        if (clb_host_peak_call(v, threads, *rounds, values, seconds, why, len))
            return SIZE_FAULT;
        if (!clb_host_peak_check(v, values, n, *rounds, why, len))
            return SIZE_WRONG;
        if (clb_host_peak_call(v, threads, *rounds, values, &again, why, len))
            return SIZE_FAULT;
        if (!clb_host_peak_check(v, values, n, *rounds, why, len))
            return SIZE_WRONG;
        *seconds = fmin(*seconds, again);
        if (*seconds >= target || *rounds >= max_rounds)
            return SIZED;
        double grow = ceil(target / fmax(*seconds, 1e-6) * 1.2);
        *rounds = (uint64_t)fmin((double)max_rounds, (double)*rounds * fmin(grow, 64.0));
    }
}

/* One variant on `threads` threads: size the call, time, verify. Faults land in row. */
static void measure(const struct clb_host_peak_variant *v, unsigned threads,
                    const struct clb_micro_options *opt, struct clb_row *row)
{
    const double target = opt->target_s > 0 ? opt->target_s : 0.02;
    const unsigned runs = opt->runs ? opt->runs : 1;
    const size_t n = (size_t)threads * v->acc * clb_host_peak_lanes(v);
    uint64_t rounds = 1024;
    double seconds = 0;
    char why[sizeof(row->reason) - 32];
    void *values = malloc(n * (is_fp64(v->precision) ? sizeof(double) : sizeof(float)));

    row->status = CLB_ROW_OK;
    row->reason[0] = '\0';
    if (!values) {
        snprintf(why, sizeof(why), "out of host memory");
        goto fault;
    }
    switch (size_call(v, threads, target, values, n, &rounds, &seconds, why, sizeof(why))) {
    case SIZED:
        break;
    case SIZE_WRONG:
        goto wrong;
    default:
        goto fault;
    }
    row->work = clb_host_peak_flops(v, threads, rounds);
    /* One untimed call at the final size: the first one after sizing ran at about half
     * speed on the development machine (clocks and thread placement settling). */
    if (clb_host_peak_call(v, threads, rounds, values, &seconds, why, sizeof(why)))
        goto fault;
    while (clb_micro_want(row, runs, opt->min_time_s) && !(clb_interrupted() && row->n_times)) {
        if (clb_host_peak_call(v, threads, rounds, values, &seconds, why, sizeof(why)))
            goto fault;
        if (clb_micro_push(row, seconds)) {
            snprintf(why, sizeof(why), "out of host memory");
            goto fault;
        }
        if (!clb_host_peak_check(v, values, n, rounds, why, sizeof(why)))
            goto wrong;
    }
    row->launch = (struct clb_micro_launch){ .global_size = threads, .rounds = rounds,
                                            .width = clb_host_peak_lanes(v), .chains = v->acc };
    /* The clock during the FMA run: 40 windows, each after about 1 ms of this kernel (some
     * 45 ms). Not measured: clock_ghz stays 0 and no peak is derived. */
    if (CLB_HP_HAS_ADD_CHAIN && !clb_interrupted()) {
        char clock_why[160];
        row->clock_ghz = clb_host_fma_clock_ghz(v, threads, 1e-3, 40, &row->clock_under_fma,
                                                clock_why, sizeof(clock_why));
    }
    int len = snprintf(row->check, sizeof(row->check),
                       "%u threads x %u x %u lanes x %llu rounds, every lane exact", threads,
                       v->acc, clb_host_peak_lanes(v), (unsigned long long)rounds);
    if (seconds < target && len > 0 && (size_t)len < sizeof(row->check))
        snprintf(row->check + len, sizeof(row->check) - (size_t)len,
                 "; rounds capped by exactness: %.1f ms a call", seconds * 1e3);
    goto done;

wrong:
    row->status = CLB_ROW_FAILED;
    snprintf(row->reason, sizeof(row->reason), "wrong result: %s", why);
    goto done;
fault:
    row->status = CLB_ROW_ERROR;
    snprintf(row->reason, sizeof(row->reason), "%s", why);
done:
    clb_micro_row_summarize(row);
    free(values);
}

int clb_host_peak_run(const struct clb_micro_options *opt, struct clb_micro_results *out)
{
    static const enum clb_precision precisions[] = { CLB_FP32, CLB_FP64 };
    struct clb_cpu_isa isa;
    const unsigned cpus = clb_cpu_count_available();

    clb_cpu_isa_detect(&isa);
    for (size_t p = 0; p < sizeof(precisions) / sizeof(precisions[0]); p++) {
        struct clb_row *best = NULL;
        size_t first = out->n_rows;
        bool wanted = !opt->precisions, measured = false;

        for (size_t i = 0; opt->precisions && i < opt->n_precisions; i++)
            wanted |= opt->precisions[i] == precisions[p];
        if (!wanted)
            continue;
        const struct clb_host_peak_variant *also =
            opt->host_also ? clb_host_peak_for_level(&isa, precisions[p], *opt->host_also) : NULL;
        for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]) && !clb_interrupted(); i++) {
            const struct clb_host_peak_variant *v = variants[i];
            const bool supported = v->supported(&isa);
            if (v->precision != precisions[p] ||
                (!opt->all_variants && (measured || !supported) && v != also))
                continue;
            struct clb_row *row = clb_micro_add(out, NULL, CLB_BENCH_PEAK, "gflops");
            if (!row)
                return -1;
            snprintf(row->backend, sizeof(row->backend), "host");
            row->isa = v->name;
            row->precision = v->precision;
            row->width = clb_host_peak_lanes(v);
            snprintf(row->case_, sizeof(row->case_), "%s %s", clb_precision_name(v->precision),
                     v->name);
            if (!supported) {
                row->status = CLB_ROW_UNAVAILABLE;
                snprintf(row->reason, sizeof(row->reason), "this CPU (or its OS) lacks %s",
                         v->name);
                continue;
            }
            /* More threads than the exactness bound has lanes for only on absurd machines. */
            uint64_t fit =
                clb_host_peak_max_lanes(v->precision) / ((uint64_t)v->acc * clb_host_peak_lanes(v));
            measure(v, cpus < fit ? cpus : (unsigned)fit, opt, row);
            measured = true;
        }
        for (size_t i = first; i < out->n_rows; i++)
            if (out->rows[i].status == CLB_ROW_OK && (!best || out->rows[i].value > best->value))
                best = &out->rows[i];
        if (best || first < out->n_rows)
            (best ? best : &out->rows[first])->headline = true;
    }
    return 0;
}
