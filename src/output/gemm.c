#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/output/devices.h"
#include "clbench/output/gemm.h"
#include "clbench/output/micro.h"
#include "clbench/output/table.h"
#include "clbench/util/units.h"

/* A spread (coefficient of variation) above this marks a row as noisy. */
#define NOISY_CV 0.10

static void shape_label(struct clb_gemm_shape s, char *buf, size_t len)
{
    snprintf(buf, len, "%" PRIu64 "x%" PRIu64 "x%" PRIu64, s.m, s.n, s.k);
}

/*
 * The shape, the mode where it is not the default ("128x96x64 TN col ld+3
 * off16"), and what the shape stands for in a model (gemm --shapes):
 * "512x12288x4096 (qkv, prefill)".
 */
static void row_shape_label(const struct clb_gemm_row *row, char *buf, size_t len)
{
    char dims[64], mode[48];

    shape_label(row->shape, dims, sizeof(dims));
    clb_gemm_mode_label(&row->mode, mode, sizeof(mode));
    if (row->role.role)
        snprintf(buf, len, "%s%s%s (%s, %s)", dims, mode[0] ? " " : "", mode, row->role.role,
                 row->role.phase);
    else
        snprintf(buf, len, "%s%s%s", dims, mode[0] ? " " : "", mode);
}

/* The leading dimensions of A, B and C in the row's mode. */
static void row_lds(const struct clb_gemm_row *row, uint64_t ld[3])
{
    for (int w = CLB_GEMM_A; w <= CLB_GEMM_C; w++) {
        struct clb_gemm_matrix_layout l;
        clb_gemm_layout(&row->mode, row->shape, (enum clb_gemm_matrix)w, &l);
        ld[w] = l.ld;
    }
}

static void check_label(const struct clb_gemm_row *row, char *buf, size_t len)
{
    switch (row->status) {
    case CLB_ROW_OK:
        snprintf(buf, len, "OK (%s, rel %.1e)",
                 row->verify.method == CLB_VERIFY_FULL ? "full" : "Freivalds",
                 row->verify.rel_err);
        return;
    case CLB_ROW_FAILED:
        snprintf(buf, len, "FAILED: %s", row->reason);
        return;
    default:
        snprintf(buf, len, "%s: %s", clb_row_status_name(row->status), row->reason);
        return;
    }
}

/* "████▌" scaled so that `full` fills `width` cells; speedups read at a glance. */
static void bar(double v, double full, int width, char *buf, size_t len)
{
    static const char *const eighths[] = { "", "▏", "▎", "▍", "▌", "▋", "▊", "▉" };
    int units = full > 0 ? (int)lround(v / full * width * 8) : 0;
    size_t used = 0;

    if (units > width * 8)
        units = width * 8;
    if (units < 1 && v > 0)
        units = 1;
    buf[0] = '\0';
    for (int i = 0; i < units / 8 && used + 4 < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "█");
    if (used + 4 < len)
        snprintf(buf + used, len - used, "%s", eighths[units % 8]);
}

/* "93.1%", or "104.2% ^" above the peak (the peak was under-measured). */
static bool percent(double gflops, double peak, char *buf, size_t len)
{
    if (!(peak > 0))
        return false;
    snprintf(buf, len, "%.1f%%%s", 100.0 * gflops / peak, gflops > peak ? " ^" : "");
    return gflops > peak;
}

/* Why stored tuning was not applied, once per backend, precision and note. */
static void write_tuning_notes(FILE *out, const struct clb_gemm_results *res)
{
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_gemm_row *row = &res->rows[i];
        bool seen = !row->tuning_note[0];
        for (size_t j = 0; j < i && !seen; j++)
            seen = res->rows[j].backend == row->backend &&
                   res->rows[j].precision == row->precision &&
                   !strcmp(res->rows[j].tuning_note, row->tuning_note);
        if (!seen)
            fprintf(out, "tuning: %s %s: %s\n", row->backend_name,
                    clb_precision_name(row->precision), row->tuning_note);
    }
}

