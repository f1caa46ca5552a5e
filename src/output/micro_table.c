#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/bench/bandwidth.h"
#include "clbench/output/devices.h"
#include "clbench/results/sweep.h"
#include "clbench/output/table.h"
#include "clbench/util/units.h"
#include "micro_internal.h"


/* Under the table: which vendor figure each "% DATASHEET" is of, once each. */
static void datasheet_notes(FILE *out, const struct clb_micro_results *res, bool verbose)
{
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_row *r = &res->rows[i];
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
        const struct clb_row *r = &res->rows[i];
        const bool unknown = r->array_bytes && !r->llc_bytes && r->datasheet.value > 0;
        if (!(r->cache_resident && r->n_times) && !unknown)
            continue;
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++) {
            const struct clb_row *q = &res->rows[j];
            seen = q->device == r->device &&
                   (unknown ? q->array_bytes && !q->llc_bytes && q->datasheet.value > 0
                            : q->cache_resident && q->n_times &&
                                  q->array_bytes == r->array_bytes);
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
        fprintf(out, "in cache: %s on %s: the cache, not memory, fed those figures%s\n", why,
                dev, r->datasheet_withheld ? ", so no % of DRAM's datasheet figure" : "");
    }
}

/* A measured, shown transfer row of a device that shares the host's memory. */
static bool unified_transfer(const struct clb_row *r, bool verbose)
{
    return r->device && r->benchmark == CLB_BENCH_TRANSFER && r->n_times &&
           clb_micro_row_shown(r, verbose) &&
           clb_device_u64(r->device, CLB_PROP_HOST_UNIFIED_MEMORY);
}

/* A device sharing the host's memory moves no data over a bus: its "transfers" are copies. */
static void unified_notes(FILE *out, const struct clb_micro_results *res, bool verbose)
{
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_row *r = &res->rows[i];
        if (!unified_transfer(r, verbose))
            continue;
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = res->rows[j].device == r->device && unified_transfer(&res->rows[j], verbose);
        if (seen)
            continue;
        char dev[160];
        clb_device_label(r->device, dev, sizeof(dev));
        fprintf(out, "transfer on %s: it shares the host's memory (CL_DEVICE_HOST_UNIFIED_MEMORY), "
                     "so each transfer is a copy within host memory, not a trip over a bus\n",
                dev);
    }
}

static bool sweep_triad(const struct clb_row *r)
{
    return r->benchmark == CLB_BENCH_BANDWIDTH && r->status == CLB_ROW_OK && r->n_times &&
           r->precision != CLB_PRECISION_NONE && r->sized && !strcmp(r->kernel, "triad") &&
           r->work > 0 && r->array_bytes;
}

/* The run's sweeps, grouped and judged by results/sweep.h before the table is drawn. */
static int judge_sweeps(const struct clb_micro_results *res, struct clb_sweep_groups *out)
{
    struct clb_sweep_point *p = calloc(res->n_rows + 1, sizeof(*p));
    size_t n = 0;

    if (!p)
        return -1;
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_row *r = &res->rows[i];
        if (sweep_triad(r))
            p[n++] = (struct clb_sweep_point){ .place = r->device, .precision = r->precision,
                                               .array_bytes = r->array_bytes,
                                               .llc_bytes = r->llc_bytes, .value = r->value,
                                               .work = r->work, .times_s = r->times_s,
                                               .n_times = r->n_times };
    }
    const int rc = clb_sweep_group_points(p, n, out);
    free(p);
    return rc;
}

/* Under a --sizes sweep: per device and precision, results/sweep.h's verdict of its triad. */
static void sweep_notes(FILE *out, const struct clb_sweep_groups *sweeps)
{
    for (size_t k = 0; k < sweeps->n; k++) {
        const struct clb_sweep_group *g = &sweeps->g[k];
        char dev[160];
        clb_device_label(g->place, dev, sizeof(dev));
        fprintf(out, "SWEEP: %s %s triad: %s\n", dev, clb_precision_name(g->precision),
                g->finding.text);
    }
}

/*
 * Under the table: which clock the figures are from, where a row says (bandwidth), and
 * why a row fell back to the host's (once per reason and device).
 */
