#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clbench/cli/gemm_args.h"
#include "clbench/output/tune.h"
#include "clbench/tune/search.h"
#include "clbench/util/interrupt.h"
#include "clbench/util/parse.h"
#include "clbench/util/timer.h"
#include "common.h"
#include "runner.h"

struct tune_config {
    struct clb_common common;
    double budget_s;
    struct clb_shape_list sizes;
    struct clb_precision_list precision;
    const struct clb_gemm_backend *only;
    unsigned runs;
    bool dry_run;
};

/* Square sizes from 16 to 16384, at most 16 of them. */
static int opt_sizes(const char *arg, void *field, struct clb_error *e)
{
    struct clb_shape_list *l = field;

    if (clb_opt_sizes(arg, l, e))
        return -1;
    if (l->n > 16) {
        clb_error_set(e, "at most 16 sizes, got %zu", l->n);
        return -1;
    }
    for (size_t i = 0; i < l->n; i++) {
        if (l->v[i].m < 16 || l->v[i].m > 16384) {
            clb_error_set(e, "size %" PRIu64 " is outside 16..16384", l->v[i].m);
            return -1;
        }
        for (size_t j = 0; j < i; j++) {
            if (l->v[j].m == l->v[i].m) {
                clb_error_set(e, "size %" PRIu64 " is listed twice", l->v[i].m);
                return -1;
            }
        }
    }
    return 0;
}

/* "clblast or clbench": the backends with a tuning part, from the registry. */
static void tunable_names(char *buf, size_t len, bool labels)
{
    size_t n = 0, k = 0, used = 0;

    for (size_t i = 0; clb_gemm_backends[i]; i++)
        n += clb_gemm_backends[i]->tuning != NULL;
    buf[0] = '\0';
    for (size_t i = 0; clb_gemm_backends[i] && used < len; i++) {
        const struct clb_gemm_backend *be = clb_gemm_backends[i];
        if (!be->tuning)
            continue;
        k++;
        used += (size_t)snprintf(buf + used, len - used, "%s%s%s%s%s",
                                 k == 1 ? "" : k == n ? " or " : ", ", be->name,
                                 labels ? " (" : "", labels ? be->tuning->label : "",
                                 labels ? ")" : "");
    }
}

static int opt_only(const char *arg, void *field, struct clb_error *e)
{
    const struct clb_gemm_backend *be = clb_gemm_backend_find(arg);
    char names[256];

    if (!be || !be->tuning) {
        tunable_names(names, sizeof(names), false);
        clb_error_set(e, "expected %s, got '%s'", names, arg);
        return -1;
    }
    *(const struct clb_gemm_backend **)field = be;
    return 0;
}

/* --only's help: the tunable backends, from the registry. */
static void only_help(FILE *out)
{
    char names[512];

    tunable_names(names, sizeof(names), true);
    fprintf(out, " %s", names);
}

/* --only's words for completion: the tunable backends' names. */
static void only_words(FILE *out)
{
    for (size_t i = 0; clb_gemm_backends[i]; i++)
        if (clb_gemm_backends[i]->tuning)
            fprintf(out, "%s ", clb_gemm_backends[i]->name);
}

static const struct clb_option tune_options[] = {
    CLB_COMMON_OPTIONS(struct tune_config),
    { .name = "budget", .metavar = "SECONDS",
      .help = "Time for each device, e.g. 120s, spread over the precisions and sizes: each "
              "gets what is left divided by those still to come; each backend's first "
              "candidate (its built-in choice) always runs to completion, and a winner is "
              "measured again beside it before it is stored",
      .parse = clb_opt_time_limit, .offset = offsetof(struct tune_config, budget_s),
      .def = "60" },
    { .name = "size", .short_name = 'n', .metavar = "LIST",
      .help = "Sizes to tune, N x N x N each, a list or range as gemm -n takes, by default "
              "those gemm and run measure; a run applies the entry of the nearest size within "
              "2x to square NN row-major problems (the class tune measures)",
      .parse = opt_sizes, .offset = offsetof(struct tune_config, sizes),
      .def = CLB_GEMM_DEFAULT_SIZES },
    { .name = "precision", .short_name = 'p', .metavar = "LIST",
      .help = "fp32, fp64 or both", .parse = clb_opt_precisions,
      .offset = offsetof(struct tune_config, precision), .def = "fp32",
      .words_hook = clb_precision_words },
    { .name = "only", .metavar = "WHAT", .help = "Tune only", .parse = opt_only,
      .offset = offsetof(struct tune_config, only), .help_hook = only_help,
      .words_hook = only_words },
    { .name = "runs", .metavar = "N", .help = "Timed calls per candidate",
      .parse = clb_opt_positive, .offset = offsetof(struct tune_config, runs), .def = "3" },
    { .name = "dry-run", .help = "Search, but store nothing in the tuning cache",
      .offset = offsetof(struct tune_config, dry_run) },
    { 0 },
};

