#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clbench/backends/blascore.h"
#include "clbench/bench/bandwidth.h"
#include "clbench/bench/hostpeak.h"
#include "clbench/bench/micro.h"
#include "clbench/bench/peak.h"
#include "clbench/cl/env.h"
#include "clbench/cli/args.h"
#include "clbench/cli/gemm_args.h"
#include "clbench/fit/fit.h"
#include "clbench/fit/models.h"
#include "clbench/output/devices.h"
#include "clbench/output/fit.h"
#include "clbench/output/gemm.h"
#include "clbench/results/resultfile.h"
#include "clbench/tune/cache.h"
#include "clbench/util/cpu.h"
#include "clbench/util/host.h"
#include "clbench/util/interrupt.h"
#include "common.h"
#include "config.h"
#include "estimates.h"
#include "prices.h"
#include "runner.h"

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
    struct clb_prices prices;          /* --price, then --prices FILE's (validate) */
    const char *prices_file;
};

static int opt_model(const char *arg, void *field, struct clb_error *e)
{
    if (!(*(const struct clb_model **)field = clb_model_find(arg))) {
        clb_error_set(e, "unknown model '%s' (clbench fit --list-models lists them)", arg);
        return -1;
    }
    return 0;
}

/* --backend's help: the registry's backends, each with its summary. */
static void backend_help(FILE *out)
{
    for (size_t b = 0; clb_gemm_backends[b]; b++)
        fprintf(out, " %s (%s),", clb_gemm_backends[b]->name, clb_gemm_backends[b]->summary);
    fputs(" or all; NAME-untuned runs a tunable backend with its built-in parameters", out);
}

