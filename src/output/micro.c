#include <inttypes.h>
#include <string.h>

#include "clbench/output/devices.h"
#include "clbench/output/micro.h"
#include "clbench/output/table.h"
#include "clbench/util/units.h"
#include "micro_internal.h"

bool clb_micro_row_shown(const struct clb_row *row, bool verbose)
{
    return verbose || row->benchmark != CLB_BENCH_PEAK || row->headline;
}

void clb_micro_resident_why(const struct clb_row *r, char *buf, size_t len)
{
    char a[32], all[32], llc[32];

    clb_format_bytes(r->array_bytes, a, sizeof(a));
    clb_format_bytes(3 * r->array_bytes, all, sizeof(all));
    clb_format_bytes(r->llc_bytes, llc, sizeof(llc));
    snprintf(buf, len, "arrays 3 x %s = %s <= LLC %s", a, all, llc);
}

/* The row's "config": what must match for another run's figure to be comparable. */
static json_t *config_json(const struct clb_row *row, bool measured)
{
    if (row->ranks)
        return json_pack("{s:i, s:s, s:f}", "ranks", row->ranks, "buffers",
                         row->device ? "device" : "host", "bytes_per_call", row->work);
    json_t *c = json_object();
    if (row->benchmark == CLB_BENCH_PEAK && row->width)
        json_object_set_new(c, "width", json_integer((json_int_t)row->width));
    if (row->benchmark == CLB_BENCH_BANDWIDTH && measured && row->work > 0)
        json_object_set_new(c, "bytes_per_call", json_real(row->work));
    /* A headline of another statistic is another figure (absent: the median). */
    if (row->stat_best)
        json_object_set_new(c, "stat", json_string("best"));
    return c;
}

/* A row's launch, what its work_per_call counts (clbench/bench/micro.h). */
static json_t *launch_json(const struct clb_row *row)
{
    const struct clb_micro_launch *l = &row->launch;
    json_t *j = json_object();

    json_object_set_new(j, row->device ? "global_size" : "threads",
                        json_integer((json_int_t)l->global_size));
    const bool peak = row->device && row->benchmark == CLB_BENCH_PEAK;
    if (peak || row->benchmark == CLB_BENCH_BANDWIDTH)
        json_object_set_new(j, "local_size", l->local_size
                                                 ? json_integer((json_int_t)l->local_size)
                                                 : json_null());
    if (peak && l->local_size) {
        json_object_set_new(j, "work_groups",
                            json_integer((json_int_t)(l->global_size / l->local_size)));
        json_object_set_new(j, "fills_device", json_boolean(l->fills_device));
    }
    if (l->elements)
        json_object_set_new(j, "elements", json_integer((json_int_t)l->elements));
    if (l->rounds)
        json_object_set_new(j, "rounds", json_integer((json_int_t)l->rounds));
    if (l->chains) {
        json_object_set_new(j, "width", json_integer(l->width));
        json_object_set_new(j, "chains", json_integer(l->chains));
    }
    if (row->device && l->options[0])
        json_object_set_new(j, "build_options", json_string(l->options));
    return j;
}

/*
 * Which clock the figures are from, and the other clock's calls beside them: host_times_s
 * and host_gbps (empty and null where the host's clock is the headline's), device_times_s
 * and device_gbps where the device's is the other one (a CPU device on the host's clock).
 */
static void timer_json(json_t *o, const struct clb_row *row)
{
    json_object_set_new(o, "timer", json_string(row->timer));
    json_object_set_new(o, "timer_why", row->timer_why[0]
                                            ? json_string(row->timer_why)
                                            : json_null());
    /* Only bandwidth keeps a second clock. */
    if (row->benchmark != CLB_BENCH_BANDWIDTH)
        return;

    json_t *alt = json_array();
    for (size_t i = 0; i < row->n_alt_times; i++)
        json_array_append_new(alt, json_real(row->alt_times_s[i]));
    json_t *figure = row->n_alt_times && row->work > 0 ? json_real(row->alt_value) : json_null();
    if (row->alt_timer && !strcmp(row->alt_timer, "device")) {
        json_object_set_new(o, "device_times_s", alt);
        json_object_set_new(o, "device_gbps", figure);
        alt = json_array();
        figure = json_null();
    }
    json_object_set_new(o, "host_times_s", alt);
    json_object_set_new(o, "host_gbps", figure);
}

