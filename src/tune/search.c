#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/bench/stats.h"
#include "clbench/bench/verify.h"
#include "clbench/cl/env.h"
#include "clbench/tune/search.h"
#include "clbench/util/interrupt.h"
#include "clbench/util/timer.h"

struct problem {
    const struct clb_device *dev;
    struct clb_cl_env env;
    struct clb_gemm_data *data;
    struct clb_gemm_reference *ref;
    void *c;
    unsigned runs;
};

static struct clb_tune_trial *add_trial(struct clb_tune_result *r,
                                        const struct clb_gemm_backend *be)
{
    if (r->n_trials == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 32;
        struct clb_tune_trial *g = realloc(r->trials, cap * sizeof(*g));
        if (!g)
            return NULL;
        r->trials = g;
        r->cap = cap;
    }
    struct clb_tune_trial *t = &r->trials[r->n_trials++];
    memset(t, 0, sizeof(*t));
    t->backend = be;
    t->kernel = be->tuning->kernel;
    return t;
}

/* Times one configured backend state: first call (compile), check, median of runs. */
static void evaluate(struct problem *pb, const struct clb_gemm_backend *be, void *state,
                     struct clb_tune_trial *t)
{
    struct clb_error e = { "" };
    struct clb_verify_result v;
    struct clb_stats st;
    const unsigned runs = pb->runs;
    double *times = calloc(runs, sizeof(double));

    if (!times || be->run(state, &e) || be->download(state, pb->c, &e)) {
        t->status = CLB_ROW_ERROR;
        snprintf(t->reason, sizeof(t->reason), "%s", times ? e.msg : "out of host memory");
        free(times);
        return;
    }
    clb_gemm_verify(pb->ref, pb->c, &v);
    /* One untimed call more: the first may have paid for thread start-up as well. */
    if (v.passed && be->run(state, &e)) {
        t->status = CLB_ROW_ERROR;
        snprintf(t->reason, sizeof(t->reason), "%s", e.msg);
        free(times);
        return;
    }
    if (!v.passed) {
        t->status = CLB_ROW_FAILED;
        snprintf(t->reason, sizeof(t->reason), "wrong result: max abs error %.3g, relative %.3g",
                 v.max_abs_err, v.rel_err);
        free(times);
        return;
    }
    for (unsigned i = 0; i < runs; i++) {
        double t0 = clb_now_s();
        if (be->run(state, &e)) {
            t->status = CLB_ROW_ERROR;
            snprintf(t->reason, sizeof(t->reason), "%s", e.msg);
            free(times);
            return;
        }
        times[i] = clb_now_s() - t0;
    }
    clb_stats_compute(times, runs, &st);
    free(times);
    t->gflops = clb_gemm_flops(pb->data->shape) / st.median * 1e-9;
    t->status = CLB_ROW_OK;
}

/* One candidate: exactly its parameters (or the built-in ones), never the stored tuning. */
static void run_candidate(struct problem *pb, const struct clb_gemm_backend *be,
                          struct clb_tune_trial *t)
{
    struct clb_error e = { "" };
    void *state = be->tuning->create_with(pb->dev, &pb->env, pb->data, &t->params, &e);

    if (!state) {
        t->status = CLB_ROW_ERROR;
        snprintf(t->reason, sizeof(t->reason), "%s", e.msg);
        return;
    }
    evaluate(pb, be, state, t);
    be->destroy(state);
}

/* Keeps t if it beats the best so far. */
static void consider(struct clb_tune_result *r, struct clb_tune_outcome *o, size_t idx)
{
    const struct clb_tune_trial *t = &r->trials[idx];

    if (t->status != CLB_ROW_OK || t->gflops <= o->best_gflops)
        return;
    o->best_gflops = t->gflops;
    o->best = idx;
}

/* One more measurement of exactly `params`: its median GFLOP/s, 0 when it failed. */
static double measure_again(struct problem *pb, const struct clb_gemm_backend *be,
                            const struct clb_tune_params *params)
{
    struct clb_tune_trial t = { .backend = be, .kernel = be->tuning->kernel, .params = *params };

    run_candidate(pb, be, &t);
    return t.status == CLB_ROW_OK ? t.gflops : 0.0;
}

/*
 * Stores what won at this size: the best's parameters, or none (the
 * built-in choice) when other candidates ran and none beat it, so that a
 * run near this size keeps the built-in rather than a farther size's win.
 */
