#include <inttypes.h>
#include <string.h>

#include "clbench/output/devices.h"
#include "clbench/results/sweep.h"
#include "clbench/output/micro.h"
#include "clbench/output/table.h"
#include "clbench/util/units.h"

static bool shown(const struct clb_micro_row *row, bool verbose)
{
    return verbose || strcmp(row->benchmark, "peak") || row->headline;
}

/* Under the table: which vendor figure each "% DATASHEET" is of, once each. */
static void datasheet_notes(FILE *out, const struct clb_micro_results *res, bool verbose)
{
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_micro_row *r = &res->rows[i];
        bool seen = !r->datasheet.value || !shown(r, verbose);
        for (size_t j = 0; j < i && !seen; j++)
            seen = res->rows[j].datasheet.value && shown(&res->rows[j], verbose) &&
                   res->rows[j].datasheet.figure == r->datasheet.figure &&
                   res->rows[j].datasheet.name == r->datasheet.name &&
                   res->rows[j].datasheet.value == r->datasheet.value;
        if (seen)
            continue;
        char v[48];
        clb_format_metric(r->metric, r->datasheet.value, v, sizeof(v));
        clb_datasheet_note(out, &r->datasheet, v);
    }
}

/* "arrays 3 x 64 KiB = 192 KiB <= LLC 1 MiB": why a row has no % of DRAM. */
static void resident_why(const struct clb_micro_row *r, char *buf, size_t len)
{
    char a[32], all[32], llc[32];

    clb_format_bytes(r->array_bytes, a, sizeof(a));
    clb_format_bytes(3 * r->array_bytes, all, sizeof(all));
    clb_format_bytes(r->llc_bytes, llc, sizeof(llc));
    snprintf(buf, len, "arrays 3 x %s = %s <= LLC %s", a, all, llc);
}

/*
 * Under the table: why cache-resident rows have no % of the memory figure
 * (once per device and size), and where a device's cache size is not known
 * (once per device), that its rows are held against DRAM whatever their size.
 */
static void cache_notes(FILE *out, const struct clb_micro_results *res)
{
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_micro_row *r = &res->rows[i];
        const bool unknown = r->array_bytes && !r->llc_bytes && r->datasheet.value > 0;
        if (!r->datasheet_withheld && !unknown)
            continue;
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++) {
            const struct clb_micro_row *q = &res->rows[j];
            seen = q->device == r->device &&
                   (unknown ? q->array_bytes && !q->llc_bytes && q->datasheet.value > 0
                            : q->datasheet_withheld && q->array_bytes == r->array_bytes);
        }
        if (seen)
            continue;
        char dev[160], why[160];
        clb_device_label(r->device, dev, sizeof(dev));
        if (unknown) {
            fprintf(out, "%% DATASHEET of memory on %s: its last-level cache size is not known, "
                         "so every size is held against DRAM's figure\n", dev);
            continue;
        }
        resident_why(r, why, sizeof(why));
        fprintf(out, "in cache: %s on %s, so no %% of DRAM's datasheet figure (they ran "
                     "from the cache)\n", why, dev);
    }
}

static bool sweep_triad(const struct clb_micro_row *r)
{
    return !strcmp(r->benchmark, "bandwidth") && r->status == CLB_ROW_OK && r->n_times &&
           r->precision && strstr(r->case_, " triad ") && r->work > 0;
}

/*
 * Under a --sizes sweep: per device and precision, the largest array size
 * whose triad still runs at 1.5x or more of the largest size's (caches
 * helping), and the next size (where they stop).
 */