static const struct clb_option gemm_options[] = {
    CLB_COMMON_OPTIONS(struct gemm_config),
    CLB_FLEET_OPTIONS(struct gemm_config),
    /* Only without --mnk and --shapes: validate() fills it. */
    { .name = "size", .short_name = 'n', .metavar = "LIST",
      .help = "Square sizes M=N=K: a list (512,1024) or ranges FROM:TO:xFACTOR (256:4096:x2) "
              "or FROM:TO:STEP",
      .parse = clb_opt_sizes, .offset = offsetof(struct gemm_config, sizes),
      .def_help = CLB_GEMM_DEFAULT_SIZES },
    { .name = "mnk", .metavar = "M,N,K",
      .help = "One non-square shape instead of --size",
      .parse = clb_opt_mnk, .offset = offsetof(struct gemm_config, mnk) },
    { .name = "shapes", .metavar = "MODEL",
      .help = "The GEMMs one layer of MODEL (a 'clbench fit --list-models' preset) does "
              "instead of --size: QKV, attention out, MLP up/gate, MLP down, at prefill (M = "
              "context x batch) and decode (M = batch)",
      .parse = opt_model, .offset = offsetof(struct gemm_config, model),
      .words_hook = clb_model_words },
    /* --context and --batch stay 0 ("not given", an error without --shapes): model_shapes(). */
    { .name = "context", .metavar = "TOKENS",
      .help = "With --shapes: prompt tokens per sequence at prefill",
      .parse = clb_opt_positive, .offset = offsetof(struct gemm_config, context),
      .def_help = "512" },
    { .name = "batch", .metavar = "N",
      .help = "With --shapes: sequences at once",
      .parse = clb_opt_positive, .offset = offsetof(struct gemm_config, batch), .def_help = "1" },
    CLB_PRICE_OPTIONS(struct gemm_config, prices, prices_file),
    { .name = "precision", .short_name = 'p', .metavar = "LIST",
      .help = "Precisions: fp32, fp64, fp16 or all",
      .parse = clb_opt_precisions, .offset = offsetof(struct gemm_config, precisions),
      .def = "fp32", .words_hook = clb_precision_words },
    { .name = "backend", .short_name = 'b', .metavar = "LIST",
      .help = "Backends:",
      .parse = clb_opt_backends, .offset = offsetof(struct gemm_config, backends), .def = "all",
      .help_hook = backend_help, .words_hook = clb_backend_words },
    { .name = "runs", .metavar = "N",
      .help = "Timed calls per result, at least",
      .parse = clb_opt_positive, .offset = offsetof(struct gemm_config, runs), .def = "5" },
    { .name = "warmup", .metavar = "N",
      .help = "Untimed calls after the first call",
      .parse = clb_opt_uint, .offset = offsetof(struct gemm_config, warmup), .def = "1" },
    { .name = "min-time", .metavar = "SECONDS",
      .help = "Keep timing calls until at least this much time was measured",
      .parse = clb_opt_seconds, .offset = offsetof(struct gemm_config, min_time_s), .def = "0" },
    /* 0, no limit, is no value of --max-time. */
    { .name = "max-time", .metavar = "SECONDS",
      .help = "Start no new result after this long, more than 0; the rest show as skipped",
      .parse = clb_opt_time_limit, .offset = offsetof(struct gemm_config, max_time_s),
      .def_help = "no limit" },
    /* 0: the CPUs this process may use, or a fleet rank's share of them (gemm_fleet_main). */
    { .name = "threads", .metavar = "N",
      .help = "OpenBLAS threads",
      .parse = clb_opt_positive, .offset = offsetof(struct gemm_config, threads),
      .def_help = "every CPU this process may use" },
    { .name = "blas-core", .metavar = "MODE",
      .help = "OpenBLAS kernels: auto (switch to the CPU's instruction set when OpenBLAS "
              "picked older ones), as-is, or a core name such as SkylakeX",
      .parse = clb_opt_blas_core, .offset = offsetof(struct gemm_config, blas_core),
      .def = "auto", .words = "auto as-is" },
    { .name = "transfers",
      .help = "Also time end to end: host-to-device copy + GEMM + device-to-host copy",
      .offset = offsetof(struct gemm_config, transfers) },
    { .name = "seed", .metavar = "N",
      .help = "Seed of the random inputs",
      .parse = clb_opt_u64, .offset = offsetof(struct gemm_config, seed), .def = "42" },
    { .name = "alpha", .metavar = "X",
      .help = "alpha in C = alpha*A*B + beta*C, not 0",
      .parse = clb_opt_alpha, .offset = offsetof(struct gemm_config, alpha), .def = "1" },
    { .name = "beta", .metavar = "X",
      .help = "beta in C = alpha*A*B + beta*C",
      .parse = clb_opt_scalar, .offset = offsetof(struct gemm_config, beta), .def = "0" },
    { .name = "trans", .metavar = "AB",
      .help = "Whether A and B are stored transposed, as BLAS's transa and transb: NN, NT, TN "
              "or TT; C = alpha*op(A)*op(B) + beta*C, op(A) M x K, op(B) K x N",
      .parse = clb_opt_trans, .offset = offsetof(struct gemm_config, mode), .def = "NN",
      .words = "NN NT TN TT" },
    { .name = "layout", .metavar = "ORDER",
      .help = "Storage of A, B and C: row (row-major) or col (column-major, BLAS's own)",
      .parse = clb_opt_layout, .offset = offsetof(struct gemm_config, mode), .def = "row",
      .words = "row col" },
    { .name = "ld", .metavar = "PAD",
      .help = "Make every leading dimension PAD elements longer than its minimum, at every "
              "size (lda = K + PAD for a row-major A in NN; the padding must stay untouched)",
      .parse = clb_opt_ld_pad, .offset = offsetof(struct gemm_config, mode), .def = "0" },
    { .name = "offset", .metavar = "N",
      .help = "Put each matrix N elements into its buffer, as CLBlast's a_offset, b_offset and "
              "c_offset",
      .parse = clb_opt_offset, .offset = offsetof(struct gemm_config, mode), .def = "0" },
    { .name = "code-path", .metavar = "PATH",
      .help = "Which of clbench's own GEMM kernels runs (-b clbench): cpu (packed panels, "
              "register tiles of vectors), gpu (tiles staged in local memory, register tiles "
              "fed by vector reads, K split where the problem gives fewer than 4 work-groups "
              "per compute unit) or auto (cpu on devices of type CPU, else gpu)",
      .parse = clb_opt_code_path, .offset = offsetof(struct gemm_config, code_path),
      .def = "auto", .words = "auto cpu gpu" },
    { .name = "untuned",
      .help = "Also run every tunable backend with its built-in parameters (clblast-untuned, "
              "clbench-untuned) next to its rows with the parameters stored by 'clbench tune'",
      .offset = offsetof(struct gemm_config, untuned) },
    { .name = "no-peak",
      .help = "Do not measure the host CPU's and each device's peak first (the % PEAK columns "
              "stay empty)",
      .offset = offsetof(struct gemm_config, no_peak) },
    { .name = "output", .short_name = 'o', .metavar = "FILE",
      .help = "Also write the results to FILE.json or FILE.csv",
      .parse = clb_opt_string, .offset = offsetof(struct gemm_config, output), .file = true },
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
    struct clb_speed_cost *costs = NULL;
    double *run_s = n > 0 && r->prices ? calloc((size_t)n, sizeof(*run_s)) : NULL;
    if (n > 0 && r->prices && !run_s)
        n = -1;
    for (long i = 0; run_s && i < n; i++)
        run_s[i] = clb_run_device_timed_s(r->micro, r->results, speeds[i].measured.device,
                                          speeds[i].measured.device_id);
    if (run_s && clb_cmd_speed_costs(r->prices, speeds, (size_t)n, run_s, &costs))
        n = -1;
    if (n > 0) {
        rep.speeds = speeds;
        rep.n_speeds = (size_t)n;
        rep.costs = costs;
        rc = clb_fit_write_speeds(out, &rep);
    }
    free(run_s);
    free(costs);
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
    if (clb_cmd_prices_given(&cfg->prices, cfg->prices_file)) {
        if (!cfg->model || cfg->common.format != CLB_FORMAT_TABLE) {
            fprintf(stderr, "clbench gemm: options --price and --prices cost the estimates "
                            "table of --shapes MODEL (table output; for a result file, give "
                            "them to 'clbench fit --from')\n");
            return CLB_EXIT_USAGE;
        }
        if (clb_cmd_prices_load("gemm", &cfg->prices, cfg->prices_file) != CLB_EXIT_OK)
            return CLB_EXIT_USAGE;
    }
    if (cfg->mnk.n)
        cfg->sizes = cfg->mnk;
    if (!cfg->sizes.n)
        clb_opt_sizes(CLB_GEMM_DEFAULT_SIZES, &cfg->sizes, &e);
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
    /* A name other than FILE.json or FILE.csv is the runner's to refuse, before its folder. */
    if (cfg->output && clb_format_from_path(cfg->output) >= 0) {
        char *copy = strdup(cfg->output);
        const char *dir = copy ? dirname(copy) : ".";
        int writable = access(dir, W_OK) == 0;
        free(copy);
        /* In a fleet only rank 0 writes it: the folder need not exist on other nodes. */
        if (!writable && clb_fleet_lead()) {
            fprintf(stderr, "clbench gemm: option --output: cannot write in the folder of '%s'\n",
                    cfg->output);
            return CLB_EXIT_USAGE;
        }
    }
    return CLB_EXIT_OK;
}

