#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clbench/cli/gemm_args.h"
#include "clbench/output/tune.h"
#include "clbench/tune/search.h"
#include "clbench/util/interrupt.h"
#include "clbench/util/parse.h"
#include "common.h"

struct tune_config {
    struct clb_common common;
    double budget_s;
    uint64_t size;
    struct clb_precision_list precision;
    const struct clb_gemm_backend *only;
    unsigned runs;
    bool dry_run;
};

static int opt_size(const char *arg, void *field, struct clb_error *e)
{
    return clb_parse_u64(arg, 16, 16384, field, e);
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

/* --only's help names the tunable backends; tune_defaults() fills it before --help is shown. */
static char only_help[512];

static const struct clb_option tune_options[] = {
    CLB_COMMON_OPTIONS(struct tune_config),
    { "budget", 0, "SECONDS",
      "Time for the search on each device, e.g. 60s (default: 60); each backend's first "
      "candidate (its built-in choice) always runs to completion", clb_opt_seconds,
      offsetof(struct tune_config, budget_s) },
    { "size", 'n', "N", "Tune on an N x N x N problem (default: 1024)", opt_size,
      offsetof(struct tune_config, size) },
    { "precision", 'p', "PREC", "fp32 or fp64 (default: fp32)", clb_opt_precisions,
      offsetof(struct tune_config, precision) },
    { "only", 0, "WHAT", only_help, opt_only, offsetof(struct tune_config, only) },
    { "runs", 0, "N", "Timed calls per candidate (default: 3)", clb_opt_positive,
      offsetof(struct tune_config, runs) },
    { "dry-run", 0, NULL, "Search, but store nothing in the tuning cache", NULL,
      offsetof(struct tune_config, dry_run) },
    { 0 },
};

static void tune_defaults(void *config)
{
    struct tune_config *c = config;
    char names[sizeof(only_help) - 16];

    tunable_names(names, sizeof(names), true);
    snprintf(only_help, sizeof(only_help), "Tune only %s", names);
    c->budget_s = 60.0;
    c->size = 1024;
    c->runs = 3;
}

static int tune_run(void *config, int n_operands, char **operands)
{
    struct tune_config *cfg = config;
    struct clb_selection sel;
    char path[4096] = "(none)";
    int rc;
    json_t *all = json_array();

    (void)n_operands;
    (void)operands;
    if (!cfg->precision.n) {
        cfg->precision.n = 1;
        cfg->precision.v[0] = CLB_FP32;
    }
    if (cfg->precision.n != 1 || cfg->precision.v[0] == CLB_FP16) {
        fprintf(stderr, "clbench tune: option --precision: tune one of fp32 or fp64\n");
        json_decref(all);
        return CLB_EXIT_USAGE;
    }
    clb_tuning_path(path, sizeof(path));
    if ((rc = clb_selection_open(&cfg->common, &sel)) != CLB_EXIT_OK) {
        json_decref(all);
        return rc;
    }
    clb_interrupt_install();
    for (size_t i = 0; i < sel.n_devices && !clb_interrupted(); i++) {
        struct clb_tune_result r;
        struct clb_error e = { "" };
        struct clb_tune_options opt = {
            .budget_s = cfg->budget_s, .size = cfg->size, .precision = cfg->precision.v[0],
            .backends = clb_gemm_backends, .only = cfg->only, .runs = cfg->runs,
            .store = !cfg->dry_run, .progress = isatty(STDERR_FILENO),
        };
        if (opt.precision == CLB_FP64 && !clb_device_bool(sel.devices[i], CLB_PROP_FP64)) {
            fprintf(stderr, "clbench: %s has no fp64: not tuned\n",
                    clb_device_str(sel.devices[i], CLB_PROP_NAME));
            continue;
        }
        if (clb_tune_device(sel.devices[i], &opt, &r, &e)) {
            clb_report_error(&e);
            rc = CLB_EXIT_FAILURE;
            continue;
        }
        if (cfg->common.format == CLB_FORMAT_TABLE)
            clb_tune_write_table(stdout, &r, cfg->precision.v[0], cfg->size, path);
        else
            json_array_append_new(all, clb_tune_result_json(&r));
        clb_tune_result_finish(&r);
    }
    if (cfg->common.format != CLB_FORMAT_TABLE)
        clb_tune_write_json(stdout, path, all);
    else
        json_decref(all);
    clb_selection_close(&sel);
    if (clb_finish_stdout())
        rc = CLB_EXIT_FAILURE;
    if (clb_interrupted()) {
        fprintf(stderr, "clbench: interrupted by %s; the best found so far was kept\n",
                strsignal(clb_interrupt_signal()));
        return 128 + clb_interrupt_signal();
    }
    return rc;
}

const struct clb_command clb_cmd_tune = {
    .name = "tune",
    .summary = "Search CLBlast's and clbench's GEMM kernel parameters per device within a time "
               "budget; later runs apply the best.",
    .usage = "",
    .options = tune_options,
    .config_size = sizeof(struct tune_config),
    .defaults = tune_defaults,
    .run = tune_run,
};
