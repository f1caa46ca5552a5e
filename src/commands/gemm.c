#include <libgen.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clbench/backends/blascore.h"
#include "clbench/bench/hostpeak.h"
#include "clbench/bench/micro.h"
#include "clbench/cli/args.h"
#include "clbench/cli/gemm_args.h"
#include "clbench/fit/fit.h"
#include "clbench/mpi/mpi.h"
#include "clbench/output/devices.h"
#include "clbench/output/fit.h"
#include "clbench/output/gemm.h"
#include "clbench/results/resultfile.h"
#include "clbench/tune/cache.h"
#include "clbench/util/cpu.h"
#include "clbench/util/interrupt.h"
#include "common.h"
#include "config.h"
#include "estimates.h"

struct gemm_config {
    struct clb_common common;
    struct clb_shape_list sizes;
    struct clb_shape_list mnk;
    struct clb_precision_list precisions;
    struct clb_backend_list backends;
    unsigned runs, warmup, threads;
    double min_time_s, max_time_s, alpha, beta;
    uint64_t seed;
    struct clb_gemm_mode mode;         /* --trans, --layout, --ld, --offset */
    enum clb_code_path code_path;      /* --code-path */
    bool transfers;
    bool no_peak;
    bool untuned;
    const char *output;
    const char *blas_core;
    const struct clb_model *model;     /* --shapes */
    unsigned context, batch;           /* 0: not given */
    struct clb_shape_role roles[CLB_MAX_SHAPES];
};

#define GEMM_DEFAULT_SIZES "512,1024,2048"

static int opt_model(const char *arg, void *field, struct clb_error *e)
{
    if (!(*(const struct clb_model **)field = clb_model_find(arg))) {
        clb_error_set(e, "unknown model '%s' (clbench fit --list-models lists them)", arg);
        return -1;
    }
    return 0;
}

/* --backend's help lists the registry; gemm_defaults() fills it before --help is shown. */
static char backend_help[1024];

