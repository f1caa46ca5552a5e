#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "clbench/output/devices.h"
#include "clbench/output/micro.h"
#include "clbench/output/table.h"
#include "clbench/util/units.h"
#include "gemm_internal.h"


static void check_label(const struct clb_row *row, char *buf, size_t len)
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
        const struct clb_row *row = &res->rows[i];
        bool seen = !row->tuning_note[0];
        for (size_t j = 0; j < i && !seen; j++)
            seen = res->rows[j].backend_ops == row->backend_ops &&
                   res->rows[j].precision == row->precision &&
                   !strcmp(res->rows[j].tuning_note, row->tuning_note);
        if (!seen)
            fprintf(out, "tuning: %s %s: %s\n", row->backend,
                    clb_precision_name(row->precision), row->tuning_note);
    }
}
/* Every cell of one table row, formatted. */
struct gemm_cells {
    char dev[160], backend[80], shape[128], first[32], med[32], gf[48], calls[16], spread[32],
        speed[32], bars[64], check[700], e2e_t[32], e2e_gf[32], pct_dev[16], pct_host[16];
};

/* What the rows showed, for the notes under the table. */
struct gemm_marks {
    bool noisy, above, partial, dev_peak, host_peak, few_calls, handicap;
    const char *base_isa; /* a handicapped baseline's instruction set, held against its peak */
};

static struct clb_table *table_create(bool e2e)
{
    const char *head[] = { "DEVICE",     "BACKEND",     "PREC",   "M x N x K", "FIRST CALL",
                           "MEDIAN",     "GFLOP/S",     "% DEV PEAK", "% HOST PEAK",
                           "CALLS",      "SPREAD",      "SPEEDUP", "",     "CHECK",
                           "E2E",        "E2E GFLOP/S" };
    struct clb_table *t = clb_table_create(head, e2e ? 16 : 14);

    if (!t)
        return NULL;
    for (size_t c = 4; c <= 11; c++)
        clb_table_align_right(t, c);
    clb_table_align_right(t, 14);
    clb_table_align_right(t, 15);
    return t;
}

/* The times and the rate, with its share of each measured peak. */
static void row_figures(const struct clb_row *row, struct gemm_cells *c,
                        struct gemm_marks *marks)
{
    const bool m = clb_gemm_row_measured(row);

    if (row->first_call_s > 0)
        clb_format_seconds(row->first_call_s, c->first, sizeof(c->first));
    if (m) {
        clb_format_seconds(row->time_s.median, c->med, sizeof(c->med));
        snprintf(c->calls, sizeof(c->calls), "%zu", row->time_s.n);
        clb_format_spread(row->time_s.n, row->time_s.cv, c->spread, sizeof(c->spread),
                          &marks->noisy, &marks->few_calls);
    }
    /* A wrong result's rate means nothing: no figure, no % of peak, no speedup. */
    if (m && row->status != CLB_ROW_OK)
        snprintf(c->gf, sizeof(c->gf), "unverified");
    if (m && row->status == CLB_ROW_OK) {
        clb_format_flops(row->gflops, c->gf, sizeof(c->gf));
        const bool over = percent(row->gflops, row->device_peak_gflops, c->pct_dev,
                                  sizeof(c->pct_dev));
        marks->above |= over && !row->device_peak_partial;
        marks->partial |= over && row->device_peak_partial;
        marks->above |= percent(row->gflops, row->host_peak_gflops, c->pct_host,
                                sizeof(c->pct_host));
        marks->dev_peak |= row->device_peak_gflops > 0;
        marks->host_peak |= row->host_peak_gflops > 0;
    }
}

