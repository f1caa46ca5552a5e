#include "clbench/bench/gemm_run.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clbench/cl/cl.h"
#include "clbench/cl/env.h"
#include "clbench/cl/fault.h"
#include "clbench/util/host.h"
#include "clbench/util/interrupt.h"
#include "clbench/util/rng.h"
#include "clbench/util/timer.h"
#include "clbench/util/units.h"

/* Runs are bounded even with a long --min-time on a tiny problem. */
enum { MAX_TIMED_RUNS = 100000 };

bool clb_gemm_row_measured(const struct clb_row *row)
{
    return (row->status == CLB_ROW_OK || row->status == CLB_ROW_FAILED) && row->n_times > 0;
}

/* Limits that keep every later size computation far from 64-bit overflow. */
#define MAX_ELEMENTS (UINT64_C(1) << 50)

static bool shape_sane(struct clb_gemm_shape s, const struct clb_gemm_mode *mode, char *why,
                       size_t len)
{
    const uint64_t limit = (uint64_t)INT32_MAX;
    uint64_t mn, mk, kn;

    if (s.m > limit || s.n > limit || s.k > limit) {
        snprintf(why, len, "a dimension exceeds %" PRIu64 " (BLAS index limit)", limit);
        return false;
    }
    if (__builtin_mul_overflow(s.m, s.n, &mn) || __builtin_mul_overflow(s.m, s.k, &mk) ||
        __builtin_mul_overflow(s.k, s.n, &kn) || mn > MAX_ELEMENTS || mk > MAX_ELEMENTS ||
        kn > MAX_ELEMENTS) {
        snprintf(why, len, "a matrix has more than 2^50 elements");
        return false;
    }
    return clb_gemm_layout_sane(mode, s, MAX_ELEMENTS, why, len);
}

/* Elements of the buffers of A, B and C in the mode. */
static void buffer_elems(struct clb_gemm_shape s, const struct clb_gemm_mode *mode,
                         uint64_t elems[3])
{
    for (int w = CLB_GEMM_A; w <= CLB_GEMM_C; w++) {
        struct clb_gemm_matrix_layout l;
        clb_gemm_layout(mode, s, (enum clb_gemm_matrix)w, &l);
        elems[w] = l.elems;
    }
}

/* Whether the host can hold one problem: inputs, reference, and two copies of C. */
static bool host_fits(struct clb_gemm_shape s, enum clb_precision p,
                      const struct clb_gemm_mode *mode, char *why, size_t len)
{
    const uint64_t es = clb_precision_bytes(p);
    uint64_t elems[3];
    buffer_elems(s, mode, elems);
    const uint64_t need = (elems[0] + elems[1] + 3 * elems[2]) * es +
                          clb_gemm_reference_bytes(s, p, mode);
    const uint64_t have = clb_host_available_bytes();
    char need_s[32], have_s[32];

    if (need > have) {
        clb_format_bytes(need, need_s, sizeof(need_s));
        clb_format_bytes(have, have_s, sizeof(have_s));
        snprintf(why, len, "needs %s of host memory, %s available", need_s, have_s);
        return false;
    }
    return true;
}