static int write_table(FILE *out, const struct clb_gemm_report *r)
{
    const struct clb_gemm_results *res = r->results;
    const bool e2e = r->options->transfers;
    const char *head[] = { "DEVICE",     "BACKEND",     "PREC",   "M x N x K", "FIRST CALL",
                           "MEDIAN",     "GFLOP/S",     "% DEV PEAK", "% HOST PEAK",
                           "SPREAD",     "SPEEDUP",     "",       "CHECK",     "E2E",
                           "E2E GFLOP/S" };
    size_t n_cols = e2e ? 15 : 13;
    struct clb_table *t = clb_table_create(head, n_cols);
    double max_speedup = 1.0;
    bool noisy = false, above = false, dev_peak = false, host_peak = false;

    if (!t)
        return -1;
    for (size_t c = 4; c <= 10; c++)
        clb_table_align_right(t, c);
    clb_table_align_right(t, 13);
    clb_table_align_right(t, 14);
    for (size_t i = 0; i < res->n_rows; i++)
        if (res->rows[i].speedup > max_speedup)
            max_speedup = res->rows[i].speedup;

    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_gemm_row *row = &res->rows[i];
        char dev[160], shape[128], first[32] = "", med[32] = "", gf[48] = "", spread[32] = "",
             speed[32] = "", bars[64] = "", check[700], e2e_t[32] = "", e2e_gf[32] = "",
             pct_dev[16] = "", pct_host[16] = "";
        const bool m = clb_gemm_row_measured(row);

        clb_device_label(row->device, dev, sizeof(dev));
        row_shape_label(row, shape, sizeof(shape));
        check_label(row, check, sizeof(check));
        if (row->first_call_s > 0)
            clb_format_seconds(row->first_call_s, first, sizeof(first));
        if (m) {
            clb_format_seconds(row->time_s.median, med, sizeof(med));
            snprintf(spread, sizeof(spread), "±%.1f%%%s", row->time_s.cv * 100.0,
                     row->time_s.cv > NOISY_CV ? " !" : "");
            noisy |= row->time_s.cv > NOISY_CV;
        }
        /* A wrong result's rate means nothing: no figure, no % of peak, no speedup. */
        if (m && row->status != CLB_ROW_OK)
            snprintf(gf, sizeof(gf), "unverified");
        if (m && row->status == CLB_ROW_OK) {
            clb_format_flops(row->gflops, gf, sizeof(gf));
            above |= percent(row->gflops, row->device_peak_gflops, pct_dev, sizeof(pct_dev));
            above |= percent(row->gflops, row->host_peak_gflops, pct_host, sizeof(pct_host));
            dev_peak |= row->device_peak_gflops > 0;
            host_peak |= row->host_peak_gflops > 0;
        }
        if (row->speedup > 0) {
            snprintf(speed, sizeof(speed), "%.2fx", row->speedup);
            bar(row->speedup, max_speedup, 12, bars, sizeof(bars));
        }
        if (row->e2e_s.n) {
            clb_format_seconds(row->e2e_s.median, e2e_t, sizeof(e2e_t));
            if (row->status == CLB_ROW_OK)
                clb_format_flops(row->e2e_gflops, e2e_gf, sizeof(e2e_gf));
            else
                snprintf(e2e_gf, sizeof(e2e_gf), "unverified");
        }
        char backend[80];
        if (row->tuned)
            snprintf(backend, sizeof(backend), "%s (tuned @%" PRIu64 ")", row->backend_name,
                     row->tuned_at);
        else
            snprintf(backend, sizeof(backend), "%s", row->backend_name);
        const char *cells[] = { dev,      backend, clb_precision_name(row->precision),
                                shape,    first,   med, gf, pct_dev, pct_host, spread, speed,
                                bars,     check,   e2e_t, e2e_gf };
        if (clb_table_add(t, cells)) {
            clb_table_destroy(t);
            return -1;
        }
    }
    clb_table_print(t, out);
    clb_table_destroy(t);
    if (dev_peak)
        fprintf(out, "%% DEV PEAK: of the device's own peak, measured with clbench's OpenCL "
                     "kernel (clbench peak): its headline width's fastest verified call (BEST)\n");
    if (host_peak)
        fprintf(out, "%% HOST PEAK: of the host CPU's own FMA peak, measured in C on every "
                     "available CPU (host CPU rows of clbench peak, their fastest verified call); "
                     "for OpenBLAS on fewer threads "
                     "than physical cores, its share: threads / cores\n");
    if (above)
        fprintf(out, "^ above the measured peak: the peak was under-measured (the machine was "
                     "busy while it ran, or the peak kernel is slower than this code); rerun "
                     "clbench peak\n");
    if (noisy)
        fprintf(out, "! spread (coefficient of variation of the timed calls) above %.0f%%: "
                     "the machine was busy or the clock ramped; rerun with --min-time\n",
                NOISY_CV * 100.0);
    write_tuning_notes(out, res);
    return 0;
}

