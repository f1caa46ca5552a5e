#include <inttypes.h>
#include <string.h>

#include "clbench/output/devices.h"
#include "clbench/results/sweep.h"
#include "clbench/output/table.h"
#include "clbench/util/units.h"
#include "micro_internal.h"


/* Under the table: which vendor figure each "% DATASHEET" is of, once each. */
static void datasheet_notes(FILE *out, const struct clb_micro_results *res, bool verbose)
{
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_micro_row *r = &res->rows[i];
        bool seen = !r->datasheet.value || !clb_micro_row_shown(r, verbose);
        for (size_t j = 0; j < i && !seen; j++)
            seen = res->rows[j].datasheet.value && clb_micro_row_shown(&res->rows[j], verbose) &&
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
        clb_micro_resident_why(r, why, sizeof(why));
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
        const struct clb_micro_row *r = &res->rows[i], *group[CLB_SWEEP_MAX_TRIADS];
        double work[CLB_SWEEP_MAX_TRIADS], value[CLB_SWEEP_MAX_TRIADS];
        size_t n = 0, big, cached, after;
        bool first = sweep_triad(r);
        for (size_t j = 0; j < i && first; j++)
            first = !(sweep_triad(&res->rows[j]) && res->rows[j].device == r->device &&
                      !strcmp(res->rows[j].precision, r->precision));
        if (!first)
            continue;
        for (size_t j = i; j < res->n_rows && n < CLB_SWEEP_MAX_TRIADS; j++) {
            const struct clb_micro_row *q = &res->rows[j];
            if (sweep_triad(q) && q->device == r->device && !strcmp(q->precision, r->precision)) {
                group[n] = q;
                work[n] = q->work;
                value[n++] = q->value;
            }
        }
        const bool found = clb_sweep_cache_edge(work, value, n, &big, &cached, &after);
        char dev[160], finding[256];
        clb_device_label(r->device, dev, sizeof(dev));
        clb_sweep_finding_text(finding, sizeof(finding), group[big]->metric, work, value, found,
                               big, cached, after);
        fprintf(out, "SWEEP: %s %s triad: %s\n", dev, r->precision, finding);
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
        any |= res->rows[i].timer && clb_micro_row_shown(&res->rows[i], verbose);
    if (!any)
        return;
    fprintf(out, "CLOCK: device = each call the kernel's profiling event (START to END); host "
                 "= the host's clock around enqueue + clFinish%s\n",
            host_time ? "; HOST: the same calls on the host's clock, as BabelStream times" : "");
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_micro_row *r = &res->rows[i];
        if (!r->timer || !r->timer_why[0] || !clb_micro_row_shown(r, verbose))
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

/* The table's columns: which there are, and where the clock and check columns fall. */
struct micro_columns {
    bool best_first, datasheet, derived, clock, host_time;
    const char *head[13];
    size_t n, clock_col, check_col;
};

static void plan_columns(const struct clb_micro_results *res, bool verbose, bool host_time,
                         struct micro_columns *k)
{
    /* The headline's statistic names its column; the other one follows it. */
    k->best_first = res->n_rows && res->rows[0].stat_best;
    /* A vendor's figure and a derived peak are columns of their own: one or the other a row.
     * Rows that name their clock (bandwidth) get a column saying it. */
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_micro_row *r = &res->rows[i];
        if (!clb_micro_row_shown(r, verbose))
            continue;
        k->datasheet |= (r->datasheet.value > 0 && !r->datasheet.derived) ||
                        r->datasheet_withheld;
        k->derived |= r->datasheet.value > 0 && r->datasheet.derived;
        k->clock |= r->timer != NULL;
    }
    k->host_time = host_time && k->clock;
    k->head[0] = "DEVICE";
    k->head[1] = "BENCHMARK";
    k->head[2] = "CASE";
    k->head[3] = k->best_first ? "BEST" : "MEDIAN";
    k->head[4] = k->best_first ? "MEDIAN" : "BEST";
    k->n = 5;
    if (k->host_time)
        k->head[k->n++] = k->best_first ? "HOST BEST" : "HOST MEDIAN";
    k->head[k->n++] = "MEDIAN TIME";
    k->clock_col = k->n;
    if (k->clock)
        k->head[k->n++] = "CLOCK";
    k->head[k->n++] = "CALLS";
    k->head[k->n++] = "SPREAD";
    k->check_col = k->n;
    k->head[k->n++] = "CHECK";
    if (k->datasheet)
        k->head[k->n++] = "% DATASHEET";
    if (k->derived)
        k->head[k->n++] = "% DERIVED";
}

static struct clb_table *table_create(const struct micro_columns *k)
{
    struct clb_table *t = clb_table_create(k->head, k->n);

    if (!t)
        return NULL;
    for (size_t c = 3; c < k->check_col; c++)
        if (!k->clock || c != k->clock_col)
            clb_table_align_right(t, c);
    for (size_t c = k->check_col + 1; c < k->n; c++)
        clb_table_align_right(t, c);
    return t;
}