static void store(const struct clb_tune_options *opt, struct clb_tune_result *r,
                  struct clb_tune_outcome *o, const struct clb_tune_params *p, double gflops,
                  double default_gflops)
{
    struct clb_error e;

    if (!opt->store || clb_interrupted())
        return;
    size_t len = strlen(o->note);
    if (clb_tuning_store(r->device, o->backend->tuning->kernel,
                         opt->precision, opt->size, p, gflops,
                         default_gflops, &e) == 0)
        o->stored = true;
    else if (len < sizeof(o->note))
        snprintf(o->note + len, sizeof(o->note) - len, "%snot stored: %.200s",
                 len ? "; " : "", e.msg);
}

/*
 * Stores the best when it beat the built-in choice by CLB_TUNE_MIN_GAIN in
 * the search and does so again when both run once more (best first): noise
 * that favoured one run must not make a slower configuration the one every
 * later run gets. The figures stored are the lower of the best's and the
 * higher of the built-in's. `others_ok`: candidates besides the built-in
 * choice that ran and verified; with none, nothing was learnt.
 */
static void confirm_and_store(struct problem *pb, const struct clb_tune_options *opt,
                              struct clb_tune_result *r, struct clb_tune_outcome *o,
                              size_t others_ok)
{
    const struct clb_tune_trial *t = o->best == SIZE_MAX ? NULL : &r->trials[o->best];
    const struct clb_tune_params builtin = { 0 };

    if (o->default_gflops <= 0 || others_ok == 0 || clb_interrupted())
        return;
    if (!t || t->gflops <= o->default_gflops * CLB_TUNE_MIN_GAIN) {
        o->builtin_won = true;
        if (!o->note[0])
            snprintf(o->note, sizeof(o->note), "the built-in choice stays (nothing %.0f%% "
                     "faster found)", (CLB_TUNE_MIN_GAIN - 1) * 100);
        store(opt, r, o, &builtin, o->default_gflops, o->default_gflops);
        return;
    }
    o->confirm_best_gflops = measure_again(pb, o->backend, &t->params);
    o->confirm_default_gflops = measure_again(pb, o->backend, &builtin);
    if (o->confirm_best_gflops <= 0 || o->confirm_default_gflops <= 0) {
        if (clb_interrupted())
            snprintf(o->note, sizeof(o->note), "not stored: interrupted while measuring again");
        else
            snprintf(o->note, sizeof(o->note), "not stored: measuring again failed");
        return;
    }
    const double best = fmin(t->gflops, o->confirm_best_gflops);
    const double def = fmax(o->default_gflops, o->confirm_default_gflops);
    if (best <= def * CLB_TUNE_MIN_GAIN) {
        snprintf(o->note, sizeof(o->note), "the built-in choice stays: the best's slower run "
                 "(%.2f GFLOP/s) is not %.0f%% above the built-in choice's faster one (%.2f)",
                 best, (CLB_TUNE_MIN_GAIN - 1) * 100, def);
        o->builtin_won = true;
        store(opt, r, o, &builtin, def, def);
        return;
    }
    store(opt, r, o, &t->params, best, def);
}

static void progress(const struct clb_tune_options *opt, const struct clb_tune_trial *t,
                     double elapsed)
{
    if (!opt->progress)
        return;
    fprintf(stderr, "[tune %.0f/%.0f s] %s: %s%s\n", elapsed, opt->budget_s, t->kernel,
            t->status == CLB_ROW_OK ? "" : clb_row_status_name(t->status),
            t->status == CLB_ROW_OK ? "ok" : "");
}

/*
 * One backend's candidates in order until they run out or the budget's
 * `share` has passed since t0, judged by the slowest candidate yet. The
 * first runs whatever the time: it is the figure tuning has to beat.
 */