static bool device_fits(const struct clb_device *d, const struct clb_gemm_backend *be,
                        const struct clb_cl_env *env, struct clb_gemm_shape s,
                        enum clb_precision p, const struct clb_gemm_mode *mode, char *why,
                        size_t len)
{
    const uint64_t es = clb_precision_bytes(p);
    uint64_t extra = 0, extra_largest = 0, elems[3];
    if (be->extra_device_bytes)
        be->extra_device_bytes(d, s, p, &extra, &extra_largest);
    /* A backend's own per-call buffer (CLBlast's temporary one) counts as much as A's. */
    const uint64_t call = env && be->call_device_bytes ? be->call_device_bytes(env, s, p, mode) : 0;
    extra += call;
    if (call > extra_largest)
        extra_largest = call;
    buffer_elems(s, mode, elems);
    const uint64_t bytes[4] = { elems[0] * es, elems[1] * es, elems[2] * es, extra_largest };
    const uint64_t max_alloc = clb_device_u64(d, CLB_PROP_MAX_ALLOC_BYTES);
    const uint64_t global = clb_device_u64(d, CLB_PROP_GLOBAL_MEM_BYTES);
    char x[32], y[32];

    for (int i = 0; i < 4; i++) {
        if (bytes[i] > max_alloc) {
            clb_format_bytes(bytes[i], x, sizeof(x));
            clb_format_bytes(max_alloc, y, sizeof(y));
            if (i < 3)
                snprintf(why, len, "matrix %c is %s, over the device's largest allocation (%s)",
                         "ABC"[i], x, y);
            else if (bytes[i] == call)
                snprintf(why, len, "%s's temporary buffer (%s) is over the device's largest "
                                   "allocation (%s)", be->name, x, y);
            else
                snprintf(why, len, "a padded copy of %s is over the device's largest allocation "
                                   "(%s)", x, y);
            return false;
        }
    }
    if (bytes[0] + bytes[1] + bytes[2] + extra > global) {
        clb_format_bytes(bytes[0] + bytes[1] + bytes[2] + extra, x, sizeof(x));
        clb_format_bytes(global, y, sizeof(y));
        if (call) {
            char t[32];
            clb_format_bytes(call, t, sizeof(t));
            snprintf(why, len, "A, B, C and %s's temporary buffer (%s) need %s, over the "
                               "device's global memory (%s)", be->name, t, x, y);
        } else
            snprintf(why, len, "A, B and C need %s, over the device's global memory (%s)", x, y);
        return false;
    }
    return true;
}

static void merge_verify(struct clb_row *row, const struct clb_verify_result *v)
{
    if (row->n_verified++ == 0 || (!v->passed && row->verify.passed) ||
        (v->passed == row->verify.passed && v->worst_ratio > row->verify.worst_ratio))
        row->verify = *v;
}

static void mark_failed(struct clb_row *row, const struct clb_verify_result *v,
                        const char *which)
{
    char ratio[64] = "";

    if (row->status != CLB_ROW_OK)
        return;
    row->status = CLB_ROW_FAILED;
    /* Infinite: a check that fails outright (a non-finite entry, C's padding changed). */
    if (isfinite(v->worst_ratio))
        snprintf(ratio, sizeof(ratio), " is %.3g times its tolerance", v->worst_ratio);
    snprintf(row->reason, sizeof(row->reason),
             "wrong result (%s): %s%s; max abs error %.3g, relative %.3g (%s check)", which,
             v->failed, ratio, v->max_abs_err, v->rel_err, clb_verify_method_name(v->method));
}

/*
 * CLBENCH_FAULT_TILE: one 16x16 block of a device's result zeroed at a
 * random place, as a kernel that skips a tile would leave it.
 */
static void fault_tile(const struct clb_row *row, const struct clb_gemm_data *data, void *c,
                       uint64_t seed)
{
    const struct clb_gemm_shape s = row->shape;
    const size_t es = clb_precision_bytes(row->precision);
    const uint64_t rows = s.m < 16 ? s.m : 16, cols = s.n < 16 ? s.n : 16;

    if (!row->device || !clb_fault("TILE"))
        return;
    seed ^= row->order * UINT64_C(0x9e3779b97f4a7c15);
    const uint64_t i0 = clb_rng_next(&seed) % (s.m - rows + 1);
    const uint64_t j0 = clb_rng_next(&seed) % (s.n - cols + 1);
    for (uint64_t i = i0; i < i0 + rows; i++)
        for (uint64_t j = j0; j < j0 + cols; j++)
            memset((char *)c + clb_gemm_at(&data->lc, i, j) * es, 0, es);
}

/*
 * CLBENCH_FAULT_PAD: one element of a device result's buffer outside C
 * changed (the first padding after C's first line, else the offset's last),
 * as a kernel that writes past a line's end or before C would leave it.
 */
