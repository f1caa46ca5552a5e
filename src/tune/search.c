#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/clblast_tune.h"
#include "clbench/interrupt.h"
#include "clbench/own_gemm.h"
#include "clbench/rng.h"
#include "clbench/timer.h"
#include "clbench/tune.h"
#include "clbench/verify.h"

static const char *const xgemm_names[] = { "GEMMK", "KREG", "KWG", "KWI", "MDIMA", "MDIMC",
                                           "MWG",   "NDIMB", "NDIMC", "NWG", "SA", "SB",
                                           "STRM",  "STRN", "VWM", "VWN" };
enum { N_XGEMM = sizeof(xgemm_names) / sizeof(xgemm_names[0]) };

/*
 * Known-good starting points (KWG KWI MDIMA MDIMC MWG NDIMB NDIMC NWG SA SB
 * STRM STRN VWM VWN), tried before random ones. For CPUs: first the two best
 * this search found at n = 2048 on a 2-core Zen 4 through pocl 3.1 (3.99x and
 * 2.4x CLBlast's default there), then the shapes CLBlast's published
 * database lists as best for Intel CPUs. For GPUs: its entries for GPUs of
 * several generations.
 */
static const size_t cpu_starts[][14] = {
    { 32, 2, 8, 8, 64, 16, 8, 64, 1, 1, 0, 0, 8, 4 },
    { 16, 2, 8, 8, 128, 8, 8, 128, 1, 1, 1, 0, 1, 8 },
    { 32, 2, 8, 8, 32, 8, 8, 64, 0, 0, 0, 0, 4, 4 },
    { 32, 8, 16, 16, 64, 32, 32, 64, 0, 1, 1, 0, 1, 2 },
    { 32, 2, 32, 8, 128, 8, 8, 128, 1, 1, 1, 1, 2, 8 },
    { 32, 2, 16, 32, 32, 8, 8, 64, 0, 1, 0, 0, 1, 8 },
    { 32, 2, 32, 16, 64, 32, 8, 64, 0, 1, 1, 0, 1, 1 },
    { 16, 2, 8, 8, 128, 16, 8, 128, 0, 1, 1, 1, 1, 8 },
    { 32, 8, 32, 32, 64, 32, 16, 64, 1, 1, 1, 0, 2, 2 },
};
static const size_t gpu_starts[][14] = {
    { 32, 2, 16, 16, 64, 8, 8, 64, 1, 1, 0, 0, 4, 4 },
    { 16, 2, 8, 16, 64, 8, 8, 128, 1, 1, 1, 0, 4, 8 },
    { 16, 2, 32, 16, 128, 32, 8, 128, 1, 1, 1, 0, 4, 1 },
    { 32, 2, 16, 8, 64, 8, 8, 64, 1, 1, 1, 1, 4, 8 },
    { 16, 2, 32, 16, 64, 16, 8, 128, 1, 1, 0, 1, 2, 8 },
    { 16, 2, 16, 16, 64, 16, 8, 128, 1, 1, 1, 0, 4, 8 },
};

static void xgemm_params(const size_t v[14], struct clb_tune_params *p)
{
    memset(p, 0, sizeof(*p));
    clb_tune_set(p, "GEMMK", 0);
    clb_tune_set(p, "KREG", 1);
    for (size_t i = 2; i < N_XGEMM; i++)
        clb_tune_set(p, xgemm_names[i], v[i - 2]);
}

bool clb_xgemm_params_valid(const struct clb_device *dev, enum clb_precision p,
                            const struct clb_tune_params *t)
{
#define G(x) clb_tune_get(t, #x, 0)
    const size_t kwg = G(KWG), kwi = G(KWI), mdima = G(MDIMA), mdimc = G(MDIMC), mwg = G(MWG),
                 ndimb = G(NDIMB), ndimc = G(NDIMC), nwg = G(NWG), vwm = G(VWM), vwn = G(VWN);
#undef G
    const uint64_t wg = clb_device_u64(dev, CLB_PROP_MAX_WORK_GROUP_SIZE);
    const uint64_t local = clb_device_u64(dev, CLB_PROP_LOCAL_MEM_BYTES);
    const size_t es = clb_precision_bytes(p);

    if (!kwg || !kwi || !mdima || !mdimc || !mwg || !ndimb || !ndimc || !nwg || !vwm || !vwn)
        return false;
    if (mwg % (mdimc * vwm) || nwg % (ndimc * vwn) || mwg % (mdima * vwm) ||
        nwg % (ndimb * vwn) || kwg % kwi)
        return false;
    if ((mdimc * ndimc) % mdima || (mdimc * ndimc) % ndimb ||
        kwg % ((mdimc * ndimc) / mdima) || kwg % ((mdimc * ndimc) / ndimb))
        return false;
    if (mdimc * ndimc > wg)
        return false;
    return (clb_tune_get(t, "SA", 0) * kwg * mwg + clb_tune_get(t, "SB", 0) * kwg * nwg) * es <=
           local;
}