static void sweep_notes(FILE *out, const struct clb_micro_results *res)
{
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_micro_row *r = &res->rows[i], *group[64];
        double work[64], value[64];
        size_t n = 0, big, cached, after;
        bool first = sweep_triad(r);
        for (size_t j = 0; j < i && first; j++)
            first = !(sweep_triad(&res->rows[j]) && res->rows[j].device == r->device &&
                      !strcmp(res->rows[j].precision, r->precision));
        if (!first)
            continue;
        for (size_t j = i; j < res->n_rows && n < 64; j++) {
            const struct clb_micro_row *q = &res->rows[j];
            if (sweep_triad(q) && q->device == r->device && !strcmp(q->precision, r->precision)) {
                group[n] = q;
                work[n] = q->work;
                value[n++] = q->value;
            }
        }
        const bool found = clb_sweep_cache_edge(work, value, n, &big, &cached, &after);
        char dev[160], a[32], b[32], va[48], vb[48];
        clb_device_label(r->device, dev, sizeof(dev));
        clb_format_bytes((uint64_t)(work[big] / 3), b, sizeof(b));
        clb_format_metric(group[big]->metric, value[big], vb, sizeof(vb));
        if (!found) {
            fprintf(out, "SWEEP: %s %s triad: no size ran 1.5x faster than %s arrays (%s)\n",
                    dev, r->precision, b, vb);
            continue;
        }
        clb_format_bytes((uint64_t)(work[cached] / 3), a, sizeof(a));
        clb_format_metric(group[cached]->metric, value[cached], va, sizeof(va));
        clb_format_bytes((uint64_t)(work[after] / 3), b, sizeof(b));
        clb_format_metric(group[after]->metric, value[after], vb, sizeof(vb));
        fprintf(out, "SWEEP: %s %s triad: caches help up to %s arrays (%s) and stop by %s (%s)\n",
                dev, r->precision, a, va, b, vb);
    }
}

/*
 * Under the table: which clock the figures are from, where a row says (bandwidth), and
 * why a row fell back to the host's (once per reason and device).
 */
static void clock_notes(FILE *out, const struct clb_micro_results *res, bool verbose,
                        bool host_time)
{
    bool any = false;
    for (size_t i = 0; i < res->n_rows; i++)
        any |= res->rows[i].timer && shown(&res->rows[i], verbose);
    if (!any)
        return;
    fprintf(out, "CLOCK: device = each call the kernel's profiling event (START to END); host "
                 "= the host's clock around enqueue + clFinish%s\n",
            host_time ? "; HOST: the same calls on the host's clock, as BabelStream times" : "");
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_micro_row *r = &res->rows[i];
        if (!r->timer || !r->timer_why[0] || !shown(r, verbose))
            continue;
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = res->rows[j].device == r->device && res->rows[j].timer &&
                   !strcmp(res->rows[j].timer_why, r->timer_why);
        if (seen)
            continue;
        char dev[160];
        clb_device_label(r->device, dev, sizeof(dev));
        fprintf(out, "CLOCK host on %s: %s\n", dev, r->timer_why);
    }
}