static const struct clb_option gemm_options[] = {
    CLB_COMMON_OPTIONS(struct gemm_config),
    CLB_FLEET_OPTIONS(struct gemm_config),
    { "size", 'n', "LIST",
      "Square sizes M=N=K: a list (512,1024) or ranges FROM:TO:xFACTOR (256:4096:x2) or "
      "FROM:TO:STEP (default: " GEMM_DEFAULT_SIZES ")", clb_opt_sizes,
      offsetof(struct gemm_config, sizes) },
    { "mnk", 0, "M,N,K", "One non-square shape instead of --size", clb_opt_mnk,
      offsetof(struct gemm_config, mnk) },
    { "shapes", 0, "MODEL",
      "The GEMMs one layer of MODEL (a 'clbench fit --list-models' preset) does instead of "
      "--size: QKV, attention out, MLP up/gate, MLP down, at prefill (M = context x batch) and "
      "decode (M = batch)", opt_model, offsetof(struct gemm_config, model) },
    { "context", 0, "TOKENS", "With --shapes: prompt tokens per sequence at prefill "
      "(default: 512)", clb_opt_positive, offsetof(struct gemm_config, context) },
    { "batch", 0, "N", "With --shapes: sequences at once (default: 1)", clb_opt_positive,
      offsetof(struct gemm_config, batch) },
    { "precision", 'p', "LIST", "Precisions: fp32, fp64, fp16 or all (default: fp32)",
      clb_opt_precisions, offsetof(struct gemm_config, precisions) },
    { "backend", 'b', "LIST", backend_help, clb_opt_backends,
      offsetof(struct gemm_config, backends) },
    { "runs", 0, "N", "Timed calls per result, at least (default: 5)", clb_opt_positive,
      offsetof(struct gemm_config, runs) },
    { "warmup", 0, "N", "Untimed calls after the first call (default: 1)", clb_opt_uint,
      offsetof(struct gemm_config, warmup) },
    { "min-time", 0, "SECONDS",
      "Keep timing calls until at least this much time was measured (default: 0)",
      clb_opt_seconds, offsetof(struct gemm_config, min_time_s) },
    { "max-time", 0, "SECONDS",
      "Start no new result after this long, more than 0; the rest show as skipped (default: "
      "no limit)", clb_opt_time_limit, offsetof(struct gemm_config, max_time_s) },
    { "threads", 0, "N", "OpenBLAS threads (default: every CPU this process may use)",
      clb_opt_positive, offsetof(struct gemm_config, threads) },
    { "blas-core", 0, "MODE",
      "OpenBLAS kernels: auto (switch to the CPU's instruction set when OpenBLAS picked older "
      "ones), as-is, or a core name such as SkylakeX (default: auto)", clb_opt_blas_core,
      offsetof(struct gemm_config, blas_core) },
    { "transfers", 0, NULL,
      "Also time end to end: host-to-device copy + GEMM + device-to-host copy", NULL,
      offsetof(struct gemm_config, transfers) },
    { "seed", 0, "N", "Seed of the random inputs (default: 42)", clb_opt_u64,
      offsetof(struct gemm_config, seed) },
    { "alpha", 0, "X", "alpha in C = alpha*A*B + beta*C, not 0 (default: 1)", clb_opt_alpha,
      offsetof(struct gemm_config, alpha) },
    { "beta", 0, "X", "beta in C = alpha*A*B + beta*C (default: 0)", clb_opt_scalar,
      offsetof(struct gemm_config, beta) },
    { "trans", 0, "AB",
      "Whether A and B are stored transposed, as BLAS's transa and transb: NN, NT, TN or TT; "
      "C = alpha*op(A)*op(B) + beta*C, op(A) M x K, op(B) K x N (default: NN)",
      clb_opt_trans, offsetof(struct gemm_config, mode) },
    { "layout", 0, "ORDER",
      "Storage of A, B and C: row (row-major) or col (column-major, BLAS's own) (default: row)",
      clb_opt_layout, offsetof(struct gemm_config, mode) },
    { "ld", 0, "PAD",
      "Make every leading dimension PAD elements longer than its minimum, at every size (lda = "
      "K + PAD for a row-major A in NN; the padding must stay untouched) (default: 0)",
      clb_opt_ld_pad, offsetof(struct gemm_config, mode) },
    { "offset", 0, "N",
      "Put each matrix N elements into its buffer, as CLBlast's a_offset, b_offset and "
      "c_offset (default: 0)", clb_opt_offset, offsetof(struct gemm_config, mode) },
    { "code-path", 0, "PATH",
      "Which of clbench's own GEMM kernels runs (-b clbench): cpu (packed panels, "
      "register tiles of vectors), gpu (tiles staged in local memory, register tiles fed "
      "by vector reads, K split where the problem gives fewer than 4 work-groups per compute unit) or "
      "auto (cpu on devices of type CPU, else gpu) (default: auto)", clb_opt_code_path,
      offsetof(struct gemm_config, code_path) },
    { "untuned", 0, NULL,
      "Also run every tunable backend with its built-in parameters (clblast-untuned, "
      "clbench-untuned) next to its rows with the parameters stored by 'clbench tune'", NULL,
      offsetof(struct gemm_config, untuned) },
    { "no-peak", 0, NULL,
      "Do not measure the host CPU's and each device's peak first (the % PEAK columns stay "
      "empty)", NULL,
      offsetof(struct gemm_config, no_peak) },
    { "output", 'o', "FILE", "Also write the results to FILE.json or FILE.csv",
      clb_opt_string, offsetof(struct gemm_config, output) },
    { 0 },
};