/* A (precision, size) not searched, and why: a line of the table or an object of the JSON. */
static void skipped(const struct tune_config *cfg, FILE *out, json_t *all,
                    const struct clb_device *dev, enum clb_precision p, uint64_t n,
                    const char *why)
{
    if (cfg->common.format == CLB_FORMAT_TABLE)
        fprintf(out, "%s, %s, %" PRIu64 " x %" PRIu64 " x %" PRIu64 ": skipped: %s\n\n",
               clb_device_str(dev, CLB_PROP_NAME), clb_precision_name(p), n, n, n, why);
    else
        json_array_append_new(all, json_pack("{s:s, s:s, s:I, s:s}", "device",
                                             clb_device_str(dev, CLB_PROP_NAME), "precision",
                                             clb_precision_name(p), "size", (json_int_t)n,
                                             "skipped", why));
}

/* One device: every (precision, size) in turn, each with its share of what is left. */
static int tune_device(const struct tune_config *cfg, const struct clb_device *dev,
                       const char *path, FILE *out, json_t *all)
{
    const double t0 = clb_now_s();
    size_t to_come = 0; /* pairs this device can run, not yet searched */
    int rc = CLB_EXIT_OK;

    for (size_t pi = 0; pi < cfg->precision.n; pi++)
        if (cfg->precision.v[pi] != CLB_FP64 || clb_device_bool(dev, CLB_PROP_FP64))
            to_come += cfg->sizes.n;
    for (size_t pi = 0; pi < cfg->precision.n; pi++) {
        for (size_t si = 0; si < cfg->sizes.n; si++) {
            const enum clb_precision p = cfg->precision.v[pi];
            const uint64_t n = cfg->sizes.v[si].m;
            const double left = cfg->budget_s - (clb_now_s() - t0);
            if (clb_interrupted())
                return rc;
            if (p == CLB_FP64 && !clb_device_bool(dev, CLB_PROP_FP64)) {
                skipped(cfg, out, all, dev, p, n, "the device has no fp64");
                continue;
            }
            const size_t share_of = to_come--;
            if (left <= 0) {
                skipped(cfg, out, all, dev, p, n, "the budget was spent before it");
                continue;
            }
            struct clb_tune_result r;
            struct clb_error e = { "" };
            struct clb_tune_options opt = {
                .budget_s = left / (double)share_of, .size = n, .precision = p,
                .backends = clb_gemm_backends, .only = cfg->only, .runs = cfg->runs,
                .store = !cfg->dry_run, .progress = isatty(STDERR_FILENO),
            };
            if (clb_tune_device(dev, &opt, &r, &e)) {
                clb_report_error(&e);
                rc = CLB_EXIT_FAILURE;
                continue;
            }
            if (cfg->common.format == CLB_FORMAT_TABLE)
                clb_tune_write_table(out, &r, path);
            else
                json_array_append_new(all, clb_tune_result_json(&r));
            clb_tune_result_finish(&r);
        }
    }
    return rc;
}

/*
 * A fleet's tune: each rank searched its own devices (and stored into its
 * node's cache); rank 0 prints what each rank printed under its name, or one
 * JSON object of every rank's. Returns 1 when a rank's output was lost.
 */