static void fault_pad(const struct clb_row *row, const struct clb_gemm_data *data, void *c)
{
    const struct clb_gemm_matrix_layout *l = &data->lc;

    if (!row->device || !clb_fault("PAD") || (l->ld == l->line_len && !l->offset))
        return;
    clb_gemm_store(data->precision, c, l->ld > l->line_len ? l->offset + l->line_len
                                                            : l->offset - 1, 0.0);
}

/*
 * CLBENCH_FAULT_LATE: one element of C changed in every result but the first
 * call's, from any backend, as a kernel whose later calls go wrong (a stale
 * state, a cached program) would leave it.
 */
static void fault_late(const struct clb_gemm_data *data, void *c, bool first)
{
    const size_t i = clb_gemm_at(&data->lc, 0, 0);

    if (first || !clb_fault("LATE"))
        return;
    clb_gemm_store(data->precision, c, i, 2.0 * clb_gemm_load(data->precision, c, i) + 1.0);
}

static void set_reason(struct clb_row *row, enum clb_row_status st, const char *msg)
{
    row->status = st;
    snprintf(row->reason, sizeof(row->reason), "%s", msg);
}

/* Verifies the result in c (downloaded first unless `downloaded`). */
static int check_result(struct clb_row *row, void *state, const struct clb_gemm_data *data,
                        const struct clb_gemm_reference *ref, void *c, const char *which,
                        bool downloaded, uint64_t seed, struct clb_error *e)
{
    struct clb_verify_result v;

    if (!downloaded && row->backend_ops->download(state, c, e))
        return -1;
    fault_tile(row, data, c, seed);
    fault_pad(row, data, c);
    fault_late(data, c, row->n_verified == 0);
    clb_gemm_verify(ref, c, &v);
    merge_verify(row, &v);
    if (!v.passed)
        mark_failed(row, &v, which);
    return 0;
}

static void sleep_s(double s)
{
    struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

    while (nanosleep(&ts, &ts) && errno == EINTR)
        ;
}

/* Whether the stored parameters were applied, and the row's note where they were not. */
static void note_tuning(struct clb_row *row, void *state, bool have_stored,
                        const struct clb_tune_match *match, const struct clb_error *e)
{
    const struct clb_gemm_backend *be = row->backend_ops;

    row->tuned = have_stored && be->tuned && be->tuned(state);
    if (row->tuned)
        row->tuned_at = match->size;
    else if (have_stored)
        snprintf(row->tuning_note, sizeof(row->tuning_note),
                 "the parameters tuned at %" PRIu64 " were not applied: %s", match->size,
                 e->msg[0] ? e->msg : "not valid here");
    else
        snprintf(row->tuning_note, sizeof(row->tuning_note), "%s", match->note);
}

/*
 * The timed calls into row->times_s until the row has its runs and time. Interrupted: the
 * call in flight completes, and the row keeps what it measured.
 */
static int timed_calls(struct clb_row *row, const struct clb_gemm_options *opt,
                       void *state, struct clb_error *e)
{
    const struct clb_gemm_backend *be = row->backend_ops;
    size_t cap = opt->runs;
    double measured = 0.0;
    /* Test hooks: a straggler, each timed call 10x and 50 ms longer than the call was; */
    const bool slow = clb_fault("SLOW");
    /* a noisy rank, every second timed call 100 ms longer. */
    const bool noisy = clb_fault("NOISY");

    if (!(row->times_s = malloc(cap * sizeof(double))))
        goto oom;
    while ((row->n_times < opt->runs ||
            (measured < opt->min_time_s && row->n_times < MAX_TIMED_RUNS)) &&
           !(clb_interrupted() && row->n_times > 0)) {
        if (row->n_times == cap) {
            double *grown = realloc(row->times_s, 2 * cap * sizeof(double));
            if (!grown)
                goto oom;
            row->times_s = grown;
            cap *= 2;
        }
        const double t = clb_now_s();
        if (be->run(state, e))
            return -1;
        if (slow)
            sleep_s(9.0 * (clb_now_s() - t) + 0.05);
        if (noisy && row->n_times % 2)
            sleep_s(0.1);
        row->times_s[row->n_times] = clb_now_s() - t;
        measured += row->times_s[row->n_times++];
    }
    return 0;
oom:
    clb_error_set(e, "out of host memory");
    return -1;
}

