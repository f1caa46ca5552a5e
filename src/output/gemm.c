#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/output/devices.h"
#include "clbench/output/gemm.h"
#include "clbench/output/micro.h"
#include "clbench/output/table.h"
#include "clbench/util/units.h"
#include "gemm_internal.h"

static void shape_label(struct clb_gemm_shape s, char *buf, size_t len)
{
    snprintf(buf, len, "%" PRIu64 "x%" PRIu64 "x%" PRIu64, s.m, s.n, s.k);
}

void clb_gemm_row_label(const struct clb_row *row, char *buf, size_t len)
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
static void row_lds(const struct clb_row *row, uint64_t ld[3])
{
    for (int w = CLB_GEMM_A; w <= CLB_GEMM_C; w++) {
        struct clb_gemm_matrix_layout l;
        clb_gemm_layout(&row->mode, row->shape, (enum clb_gemm_matrix)w, &l);
        ld[w] = l.ld;
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
static json_t *config_json(const struct clb_row *row, const struct clb_gemm_options *opt,
                           const struct clb_run_record *rec)
{
    json_t *c = json_pack("{s:b, s:f, s:f, s:b}", "tuned", row->tuned, "alpha", opt->alpha,
                          "beta", opt->beta, "transfers", opt->transfers);
    const struct clb_library_info *lib = clb_run_record_library(rec, row->backend_ops->name);

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

/* Who measured what: the row's identity, its backend and tuning, and its config. */
static void identity_json(json_t *o, const struct clb_row *row,
                          const struct clb_gemm_results *res, const struct clb_gemm_options *opt,
                          const struct clb_run_record *rec)
{
    char case_[160], shape[128];

    clb_gemm_row_label(row, shape, sizeof(shape));
    snprintf(case_, sizeof(case_), "%s %s", clb_precision_name(row->precision), shape);
    clb_row_envelope_json(o, CLB_BENCH_GEMM, case_, "gflops", row->device, row->backend);
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
    if (row->code_path)
        json_object_set_new(o, "code_path", json_string(row->code_path));
    json_object_set_new(o, "baseline", json_boolean(row->backend_ops == res->baseline));
    json_object_set_new(o, "config", config_json(row, opt, rec));
}

/* The problem: precision, shape, mode and leading dimensions, and its flops. */
static void problem_json(json_t *o, const struct clb_row *row)
{
    uint64_t ld[3];

    json_object_set_new(o, "precision", json_string(clb_precision_name(row->precision)));
    json_object_set_new(o, "m", json_integer((json_int_t)row->shape.m));
    json_object_set_new(o, "n", json_integer((json_int_t)row->shape.n));
    json_object_set_new(o, "k", json_integer((json_int_t)row->shape.k));
    row_lds(row, ld);
    json_object_set_new(o, "trans", json_string(clb_gemm_mode_trans(&row->mode)));
    json_object_set_new(o, "layout", json_string(clb_gemm_mode_layout(&row->mode)));
    json_object_set_new(o, "lda", json_integer((json_int_t)ld[0]));
    json_object_set_new(o, "ldb", json_integer((json_int_t)ld[1]));
    json_object_set_new(o, "ldc", json_integer((json_int_t)ld[2]));
    json_object_set_new(o, "offset", json_integer((json_int_t)row->mode.offset));
    json_object_set_new(o, "flops", json_real(clb_gemm_flops(row->shape)));
}

/* Status, every timed call (times: the row's new array, taken) and the figures from them. */
static void figures_json(json_t *o, const struct clb_row *row, json_t *times)
{
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
}

/* A verified figure held against the measured peaks and the vendor's figure. */
static void limits_json(json_t *o, const struct clb_row *row)
{
    if (row->status != CLB_ROW_OK || !clb_gemm_row_measured(row))
        return;
    if (row->device_peak_gflops > 0) {
        json_object_set_new(o, "device_peak_gflops", json_real(row->device_peak_gflops));
        if (row->device_peak_partial)
            json_object_set_new(o, "device_peak_partial", json_true());
        json_object_set_new(o, "percent_of_device_peak",
                            json_real(100.0 * row->gflops / row->device_peak_gflops));
    }
    if (row->host_peak_gflops > 0) {
        json_object_set_new(o, "host_peak_gflops", json_real(row->host_peak_gflops));
        json_object_set_new(o, "host_peak_isa", json_string(row->host_peak_isa));
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

static json_t *verify_json(const struct clb_row *row)
{
    return json_pack("{s:b, s:s, s:o, s:o, s:o, s:o, s:o, s:I, s:I}", "passed",
                     row->verify.passed, "method", clb_verify_method_name(row->verify.method),
                     "max_abs_err", real_or_null(row->verify.max_abs_err), "rel_err",
                     real_or_null(row->verify.rel_err), "noise_ratio",
                     real_or_null(row->verify.noise_ratio), "worst_ratio",
                     real_or_null(row->verify.worst_ratio), "failed_check",
                     row->verify.passed ? json_null() : json_string(row->verify.failed),
                     "checked_entries", (json_int_t)row->verify.checked, "results_checked",
                     (json_int_t)row->n_verified);
}

static json_t *row_json(const struct clb_row *row, const struct clb_gemm_results *res,
                        const struct clb_gemm_options *opt, const struct clb_run_record *rec)
{
    json_t *o = json_object(), *times = json_array();

    if (!o || !times) {
        json_decref(o);
        json_decref(times);
        return NULL;
    }
    identity_json(o, row, res, opt, rec);
    problem_json(o, row);
    figures_json(o, row, times);
    if (row->baseline_handicapped)
        json_object_set_new(o, "baseline_handicap", json_string(res->baseline_handicap));
    limits_json(o, row);
    if (row->n_verified)
        json_object_set_new(o, "verify", verify_json(row));
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
        const struct clb_row *row = &r->results->rows[i];
        const bool m = clb_gemm_row_measured(row);
        if (row->device)
            fprintf(out, "%u:%u,", row->device->platform_index, row->device->device_index);
        else
            fputs("host,", out);
        clb_csv_field(out, row->device ? clb_device_str(row->device, CLB_PROP_NAME) : "host CPU");
        fprintf(out, ",%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s,", row->backend,
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
    return clb_gemm_write_text(out, r);
}