/* --shapes: the layer's GEMMs at prefill, then at decode, each with its role. */
static int model_shapes(struct gemm_config *cfg)
{
    static const char *const phase[2] = { "prefill", "decode" };
    struct clb_layer_gemm g[CLB_LAYER_GEMMS];

    if (cfg->model->experts > 1) {
        fprintf(stderr, "clbench gemm: option --shapes: %s is a mixture of experts: which "
                        "tokens each expert's GEMMs see is not modelled\n", cfg->model->name);
        return CLB_EXIT_USAGE;
    }
    cfg->context = cfg->context ? cfg->context : 512;
    cfg->batch = cfg->batch ? cfg->batch : 1;
    if ((uint64_t)cfg->context * cfg->batch > CLB_MAX_DIM) {
        fprintf(stderr, "clbench gemm: options --context and --batch: need at most %d tokens at "
                        "prefill\n", CLB_MAX_DIM);
        return CLB_EXIT_USAGE;
    }
    const uint64_t tokens[2] = { (uint64_t)cfg->context * cfg->batch, cfg->batch };
    cfg->sizes.n = 0;
    for (int p = 0; p < 2; p++) {
        clb_model_layer_gemms(cfg->model, tokens[p], g);
        for (int i = 0; i < CLB_LAYER_GEMMS; i++) {
            cfg->roles[cfg->sizes.n] = (struct clb_shape_role){ g[i].role, phase[p],
                                                                g[i].per_layer };
            cfg->sizes.v[cfg->sizes.n++] = (struct clb_gemm_shape){ g[i].m, g[i].n, g[i].k };
        }
    }
    return CLB_EXIT_OK;
}

static void gemm_defaults(void *config)
{
    struct gemm_config *c = config;

    clb_gemm_backends_help(backend_help, sizeof(backend_help));
    c->runs = 5;
    c->warmup = 1;
    c->seed = 42;
    c->alpha = 1.0;
    c->beta = 0.0;
    c->blas_core = "auto";
}

/*
 * OpenBLAS runs as the baseline unless -b leaves every host backend out, or
 * clbench was built without it (no core to choose).
 */
static const char *gemm_blas_core(const void *config)
{
    const struct gemm_config *c = config;

    if (!HAVE_OPENBLAS)
        return NULL;
    for (size_t i = 0; i < c->backends.n; i++)
        if (!c->backends.v[i]->on_device)
            return c->blas_core;
    return c->backends.n ? NULL : c->blas_core;
}

/*
 * --shapes: what the figures just measured mean for the model, as `fit
 * --from` would say of this run's file: the same rows, from the structs.
 */
static int write_estimates(FILE *out, const struct clb_gemm_report *r)
{
    const struct clb_model *m = clb_model_find(r->shapes);
    struct clb_error e;
    struct clb_fit_request req;
    struct clb_fit_report rep = { .request = &req, .preset = m, .has_model = true,
                                  .from = "this run", .measured_shapes = r->shapes };
    struct clb_fit_speed *speeds = NULL;
    struct clb_run_speeds run;
    int rc = 0;

    if (!m) /* --shapes takes presets only */
        return 0;
    if (clb_run_speeds_init(&run, r->micro, r->results))
        return -1;
    clb_fit_request_preset(&req, m, r->context, r->batch);
    long n = !clb_fit_estimate(&req, &rep.estimate, &e)
                 ? clb_speed_estimates(run.rows, run.n_rows, &req, &rep.estimate, 0, &speeds)
                 : -1;
    if (n > 0) {
        rep.speeds = speeds;
        rep.n_speeds = (size_t)n;
        rc = clb_fit_write_speeds(out, &rep);
    }
    free(speeds);
    clb_run_speeds_finish(&run);
    return n < 0 ? -1 : rc;
}

static int write_report(FILE *out, enum clb_format fmt, const void *report)
{
    const struct clb_gemm_report *r = report;
    int rc = clb_gemm_write(out, fmt, report);

    if (!rc && fmt == CLB_FORMAT_TABLE && r->shapes)
        rc = write_estimates(out, r);
    return rc;
}