/* Per precision, at the largest problem measured: who was fastest, and by how much. */
static void write_summary(FILE *out, const struct clb_gemm_report *r)
{
    const struct clb_gemm_results *res = r->results;

    for (size_t pi = 0; pi < r->options->n_precisions; pi++) {
        const enum clb_precision p = r->options->precisions[pi];
        const struct clb_gemm_row *best = NULL, *base = NULL, *best_dev = NULL;
        double largest = 0;

        for (size_t i = 0; i < res->n_rows; i++) {
            const struct clb_gemm_row *row = &res->rows[i];
            if (row->precision == p && row->status == CLB_ROW_OK &&
                clb_gemm_flops(row->shape) > largest)
                largest = clb_gemm_flops(row->shape);
        }
        for (size_t i = 0; i < res->n_rows; i++) {
            const struct clb_gemm_row *row = &res->rows[i];
            if (row->precision != p || row->status != CLB_ROW_OK ||
                clb_gemm_flops(row->shape) != largest)
                continue;
            if (!best || row->gflops > best->gflops)
                best = row;
            if (row->backend == res->baseline)
                base = row;
            else if (!best_dev || row->gflops > best_dev->gflops)
                best_dev = row;
        }
        if (!best)
            continue;
        char dev[160], shape[128], gf[32], bgf[32];
        row_shape_label(best, shape, sizeof(shape));
        clb_device_label(best->device, dev, sizeof(dev));
        clb_format_flops(best->gflops, gf, sizeof(gf));
        fprintf(out, "fastest %s at %s: %s (%s), %s", clb_precision_name(p), shape, dev,
                best->backend_name, gf);
        if (base && best != base) {
            clb_format_flops(base->gflops, bgf, sizeof(bgf));
            fprintf(out, ", %.1fx the CPU baseline (%s %s)\n", best->speedup,
                    base->backend_name, bgf);
        } else if (base && best_dev) {
            clb_device_label(best_dev->device, dev, sizeof(dev));
            clb_format_flops(best_dev->gflops, gf, sizeof(gf));
            fprintf(out, " (the CPU baseline); best OpenCL device: %s (%s), %s, %.2fx the "
                         "baseline\n", dev, best_dev->backend_name, gf, best_dev->speedup);
        } else {
            fputc('\n', out);
        }
        const struct clb_gemm_row *dev_row = best->device ? best : best_dev;
        char peak[32];
        if (dev_row && dev_row->device_peak_gflops > 0) {
            clb_format_flops(dev_row->device_peak_gflops, peak, sizeof(peak));
            fprintf(out, "%s %s on %s reached %.0f%% of this device's measured peak (%s)\n",
                    dev_row->backend_name, clb_precision_name(p),
                    clb_device_str(dev_row->device, CLB_PROP_NAME),
                    100.0 * dev_row->gflops / dev_row->device_peak_gflops, peak);
        }
        char what[200];
        if (dev_row && dev_row->datasheet.value > 0) {
            clb_format_flops(dev_row->datasheet.value, peak, sizeof(peak));
            clb_datasheet_what(&dev_row->datasheet, what, sizeof(what));
            fprintf(out, "%s %s on %s reached %.1f%% of %s (%s)\n", dev_row->backend_name,
                    clb_precision_name(p), clb_device_str(dev_row->device, CLB_PROP_NAME),
                    100.0 * dev_row->gflops / dev_row->datasheet.value, what, peak);
        }
        if (base && base->host_peak_gflops > 0) {
            clb_format_flops(base->host_peak_gflops, peak, sizeof(peak));
            fprintf(out, "%s %s reached %.0f%% of the host CPU's own FMA peak (%s)\n",
                    base->backend_name, clb_precision_name(p),
                    100.0 * base->gflops / base->host_peak_gflops, peak);
        }
        if (base && base->datasheet.value > 0) {
            clb_format_flops(base->datasheet.value, peak, sizeof(peak));
            clb_datasheet_what(&base->datasheet, what, sizeof(what));
            fprintf(out, "%s %s reached %.1f%% of %s (%s)\n", base->backend_name,
                    clb_precision_name(p), 100.0 * base->gflops / base->datasheet.value, what,
                    peak);
        }
    }
}

