#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clbench/cli/gemm_args.h"
#include "clbench/util/interrupt.h"
#include "clbench/output/table.h"
#include "clbench/tune/tune.h"
#include "clbench/util/units.h"
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

static void params_text(const struct clb_tune_params *p, char *buf, size_t len)
{
    size_t used = 0;

    if (p->n == 0) {
        snprintf(buf, len, "(built-in choice)");
        return;
    }
    buf[0] = '\0';
    for (size_t i = 0; i < p->n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s=%zu", i ? " " : "", p->name[i],
                                 p->value[i]);
}

static int write_table(FILE *out, const struct clb_tune_result *r, const struct tune_config *c,
                       const char *path)
{
    static const char *const head[] = { "KERNEL", "PARAMETERS", "GFLOP/S", "TIME", "RESULT" };
    struct clb_table *t = clb_table_create(head, 5);

    if (!t)
        return -1;
    clb_table_align_right(t, 2);
    clb_table_align_right(t, 3);
    for (size_t i = 0; i < r->n_trials; i++) {
        const struct clb_tune_trial *tr = &r->trials[i];
        char params[400], gf[32] = "", secs[32], res[300];
        params_text(&tr->params, params, sizeof(params));
        if (tr->status == CLB_ROW_OK)
            snprintf(gf, sizeof(gf), "%.2f", tr->gflops);
        clb_format_seconds(tr->seconds, secs, sizeof(secs));
        snprintf(res, sizeof(res), "%s%s%s", tr->status == CLB_ROW_OK ? "OK" : clb_row_status_name(tr->status),
                 tr->status == CLB_ROW_OK ? "" : ": ", tr->status == CLB_ROW_OK ? "" : tr->reason);
        for (size_t b = 0; b < r->n_outcomes; b++)
            if (i == r->outcomes[b].best)
                strncat(res, " (best)", sizeof(res) - strlen(res) - 1);
        const char *cells[] = { tr->kernel, params, gf, secs, res };
        if (clb_table_add(t, cells)) {
            clb_table_destroy(t);
            return -1;
        }
    }
    fprintf(out, "%u:%u %s, %s, %llu x %llu x %llu:\n", r->device->platform_index,
            r->device->device_index, clb_device_str(r->device, CLB_PROP_NAME),
            clb_precision_name(c->precision.v[0]), (unsigned long long)c->size,
            (unsigned long long)c->size, (unsigned long long)c->size);
    clb_table_print(t, out);
    clb_table_destroy(t);
    bool stored = false;
    for (size_t b = 0; b < r->n_outcomes; b++) {
        const struct clb_tune_outcome *o = &r->outcomes[b];
        stored |= o->stored;
        if (o->best == SIZE_MAX && o->default_gflops == 0)
            continue;
        fprintf(out, "%s: default %.2f GFLOP/s", o->backend->tuning->label, o->default_gflops);
        if (o->best != SIZE_MAX && o->default_gflops > 0)
            fprintf(out, ", best %.2f GFLOP/s (%.2fx)", o->best_gflops,
                    o->best_gflops / o->default_gflops);
        fprintf(out, "%s\n", o->stored ? "; stored"
                             : o->best != SIZE_MAX &&
                                       o->best_gflops <= o->default_gflops * CLB_TUNE_MIN_GAIN
                                 ? "; the default stays (nothing 3% better found)"
                                 : "");
    }
    if (stored)
        fprintf(out, "tuning cache: %s\n", path);
    if (r->interrupted)
        fprintf(out, "interrupted: the best found so far was kept\n");
    return 0;
}

static json_t *result_json(const struct clb_tune_result *r)
{
    json_t *trials = json_array();
    for (size_t i = 0; i < r->n_trials; i++) {
        const struct clb_tune_trial *t = &r->trials[i];
        json_t *params = json_object();
        for (size_t k = 0; k < t->params.n; k++)
            json_object_set_new(params, t->params.name[k], json_integer((json_int_t)t->params.value[k]));
        json_array_append_new(trials, json_pack("{s:s, s:o, s:s, s:s?, s:f, s:f}", "kernel",
                                                t->kernel, "params", params, "status",
                                                clb_row_status_name(t->status), "reason",
                                                t->status == CLB_ROW_OK ? NULL : t->reason,
                                                "gflops", t->gflops, "seconds", t->seconds));
    }
    json_t *o = json_pack("{s:s, s:o}", "device", clb_device_str(r->device, CLB_PROP_NAME),
                          "trials", trials);
    char key[96];
    /* "clblast_default_gflops", "clblast_best_gflops", ..., then "clblast_stored", ... */
    for (size_t b = 0; o && b < r->n_outcomes; b++) {
        const struct clb_tune_outcome *oc = &r->outcomes[b];
        snprintf(key, sizeof(key), "%s_default_gflops", oc->backend->name);
        json_object_set_new(o, key, json_real(oc->default_gflops));
        snprintf(key, sizeof(key), "%s_best_gflops", oc->backend->name);
        json_object_set_new(o, key, json_real(oc->best_gflops));
    }
    for (size_t b = 0; o && b < r->n_outcomes; b++) {
        snprintf(key, sizeof(key), "%s_stored", r->outcomes[b].backend->name);
        json_object_set_new(o, key, json_boolean(r->outcomes[b].stored));
    }
    if (o)
        json_object_set_new(o, "interrupted", json_boolean(r->interrupted));
    return o;
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
            write_table(stdout, &r, cfg, path);
        else
            json_array_append_new(all, result_json(&r));
        clb_tune_result_finish(&r);
    }
    if (cfg->common.format != CLB_FORMAT_TABLE) {
        json_t *root = json_pack("{s:s, s:o}", "tuning_cache", path, "devices", all);
        json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        fputc('\n', stdout);
        json_decref(root);
    } else {
        json_decref(all);
    }
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
