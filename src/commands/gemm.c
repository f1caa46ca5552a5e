#include <unistd.h>

#include "clbench/backends/blascore.h"
#include "clbench/bench/micro.h"
#include "clbench/output/devices.h"
#include "clbench/output/gemm.h"
#include "clbench/tune/cache.h"
#include "clbench/util/cpu.h"
#include "common.h"
#include "config.h"
#include "gemm_config.h"
#include "runner.h"

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

static int write_report(FILE *out, enum clb_format fmt, const void *report)
{
    const struct clb_gemm_report *r = report;
    int rc = clb_gemm_write(out, fmt, report);

    if (!rc && fmt == CLB_FORMAT_TABLE && r->shapes)
        rc = clb_shapes_write_estimates(out, r);
    return rc;
}

/* The tuning cache behind the runner's stored parameters. */
static bool stored_params(const struct clb_device *dev, const char *kernel, enum clb_precision p,
                          struct clb_gemm_shape shape, const struct clb_gemm_mode *mode,
                          struct clb_tune_params *out, struct clb_tune_match *match)
{
    return clb_tuning_lookup(dev, kernel, p, shape, mode, out, match);
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

/* Whether a host backend runs: the rows then name the host CPU. */
static bool on_host(const struct gemm_config *cfg)
{
    for (size_t i = 0; i < cfg->backends.n; i++)
        if (!cfg->backends.v[i]->on_device)
            return true;
    return false;
}

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
    const int rc = clb_gemm_config_validate(g->cfg);

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
 * see fewer), this rank's part (clb_host_share); 0: every CPU.
 */
static unsigned host_threads(const struct gemm_config *cfg)
{
    bool shared;
    const unsigned threads = (unsigned)clb_host_share(clb_cpu_count_available(), &shared);

    if (cfg->threads || !shared)
        return cfg->threads;
    return threads ? threads : 1;
}

static void gemm_options_fill(struct gemm_state *g, const struct clb_run *run)
{
    const struct gemm_config *cfg = g->cfg;

    g->opt = (struct clb_gemm_options){
        .shapes = cfg->sizes.v,
        .n_shapes = cfg->sizes.n,
        .roles = cfg->shapes.model ? cfg->shapes.roles : NULL,
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
    const char *cmd = g->show_devices ? "run" : "gemm";
    int rc;

    /* The devices the rows will name: the selected ones, and the host for OpenBLAS. */
    if (clb_shapes_priced(&g->cfg->shapes) &&
        (rc = clb_shapes_hold_prices(&g->cfg->shapes, cmd, sel, on_host(g->cfg))) != CLB_EXIT_OK)
        return rc;
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
static void limits_host_step(struct clb_run *run)
{
    struct gemm_state *g = run->cmd;
    const struct clb_gemm_backend *base = clb_gemm_baseline(&g->opt);
    enum clb_cpu_level level;
    char why[256];

    if (!g->limits)
        return;
    /* A handicapped baseline is held against the peak of the instruction set it runs. */
    const bool handicap = base && base->handicap && base->handicap(why, sizeof(why), &level);
    clb_limits_host_run(g->cfg->precisions.v, g->cfg->precisions.n, handicap ? &level : NULL,
                        &g->micro);
}

static void limits_device_step(struct clb_run *run, size_t d)
{
    struct gemm_state *g = run->cmd;
    const struct clb_selection *sel = &run->sel;

    if (g->limits && d < sel->n_devices)
        clb_limits_device_run(sel->devices[d], d, sel->n_devices, g->cfg->precisions.v,
                              g->cfg->precisions.n, g->show_devices, &g->micro);
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

/* Each row's limits (clb_limits_hold_gemm), after a note when OpenBLAS ran on part of the CPU. */
static void hold_against_limits(struct gemm_state *g)
{
    const struct clb_gemm_results *res = &g->res;

    if (res->baseline && !g->opt.threads && res->host_threads &&
        res->host_threads < clb_cpu_count_available())
        fprintf(stderr, "clbench: warning: %s ran %u thread%s on %u available CPUs (it may "
                        "be built for fewer): the CPU baseline used part of the CPU\n",
                res->baseline->name, res->host_threads, res->host_threads == 1 ? "" : "s",
                clb_cpu_count_available());
    /* A fleet's ranks on one node measured the peak while the others ran theirs. */
    clb_limits_hold_gemm(&g->res, &g->micro, clb_fleet_local_ranks() > 1);
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
                                          .shapes = cfg->shapes.model ? cfg->shapes.model->name
                                                                      : NULL,
                                          .context = cfg->shapes.context,
                                          .batch = cfg->shapes.batch,
                                          .prices = clb_shapes_priced(&cfg->shapes)
                                                        ? &cfg->shapes.prices
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
    .options = clb_gemm_options,
    .config_size = sizeof(struct gemm_config),
    .run = gemm_run,
    .blas_core = gemm_blas_core,
};

const struct clb_command clb_cmd_run = {
    .name = "run",
    .summary = "The headline job: the device list, then GEMM on every device against the "
               "OpenBLAS baseline, with a summary.",
    .usage = "",
    .options = clb_gemm_options,
    .config_size = sizeof(struct gemm_config),
    .run = run_run,
    .blas_core = gemm_blas_core,
};