/* Checks what needs no device; returns 0 or prints a usage error and returns 2. */
static int validate(struct gemm_config *cfg)
{
    struct clb_error e;

    if ((cfg->sizes.n > 0) + (cfg->mnk.n > 0) + (cfg->model != NULL) > 1) {
        fprintf(stderr, "clbench gemm: options --size, --mnk and --shapes conflict: give one\n");
        return CLB_EXIT_USAGE;
    }
    if (!cfg->model && (cfg->context || cfg->batch)) {
        fprintf(stderr, "clbench gemm: options --context and --batch go with --shapes\n");
        return CLB_EXIT_USAGE;
    }
    if (cfg->model && model_shapes(cfg) != CLB_EXIT_OK)
        return CLB_EXIT_USAGE;
    if (cfg->mnk.n)
        cfg->sizes = cfg->mnk;
    if (!cfg->sizes.n)
        clb_opt_sizes(GEMM_DEFAULT_SIZES, &cfg->sizes, &e);
    if (!cfg->precisions.n)
        clb_opt_precisions("fp32", &cfg->precisions, &e);
    if (!cfg->backends.n)
        clb_opt_backends("all", &cfg->backends, &e);
    if (cfg->untuned) {
        /* --untuned adds rows only for tunable backends: with none it would add nothing. */
        bool tunable = false;
        char names[256] = "";
        for (size_t i = 0; i < cfg->backends.n; i++)
            tunable |= cfg->backends.v[i]->tuning != NULL;
        for (size_t b = 0; clb_gemm_backends[b]; b++)
            if (clb_gemm_backends[b]->tuning)
                snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
                         names[0] ? ", " : "", clb_gemm_backends[b]->name);
        if (!tunable) {
            fprintf(stderr, "clbench gemm: option --untuned: no backend in --backend has "
                            "tuning; expected it with %s\n", names[0] ? names : "none");
            return CLB_EXIT_USAGE;
        }
        /* Each tunable backend's untuned rows just before its tuned ones, side by side. */
        struct clb_backend_list l = { 0 };
        for (size_t i = 0; i < cfg->backends.n; i++) {
            const struct clb_gemm_backend *be = cfg->backends.v[i];
            bool have = false;
            for (size_t j = 0; j < cfg->backends.n; j++)
                have |= cfg->backends.v[j] == be && cfg->backends.untuned[j];
            if (be->tuning && !cfg->backends.untuned[i] && !have && l.n < 7) {
                l.v[l.n] = be;
                l.untuned[l.n++] = true;
            }
            if (l.n < 8) {
                l.v[l.n] = be;
                l.untuned[l.n++] = cfg->backends.untuned[i];
            }
        }
        cfg->backends = l;
    }
    if (cfg->output) {
        char *copy = strdup(cfg->output);
        const char *dir = copy ? dirname(copy) : ".";
        int writable = access(dir, W_OK) == 0;
        free(copy);
        if (clb_format_from_path(cfg->output) < 0) {
            fprintf(stderr, "clbench gemm: option --output: '%s' must end in .json or .csv\n",
                    cfg->output);
            return CLB_EXIT_USAGE;
        }
        /* In a fleet only rank 0 writes it: the folder need not exist on other nodes. */
        const struct clb_mpi_world *fleet = clb_mpi_fleet();
        if (!writable && (!fleet || fleet->rank == 0)) {
            fprintf(stderr, "clbench gemm: option --output: cannot write in the folder of '%s'\n",
                    cfg->output);
            return CLB_EXIT_USAGE;
        }
    }
    return CLB_EXIT_OK;
}

static bool needs_devices(const struct gemm_config *cfg)
{
    for (size_t i = 0; i < cfg->backends.n; i++)
        if (cfg->backends.v[i]->on_device)
            return true;
    return false;
}

/*
 * The limits the GEMM figures are held against: the host CPU's own FMA peak,
 * and each device's peak (and, with `bandwidth`, its memory bandwidth), in
 * the GEMM precisions.
 */