static int tune_merge(FILE *out, enum clb_format fmt, const struct clb_fleet_text *parts, int n)
{
    int rc = CLB_EXIT_OK;
    json_t *ranks = json_array();

    for (int r = 0; r < n; r++) {
        if (!parts[r].text) {
            fprintf(stderr, "clbench: rank %d on %s sent no tuning output\n", r, parts[r].host);
            rc = CLB_EXIT_FAILURE;
            continue;
        }
        if (fmt == CLB_FORMAT_TABLE) {
            fprintf(out, "== rank %d on %s (local rank %d) ==\n%s", r, parts[r].host,
                    parts[r].local_rank, parts[r].text);
            continue;
        }
        json_t *one = json_loadb(parts[r].text, parts[r].len, 0, NULL);
        json_array_append_new(ranks, json_pack("{s:s, s:i, s:i, s:o*}", "host", parts[r].host,
                                                "rank", r, "local_rank", parts[r].local_rank,
                                                "tune", one));
    }
    if (fmt != CLB_FORMAT_TABLE) {
        json_t *root = json_pack("{s:i, s:O}", "ranks", n, "fleet", ranks);
        if (!root || json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER))
            rc = CLB_EXIT_FAILURE;
        fputc('\n', out);
        json_decref(root);
    }
    json_decref(ranks);
    return rc;
}

/* One run of tune: its config, the cache it stores into, and every search's JSON. */
struct tune_run {
    struct tune_config *cfg;
    char path[4096];
    json_t *all;
};

static int tune_validate(struct clb_run *run)
{
    struct tune_run *t = run->cmd;
    struct tune_config *cfg = t->cfg;
    int rc = CLB_EXIT_OK;

    for (size_t i = 0; i < cfg->precision.n && rc == CLB_EXIT_OK; i++) {
        if (cfg->precision.v[i] == CLB_FP16) {
            fprintf(stderr, "clbench tune: option --precision: tune fp32 or fp64\n");
            rc = CLB_EXIT_USAGE;
        }
    }
    clb_tuning_path(t->path, sizeof(t->path));
    run->merge = tune_merge;
    run->kept = "the sizes searched to the end were stored, the one interrupted was not";
    return rc;
}

static int tune_begin(struct clb_run *run)
{
    struct tune_run *t = run->cmd;

    t->all = json_array();
    return CLB_EXIT_OK;
}

static void tune_device_step(struct clb_run *run, size_t i)
{
    struct tune_run *t = run->cmd;

    if (i < run->sel.n_devices &&
        tune_device(t->cfg, run->sel.devices[i], t->path, run->out, t->all) != CLB_EXIT_OK)
        run->rc = CLB_EXIT_FAILURE;
}

static const void *tune_report(struct clb_run *run)
{
    return run->cmd;
}

/* The table went out search by search; JSON is one document of every search at the end. */
static int tune_write(FILE *out, enum clb_format fmt, const void *report)
{
    struct tune_run *t = (struct tune_run *)report;

    if (fmt == CLB_FORMAT_TABLE)
        return 0;
    clb_tune_write_json(out, t->path, t->all);
    t->all = NULL; /* clb_tune_write_json took it */
    return 0;
}

static void tune_finish(struct clb_run *run)
{
    json_decref(((struct tune_run *)run->cmd)->all);
}

const struct clb_measure clb_cmd_tune_measure = {
    .name = "tune",
    .validate = tune_validate,
    .begin = tune_begin,
    .device_step = tune_device_step,
    .report = tune_report,
    .write = tune_write,
    .finish = tune_finish,
};

static int tune_run(void *config, int n_operands, char **operands)
{
    struct tune_run t = { .cfg = config, .path = "(none)" };

    (void)n_operands;
    (void)operands;
    return clb_measure_run(&clb_cmd_tune_measure, &t, &t.cfg->common);
}

const struct clb_command clb_cmd_tune = {
    .name = "tune",
    .summary = "Search CLBlast's and clbench's GEMM kernel parameters per device, precision "
               "and size within a time budget; later runs apply the best near their size.",
    .usage = "",
    .options = tune_options,
    .config_size = sizeof(struct tune_config),
    .run = tune_run,
};