static int write_table(FILE *out, const struct clb_micro_results *res, bool verbose,
                       bool host_time)
{
    /* The headline's statistic names its column; the other one follows it. */
    const bool best_first = res->n_rows && res->rows[0].stat_best;
    /* A vendor's figure and a derived peak are columns of their own: one or the other a row.
     * Rows that name their clock (bandwidth) get a column saying it. */
    bool datasheet = false, derived = false, above = false, clock = false;
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_micro_row *r = &res->rows[i];
        if (!shown(r, verbose))
            continue;
        datasheet |= (r->datasheet.value > 0 && !r->datasheet.derived) || r->datasheet_withheld;
        derived |= r->datasheet.value > 0 && r->datasheet.derived;
        clock |= r->timer != NULL;
    }
    host_time &= clock;
    const char *head[13] = { "DEVICE", "BENCHMARK", "CASE", best_first ? "BEST" : "MEDIAN",
                             best_first ? "MEDIAN" : "BEST" };
    size_t n_cols = 5;
    if (host_time)
        head[n_cols++] = best_first ? "HOST BEST" : "HOST MEDIAN";
    head[n_cols++] = "MEDIAN TIME";
    const size_t clock_col = n_cols;
    if (clock)
        head[n_cols++] = "CLOCK";
    head[n_cols++] = "CALLS";
    head[n_cols++] = "SPREAD";
    const size_t check_col = n_cols;
    head[n_cols++] = "CHECK";
    if (datasheet)
        head[n_cols++] = "% DATASHEET";
    if (derived)
        head[n_cols++] = "% DERIVED";
    struct clb_table *t = clb_table_create(head, n_cols);

    if (!t)
        return -1;
    for (size_t c = 3; c < check_col; c++)
        if (!clock || c != clock_col)
            clb_table_align_right(t, c);
    for (size_t c = check_col + 1; c < n_cols; c++)
        clb_table_align_right(t, c);
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_micro_row *row = &res->rows[i];
        char dev[160], fig[48] = "", best[48] = "", med[32] = "", calls[24] = "",
             spread[32] = "", check[600], host[48] = "";
        if (!shown(row, verbose))
            continue;
        clb_device_label(row->device, dev, sizeof(dev));
        if (row->n_times && (row->status == CLB_ROW_OK || row->status == CLB_ROW_FAILED)) {
            clb_format_seconds(row->time_s.median, med, sizeof(med));
            snprintf(calls, sizeof(calls), "%zu", row->n_times);
            snprintf(spread, sizeof(spread), "±%.1f%%", row->time_s.cv * 100.0);
        }
        /* A figure from a wrong result means nothing. */
        if (row->n_times && row->status == CLB_ROW_OK) {
            clb_format_metric(row->metric, row->value, fig, sizeof(fig));
            clb_format_metric(row->metric, row->stat_best ? row->median : row->best, best,
                              sizeof(best));
            if (row->n_host_times)
                clb_format_metric(row->metric, row->host_value, host, sizeof(host));
        } else if (row->n_times && row->status == CLB_ROW_FAILED) {
            snprintf(fig, sizeof(fig), "unverified");
        }
        if (row->status == CLB_ROW_OK)
            snprintf(check, sizeof(check), "OK");
        else if (row->status == CLB_ROW_FAILED)
            snprintf(check, sizeof(check), "FAILED: %s", row->reason);
        else
            snprintf(check, sizeof(check), "%s: %s", clb_row_status_name(row->status),
                     row->reason);
        char pct[32] = "";
        if (row->datasheet.value > 0 && row->n_times && row->status == CLB_ROW_OK) {
            /* Above its limit: the limit, not the figure, is wrong for this device. */
            const bool over = row->value > row->datasheet.value;
            snprintf(pct, sizeof(pct), "%.1f%%%s", 100.0 * row->value / row->datasheet.value,
                     over ? " ^" : "");
            above |= over;
        }
        else if (row->datasheet_withheld && row->n_times && row->status == CLB_ROW_OK)
            snprintf(pct, sizeof(pct), "in cache");
        const char *cells[13] = { dev, row->benchmark, row->case_, fig, best };
        size_t c = 5;
        if (host_time)
            cells[c++] = host;
        cells[c++] = med;
        if (clock)
            cells[c++] = row->timer && row->n_times ? row->timer : "";
        cells[c++] = calls;
        cells[c++] = spread;
        cells[c++] = check;
        if (datasheet)
            cells[c++] = row->datasheet.derived ? "" : pct;
        if (derived)
            cells[c++] = row->datasheet.derived ? pct : "";
        if (clb_table_add(t, cells)) {
            clb_table_destroy(t);
            return -1;
        }
    }
    clb_table_print(t, out);
    clb_table_destroy(t);
    datasheet_notes(out, res, verbose);
    bool peaks = false;
    for (size_t i = 0; i < res->n_rows; i++)
        peaks |= !strcmp(res->rows[i].benchmark, "peak") && res->rows[i].status == CLB_ROW_OK &&
                 res->rows[i].n_times && shown(&res->rows[i], verbose);
    if (peaks)
        fputs("BEST: the fastest verified call; as a limit (gemm's % DEV PEAK and % HOST PEAK, "
              "the report's roofline) a peak is its headline width's BEST\n", out);
    if (above)
        fputs("^ above its datasheet figure or derived peak: that limit does not hold here (a "
              "table row or core design that is not this device's, a vendor figure that "
              "leaves out packed or dual-issue math, or a clock measured low)\n", out);
    clock_notes(out, res, verbose, host_time);
    cache_notes(out, res);
    sweep_notes(out, res);
    return 0;
}