static void measure_limits(const struct gemm_config *cfg, const struct clb_selection *sel,
                           bool bandwidth, struct clb_micro_results *micro)
{
    const char *precs[CLB_PRECISION_COUNT];
    for (size_t i = 0; i < cfg->precisions.n; i++)
        precs[i] = clb_precision_name(cfg->precisions.v[i]);
    struct clb_micro_options mopt = { .runs = 3, .precisions = precs,
                                      .n_precisions = cfg->precisions.n };
    if (!clb_fleet_step(NULL))
        return;
    if (isatty(STDERR_FILENO))
        fprintf(stderr, "[limits] peak of the host CPU ...\n");
    clb_host_peak_run(&mopt, micro);
    /* In a fleet every rank takes its d-th device step together, device or not. */
    for (size_t d = 0; d < sel->n_slots && clb_fleet_step(NULL); d++) {
        struct clb_cl_env env;
        struct clb_error e;
        if (d >= sel->n_devices)
            continue;
        if (isatty(STDERR_FILENO))
            fprintf(stderr, "[limits %zu/%zu] peak%s %s ...\n", d + 1, sel->n_devices,
                    bandwidth ? " and bandwidth" : "",
                    clb_device_str(sel->devices[d], CLB_PROP_NAME));
        if (clb_cl_env_init(&env, sel->devices[d]->id, false, &e))
            continue; /* the GEMM rows of this device will report the fault */
        clb_peak_run(sel->devices[d], &env, &mopt, micro);
        if (bandwidth && !clb_interrupted())
            clb_bandwidth_run(sel->devices[d], &env, &mopt, micro);
        clb_cl_env_finish(&env);
    }
}

/* The tuning cache behind the runner's stored parameters. */
static bool stored_params(const struct clb_device *dev, const char *kernel, enum clb_precision p,
                          struct clb_gemm_shape shape, const struct clb_gemm_mode *mode,
                          struct clb_tune_params *out, struct clb_tune_match *match)
{
    return clb_tuning_lookup(dev, kernel, clb_precision_name(p), shape, mode, out, match);
}