static void clock_notes(FILE *out, const struct clb_micro_results *res, bool verbose,
                        bool host_time)
{
    bool any = false, timers = false;
    for (size_t i = 0; i < res->n_rows; i++) {
        any |= res->rows[i].n_times && clb_micro_row_shown(&res->rows[i], verbose);
        timers |= res->rows[i].alt_timer && clb_micro_row_shown(&res->rows[i], verbose);
    }
    if (!any)
        return;
    fprintf(out, "CLOCK: host = the host's monotonic clock around each call (a device's: "
                 "enqueue + clFinish); device = the command's profiling timestamps (START to END; "
                 "latency's enqueue to start: QUEUED to START)");
    if (timers)
        fprintf(out, "; bandwidth: a GPU's figures on its device clock, a CPU device's on the "
                     "host's where its own reads over %.0f%% faster%s",
                CLB_CLOCK_AGREE * 100.0,
                host_time ? "; OTHER CLOCK: the same calls on the other clock" : "");
    fputc('\n', out);
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_row *r = &res->rows[i];
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
        const struct clb_row *r = &res->rows[i];
        if (!clb_micro_row_shown(r, verbose))
            continue;
        k->datasheet |= (r->datasheet.value > 0 && !r->datasheet.derived) ||
                        r->datasheet_withheld;
        k->derived |= r->datasheet.value > 0 && r->datasheet.derived;
        k->clock |= r->n_times > 0;
    }
    k->host_time = host_time && k->clock;
    k->head[0] = "DEVICE";
    k->head[1] = "BENCHMARK";
    k->head[2] = "CASE";
    k->head[3] = k->best_first ? "BEST" : "MEDIAN";
    k->head[4] = k->best_first ? "MEDIAN" : "BEST";
    k->n = 5;
    if (k->host_time)
        k->head[k->n++] = k->best_first ? "OTHER CLOCK BEST" : "OTHER CLOCK MEDIAN";
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
    char dev[160], fig[48], best[48], med[32], calls[24], spread[32], check[600], host[64],
        pct[32];
};

/* What a table's rows showed, for the notes under it. */
struct micro_marks {
    bool above, noisy, few, kernel_bound;
};

/* BabelStream's grid dot on the cpu path: work-groups of 16 summing through local memory,
 * bound by that kernel under a CPU device, not by memory ("dot chunked" is the memory one). */
static bool kernel_bound(const struct clb_row *row)
{
    return !strcmp(row->kernel, "dot") && row->code_path &&
           !strcmp(row->code_path, "cpu");
}

/* The figures (none from a wrong result), and the check. */
static void row_figures(const struct clb_row *row, struct micro_cells *c,
                        struct micro_marks *m)
{
    if (row->n_times && (row->status == CLB_ROW_OK || row->status == CLB_ROW_FAILED)) {
        clb_format_seconds(row->time_s.median, c->med, sizeof(c->med));
        snprintf(c->calls, sizeof(c->calls), "%zu", row->n_times);
        clb_format_spread(row->n_times, row->time_s.cv, c->spread, sizeof(c->spread),
                          &m->noisy, &m->few);
    }
    /* A figure from a wrong result means nothing. */
    if (row->n_times && row->status == CLB_ROW_OK) {
        clb_format_metric(row->metric, row->value, c->fig, sizeof(c->fig));
        clb_format_metric(row->metric, row->stat_best ? row->median : row->best, c->best,
                          sizeof(c->best));
        if (row->n_alt_times) {
            char fig[40];
            clb_format_metric(row->metric, row->alt_value, fig, sizeof(fig));
            snprintf(c->host, sizeof(c->host), "%s %s", fig, row->alt_timer);
        }
    } else if (row->n_times && row->status == CLB_ROW_FAILED) {
        snprintf(c->fig, sizeof(c->fig), "unverified");
    }
    /* What the figure is of, where it is not the device's memory. */
    const bool cached = row->cache_resident && row->n_times && !row->datasheet_withheld,
               bound = kernel_bound(row) && row->n_times;
    m->kernel_bound |= bound;
    if (row->status == CLB_ROW_OK)
        snprintf(c->check, sizeof(c->check), "OK%s%s", cached ? ", in cache" : "",
                 bound ? ", kernel-bound" : "");
    else if (row->status == CLB_ROW_FAILED)
        snprintf(c->check, sizeof(c->check), "FAILED: %s", row->reason);
    else
        snprintf(c->check, sizeof(c->check), "%s: %s", clb_row_status_name(row->status),
                 row->reason);
}