static void random_xgemm(uint64_t *rng, struct clb_tune_params *p)
{
    static const size_t kwg[] = { 16, 32 }, kwi[] = { 2, 8 }, dim[] = { 8, 16, 32 },
                        wg[] = { 16, 32, 64, 128 }, bit[] = { 0, 1 }, vw[] = { 1, 2, 4, 8 };
#define PICK(a) a[clb_rng_next(rng) % (sizeof(a) / sizeof(a[0]))]
    const size_t v[14] = { PICK(kwg), PICK(kwi), PICK(dim), PICK(dim), PICK(wg),
                           PICK(dim), PICK(dim), PICK(wg),  PICK(bit), PICK(bit),
                           PICK(bit), PICK(bit), PICK(vw),  PICK(vw) };
#undef PICK
    xgemm_params(v, p);
}

/* Own-kernel candidates: the defaults, then one parameter changed at a time. */
static size_t own_candidates(const struct clb_device *dev, enum clb_precision prec,
                             struct clb_own_gemm_params *out, size_t cap)
{
    static const unsigned tms[] = { 4, 6, 8, 12 }, tns[] = { 4, 8, 16 }, kcs[] = { 0, 256, 512, 1024 };
    static const unsigned locals[][2] = { { 8, 1 }, { 16, 1 }, { 4, 4 }, { 16, 16 }, { 32, 4 } };
    struct clb_own_gemm_params d;
    size_t n = 0;

    clb_own_gemm_defaults(dev, prec, &d);
    out[n++] = d;
    for (size_t i = 0; i < sizeof(tms) / sizeof(tms[0]) && n < cap; i++)
        if (tms[i] != d.tm)
            out[n] = d, out[n++].tm = tms[i];
    for (size_t i = 0; i < sizeof(tns) / sizeof(tns[0]) && n < cap; i++)
        if (tns[i] != d.tn)
            out[n] = d, out[n++].tn = tns[i];
    for (size_t i = 0; i < sizeof(locals) / sizeof(locals[0]) && n < cap; i++)
        if (locals[i][0] != d.lx || locals[i][1] != d.ly)
            out[n] = d, out[n].lx = locals[i][0], out[n++].ly = locals[i][1];
    for (size_t i = 0; i < sizeof(kcs) / sizeof(kcs[0]) && n < cap; i++)
        if (kcs[i] != d.kc)
            out[n] = d, out[n++].kc = kcs[i];
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (clb_own_gemm_params_valid(dev, &out[i]))
            out[kept++] = out[i];
    return kept;
}

struct problem {
    const struct clb_device *dev;
    struct clb_cl_env env;
    struct clb_gemm_data *data;
    struct clb_gemm_reference *ref;
    void *c;
    unsigned runs;
};

static struct clb_tune_trial *add_trial(struct clb_tune_result *r, const char *kernel)
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
    t->kernel = kernel;
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

static void run_clblast(struct problem *pb, struct clb_tune_trial *t)
{
    struct clb_error e = { "" };
    /* Exactly the candidate's parameters (or the built-in ones): never the stored tuning. */
    void *state = t->params.n ? clb_clblast_create_with(pb->dev, &pb->env, pb->data, &t->params, &e)
                              : clb_backend_clblast_untuned.create(pb->dev, &pb->env, pb->data, &e);

    if (!state) {
        t->status = CLB_ROW_ERROR;
        snprintf(t->reason, sizeof(t->reason), "%s", e.msg);
        return;
    }
    evaluate(pb, &clb_backend_clblast, state, t);
    clb_backend_clblast.destroy(state);
}

static void run_own(struct problem *pb, const struct clb_own_gemm_params *p,
                    struct clb_tune_trial *t)
{
    struct clb_error e = { "" };
    void *state = clb_own_gemm_create(pb->dev, &pb->env, pb->data, p, &e);

    clb_own_gemm_params_to_tune(p, &t->params);
    if (!state) {
        t->status = CLB_ROW_ERROR;
        snprintf(t->reason, sizeof(t->reason), "%s", e.msg);
        return;
    }
    evaluate(pb, &clb_backend_clbench, state, t);
    clb_backend_clbench.destroy(state);
}