static int gemm_main(struct gemm_config *cfg, bool show_devices)
{
    struct clb_selection sel = { 0 };
    struct clb_gemm_results res;
    struct clb_error e;
    int rc;

    /* Every rank of a fleet goes on, or none (the output folder is checked on each). */
    if ((rc = clb_fleet_agree(validate(cfg))) != CLB_EXIT_OK)
        return rc;
    /* OpenBLAS alone needs no OpenCL: -b openblas works on a machine without a driver. */
    if (needs_devices(cfg) && (rc = clb_selection_open(&cfg->common, &sel)) != CLB_EXIT_OK)
        return rc;
    /* A fleet's ranks must take the same steps: the same plan on every rank. */
    const bool limits = !cfg->no_peak || show_devices;
    unsigned long plan = clb_fleet_plan_add(limits, sel.n_slots);
    for (size_t p = 0; p < cfg->precisions.n; p++)
        plan = clb_fleet_plan_add(plan, cfg->precisions.v[p]);
    for (size_t i = 0; i < cfg->sizes.n; i++)
        plan = clb_fleet_plan_add(clb_fleet_plan_add(clb_fleet_plan_add(plan, cfg->sizes.v[i].m),
                                                     cfg->sizes.v[i].n),
                                  cfg->sizes.v[i].k);
    for (size_t b = 0; b < cfg->backends.n; b++)
        plan = clb_fleet_plan_add(plan, cfg->backends.v[b]->on_device);
    plan = clb_fleet_plan_add(plan, cfg->mode.trans_a + 2 * cfg->mode.trans_b +
                                        4 * cfg->mode.col_major);
    plan = clb_fleet_plan_add(clb_fleet_plan_add(plan, cfg->mode.ld_pad), cfg->mode.offset);
    if ((rc = clb_fleet_plan(show_devices ? "run" : "gemm", plan)) != CLB_EXIT_OK) {
        clb_selection_close(&sel);
        return rc;
    }
    /* OpenBLAS's core note: once, the arguments accepted, the baseline about to run. */
    if (gemm_blas_core(cfg) && clb_blas_core_state()->note[0])
        fprintf(stderr, "clbench: %s\n", clb_blas_core_state()->note);
    /*
     * A fleet's ranks on one node share its CPU: unless the launcher bound each
     * to CPUs of its own (then they see fewer), OpenBLAS gets this rank's part.
     */
    const struct clb_mpi_world *fleet = clb_mpi_fleet();
    unsigned threads = cfg->threads;
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (fleet && fleet->local_size > 1 && !threads && online > 0 &&
        (long)clb_cpu_count_available() * fleet->local_size > online) {
        threads = clb_cpu_count_available() / (unsigned)fleet->local_size;
        threads = threads ? threads : 1;
    }

    if (show_devices && cfg->common.format == CLB_FORMAT_TABLE && sel.inv && !fleet) {
        struct clb_devices_report dr = { .inv = sel.inv, .devices = sel.devices,
                                         .n_devices = sel.n_devices };
        clb_devices_write(stdout, CLB_FORMAT_TABLE, &dr);
        fputc('\n', stdout);
        fflush(stdout);
    }

    struct clb_gemm_options opt = {
        .shapes = cfg->sizes.v,
        .n_shapes = cfg->sizes.n,
        .roles = cfg->model ? cfg->roles : NULL,
        .precisions = cfg->precisions.v,
        .n_precisions = cfg->precisions.n,
        .backends = cfg->backends.v,
        .untuned = cfg->backends.untuned,
        .n_backends = cfg->backends.n,
        .runs = cfg->runs,
        .warmup = cfg->warmup,
        .min_time_s = cfg->min_time_s,
        .max_time_s = cfg->max_time_s,
        .threads = threads,
        .transfers = cfg->transfers,
        .seed = cfg->seed,
        .alpha = cfg->alpha,
        .beta = cfg->beta,
        .mode = cfg->mode,
        .code_path = cfg->code_path,
        .progress = isatty(STDERR_FILENO),
        .stored_params = stored_params,
        .step = fleet ? clb_fleet_step : NULL,
        .device_slots = sel.n_slots,
    };
    struct clb_run_meta meta = { .argc = cfg->common.argc, .argv = cfg->common.argv,
                                 .started = time(NULL) };
    struct clb_micro_results micro = { 0 };
    clb_interrupt_install();
    /* What explains the GEMM figures: each device's peak (and, for run, its bandwidth). */
    if (limits) {
        measure_limits(cfg, &sel, show_devices, &micro);
        clb_datasheet_attach(&micro);
    }
    if (clb_gemm_run(&opt, sel.devices, sel.n_devices, &res, &e) != 0) {
        clb_mpi_abort_fleet(e.msg);
        clb_report_error(&e);
        clb_selection_close(&sel);
        return CLB_EXIT_FAILURE;
    }
    meta.signal = clb_fleet_signal();
    meta.complete = !res.interrupted && !clb_interrupted() && !meta.signal;
    /* After the run: the libraries as they ran (OpenBLAS's threads are set by then). */
    struct clb_run_record *record = clb_run_record_capture(opt.backends, opt.n_backends);
    if (!record) {
        clb_mpi_abort_fleet("out of host memory");
        clb_gemm_results_finish(&res);
        clb_micro_results_finish(&micro);
        clb_selection_close(&sel);
        return CLB_EXIT_FAILURE;
    }
    meta.record = record;
    if (res.baseline && !threads && res.host_threads &&
        res.host_threads < clb_cpu_count_available())
        fprintf(stderr, "clbench: warning: %s ran %u thread%s on %u available CPUs (it may "
                        "be built for fewer): the CPU baseline used part of the CPU\n",
                res.baseline->name, res.host_threads, res.host_threads == 1 ? "" : "s",
                clb_cpu_count_available());
    /*
     * A host backend on fewer threads than there are physical cores is held
     * against its share of the peak (clb_cpu_core_share: SMT siblings share a
     * core's FMA units, so threads = cores is the whole chip). Not so for a
     * fleet's ranks on one node: the peak ran while the others ran theirs, so
     * it already is this rank's share.
     */
    const double host_share =
        fleet && fleet->local_size > 1 ? 1.0 : clb_cpu_core_share(res.host_threads);
    for (size_t i = 0; i < res.n_rows; i++) {
        struct clb_gemm_row *row = &res.rows[i];
        const char *prec = clb_precision_name(row->precision);
        /* An OpenCL CPU device runs on the host's silicon: both peaks apply. */
        const bool on_host = !row->device || clb_device_is_cpu(row->device);
        if (row->device)
            row->device_peak_gflops = clb_micro_peak(&micro, row->device, prec);
        if (on_host)
            row->host_peak_gflops = clb_micro_peak(&micro, NULL, prec) *
                                    (row->device ? 1.0 : host_share);
    }
    clb_datasheet_attach_gemm(&res, &micro, host_share);
    struct clb_gemm_report report = { .meta = &meta, .micro = &micro, .show_micro = show_devices,
                                      .results = &res, .options = &opt,
                                      .devices = sel.devices, .n_devices = sel.n_devices,
                                      .shapes = cfg->model ? cfg->model->name : NULL,
                                      .context = cfg->context, .batch = cfg->batch };
    rc = CLB_EXIT_OK;
    for (size_t i = 0; i < res.n_rows; i++)
        if (res.rows[i].status == CLB_ROW_FAILED || res.rows[i].status == CLB_ROW_ERROR)
            rc = CLB_EXIT_FAILURE;
    for (size_t i = 0; i < micro.n_rows; i++)
        if (micro.rows[i].status == CLB_ROW_FAILED || micro.rows[i].status == CLB_ROW_ERROR)
            rc = CLB_EXIT_FAILURE;
    rc = clb_emit_result(&cfg->common, cfg->output, write_report, &report, rc, meta.signal);
    clb_gemm_results_finish(&res);
    clb_micro_results_finish(&micro);
    clb_selection_close(&sel);
    free(record);
    return rc;
}