/* --transfers: opt->runs calls with C uploaded and downloaded around each, then checked. */
static int end_to_end(struct clb_row *row, const struct clb_gemm_options *opt,
                      void *state, const struct clb_gemm_data *data,
                      const struct clb_gemm_reference *ref, void *c, struct clb_error *e)
{
    const struct clb_gemm_backend *be = row->backend_ops;
    double *e2e = malloc(opt->runs * sizeof(double));

    if (!e2e) {
        clb_error_set(e, "out of host memory");
        return -1;
    }
    for (unsigned i = 0; i < opt->runs; i++) {
        const double t = clb_now_s();
        if (be->upload(state, e) || be->run(state, e) || be->download(state, c, e)) {
            free(e2e);
            return -1;
        }
        e2e[i] = clb_now_s() - t;
    }
    clb_stats_compute(e2e, opt->runs, &row->e2e_s);
    row->e2e_gflops = clb_gemm_flops(row->shape) / row->e2e_s.median * 1e-9;
    free(e2e);
    /* Each end-to-end call starts again from C0: its result is checkable for any beta. */
    check_result(row, state, data, ref, c, "end-to-end call", true, opt->seed, e);
    return 0;
}

/* Measures one row whose inputs and reference exist; faults land in row. */
static void measure(struct clb_row *row, const struct clb_gemm_options *opt,
                    const struct clb_cl_env *env, const struct clb_gemm_data *data,
                    const struct clb_gemm_reference *ref, void *c)
{
    const struct clb_gemm_backend *be = row->backend_ops;
    struct clb_error e = { "" };
    struct clb_tune_params stored;
    struct clb_tune_match match = { 0 };
    const bool have_stored = !row->untuned && be->tuning && row->device && opt->stored_params &&
                             opt->stored_params(row->device, be->tuning->kernel,
                                                data->precision, data->shape, &data->mode, &stored, &match);
    /* An untuned row is the backend given no stored parameters: its built-in choice. */
    void *state = be->create(row->device, env, data, have_stored ? &stored : NULL, &e);

    if (!state) {
        set_reason(row, CLB_ROW_ERROR, e.msg);
        return;
    }
    row->status = CLB_ROW_OK;
    note_tuning(row, state, have_stored, &match, &e);
    if (be->describe)
        be->describe(state, row->kernel, sizeof(row->kernel));
    if (be->code_path)
        row->code_path = be->code_path(state);
    const double t = clb_now_s();
    if (be->run(state, &e))
        goto fault;
    row->first_call_s = clb_now_s() - t;
    if (check_result(row, state, data, ref, c, "first call", false, opt->seed, &e))
        goto fault;

    for (unsigned w = 0; w < opt->warmup && !clb_interrupted(); w++)
        if (be->run(state, &e))
            goto fault;
    if (timed_calls(row, opt, state, &e))
        goto fault;
    /*
     * With beta = 0 every call computes the same C: check the last one as well.
     * Otherwise each timed call added to C, so C goes back to its start and one
     * more (untimed) call is checked: a call after the timed ones must still be right.
     */
    if (data->beta == 0.0
            ? check_result(row, state, data, ref, c, "last timed call", false, opt->seed, &e)
            : be->upload(state, &e) || be->run(state, &e) ||
                  check_result(row, state, data, ref, c, "call after the timed ones", false,
                               opt->seed, &e))
        goto fault;
    if (opt->transfers && !clb_interrupted() && end_to_end(row, opt, state, data, ref, c, &e))
        goto fault;
    goto done;
fault:
    /* Keep what was measured; the row says why it stopped. */
    set_reason(row, CLB_ROW_ERROR, e.msg);
done:
    clb_stats_compute(row->times_s, row->n_times, &row->time_s);
    if (row->n_times) {
        row->gflops = clb_gemm_flops(row->shape) / row->time_s.median * 1e-9;
        row->gflops_max = clb_gemm_flops(row->shape) / row->time_s.min * 1e-9;
    }
    be->destroy(state);
}