/* The tuning cache behind the runner's stored parameters. */
static bool stored_params(const struct clb_device *dev, const char *kernel, enum clb_precision p,
                          struct clb_gemm_shape shape, const struct clb_gemm_mode *mode,
                          struct clb_tune_params *out, struct clb_tune_match *match)
{
    return clb_tuning_lookup(dev, kernel, clb_precision_name(p), shape, mode, out, match);
}

/* One run of gemm or run: its config, and what it measured. */
struct gemm_state {
    struct gemm_config *cfg;
    bool show_devices; /* run: the device list first, and bandwidth among the limits */
    bool limits;       /* measure the peaks first */
    struct clb_gemm_options opt;
    struct clb_gemm_results res;
    struct clb_micro_results micro;
    struct clb_gemm_report report;
};

static bool needs_devices(const struct clb_run *run)
{
    const struct gemm_config *cfg = ((const struct gemm_state *)run->cmd)->cfg;

    for (size_t i = 0; i < cfg->backends.n; i++)
        if (cfg->backends.v[i]->on_device)
            return true;
    return false;
}

static unsigned long gemm_plan(const struct gemm_state *g)
{
    const struct gemm_config *cfg = g->cfg;
    unsigned long plan = clb_plan_add(14695981039346656037ul, g->limits);

    for (size_t p = 0; p < cfg->precisions.n; p++)
        plan = clb_plan_add(plan, cfg->precisions.v[p]);
    for (size_t i = 0; i < cfg->sizes.n; i++)
        plan = clb_plan_add(clb_plan_add(clb_plan_add(plan, cfg->sizes.v[i].m),
                                                     cfg->sizes.v[i].n),
                                  cfg->sizes.v[i].k);
    for (size_t b = 0; b < cfg->backends.n; b++)
        plan = clb_plan_add(plan, cfg->backends.v[b]->on_device);
    plan = clb_plan_add(plan, cfg->mode.trans_a + 2 * cfg->mode.trans_b +
                                        4 * cfg->mode.col_major);
    return clb_plan_add(clb_plan_add(plan, cfg->mode.ld_pad), cfg->mode.offset);
}