int clb_micro_write_table(FILE *out, const struct clb_micro_results *res, bool verbose)
{
    return write_table(out, res, verbose, false);
}

/* Collective rows (clbench/mpi/collective.h): MPI's time, the whole path, algbw, busbw. */
static int write_collective_table(FILE *out, const struct clb_micro_results *res)
{
    static const char *const head[] = { "OPERATION", "RANKS", "BUFFERS", "TIME",  "PATH",
                                        "ALGBW",     "BUSBW", "SPREAD",  "CHECK" };
    struct clb_table *t = clb_table_create(head, 9);

    if (!t)
        return -1;
    for (size_t c = 1; c <= 7; c++)
        clb_table_align_right(t, c);
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_micro_row *row = &res->rows[i];
        char ranks[16], time[32] = "", path[32] = "", alg[32] = "", bus[32] = "",
             spread[32] = "", check[600];
        snprintf(ranks, sizeof(ranks), "%d", row->ranks);
        if (row->n_times && (row->status == CLB_ROW_OK || row->status == CLB_ROW_FAILED)) {
            clb_format_seconds(row->time_s.median, time, sizeof(time));
            if (row->path_median_s > 0)
                clb_format_seconds(row->path_median_s, path, sizeof(path));
            snprintf(spread, sizeof(spread), "±%.1f%%", row->time_s.cv * 100.0);
        }
        if (row->n_times && row->status == CLB_ROW_OK) {
            snprintf(alg, sizeof(alg), "%.3g GB/s", row->algbw);
            snprintf(bus, sizeof(bus), "%.3g GB/s", row->value);
        }
        if (row->status == CLB_ROW_OK)
            snprintf(check, sizeof(check), "OK");
        else
            snprintf(check, sizeof(check), "%s: %s", clb_row_status_name(row->status),
                     row->reason);
        const char *cells[] = { row->case_, ranks, row->device ? "device" : "host", time, path,
                                alg, bus, spread, check };
        if (clb_table_add(t, cells)) {
            clb_table_destroy(t);
            return -1;
        }
    }
    clb_table_print(t, out);
    clb_table_destroy(t);
    fputs("TIME: the slowest rank's MPI call (median); PATH: device to host, MPI, host to device; "
          "busbw = algbw x 2(n-1)/n (allreduce), (n-1)/n (allgather, reduce-scatter), 1 "
          "(broadcast, sendrecv), as nccl-tests\n", out);
    return 0;
}

/* The row's "config": what must match for another run's figure to be comparable. */
static json_t *config_json(const struct clb_micro_row *row, bool measured)
{
    if (row->ranks)
        return json_pack("{s:i, s:s, s:f}", "ranks", row->ranks, "buffers",
                         row->device ? "device" : "host", "bytes_per_call", row->work);
    json_t *c = json_object();
    if (!strcmp(row->benchmark, "peak") && row->width)
        json_object_set_new(c, "width", json_integer((json_int_t)row->width));
    if (!strcmp(row->benchmark, "bandwidth") && measured && row->work > 0)
        json_object_set_new(c, "bytes_per_call", json_real(row->work));
    /* A headline of another statistic is another figure (absent: the median). */
    if (row->stat_best)
        json_object_set_new(c, "stat", json_string("best"));
    return c;
}