static void progress(const struct clb_gemm_options *opt, size_t i, size_t n,
                     const struct clb_row *row, double t0)
{
    char mode[96];

    if (!opt->progress)
        return;
    clb_gemm_mode_label(&row->mode, mode, sizeof(mode));
    fprintf(stderr,
            "[%zu/%zu] gemm %s %" PRIu64 "x%" PRIu64 "x%" PRIu64 "%s%s %s (%s) ... %.1f s\n",
            i + 1, n, clb_precision_name(row->precision), row->shape.m, row->shape.n,
            row->shape.k, mode[0] ? " " : "", mode,
            row->device ? clb_device_str(row->device, CLB_PROP_NAME) : "host CPU",
            row->backend, clb_now_s() - t0);
}

const struct clb_gemm_backend *clb_gemm_baseline(const struct clb_gemm_options *opt)
{
    for (size_t b = 0; b < opt->n_backends; b++)
        if (!opt->backends[b]->on_device)
            return opt->backends[b];
    return NULL;
}

static void compute_speedups(struct clb_gemm_results *r)
{
    const bool handicapped = r->baseline && r->baseline->handicap &&
                             r->baseline->handicap(r->baseline_handicap,
                                                   sizeof(r->baseline_handicap),
                                                   &r->handicap_level);

    if (!handicapped)
        r->baseline_handicap[0] = '\0';
    for (size_t i = 0; i < r->n_rows; i++) {
        struct clb_row *row = &r->rows[i];
        row->baseline_handicapped = handicapped && row->backend_ops == r->baseline;
        /* A wrong result's speed means nothing: no speedup for it. */
        if (row->status != CLB_ROW_OK || !clb_gemm_row_measured(row))
            continue;
        for (size_t j = 0; j < r->n_rows; j++) {
            const struct clb_row *b = &r->rows[j];
            if (b->backend_ops == r->baseline && b->status == CLB_ROW_OK &&
                b->precision == row->precision && b->shape.m == row->shape.m &&
                b->shape.n == row->shape.n && b->shape.k == row->shape.k)
                row->speedup = row->gflops / b->gflops;
        }
        row->baseline_handicapped |= handicapped && row->speedup > 0;
    }
}

/* What one clb_gemm_run shares across its rows. */
struct run {
    const struct clb_gemm_options *opt;
    struct clb_device *const *devices;
    size_t n_devices;
    size_t total;                /* rows it will make */
    struct clb_gemm_results *out;
    bool stopped;                /* a signal (any rank's, with opt->step) ended the run */
    struct clb_cl_env *envs;     /* per device, made when its first row runs */
    struct clb_error *env_err;
    int *env_state;              /* 0 untried, 1 ready, -1 failed (env_err says why) */
    double t0;
};

/* One problem: its inputs, reference and result buffer, made when a row first needs them. */
struct problem {
    enum clb_precision precision;
    struct clb_gemm_shape shape;
    size_t pi, si;               /* its place in the options' lists */
    struct clb_gemm_data *data;
    struct clb_gemm_reference *ref;
    void *c;
    bool sane, host_ok;
    char host_why[256];          /* why not, when either is false */
    struct clb_error err;        /* making it failed: every row of it reports this */
};

static int run_init(struct run *r, const struct clb_gemm_options *opt,
                    struct clb_device *const *devices, size_t n_devices,
                    struct clb_gemm_results *out)
{
    size_t per_problem = 0;