static int gemm_validate(struct clb_run *run)
{
    struct gemm_state *g = run->cmd;
    const int rc = validate(g->cfg);

    /* --output only once the checks before it passed, as the runner refuses its name after. */
    if (rc != CLB_EXIT_OK)
        return rc;
    run->output = g->cfg->output;
    run->schedule = gemm_plan(g);
    run->backends = g->cfg->backends.v;
    run->n_backends = g->cfg->backends.n;
    return CLB_EXIT_OK;
}

/*
 * OpenBLAS's threads: --threads, or for a fleet's ranks on one node, which
 * share its CPU unless the launcher bound each to CPUs of its own (then they
 * see fewer), this rank's part; 0: every CPU.
 */
static unsigned host_threads(const struct gemm_config *cfg)
{
    const int sharers = clb_fleet_cpu_sharers();

    if (cfg->threads || sharers <= 1)
        return cfg->threads;
    const unsigned threads = clb_cpu_count_available() / (unsigned)sharers;
    return threads ? threads : 1;
}

static void gemm_options_fill(struct gemm_state *g, const struct clb_run *run)
{
    const struct gemm_config *cfg = g->cfg;

    g->opt = (struct clb_gemm_options){
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
        .threads = host_threads(cfg),
        .transfers = cfg->transfers,
        .seed = cfg->seed,
        .alpha = cfg->alpha,
        .beta = cfg->beta,
        .mode = cfg->mode,
        .code_path = cfg->code_path,
        .progress = isatty(STDERR_FILENO),
        .stored_params = stored_params,
        .step = run->step,
        .device_slots = run->sel.n_slots,
    };
}

static int gemm_begin(struct clb_run *run)
{
    struct gemm_state *g = run->cmd;
    const struct clb_selection *sel = &run->sel;

    if (clb_cmd_prices_given(&g->cfg->prices, g->cfg->prices_file)) {
        /* The devices the rows will name: the selected ones, and the host for OpenBLAS. */
        struct clb_priced_device *d = calloc(sel->n_devices + 1, sizeof(*d));
        char (*id_buf)[32] = calloc(sel->n_devices + 1, sizeof(*id_buf)), cpu[256];
        size_t n = 0;
        int rc = CLB_EXIT_FAILURE;
        clb_host_cpu_name(cpu, sizeof(cpu));
        if (d && id_buf) {
            for (; n < sel->n_devices; n++) {
                clb_device_id(sel->devices[n], id_buf[n], sizeof(id_buf[n]));
                d[n].name = clb_device_str(sel->devices[n], CLB_PROP_NAME);
                d[n].id = id_buf[n];
                d[n].cpu = clb_price_device_cpu(d[n].id, d[n].name,
                                                clb_device_is_cpu(sel->devices[n]), cpu);
            }
            for (size_t b = 0; b < g->cfg->backends.n; b++)
                if (!g->cfg->backends.v[b]->on_device) {
                    d[n++] = (struct clb_priced_device){ "host CPU", "host", cpu };
                    break;
                }
            rc = clb_cmd_prices_hold(g->show_devices ? "run" : "gemm", &g->cfg->prices, d, n,
                                     "this run");
        } else {
            fprintf(stderr, "clbench: out of host memory\n");
        }
        free(d);
        free(id_buf);
        if (rc != CLB_EXIT_OK)
            return rc;
    }
    /* OpenBLAS's core note: once, the arguments accepted, the baseline about to run. */
    if (gemm_blas_core(g->cfg) && clb_blas_core_state()->note[0])
        fprintf(stderr, "clbench: %s\n", clb_blas_core_state()->note);
    if (g->show_devices && g->cfg->common.format == CLB_FORMAT_TABLE && sel->inv &&
        !clb_fleet_active()) {
        struct clb_devices_report dr = { .inv = sel->inv, .devices = sel->devices,
                                         .n_devices = sel->n_devices };
        clb_devices_write(stdout, CLB_FORMAT_TABLE, &dr);
        fputc('\n', stdout);
        fflush(stdout);
    }
    gemm_options_fill(g, run);
    return CLB_EXIT_OK;
}