static void row_cells(const struct clb_row *row, double max_speedup, struct gemm_cells *c,
                      struct gemm_marks *marks)
{
    clb_device_label(row->device, c->dev, sizeof(c->dev));
    clb_gemm_row_label(row, c->shape, sizeof(c->shape));
    check_label(row, c->check, sizeof(c->check));
    row_figures(row, c, marks);
    if (row->speedup > 0) {
        snprintf(c->speed, sizeof(c->speed), "%.2fx%s", row->speedup,
                 row->baseline_handicapped ? " *" : "");
        marks->handicap |= row->baseline_handicapped;
        if (row->host_peak_of_kernels)
            marks->base_isa = row->host_peak_isa;
        bar(row->speedup, max_speedup, 12, c->bars, sizeof(c->bars));
    }
    if (row->e2e_s.n) {
        clb_format_seconds(row->e2e_s.median, c->e2e_t, sizeof(c->e2e_t));
        if (row->status == CLB_ROW_OK)
            clb_format_flops(row->e2e_gflops, c->e2e_gf, sizeof(c->e2e_gf));
        else
            snprintf(c->e2e_gf, sizeof(c->e2e_gf), "unverified");
    }
    /* A kernel variant not the device type's own (--code-path) is named beside it. */
    char path[16] = "";
    if (row->code_path && row->device &&
        !strcmp(row->code_path, "gpu") == clb_device_is_cpu(row->device))
        snprintf(path, sizeof(path), " (%s path)", row->code_path);
    if (row->tuned)
        snprintf(c->backend, sizeof(c->backend), "%s%s (tuned @%" PRIu64 ")",
                 row->backend, path, row->tuned_at);
    else
        snprintf(c->backend, sizeof(c->backend), "%s%s", row->backend, path);
}

/* Under the table: what each column and mark the rows showed means. */
static void table_notes(FILE *out, const struct gemm_marks *marks, const char *handicap)
{
    if (marks->dev_peak)
        fprintf(out, "%% DEV PEAK: of the device's own peak, measured with clbench's OpenCL "
                     "kernel (clbench peak): its headline width's fastest verified call (BEST)\n");
    if (marks->host_peak)
        fprintf(out, "%% HOST PEAK: of the host CPU's own FMA peak, measured in C on every "
                     "available CPU (host CPU rows of clbench peak, their fastest verified call); "
                     "for OpenBLAS on fewer threads "
                     "than physical cores, its share: threads / cores%s%s%s\n",
                marks->base_isa ? "; the handicapped baseline against the " : "",
                marks->base_isa ? marks->base_isa : "",
                marks->base_isa ? " peak, the instruction set its kernels use" : "");
    if (marks->handicap)
        fprintf(out, "* against a handicapped CPU baseline: %s\n", handicap);
    if (marks->above)
        fprintf(out, "^ above the measured peak: the peak was under-measured (the machine was "
                     "busy while it ran, or the peak kernel is slower than this code); rerun "
                     "clbench peak\n");
    if (marks->partial)
        fprintf(out, "^ above a device peak measured on part of the device: its launch held "
                     "fewer than 4 work-groups a compute unit (the device's largest allocation "
                     "allowed no more), so that peak is low\n");
    clb_spread_notes(out, marks->noisy, marks->few_calls);
}

static int write_table(FILE *out, const struct clb_gemm_report *r)
{
    const struct clb_gemm_results *res = r->results;
    struct clb_table *t = table_create(r->options->transfers);
    struct gemm_marks marks = { 0 };
    double max_speedup = 1.0;

    if (!t)
        return -1;
    for (size_t i = 0; i < res->n_rows; i++)
        if (res->rows[i].speedup > max_speedup)
            max_speedup = res->rows[i].speedup;
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_row *row = &res->rows[i];
        struct gemm_cells c = { .first = "" };
        row_cells(row, max_speedup, &c, &marks);
        const char *cells[] = { c.dev,   c.backend, clb_precision_name(row->precision),
                                c.shape, c.first,   c.med, c.gf, c.pct_dev, c.pct_host, c.calls,
                                c.spread, c.speed, c.bars, c.check, c.e2e_t, c.e2e_gf };
        if (clb_table_add(t, cells)) {
            clb_table_destroy(t);
            return -1;
        }
    }
    clb_table_print(t, out);
    clb_table_destroy(t);
    table_notes(out, &marks, res->baseline_handicap);
    write_tuning_notes(out, res);
    return 0;
}

/* The rows of precision p at its largest problem measured: the fastest, the baseline's, and
 * the fastest that is not the baseline (each NULL when there is none). */
struct gemm_pick {
    const struct clb_row *best, *base, *best_dev;
};

static struct gemm_pick summary_pick(const struct clb_gemm_results *res, enum clb_precision p)
{
    struct gemm_pick k = { NULL, NULL, NULL };
    double largest = 0;

    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_row *row = &res->rows[i];
        if (row->precision == p && row->status == CLB_ROW_OK &&
            clb_gemm_flops(row->shape) > largest)
            largest = clb_gemm_flops(row->shape);
    }
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_row *row = &res->rows[i];
        if (row->precision != p || row->status != CLB_ROW_OK ||
            clb_gemm_flops(row->shape) != largest)
            continue;
        if (!k.best || row->gflops > k.best->gflops)
            k.best = row;
        if (row->backend_ops == res->baseline)
            k.base = row;
        else if (!k.best_dev || row->gflops > k.best_dev->gflops)
            k.best_dev = row;
    }
    return k;
}