    memset(out, 0, sizeof(*out));
    *r = (struct run){ .opt = opt, .devices = devices, .n_devices = n_devices, .out = out,
                       .t0 = clb_now_s() };
    for (size_t b = 0; b < opt->n_backends; b++) {
        per_problem += opt->backends[b]->on_device ? n_devices : 1;
        if (opt->backends[b]->set_threads)
            opt->backends[b]->set_threads(opt->threads);
        if (opt->backends[b]->get_threads)
            out->host_threads = opt->backends[b]->get_threads();
    }
    out->baseline = clb_gemm_baseline(opt);
    r->total = per_problem * opt->n_shapes * opt->n_precisions;
    out->rows = calloc(r->total + 1, sizeof(*out->rows));
    r->envs = calloc(n_devices + 1, sizeof(*r->envs));
    r->env_err = calloc(n_devices + 1, sizeof(*r->env_err));
    r->env_state = calloc(n_devices + 1, sizeof(*r->env_state));
    return out->rows && r->envs && r->env_err && r->env_state ? 0 : -1;
}

static void run_finish(struct run *r)
{
    for (size_t i = 0; r->envs && i < r->n_devices; i++)
        clb_cl_env_finish(&r->envs[i]);
    free(r->envs);
    free(r->env_err);
    free(r->env_state);
}

/* The context and queue of device di, made on first use; NULL with *why set when it failed. */
static const struct clb_cl_env *device_env(struct run *r, size_t di, const char **why)
{
    if (r->env_state[di] == 0)
        r->env_state[di] = clb_cl_env_init(&r->envs[di], r->devices[di]->id, false,
                                           &r->env_err[di]) ? -1 : 1;
    *why = r->env_err[di].msg;
    return r->env_state[di] > 0 ? &r->envs[di] : NULL;
}

static void problem_init(struct problem *pb, const struct clb_gemm_options *opt, size_t pi,
                         size_t si)
{
    memset(pb, 0, sizeof(*pb));
    pb->precision = opt->precisions[pi];
    pb->shape = opt->shapes[si];
    pb->pi = pi;
    pb->si = si;
    pb->sane = shape_sane(pb->shape, &opt->mode, pb->host_why, sizeof(pb->host_why));
    pb->host_ok = pb->sane && host_fits(pb->shape, pb->precision, &opt->mode, pb->host_why,
                                        sizeof(pb->host_why));
}

/* Inputs, reference and result buffer, once per problem; false when that failed. */
static bool problem_ready(struct problem *pb, const struct clb_gemm_options *opt)
{
    if (!pb->data && !pb->err.msg[0]) {
        pb->data = clb_gemm_data_create_mode(pb->shape, pb->precision, opt->alpha, opt->beta,
                                             &opt->mode, opt->seed, &pb->err);
        if (pb->data)
            pb->data->code_path = opt->code_path;
        if (pb->data)
            pb->ref = clb_gemm_reference_create(pb->data, opt->seed ^ 0x5eed, &pb->err);
        /* C's whole buffer, as the backends download it. */
        if (pb->ref && !(pb->c = malloc(pb->data->lc.elems * clb_precision_bytes(pb->precision))))
            clb_error_set(&pb->err, "out of host memory");
    }
    return !pb->err.msg[0];
}

static void problem_finish(struct problem *pb)
{
    free(pb->c);
    clb_gemm_reference_destroy(pb->ref);
    clb_gemm_data_destroy(pb->data);
}