/* A row's launch, what its work_per_call counts (clbench/bench/micro.h). */
static json_t *launch_json(const struct clb_micro_row *row)
{
    const struct clb_micro_launch *l = &row->launch;
    json_t *j = json_object();

    json_object_set_new(j, row->device ? "global_size" : "threads",
                        json_integer((json_int_t)l->global_size));
    if (!strcmp(row->benchmark, "bandwidth"))
        json_object_set_new(j, "local_size", l->local_size
                                                 ? json_integer((json_int_t)l->local_size)
                                                 : json_null());
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

static json_t *row_json(const struct clb_micro_row *row)
{
    char id[32], best_key[48];
    json_t *o = json_object(), *times = json_array();
    const bool measured = row->n_times && (row->status == CLB_ROW_OK ||
                                           row->status == CLB_ROW_FAILED);

    clb_device_id(row->device, id, sizeof(id));
    json_object_set_new(o, "benchmark", json_string(row->benchmark));
    json_object_set_new(o, "case", json_string(row->case_));
    json_object_set_new(o, "metric", json_string(row->metric));
    json_object_set_new(o, "device", json_string(id));
    json_object_set_new(o, "device_name", json_string(row->device ? clb_device_str(row->device, CLB_PROP_NAME) : "host CPU"));
    json_object_set_new(o, "backend", json_string(row->backend ? row->backend : "clbench"));
    json_object_set_new(o, "baseline", json_false());
    json_object_set_new(o, "config", config_json(row, measured));
    if (row->precision)
        json_object_set_new(o, "precision", json_string(row->precision));
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
    if (measured) {
        json_object_set_new(o, "time", json_pack("{s:I, s:f, s:f, s:f, s:f, s:f}", "n",
                                                 (json_int_t)row->time_s.n, "median_s",
                                                 row->time_s.median, "min_s", row->time_s.min,
                                                 "max_s", row->time_s.max, "mean_s",
                                                 row->time_s.mean, "cv", row->time_s.cv));
        json_object_set_new(o, row->metric, json_real(row->value));
        json_object_set_new(o, "stat", json_string(row->stat_best ? "best" : "median"));
        snprintf(best_key, sizeof(best_key), "%s_best", row->metric);
        json_object_set_new(o, best_key, json_real(row->best));
        snprintf(best_key, sizeof(best_key), "%s_median", row->metric);
        json_object_set_new(o, best_key, json_real(row->median));
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
        if (row->timer) {
            json_t *host = json_array();
            for (size_t i = 0; i < row->n_host_times; i++)
                json_array_append_new(host, json_real(row->host_times_s[i]));
            json_object_set_new(o, "timer", json_string(row->timer));
            json_object_set_new(o, "timer_why", row->timer_why[0]
                                                    ? json_string(row->timer_why)
                                                    : json_null());
            json_object_set_new(o, "host_times_s", host);
            json_object_set_new(o, "host_gbps", row->n_host_times && row->work > 0
                                                    ? json_real(row->host_value)
                                                    : json_null());
        }
        json_object_set_new(o, "verified", json_boolean(row->status == CLB_ROW_OK));
        json_object_set_new(o, "check", json_string(row->check));
        if (row->clock_ghz > 0)
            json_object_set_new(o, "clock", json_pack("{s:f, s:f}", "ghz", row->clock_ghz,
                                                      "under_fma", row->clock_under_fma));
    }
    if (row->datasheet.value > 0)
        json_object_set_new(o, clb_datasheet_ref_key(&row->datasheet),
                            clb_datasheet_ref_json(&row->datasheet, row->value,
                                                   measured && row->status == CLB_ROW_OK));
    if (row->code_path)
        json_object_set_new(o, "code_path", json_string(row->code_path));
    if (row->kernel)
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
        resident_why(row, why, sizeof(why));
        snprintf(text, sizeof(text), "cache-resident: %s", why);
        json_object_set_new(o, "datasheet_withheld", json_string(text));
    }
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
        const struct clb_micro_row *row = &r->results->rows[i];
        if (!shown(row, r->verbose))
            continue;
        char id[32];
        clb_device_id(row->device, id, sizeof(id));
        fprintf(out, "%s,", id);
        clb_csv_field(out, row->device ? clb_device_str(row->device, CLB_PROP_NAME) : "host CPU");
        fprintf(out, ",%s,", row->benchmark);
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
        if (row->n_times && row->n_host_times)
            fprintf(out, "%.6g", row->host_value);
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
        return write_collective_table(out, r->results);
    return write_table(out, r->results, r->verbose, r->host_time);
}