/*
 * The limits the GEMM figures are held against: the host CPU's own FMA peak,
 * and each device's peak (and, for run, its memory bandwidth), in the GEMM
 * precisions.
 */
static struct clb_micro_options limit_options(const struct gemm_config *cfg, const char **precs)
{
    for (size_t i = 0; i < cfg->precisions.n; i++)
        precs[i] = clb_precision_name(cfg->precisions.v[i]);
    return (struct clb_micro_options){ .runs = 3, .precisions = precs,
                                       .n_precisions = cfg->precisions.n };
}

static void limits_host_step(struct clb_run *run)
{
    struct gemm_state *g = run->cmd;
    const char *precs[CLB_PRECISION_COUNT];

    struct clb_micro_options mopt = limit_options(g->cfg, precs);
    const struct clb_gemm_backend *base = clb_gemm_baseline(&g->opt);
    enum clb_cpu_level level;
    char why[256];

    if (!g->limits)
        return;
    /* A handicapped baseline is held against the peak of the instruction set it runs. */
    if (base && base->handicap && base->handicap(why, sizeof(why), &level))
        mopt.host_also = &level;
    if (isatty(STDERR_FILENO))
        fprintf(stderr, "[limits] peak of the host CPU ...\n");
    clb_host_peak_run(&mopt, &g->micro);
}

static void limits_device_step(struct clb_run *run, size_t d)
{
    struct gemm_state *g = run->cmd;
    const struct clb_selection *sel = &run->sel;
    const char *precs[CLB_PRECISION_COUNT];
    const struct clb_micro_options mopt = limit_options(g->cfg, precs);
    struct clb_cl_env env;
    struct clb_error e;

    if (!g->limits || d >= sel->n_devices)
        return;
    if (isatty(STDERR_FILENO))
        fprintf(stderr, "[limits %zu/%zu] peak%s %s ...\n", d + 1, sel->n_devices,
                g->show_devices ? " and bandwidth" : "",
                clb_device_str(sel->devices[d], CLB_PROP_NAME));
    if (clb_cl_env_init(&env, sel->devices[d]->id, false, &e))
        return; /* the GEMM rows of this device will report the fault */
    clb_peak_run(sel->devices[d], &env, &mopt, &g->micro);
    if (g->show_devices && !clb_interrupted())
        clb_bandwidth_run(sel->devices[d], &env, &mopt, &g->micro);
    clb_cl_env_finish(&env);
}

static int gemm_measure(struct clb_run *run, struct clb_error *e)
{
    struct gemm_state *g = run->cmd;

    /* What explains the GEMM figures: each device's peak (and, for run, its bandwidth). */
    if (g->limits)
        clb_datasheet_attach(&g->micro);
    if (clb_gemm_run(&g->opt, run->sel.devices, run->sel.n_devices, &g->res, e) != 0)
        return -1;
    run->interrupted = g->res.interrupted;
    return 0;
}