/* Keeps t if it beats the best so far (and the built-in choice), storing it. */
static void consider(struct clb_tune_result *r, const struct clb_tune_options *opt, int which,
                     size_t idx)
{
    const struct clb_tune_trial *t = &r->trials[idx];
    struct clb_error e;

    if (t->status != CLB_ROW_OK || t->gflops <= r->best_gflops[which])
        return;
    r->best_gflops[which] = t->gflops;
    r->best[which] = idx;
    /* Noise is not an improvement: store only a clear gain over the built-in choice. */
    if (opt->store && t->params.n && t->gflops > r->default_gflops[which] * CLB_TUNE_MIN_GAIN) {
        if (clb_tuning_store(r->device, t->kernel, clb_precision_name(opt->precision), &t->params,
                             t->gflops, opt->size, &e) == 0)
            r->stored[which] = true;
        else
            fprintf(stderr, "clbench: warning: %s\n", e.msg);
    }
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

int clb_tune_device(const struct clb_device *dev, const struct clb_tune_options *opt,
                    struct clb_tune_result *out, struct clb_error *e)
{
    const struct clb_gemm_shape shape = { opt->size, opt->size, opt->size };
    struct problem pb = { .dev = dev, .runs = opt->runs ? opt->runs : 3 };
    const double t0 = clb_now_s();
    double longest = 0.0;
    uint64_t rng = 0x7e57;

    memset(out, 0, sizeof(*out));
    out->device = dev;
    out->best[0] = out->best[1] = SIZE_MAX;
    if (clb_cl_env_init(&pb.env, dev->id, false, e))
        return -1;
    if (!(pb.data = clb_gemm_data_create(shape, opt->precision, 1.0, 0.0, 42, e)) ||
        !(pb.ref = clb_gemm_reference_create(pb.data, 7, e)) ||
        !(pb.c = malloc(shape.m * shape.n * clb_precision_bytes(opt->precision)))) {
        if (!e->msg[0])
            clb_error_set(e, "out of host memory");
        goto fail;
    }
/* Another candidate only while it can finish within the budget, judged by the slowest yet. */
#define TIME_LEFT(share) (clb_now_s() - t0 + longest <= opt->budget_s * (share) && !clb_interrupted())

    if (opt->own) {
        struct clb_own_gemm_params cand[32];
        size_t n = own_candidates(dev, opt->precision, cand, 32);
        const double share = opt->clblast ? 0.25 : 1.0;
        for (size_t i = 0; i < n && (i == 0 || TIME_LEFT(share)); i++) {
            double s = clb_now_s();
            struct clb_tune_trial *t = add_trial(out, CLB_OWN_GEMM_KERNEL);
            if (!t)
                break;
            run_own(&pb, &cand[i], t);
            t->seconds = clb_now_s() - s;
            longest = fmax(longest, t->seconds);
            if (i == 0 && t->status == CLB_ROW_OK)
                out->default_gflops[1] = t->gflops;
            consider(out, opt, 1, out->n_trials - 1);
            progress(opt, t, clb_now_s() - t0);
        }
    }
    if (opt->clblast) {
        const bool cpu = (clb_device_u64(dev, CLB_PROP_TYPE) & CL_DEVICE_TYPE_CPU) != 0;
        const size_t (*starts)[14] = cpu ? cpu_starts : gpu_starts;
        const size_t n_starts = cpu ? sizeof(cpu_starts) / sizeof(cpu_starts[0])
                                    : sizeof(gpu_starts) / sizeof(gpu_starts[0]);
        longest = 0.0;
        /* CLBlast's built-in choice first: the figure tuning has to beat. */
        struct clb_tune_trial *t = add_trial(out, "Xgemm");
        double s = clb_now_s();
        if (t) {
            run_clblast(&pb, t);
            t->seconds = clb_now_s() - s;
            longest = t->seconds;
            if (t->status == CLB_ROW_OK) {
                /* The built-in choice is the best until a candidate beats it. */
                out->default_gflops[0] = out->best_gflops[0] = t->gflops;
                out->best[0] = out->n_trials - 1;
            }
            progress(opt, t, clb_now_s() - t0);
        }
        for (size_t i = 0; t && i < n_starts + 1000 && TIME_LEFT(1.0); i++) {
            struct clb_tune_params p;
            if (i < n_starts)
                xgemm_params(starts[i], &p);
            else
                random_xgemm(&rng, &p);
            if (!clb_xgemm_params_valid(dev, opt->precision, &p))
                continue;
            s = clb_now_s();
            if (!(t = add_trial(out, "Xgemm")))
                break;
            t->params = p;
            run_clblast(&pb, t);
            t->seconds = clb_now_s() - s;
            longest = fmax(longest, t->seconds);
            consider(out, opt, 0, out->n_trials - 1);
            progress(opt, t, clb_now_s() - t0);
        }
    }
#undef TIME_LEFT
    out->interrupted = clb_interrupted();
    free(pb.c);
    clb_gemm_reference_destroy(pb.ref);
    clb_gemm_data_destroy(pb.data);
    clb_cl_env_finish(&pb.env);
    return 0;

fail:
    free(pb.c);
    clb_gemm_reference_destroy(pb.ref);
    clb_gemm_data_destroy(pb.data);
    clb_cl_env_finish(&pb.env);
    return -1;
}

void clb_tune_result_finish(struct clb_tune_result *r)
{
    free(r->trials);
    memset(r, 0, sizeof(*r));
}