/* The % of the row's limit; returns whether the figure is above it. */
static bool row_percent(const struct clb_row *row, struct micro_cells *c)
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
                   const struct clb_row *row, const struct micro_cells *c)
{
    const char *cells[13] = { c->dev, clb_benchmark_name(row->benchmark), row->case_, c->fig,
                              c->best };
    size_t n = 5;

    if (k->host_time)
        cells[n++] = c->host;
    cells[n++] = c->med;
    if (k->clock)
        cells[n++] = row->n_times && row->timer ? row->timer : "";
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
                        const struct micro_marks *m, bool host_time,
                        const struct clb_sweep_groups *sweeps)
{
    datasheet_notes(out, res, verbose);
    bool peaks = false;
    for (size_t i = 0; i < res->n_rows; i++)
        peaks |= res->rows[i].benchmark == CLB_BENCH_PEAK && res->rows[i].status == CLB_ROW_OK &&
                 res->rows[i].n_times && clb_micro_row_shown(&res->rows[i], verbose);
    if (peaks)
        fputs("BEST: the fastest verified call; as a limit (gemm's % DEV PEAK and % HOST PEAK, "
              "the report's roofline) a peak is its headline width's BEST\n", out);
    if (m->above)
        fputs("^ above its datasheet figure or derived peak: that limit does not hold here (a "
              "table row or core design that is not this device's, a vendor figure that "
              "leaves out packed or dual-issue math, or a clock measured low)\n", out);
    clb_spread_notes(out, m->noisy, m->few);
    if (m->kernel_bound)
        fputs("kernel-bound: BabelStream's dot on the cpu code path (small work-groups summing "
              "through local memory) is bound by that kernel, not by memory; dot chunked is "
              "the memory figure\n", out);
    clock_notes(out, res, verbose, host_time);
    cache_notes(out, res);
    unified_notes(out, res, verbose);
    sweep_notes(out, sweeps);
}

int clb_micro_write_text(FILE *out, const struct clb_micro_results *res, bool verbose,
                         bool host_time)
{
    struct micro_columns k = { .best_first = false };
    struct micro_marks m = { .above = false };
    struct clb_sweep_groups sweeps;
    int rc = 0;

    plan_columns(res, verbose, host_time, &k);
    if (judge_sweeps(res, &sweeps))
        return -1;
    struct clb_table *t = table_create(&k);
    if (!t)
        rc = -1;
    for (size_t i = 0; !rc && i < res->n_rows; i++) {
        const struct clb_row *row = &res->rows[i];
        struct micro_cells c = { .fig = "" };
        if (!clb_micro_row_shown(row, verbose))
            continue;
        clb_device_label(row->device, c.dev, sizeof(c.dev));
        row_figures(row, &c, &m);
        m.above |= row_percent(row, &c);
        rc = add_row(t, &k, row, &c);
    }
    if (!rc) {
        clb_table_print(t, out);
        table_notes(out, res, verbose, &m, k.host_time, &sweeps);
    }
    clb_table_destroy(t);
    clb_sweep_groups_finish(&sweeps);
    return rc;
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

    bool noisy = false, few = false;

    if (!t)
        return -1;
    for (size_t c = 1; c <= 7; c++)
        clb_table_align_right(t, c);
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_row *row = &res->rows[i];
        char ranks[16], time[32] = "", path[32] = "", alg[32] = "", bus[32] = "",
             spread[32] = "", check[600];
        snprintf(ranks, sizeof(ranks), "%d", row->ranks);
        if (row->n_times && (row->status == CLB_ROW_OK || row->status == CLB_ROW_FAILED)) {
            clb_format_seconds(row->time_s.median, time, sizeof(time));
            if (row->path_median_s > 0)
                clb_format_seconds(row->path_median_s, path, sizeof(path));
            clb_format_spread(row->n_times, row->time_s.cv, spread, sizeof(spread), &noisy,
                              &few);
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
    clb_spread_notes(out, noisy, few);
    return 0;
}