static json_t *stats_json(const struct clb_stats *s)
{
    return json_pack("{s:I, s:f, s:f, s:f, s:f, s:f}", "n", (json_int_t)s->n, "median_s",
                     s->median, "min_s", s->min, "max_s", s->max, "mean_s", s->mean, "cv",
                     s->cv);
}

/* JSON has no Inf or NaN: a non-finite figure is written as null. */
static json_t *real_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* The row's "config": what must match for another run's figure to be comparable. */
static json_t *config_json(const struct clb_gemm_row *row, const struct clb_gemm_options *opt,
                           const struct clb_run_record *rec)
{
    json_t *c = json_pack("{s:b, s:f, s:f, s:b}", "tuned", row->tuned, "alpha", opt->alpha,
                          "beta", opt->beta, "transfers", opt->transfers);
    const struct clb_library_info *lib = clb_run_record_library(rec, row->backend->name);

    /* Parameters tuned at another size are another configuration. */
    if (c && row->tuned)
        json_object_set_new(c, "tuned_at", json_integer((json_int_t)row->tuned_at));
    /* So is another mode; the default is no key, as in files from before modes. */
    if (c && !clb_gemm_mode_is_default(&row->mode)) {
        json_object_set_new(c, "trans", json_string(clb_gemm_mode_trans(&row->mode)));
        json_object_set_new(c, "layout", json_string(clb_gemm_mode_layout(&row->mode)));
        json_object_set_new(c, "ld_pad", json_integer((json_int_t)row->mode.ld_pad));
        json_object_set_new(c, "offset", json_integer((json_int_t)row->mode.offset));
    }
    if (c && !row->device && lib) {
        const struct clb_field *threads = clb_library_field(lib, "threads");
        const struct clb_field *core = clb_library_field(lib, "core");
        if (threads && threads->type == CLB_FIELD_INT)
            json_object_set_new(c, "threads", json_integer((json_int_t)threads->i));
        if (core && core->type == CLB_FIELD_STRING)
            json_object_set_new(c, "blas_core", json_string(core->str));
    }
    return c;
}