/* "fastest fp32 at ...: who, rate", against the CPU baseline where there is one. */
static void summary_fastest(FILE *out, enum clb_precision p, const struct gemm_pick *k,
                            const char *handicap)
{
    char dev[160], shape[128], gf[32], bgf[32];

    clb_gemm_row_label(k->best, shape, sizeof(shape));
    clb_device_label(k->best->device, dev, sizeof(dev));
    clb_format_flops(k->best->gflops, gf, sizeof(gf));
    fprintf(out, "fastest %s at %s: %s (%s), %s", clb_precision_name(p), shape, dev,
            k->best->backend, gf);
    if (k->base && k->best != k->base) {
        clb_format_flops(k->base->gflops, bgf, sizeof(bgf));
        fprintf(out, ", %.1fx the CPU baseline (%s %s)%s%s\n", k->best->speedup,
                k->base->backend, bgf, handicap[0] ? "; a handicapped baseline: " : "",
                handicap);
    } else if (k->base && k->best_dev) {
        clb_device_label(k->best_dev->device, dev, sizeof(dev));
        clb_format_flops(k->best_dev->gflops, gf, sizeof(gf));
        fprintf(out, " (the CPU baseline%s%s); best OpenCL device: %s (%s), %s, %.2fx the "
                     "baseline\n", handicap[0] ? ", handicapped: " : "", handicap, dev,
                k->best_dev->backend, gf, k->best_dev->speedup);
    } else {
        fputc('\n', out);
    }
}

/* How close the fastest device row and the baseline came to their measured and vendor peaks. */
static void summary_limits(FILE *out, enum clb_precision p, const struct gemm_pick *k)
{
    const struct clb_row *dev_row = k->best->device ? k->best : k->best_dev;
    const struct clb_row *base = k->base;
    char peak[32], what[200];

    if (dev_row && dev_row->device_peak_gflops > 0) {
        clb_format_flops(dev_row->device_peak_gflops, peak, sizeof(peak));
        fprintf(out, "%s %s on %s reached %.0f%% of this device's measured peak (%s)\n",
                dev_row->backend, clb_precision_name(p),
                clb_device_str(dev_row->device, CLB_PROP_NAME),
                100.0 * dev_row->gflops / dev_row->device_peak_gflops, peak);
    }
    if (dev_row && dev_row->datasheet.value > 0) {
        clb_format_flops(dev_row->datasheet.value, peak, sizeof(peak));
        clb_datasheet_what(&dev_row->datasheet, what, sizeof(what));
        fprintf(out, "%s %s on %s reached %.1f%% of %s (%s)\n", dev_row->backend,
                clb_precision_name(p), clb_device_str(dev_row->device, CLB_PROP_NAME),
                100.0 * dev_row->gflops / dev_row->datasheet.value, what, peak);
    }
    if (base && base->host_peak_gflops > 0) {
        clb_format_flops(base->host_peak_gflops, peak, sizeof(peak));
        fprintf(out, "%s %s reached %.0f%% of the host CPU's own %s FMA peak (%s)\n",
                base->backend, clb_precision_name(p),
                100.0 * base->gflops / base->host_peak_gflops, base->host_peak_isa, peak);
    }
    if (base && base->datasheet.value > 0) {
        clb_format_flops(base->datasheet.value, peak, sizeof(peak));
        clb_datasheet_what(&base->datasheet, what, sizeof(what));
        fprintf(out, "%s %s reached %.1f%% of %s (%s)\n", base->backend,
                clb_precision_name(p), 100.0 * base->gflops / base->datasheet.value, what,
                peak);
    }
}

/* Per precision, at the largest problem measured: who was fastest, and by how much. */
static void write_summary(FILE *out, const struct clb_gemm_report *r)
{
    for (size_t pi = 0; pi < r->options->n_precisions; pi++) {
        const enum clb_precision p = r->options->precisions[pi];
        const struct gemm_pick k = summary_pick(r->results, p);
        if (!k.best)
            continue;
        summary_fastest(out, p, &k, r->results->baseline_handicap);
        summary_limits(out, p, &k);
    }
}

int clb_gemm_write_text(FILE *out, const struct clb_gemm_report *r)
{
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