static void search(struct problem *pb, const struct clb_tune_options *opt,
                   struct clb_tune_result *out, struct clb_tune_outcome *o, double t0,
                   double share)
{
    const struct clb_gemm_backend *be = o->backend;
    const struct clb_gemm_tuning *tu = be->tuning;
    const double start = clb_now_s();
    struct clb_tune_params p;
    uint64_t rng = 0x7e57;
    double longest = 0.0;
    size_t others_ok = 0;
    bool first = true, more = false;
    char why[256];

    if (!be->supports(pb->dev, opt->precision, why, sizeof(why))) {
        struct clb_tune_trial *t = add_trial(out, be);
        if (t) {
            t->status = CLB_ROW_UNAVAILABLE;
            snprintf(t->reason, sizeof(t->reason), "%s", why);
        }
        snprintf(o->note, sizeof(o->note), "not searched: %.200s", why);
        return;
    }
    for (size_t i = 0; (more = tu->next_candidate(pb->dev, opt->precision, i, &rng, &p)); i++) {
        if (!tu->valid(pb->dev, opt->precision, &p))
            continue;
        if (!first && (clb_now_s() - t0 + longest > opt->budget_s * share || clb_interrupted()))
            break;
        const double s = clb_now_s();
        struct clb_tune_trial *t = add_trial(out, be);
        if (!t)
            break;
        t->params = p;
        run_candidate(pb, be, t);
        t->seconds = clb_now_s() - s;
        longest = fmax(longest, t->seconds);
        if (first && t->status == CLB_ROW_OK)
            o->default_gflops = t->gflops;
        else if (!first && t->status == CLB_ROW_OK)
            others_ok++;
        first = false;
        o->n_trials++;
        consider(out, o, out->n_trials - 1);
        progress(opt, t, clb_now_s() - t0);
    }
    if (clb_interrupted())
        snprintf(o->note, sizeof(o->note), "interrupted after %zu candidates: nothing stored",
                 o->n_trials);
    else if (more && o->n_trials <= 1)
        snprintf(o->note, sizeof(o->note), "budget spent after the built-in choice: no "
                 "candidate tried (give --budget more time)");
    else if (more)
        snprintf(o->note, sizeof(o->note), "%zu candidates tried before the budget ran out",
                 o->n_trials);
    confirm_and_store(pb, opt, out, o, others_ok);
    o->seconds = clb_now_s() - start;
}

/* The outcomes, one per tunable backend in the given order; -1 when out of memory. */
static int outcomes_create(const struct clb_gemm_backend *const *backends,
                           struct clb_tune_result *r)
{
    size_t n = 0;

    for (size_t i = 0; backends[i]; i++)
        n += backends[i]->tuning != NULL;
    if (n && !(r->outcomes = calloc(n, sizeof(*r->outcomes))))
        return -1;
    for (size_t i = 0; backends[i]; i++) {
        if (!backends[i]->tuning)
            continue;
        struct clb_tune_outcome *o = &r->outcomes[r->n_outcomes++];
        o->backend = backends[i];
        o->best = SIZE_MAX;
    }
    return 0;
}

int clb_tune_device(const struct clb_device *dev, const struct clb_tune_options *opt,
                    struct clb_tune_result *out, struct clb_error *e)
{
    const struct clb_gemm_shape shape = { opt->size, opt->size, opt->size };
    struct problem pb = { .dev = dev, .runs = opt->runs ? opt->runs : 3 };
    const double t0 = clb_now_s();
    struct clb_tune_outcome **order = NULL;
    size_t n = 0;
    int rc = -1;

    memset(out, 0, sizeof(*out));
    out->device = dev;
    out->precision = opt->precision;
    out->size = opt->size;
    out->budget_s = opt->budget_s;
    if (outcomes_create(opt->backends, out) ||
        !(order = calloc(out->n_outcomes ? out->n_outcomes : 1, sizeof(*order)))) {
        clb_error_set(e, "out of host memory");
        goto error_order;
    }
    /*
     * In increasing budget share (registry order among equals): a share
     * bounds a search only when another follows it.
     */
    for (size_t i = 0; i < out->n_outcomes; i++) {
        struct clb_tune_outcome *o = &out->outcomes[i];
        const double share = o->backend->tuning->budget_share;
        if (opt->only && o->backend != opt->only)
            continue;
        size_t at = n++;
        for (; at > 0 && order[at - 1]->backend->tuning->budget_share > share; at--)
            order[at] = order[at - 1];
        order[at] = o;
    }
    if (clb_cl_env_init(&pb.env, dev->id, false, e))
        goto error_order;
    if (!(pb.data = clb_gemm_data_create(shape, opt->precision, 1.0, 0.0, 42, e)) ||
        !(pb.ref = clb_gemm_reference_create(pb.data, 7, e)) ||
        !(pb.c = malloc(shape.m * shape.n * clb_precision_bytes(opt->precision)))) {
        if (!e->msg[0])
            clb_error_set(e, "out of host memory");
        goto done;
    }
    out->setup_s = clb_now_s() - t0;
    for (size_t i = 0; i < n; i++)
        search(&pb, opt, out, order[i], t0,
               i + 1 < n ? order[i]->backend->tuning->budget_share : 1.0);
    out->interrupted = clb_interrupted();
    rc = 0;

done:
    free(pb.c);
    clb_gemm_reference_destroy(pb.ref);
    clb_gemm_data_destroy(pb.data);
    clb_cl_env_finish(&pb.env);
error_order:
    free(order);
    if (rc)
        clb_tune_result_finish(out);
    return rc;
}

void clb_tune_result_finish(struct clb_tune_result *r)
{
    free(r->trials);
    free(r->outcomes);
    memset(r, 0, sizeof(*r));
}