static json_t *row_json(const struct clb_gemm_row *row, const struct clb_gemm_results *res,
                        const struct clb_gemm_options *opt, const struct clb_run_record *rec)
{
    char id[32];
    json_t *o = json_object(), *times = json_array();

    if (!o || !times) {
        json_decref(o);
        json_decref(times);
        return NULL;
    }
    clb_device_id(row->device, id, sizeof(id));
    char case_[160], shape[128];
    row_shape_label(row, shape, sizeof(shape));
    snprintf(case_, sizeof(case_), "%s %s", clb_precision_name(row->precision), shape);
    json_object_set_new(o, "benchmark", json_string("gemm"));
    json_object_set_new(o, "case", json_string(case_));
    json_object_set_new(o, "metric", json_string("gflops"));
    json_object_set_new(o, "device", json_string(id));
    json_object_set_new(o, "device_name",
                        json_string(row->device ? clb_device_str(row->device, CLB_PROP_NAME)
                                                : "host CPU"));
    json_object_set_new(o, "backend", json_string(row->backend_name));
    if (row->role.role) {
        json_object_set_new(o, "role", json_string(row->role.role));
        json_object_set_new(o, "phase", json_string(row->role.phase));
        json_object_set_new(o, "per_layer", json_integer(row->role.per_layer));
    }
    json_object_set_new(o, "tuned", json_boolean(row->tuned));
    json_object_set_new(o, "tuned_at", row->tuned ? json_integer((json_int_t)row->tuned_at)
                                                   : json_null());
    json_object_set_new(o, "tuning_note",
                        row->tuning_note[0] ? json_string(row->tuning_note) : json_null());
    json_object_set_new(o, "kernel", row->kernel[0] ? json_string(row->kernel) : json_null());
    json_object_set_new(o, "baseline", json_boolean(row->backend == res->baseline));
    json_object_set_new(o, "config", config_json(row, opt, rec));
    json_object_set_new(o, "precision", json_string(clb_precision_name(row->precision)));
    json_object_set_new(o, "m", json_integer((json_int_t)row->shape.m));
    json_object_set_new(o, "n", json_integer((json_int_t)row->shape.n));
    json_object_set_new(o, "k", json_integer((json_int_t)row->shape.k));
    uint64_t ld[3];
    row_lds(row, ld);
    json_object_set_new(o, "trans", json_string(clb_gemm_mode_trans(&row->mode)));
    json_object_set_new(o, "layout", json_string(clb_gemm_mode_layout(&row->mode)));
    json_object_set_new(o, "lda", json_integer((json_int_t)ld[0]));
    json_object_set_new(o, "ldb", json_integer((json_int_t)ld[1]));
    json_object_set_new(o, "ldc", json_integer((json_int_t)ld[2]));
    json_object_set_new(o, "offset", json_integer((json_int_t)row->mode.offset));
    json_object_set_new(o, "flops", json_real(clb_gemm_flops(row->shape)));
    json_object_set_new(o, "status", json_string(clb_row_status_name(row->status)));
    json_object_set_new(o, "reason", row->status == CLB_ROW_OK ? json_null()
                                                                : json_string(row->reason));
    if (row->first_call_s > 0)
        json_object_set_new(o, "first_call_s", json_real(row->first_call_s));
    for (size_t i = 0; i < row->n_times; i++)
        json_array_append_new(times, json_real(row->times_s[i]));
    json_object_set_new(o, "times_s", times);
    if (clb_gemm_row_measured(row)) {
        json_object_set_new(o, "time", stats_json(&row->time_s));
        json_object_set_new(o, "gflops", json_real(row->gflops));
        json_object_set_new(o, "gflops_best", json_real(row->gflops_max));
        json_object_set_new(o, "verified", json_boolean(row->status == CLB_ROW_OK));
    }
    if (row->speedup > 0)
        json_object_set_new(o, "speedup", json_real(row->speedup));
    if (row->status == CLB_ROW_OK && clb_gemm_row_measured(row)) {
        if (row->device_peak_gflops > 0) {
            json_object_set_new(o, "device_peak_gflops", json_real(row->device_peak_gflops));
            json_object_set_new(o, "percent_of_device_peak",
                                json_real(100.0 * row->gflops / row->device_peak_gflops));
        }
        if (row->host_peak_gflops > 0) {
            json_object_set_new(o, "host_peak_gflops", json_real(row->host_peak_gflops));
            json_object_set_new(o, "percent_of_host_peak",
                                json_real(100.0 * row->gflops / row->host_peak_gflops));
        }
        if (row->datasheet.value > 0)
            json_object_set_new(o, clb_datasheet_ref_key(&row->datasheet),
                                clb_datasheet_ref_json(&row->datasheet, row->gflops,
                                                       row->status == CLB_ROW_OK));
        /* Which statistic of the peak rows these limits are: the fastest verified call. */
        if (row->device_peak_gflops > 0 || row->host_peak_gflops > 0)
            json_object_set_new(o, "peak_stat", json_string("best"));
        if (row->device_peak_gflops > 0 || row->host_peak_gflops > 0)
            json_object_set_new(o, "above_peak",
                                json_boolean((row->device_peak_gflops > 0 &&
                                              row->gflops > row->device_peak_gflops) ||
                                             (row->host_peak_gflops > 0 &&
                                              row->gflops > row->host_peak_gflops)));
    }
    if (row->n_verified)
        json_object_set_new(
            o, "verify",
            json_pack("{s:b, s:s, s:o, s:o, s:o, s:o, s:o, s:I, s:I}", "passed",
                      row->verify.passed, "method", clb_verify_method_name(row->verify.method),
                      "max_abs_err", real_or_null(row->verify.max_abs_err), "rel_err",
                      real_or_null(row->verify.rel_err), "noise_ratio",
                      real_or_null(row->verify.noise_ratio), "worst_ratio",
                      real_or_null(row->verify.worst_ratio), "failed_check",
                      row->verify.passed ? json_null() : json_string(row->verify.failed),
                      "checked_entries", (json_int_t)row->verify.checked, "results_checked",
                      (json_int_t)row->n_verified));
    if (row->e2e_s.n) {
        json_t *e = stats_json(&row->e2e_s);
        if (row->status == CLB_ROW_OK)
            json_object_set_new(e, "gflops", json_real(row->e2e_gflops));
        json_object_set_new(o, "end_to_end", e);
    }
    return o;
}