/* Every cell of one table row, formatted. */
struct micro_cells {
    char dev[160], fig[48], best[48], med[32], calls[24], spread[32], check[600], host[48],
        pct[32];
};

/* The figures (none from a wrong result), and the check. */
static void row_figures(const struct clb_micro_row *row, struct micro_cells *c)
{
    if (row->n_times && (row->status == CLB_ROW_OK || row->status == CLB_ROW_FAILED)) {
        clb_format_seconds(row->time_s.median, c->med, sizeof(c->med));
        snprintf(c->calls, sizeof(c->calls), "%zu", row->n_times);
        snprintf(c->spread, sizeof(c->spread), "±%.1f%%", row->time_s.cv * 100.0);
    }
    /* A figure from a wrong result means nothing. */
    if (row->n_times && row->status == CLB_ROW_OK) {
        clb_format_metric(row->metric, row->value, c->fig, sizeof(c->fig));
        clb_format_metric(row->metric, row->stat_best ? row->median : row->best, c->best,
                          sizeof(c->best));
        if (row->n_host_times)
            clb_format_metric(row->metric, row->host_value, c->host, sizeof(c->host));
    } else if (row->n_times && row->status == CLB_ROW_FAILED) {
        snprintf(c->fig, sizeof(c->fig), "unverified");
    }
    if (row->status == CLB_ROW_OK)
        snprintf(c->check, sizeof(c->check), "OK");
    else if (row->status == CLB_ROW_FAILED)
        snprintf(c->check, sizeof(c->check), "FAILED: %s", row->reason);
    else
        snprintf(c->check, sizeof(c->check), "%s: %s", clb_row_status_name(row->status),
                 row->reason);
}

/* The % of the row's limit; returns whether the figure is above it. */
static bool row_percent(const struct clb_micro_row *row, struct micro_cells *c)
{
    if (row->datasheet.value > 0 && row->n_times && row->status == CLB_ROW_OK) {
        /* Above its limit: the limit, not the figure, is wrong for this device. */
        const bool over = row->value > row->datasheet.value;
        snprintf(c->pct, sizeof(c->pct), "%.1f%%%s", 100.0 * row->value / row->datasheet.value,
                 over ? " ^" : "");
        return over;
    }
    if (row->datasheet_withheld && row->n_times && row->status == CLB_ROW_OK)
        snprintf(c->pct, sizeof(c->pct), "in cache");
    return false;
}

static int add_row(struct clb_table *t, const struct micro_columns *k,
                   const struct clb_micro_row *row, const struct micro_cells *c)
{
    const char *cells[13] = { c->dev, row->benchmark, row->case_, c->fig, c->best };
    size_t n = 5;

    if (k->host_time)
        cells[n++] = c->host;
    cells[n++] = c->med;
    if (k->clock)
        cells[n++] = row->timer && row->n_times ? row->timer : "";
    cells[n++] = c->calls;
    cells[n++] = c->spread;
    cells[n++] = c->check;
    if (k->datasheet)
        cells[n++] = row->datasheet.derived ? "" : c->pct;
    if (k->derived)
        cells[n++] = row->datasheet.derived ? c->pct : "";
    return clb_table_add(t, cells);
}

/* Under the table: what BEST and ^ mean where rows show them, then the other notes. */
static void table_notes(FILE *out, const struct clb_micro_results *res, bool verbose,
                        bool above, bool host_time)
{
    datasheet_notes(out, res, verbose);
    bool peaks = false;
    for (size_t i = 0; i < res->n_rows; i++)
        peaks |= !strcmp(res->rows[i].benchmark, "peak") && res->rows[i].status == CLB_ROW_OK &&
                 res->rows[i].n_times && clb_micro_row_shown(&res->rows[i], verbose);
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
}

int clb_micro_write_text(FILE *out, const struct clb_micro_results *res, bool verbose,
                         bool host_time)
{
    struct micro_columns k = { .best_first = false };
    bool above = false;

    plan_columns(res, verbose, host_time, &k);
    struct clb_table *t = table_create(&k);
    if (!t)
        return -1;
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_micro_row *row = &res->rows[i];
        struct micro_cells c = { .fig = "" };
        if (!clb_micro_row_shown(row, verbose))
            continue;
        clb_device_label(row->device, c.dev, sizeof(c.dev));
        row_figures(row, &c);
        above |= row_percent(row, &c);
        if (add_row(t, &k, row, &c)) {
            clb_table_destroy(t);
            return -1;
        }
    }
    clb_table_print(t, out);
    clb_table_destroy(t);
    table_notes(out, res, verbose, above, k.host_time);
    return 0;
}

int clb_micro_write_table(FILE *out, const struct clb_micro_results *res, bool verbose)
{
    return clb_micro_write_text(out, res, verbose, false);
}

/* Collective rows (clbench/mpi/collective.h): MPI's time, the whole path, algbw, busbw. */
int clb_micro_write_collective(FILE *out, const struct clb_micro_results *res)
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
