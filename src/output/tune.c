/* tune's output: each device's trials and outcomes, as a table or JSON. */
#include <jansson.h>
#include <string.h>

#include "clbench/output/table.h"
#include "clbench/output/tune.h"
#include "clbench/util/units.h"

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

int clb_tune_write_table(FILE *out, const struct clb_tune_result *r, const char *path)
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
            clb_precision_name(r->precision), (unsigned long long)r->size,
            (unsigned long long)r->size, (unsigned long long)r->size);
    clb_table_print(t, out);
    clb_table_destroy(t);
    bool stored = false;
    for (size_t b = 0; b < r->n_outcomes; b++) {
        const struct clb_tune_outcome *o = &r->outcomes[b];
        stored |= o->stored;
        if (o->n_trials == 0 && !o->note[0])
            continue;
        fprintf(out, "%s:", o->backend->tuning->label);
        if (o->default_gflops > 0)
            fprintf(out, " built-in %.2f GFLOP/s", o->default_gflops);
        if (o->best != SIZE_MAX && o->default_gflops > 0 && o->best_gflops > o->default_gflops)
            fprintf(out, ", best %.2f GFLOP/s (%.2fx)", o->best_gflops,
                    o->best_gflops / o->default_gflops);
        if (o->confirm_best_gflops > 0 || o->confirm_default_gflops > 0)
            fprintf(out, ", measured again %.2f vs %.2f", o->confirm_best_gflops,
                    o->confirm_default_gflops);
        fprintf(out, "%s%s%s\n",
                !o->stored ? "" : o->builtin_won ? "; stored: the built-in choice, at this size"
                                                 : "; stored",
                o->note[0] ? "; " : "", o->note);
    }
    if (stored)
        fprintf(out, "tuning cache: %s\n", path);
    if (r->interrupted)
        fprintf(out, "interrupted: nothing stored for this size\n");
    fputc('\n', out);
    return 0;
}

json_t *clb_tune_result_json(const struct clb_tune_result *r)
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
    json_t *outcomes = json_array();
    for (size_t b = 0; b < r->n_outcomes; b++) {
        const struct clb_tune_outcome *oc = &r->outcomes[b];
        json_array_append_new(
            outcomes,
            json_pack("{s:s, s:s, s:I, s:f, s:f, s:f, s:f, s:b, s:b, s:s?, s:f}", "backend",
                      oc->backend->name, "kernel", oc->backend->tuning->kernel, "trials",
                      (json_int_t)oc->n_trials, "default_gflops", oc->default_gflops,
                      "best_gflops", oc->best_gflops, "confirm_best_gflops",
                      oc->confirm_best_gflops, "confirm_default_gflops",
                      oc->confirm_default_gflops, "builtin_won", oc->builtin_won, "stored",
                      oc->stored, "note", oc->note[0] ? oc->note : NULL, "seconds",
                      oc->seconds));
    }
    return json_pack("{s:s, s:s, s:I, s:f, s:f, s:o, s:o, s:b}", "device",
                     clb_device_str(r->device, CLB_PROP_NAME), "precision",
                     clb_precision_name(r->precision), "size", (json_int_t)r->size, "budget_s",
                     r->budget_s, "setup_s", r->setup_s, "trials", trials, "outcomes", outcomes,
                     "interrupted", r->interrupted);
}

int clb_tune_write_json(FILE *out, const char *path, json_t *searches)
{
    json_t *root = json_pack("{s:s, s:o}", "tuning_cache", path, "searches", searches);
    int rc = root && json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0 ? 0 : -1;

    fputc('\n', out);
    json_decref(root);
    return rc;
}