static json_t *report_json(const struct clb_gemm_report *r)
{
    const struct clb_gemm_options *opt = r->options;
    json_t *root = clb_result_doc_create(r->meta, r->devices,
                                         r->n_devices);
    json_t *rows = json_array();

    if (!root || !rows)
        goto oom;
    if (r->micro && clb_micro_rows_json(r->micro, rows))
        goto oom;
    json_object_set_new(root, "options",
                        json_pack("{s:I, s:I, s:f, s:I, s:I, s:f, s:f, s:b}", "runs",
                                  (json_int_t)opt->runs, "warmup", (json_int_t)opt->warmup,
                                  "min_time_s", opt->min_time_s, "host_threads",
                                  (json_int_t)r->results->host_threads, "seed",
                                  (json_int_t)opt->seed, "alpha", opt->alpha, "beta",
                                  opt->beta, "transfers", opt->transfers));
    if (r->shapes) {
        json_t *o = json_object_get(root, "options");
        json_object_set_new(o, "shapes", json_string(r->shapes));
        json_object_set_new(o, "context", json_integer((json_int_t)r->context));
        json_object_set_new(o, "batch", json_integer((json_int_t)r->batch));
    }
    for (size_t i = 0; i < r->results->n_rows; i++) {
        json_t *row = row_json(&r->results->rows[i], r->results, opt, r->meta->record);
        if (!row)
            goto oom;
        json_array_append_new(rows, row);
    }
    json_object_set_new(root, "results", rows);
    return root;
oom:
    json_decref(root);
    json_decref(rows);
    return NULL;
}

static int write_json(FILE *out, const struct clb_gemm_report *r)
{
    json_t *root = report_json(r);
    int rc = root && json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0 ? 0 : -1;

    fputc('\n', out);
    json_decref(root);
    return rc;
}

static int write_csv(FILE *out, const struct clb_gemm_report *r)
{
    fputs("device,device_name,backend,precision,m,n,k,status,first_call_s,median_s,min_s,"
          "max_s,cv,gflops,speedup,verified,max_abs_err,rel_err,e2e_median_s,reason,trans,layout,"
          "lda,ldb,ldc,offset\n",
          out);
    for (size_t i = 0; i < r->results->n_rows; i++) {
        const struct clb_gemm_row *row = &r->results->rows[i];
        const bool m = clb_gemm_row_measured(row);
        if (row->device)
            fprintf(out, "%u:%u,", row->device->platform_index, row->device->device_index);
        else
            fputs("host,", out);
        clb_csv_field(out, row->device ? clb_device_str(row->device, CLB_PROP_NAME) : "host CPU");
        fprintf(out, ",%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s,", row->backend_name,
                clb_precision_name(row->precision), row->shape.m, row->shape.n, row->shape.k,
                clb_row_status_name(row->status));
        if (row->first_call_s > 0)
            fprintf(out, "%.9g", row->first_call_s);
        if (m)
            fprintf(out, ",%.9g,%.9g,%.9g,%.4g,%.6g,", row->time_s.median, row->time_s.min,
                    row->time_s.max, row->time_s.cv, row->gflops);
        else
            fputs(",,,,,,", out);
        if (row->speedup > 0)
            fprintf(out, "%.4g", row->speedup);
        fprintf(out, ",%s,", m ? (row->status == CLB_ROW_OK ? "true" : "false") : "");
        if (row->n_verified)
            fprintf(out, "%.4g,%.4g", row->verify.max_abs_err, row->verify.rel_err);
        else
            fputc(',', out);
        fputc(',', out);
        if (row->e2e_s.n)
            fprintf(out, "%.9g", row->e2e_s.median);
        fputc(',', out);
        clb_csv_field(out, row->status == CLB_ROW_OK ? "" : row->reason);
        uint64_t ld[3];
        row_lds(row, ld);
        fprintf(out, ",%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
                clb_gemm_mode_trans(&row->mode), clb_gemm_mode_layout(&row->mode), ld[0], ld[1],
                ld[2], row->mode.offset);
    }
    return 0;
}

int clb_gemm_write(FILE *out, enum clb_format fmt, const struct clb_gemm_report *r)
{
    switch (fmt) {
    case CLB_FORMAT_JSON:
        return write_json(out, r);
    case CLB_FORMAT_CSV:
        return write_csv(out, r);
    case CLB_FORMAT_TABLE:
        break;
    }
    if (r->show_micro && r->micro && r->micro->n_rows) {
        if (clb_micro_write_table(out, r->micro, false))
            return -1;
        fputc('\n', out);
    }
    if (write_table(out, r))
        return -1;
    fputc('\n', out);
    clb_result_libraries_text(out, r->meta->record);
    write_summary(out, r);
    if (r->results->interrupted)
        fprintf(out, "interrupted: the results above are what was measured before the signal\n");
    return 0;
}