/* One row: backend b on device di (0 for a host backend) of the problem. */
static void run_row(struct run *r, struct problem *pb, size_t b, size_t di)
{
    const struct clb_gemm_options *opt = r->opt;
    const struct clb_gemm_backend *be = opt->backends[b];
    const struct clb_device *dev = be->on_device ? r->devices[di] : NULL;
    struct clb_row *row = &r->out->rows[r->out->n_rows++];
    const struct clb_cl_env *env = NULL;
    const char *env_why;
    char why[512];

    row->benchmark = CLB_BENCH_GEMM;
    row->metric = "gflops";
    row->device = dev;
    row->backend_ops = be;
    row->untuned = opt->untuned && opt->untuned[b];
    snprintf(row->backend, sizeof(row->backend), "%s%s", be->name,
             row->untuned ? "-untuned" : "");
    row->precision = pb->precision;
    row->shape = pb->shape;
    row->mode = opt->mode;
    if (opt->roles)
        row->role = opt->roles[pb->si];
    row->order = ((pb->pi * opt->n_shapes + pb->si) * opt->n_backends + b) *
                     (r->n_devices + 1) + di;
    progress(opt, r->out->n_rows - 1, r->total, row, r->t0);
    if (!be->supports(dev, pb->precision, why, sizeof(why))) {
        set_reason(row, CLB_ROW_UNAVAILABLE, why);
        return;
    }
    if (opt->max_time_s > 0 && clb_now_s() - r->t0 > opt->max_time_s) {
        snprintf(why, sizeof(why), "not started: over --max-time (%g s)", opt->max_time_s);
        set_reason(row, CLB_ROW_SKIPPED, why);
        return;
    }
    /* The fit check asks a backend with a per-call buffer on the device's queue. */
    const struct clb_cl_env *fit_env =
        pb->sane && dev && be->call_device_bytes ? device_env(r, di, &env_why) : NULL;
    if (pb->sane && dev &&
        !device_fits(dev, be, fit_env, pb->shape, pb->precision, &opt->mode, why, sizeof(why))) {
        set_reason(row, CLB_ROW_SKIPPED, why);
        return;
    }
    if (!pb->host_ok) {
        set_reason(row, CLB_ROW_SKIPPED, pb->host_why);
        return;
    }
    if (dev && !(env = device_env(r, di, &env_why))) {
        set_reason(row, CLB_ROW_ERROR, env_why);
        return;
    }
    if (!problem_ready(pb, opt)) {
        set_reason(row, CLB_ROW_ERROR, pb->err.msg);
        return;
    }
    measure(row, opt, env, pb->data, pb->ref, pb->c);
}

/* Whether to take the next step: the ranks' agreement (opt->step) or this process's signals. */
static bool go_on(struct run *r)
{
    if (!r->stopped)
        r->stopped = r->opt->step ? !r->opt->step(r->opt->step_ctx) : clb_interrupted();
    return !r->stopped;
}

/* Every row of one problem: a step per backend and device slot, a row where there is a device. */
static void run_problem(struct run *r, size_t pi, size_t si)
{
    const struct clb_gemm_options *opt = r->opt;
    const size_t slots = opt->device_slots > r->n_devices ? opt->device_slots : r->n_devices;
    struct problem pb;

    problem_init(&pb, opt, pi, si);
    for (size_t b = 0; b < opt->n_backends; b++) {
        const struct clb_gemm_backend *be = opt->backends[b];
        for (size_t di = 0; di < (be->on_device ? slots : 1) && go_on(r); di++)
            if (!be->on_device || di < r->n_devices)
                run_row(r, &pb, b, di);
    }
    problem_finish(&pb);
}

int clb_gemm_run(const struct clb_gemm_options *opt, struct clb_device *const *devices,
                 size_t n_devices, struct clb_gemm_results *out, struct clb_error *e)
{
    struct run r;

    if (run_init(&r, opt, devices, n_devices, out)) {
        run_finish(&r);
        free(out->rows);
        out->rows = NULL;
        clb_error_set(e, "out of host memory");
        return -1;
    }
    /* Problem by problem, so inputs and reference are made once per problem. */
    for (size_t pi = 0; pi < opt->n_precisions; pi++)
        for (size_t si = 0; si < opt->n_shapes; si++)
            run_problem(&r, pi, si);
    run_finish(&r);
    out->interrupted = r.stopped || clb_interrupted();
    compute_speedups(out);
    return 0;
}

void clb_gemm_results_finish(struct clb_gemm_results *r)
{
    for (size_t i = 0; i < r->n_rows; i++)
        free(r->rows[i].times_s);
    free(r->rows);
    memset(r, 0, sizeof(*r));
}