/* A measured row's figures: its time statistics, headline and both statistics, its launch. */
static void measured_json(json_t *o, const struct clb_row *row)
{
    char key[48];

    json_object_set_new(o, "time", json_pack("{s:I, s:f, s:f, s:f, s:f, s:f}", "n",
                                             (json_int_t)row->time_s.n, "median_s",
                                             row->time_s.median, "min_s", row->time_s.min,
                                             "max_s", row->time_s.max, "mean_s",
                                             row->time_s.mean, "cv", row->time_s.cv));
    json_object_set_new(o, row->metric, json_real(row->value));
    json_object_set_new(o, "stat", json_string(row->stat_best ? "best" : "median"));
    snprintf(key, sizeof(key), "%s_best", row->metric);
    json_object_set_new(o, key, json_real(row->best));
    snprintf(key, sizeof(key), "%s_median", row->metric);
    json_object_set_new(o, key, json_real(row->median));
    if (row->work > 0)
        json_object_set_new(o, "work_per_call", json_real(row->work));
    if (row->launch.global_size)
        json_object_set_new(o, "launch", launch_json(row));
    if (row->ranks) {
        json_object_set_new(o, "algbw_gbps", json_real(row->algbw));
        json_object_set_new(o, "path_median_s", row->path_median_s > 0
                                                    ? json_real(row->path_median_s)
                                                    : json_null());
    }
    if (row->timer)
        timer_json(o, row);
    json_object_set_new(o, "verified", json_boolean(row->status == CLB_ROW_OK));
    json_object_set_new(o, "check", json_string(row->check));
    if (row->clock_ghz > 0)
        json_object_set_new(o, "clock", json_pack("{s:f, s:f}", "ghz", row->clock_ghz,
                                                  "under_fma", row->clock_under_fma));
}

/* The limit the figure is held against, and the arrays and cache that decide which. */
static void limits_json(json_t *o, const struct clb_row *row, bool measured)
{
    if (row->datasheet.value > 0)
        json_object_set_new(o, clb_datasheet_ref_key(&row->datasheet),
                            clb_datasheet_ref_json(&row->datasheet, row->value,
                                                   measured && row->status == CLB_ROW_OK));
    if (row->code_path)
        json_object_set_new(o, "code_path", json_string(row->code_path));
    if (row->kernel[0])
        json_object_set_new(o, "kernel", json_string(row->kernel));
    if (row->array_bytes) {
        json_object_set_new(o, "array_bytes", json_integer((json_int_t)row->array_bytes));
        json_object_set_new(o, "llc_bytes", row->llc_bytes
                                                ? json_integer((json_int_t)row->llc_bytes)
                                                : json_null());
        json_object_set_new(o, "cache_resident", json_boolean(row->cache_resident));
    }
    if (row->datasheet_withheld) {
        char why[160], text[180];
        clb_micro_resident_why(row, why, sizeof(why));
        snprintf(text, sizeof(text), "cache-resident: %s", why);
        json_object_set_new(o, "datasheet_withheld", json_string(text));
    }
}