/* Each row's limits: the peaks measured, and the datasheet's figures. */
static void hold_against_limits(struct gemm_state *g)
{
    struct clb_gemm_results *res = &g->res;
    struct clb_cpu_isa isa;

    clb_cpu_isa_detect(&isa);
    if (res->baseline && !g->opt.threads && res->host_threads &&
        res->host_threads < clb_cpu_count_available())
        fprintf(stderr, "clbench: warning: %s ran %u thread%s on %u available CPUs (it may "
                        "be built for fewer): the CPU baseline used part of the CPU\n",
                res->baseline->name, res->host_threads, res->host_threads == 1 ? "" : "s",
                clb_cpu_count_available());
    /*
     * A host backend on fewer threads than there are physical cores is held
     * against its share of the peak (clb_cpu_core_share: SMT siblings share a
     * core's FMA units, so threads = cores is the whole chip). Not so for a
     * fleet's ranks on one node: the peak ran while the others ran theirs, so
     * it already is this rank's share.
     */
    const double host_share =
        clb_fleet_local_ranks() > 1 ? 1.0 : clb_cpu_core_share(res->host_threads);
    for (size_t i = 0; i < res->n_rows; i++) {
        struct clb_gemm_row *row = &res->rows[i];
        const char *prec = clb_precision_name(row->precision);
        /* An OpenCL CPU device runs on the host's silicon: both peaks apply. */
        const bool on_host = !row->device || clb_device_is_cpu(row->device);
        const struct clb_micro_row *dev_peak =
            row->device ? clb_micro_peak_row(&g->micro, row->device, prec, NULL) : NULL;
        if (dev_peak) {
            row->device_peak_gflops = dev_peak->best;
            row->device_peak_partial = !dev_peak->launch.fills_device;
        }
        if (!on_host)
            continue;
        /* A host backend's kernels use one instruction set: a handicapped one's peak is
         * that set's, not the CPU's best. */
        const struct clb_host_peak_variant *v =
            !row->device && res->baseline_handicap[0]
                ? clb_host_peak_for_level(&isa, prec, res->handicap_level)
                : NULL;
        const struct clb_micro_row *peak = clb_micro_peak_row(&g->micro, NULL, prec,
                                                              v ? v->name : NULL);
        if (!peak)
            continue;
        row->host_peak_gflops = peak->best * (row->device ? 1.0 : host_share);
        row->host_peak_of_kernels = v != NULL;
        const char *isa_name = strchr(peak->case_, ' '); /* "fp32 avx2+fma" */
        snprintf(row->host_peak_isa, sizeof(row->host_peak_isa), "%s",
                 isa_name ? isa_name + 1 : "");
    }
    clb_datasheet_attach_gemm(res, &g->micro, host_share);
}

static const void *gemm_report(struct clb_run *run)
{
    struct gemm_state *g = run->cmd;
    const struct gemm_config *cfg = g->cfg;

    hold_against_limits(g);
    g->report = (struct clb_gemm_report){ .meta = &run->meta, .micro = &g->micro,
                                          .show_micro = g->show_devices, .results = &g->res,
                                          .options = &g->opt, .devices = run->sel.devices,
                                          .n_devices = run->sel.n_devices,
                                          .shapes = cfg->model ? cfg->model->name : NULL,
                                          .context = cfg->context, .batch = cfg->batch,
                                          .prices = clb_cmd_prices_given(&cfg->prices,
                                                                         cfg->prices_file)
                                                        ? &cfg->prices
                                                        : NULL };
    run->gemm_rows = &g->res;
    run->micro_rows = &g->micro;
    return &g->report;
}

static void gemm_finish(struct clb_run *run)
{
    struct gemm_state *g = run->cmd;

    clb_gemm_results_finish(&g->res);
    clb_micro_results_finish(&g->micro);
}

#define GEMM_MEASURE(name_)                                                                \
    {                                                                                      \
        .name = name_, .validate = gemm_validate, .devices_needed = needs_devices,         \
        .begin = gemm_begin, .host_step = limits_host_step,                                \
        .device_step = limits_device_step, .measure = gemm_measure,                        \
        .report = gemm_report, .write = write_report, .finish = gemm_finish,               \
    }

const struct clb_measure clb_cmd_gemm_measure = GEMM_MEASURE("gemm");
const struct clb_measure clb_cmd_run_measure = GEMM_MEASURE("run");

static int gemm_main(struct gemm_config *cfg, bool show_devices)
{
    struct gemm_state g = { .cfg = cfg, .show_devices = show_devices,
                            .limits = !cfg->no_peak || show_devices };

    return clb_measure_run(show_devices ? &clb_cmd_run_measure : &clb_cmd_gemm_measure, &g,
                           &cfg->common);
}

static int gemm_run(void *config, int n_operands, char **operands)
{
    (void)n_operands;
    (void)operands;
    return gemm_main(config, false);
}

static int run_run(void *config, int n_operands, char **operands)
{
    (void)n_operands;
    (void)operands;
    return gemm_main(config, true);
}

const struct clb_command clb_cmd_gemm = {
    .name = "gemm",
    .summary = "GEMM (C = alpha*A*B + beta*C) through CLBlast on each device and OpenBLAS on "
               "the host, timed and verified.",
    .usage = "",
    .options = gemm_options,
    .config_size = sizeof(struct gemm_config),
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
    .run = run_run,
    .blas_core = gemm_blas_core,
};