static int gemm_fleet_main(const char *name, struct gemm_config *cfg, bool show_devices)
{
    int rc = clb_fleet_enter(name);

    if (rc == CLB_EXIT_OK)
        rc = gemm_main(cfg, show_devices);
    clb_fleet_leave();
    return rc;
}

static int gemm_run(void *config, int n_operands, char **operands)
{
    (void)n_operands;
    (void)operands;
    return gemm_fleet_main("gemm", config, false);
}

static int run_run(void *config, int n_operands, char **operands)
{
    (void)n_operands;
    (void)operands;
    return gemm_fleet_main("run", config, true);
}

const struct clb_command clb_cmd_gemm = {
    .name = "gemm",
    .summary = "GEMM (C = alpha*A*B + beta*C) through CLBlast on each device and OpenBLAS on "
               "the host, timed and verified.",
    .usage = "",
    .options = gemm_options,
    .config_size = sizeof(struct gemm_config),
    .defaults = gemm_defaults,
    .run = gemm_run,
    .blas_core = gemm_blas_core,
};

const struct clb_command clb_cmd_run = {
    .name = "run",
    .summary = "The headline job: the device list, then GEMM on every device against the "
               "OpenBLAS baseline, with a summary.",
    .usage = "",
    .options = gemm_options,
    .config_size = sizeof(struct gemm_config),
    .defaults = gemm_defaults,
    .run = run_run,
    .blas_core = gemm_blas_core,
};