static json_t *row_json(const struct clb_row *row)
{
    json_t *o = json_object(), *times = json_array();
    const bool measured = row->n_times && (row->status == CLB_ROW_OK ||
                                           row->status == CLB_ROW_FAILED);

    clb_row_envelope_json(o, row->benchmark, row->case_, row->metric, row->device,
                          row->backend[0] ? row->backend : "clbench");
    json_object_set_new(o, "baseline", json_false());
    json_object_set_new(o, "config", config_json(row, measured));
    if (row->precision != CLB_PRECISION_NONE)
        json_object_set_new(o, "precision", json_string(clb_precision_name(row->precision)));
    if (row->ranks)
        json_object_set_new(o, "ranks", json_integer(row->ranks));
    if (row->width) {
        json_object_set_new(o, "width", json_integer(row->width));
        json_object_set_new(o, "headline", json_boolean(row->headline));
    }
    json_object_set_new(o, "status", json_string(clb_row_status_name(row->status)));
    json_object_set_new(o, "reason", row->status == CLB_ROW_OK ? json_null()
                                                                : json_string(row->reason));
    for (size_t i = 0; i < row->n_times; i++)
        json_array_append_new(times, json_real(row->times_s[i]));
    json_object_set_new(o, "times_s", times);
    if (measured)
        measured_json(o, row);
    limits_json(o, row, measured);
    return o;
}

int clb_micro_rows_json(const struct clb_micro_results *res, json_t *results)
{
    for (size_t i = 0; i < res->n_rows; i++) {
        json_t *o = row_json(&res->rows[i]);
        if (!o || json_array_append_new(results, o))
            return -1;
    }
    return 0;
}

static int write_json(FILE *out, const struct clb_micro_report *r)
{
    json_t *root = clb_result_doc_create(r->meta, r->devices, r->n_devices);
    json_t *rows = json_array();
    int rc = -1;

    if (root && rows && clb_micro_rows_json(r->results, rows) == 0) {
        json_object_set_new(root, "options", json_pack("{s:I}", "runs", (json_int_t)r->runs));
        json_object_set(root, "results", rows);
        rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0 ? 0 : -1;
        fputc('\n', out);
    }
    json_decref(rows);
    json_decref(root);
    return rc;
}

static int write_csv(FILE *out, const struct clb_micro_report *r)
{
    fputs("device,device_name,benchmark,case,metric,status,value,stat,best,median,calls,median_s,"
          "min_s,max_s,cv,reason,timer,host_value\n", out);
    for (size_t i = 0; i < r->results->n_rows; i++) {
        const struct clb_row *row = &r->results->rows[i];
        if (!clb_micro_row_shown(row, r->verbose))
            continue;
        char id[32];
        clb_device_id(row->device, id, sizeof(id));
        fprintf(out, "%s,", id);
        clb_csv_field(out, row->device ? clb_device_str(row->device, CLB_PROP_NAME) : "host CPU");
        fprintf(out, ",%s,", clb_benchmark_name(row->benchmark));
        clb_csv_field(out, row->case_);
        fprintf(out, ",%s,%s,", row->metric, clb_row_status_name(row->status));
        if (row->n_times)
            fprintf(out, "%.6g,%s,%.6g,%.6g,%zu,%.9g,%.9g,%.9g,%.4g,", row->value,
                    row->stat_best ? "best" : "median", row->best, row->median, row->n_times,
                    row->time_s.median, row->time_s.min, row->time_s.max, row->time_s.cv);
        else
            fputs(",,,,,,,,,", out);
        clb_csv_field(out, row->status == CLB_ROW_OK ? "" : row->reason);
        /* bandwidth: the clock of the figures, and the host clock's figure beside them. */
        fprintf(out, ",%s,", row->n_times && row->timer ? row->timer : "");
        if (row->n_times && row->n_alt_times && !strcmp(row->alt_timer, "host"))
            fprintf(out, "%.6g", row->alt_value);
        fputc('\n', out);
    }
    return 0;
}

int clb_micro_write(FILE *out, enum clb_format fmt, const struct clb_micro_report *r)
{
    if (fmt == CLB_FORMAT_JSON)
        return write_json(out, r);
    if (fmt == CLB_FORMAT_CSV)
        return write_csv(out, r);
    if (r->collective)
        return clb_micro_write_collective(out, r->results);
    return clb_micro_write_text(out, r->results, r->verbose, r->host_time);
}