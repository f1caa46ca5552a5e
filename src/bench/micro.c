#include "clbench/bench/micro.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct clb_row *clb_micro_add(struct clb_micro_results *r, const struct clb_device *dev,
                                    enum clb_benchmark benchmark, const char *metric)
{
    if (r->n_rows == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 16;
        struct clb_row *grown = realloc(r->rows, cap * sizeof(*grown));
        if (!grown)
            return NULL;
        r->rows = grown;
        r->cap = cap;
    }
    struct clb_row *row = &r->rows[r->n_rows++];
    memset(row, 0, sizeof(*row));
    row->device = dev;
    row->benchmark = benchmark;
    row->precision = CLB_PRECISION_NONE;
    row->metric = metric;
    /* Until a benchmark says otherwise: a row left half-made never reads as a result. */
    row->status = CLB_ROW_ERROR;
    snprintf(row->reason, sizeof(row->reason), "not measured");
    return row;
}

void clb_micro_results_finish(struct clb_micro_results *r)
{
    for (size_t i = 0; i < r->n_rows; i++) {
        free(r->rows[i].times_s);
        free(r->rows[i].alt_times_s);
    }
    free(r->rows);
    memset(r, 0, sizeof(*r));
}

void clb_micro_row_summarize(struct clb_row *row)
{
    clb_stats_compute(row->times_s, row->n_times, &row->time_s);
    if (!row->n_times)
        return;
    if (!row->timer)
        row->timer = "host";
    if (row->work > 0) {
        row->median = row->work / row->time_s.median * 1e-9;
        row->best = row->work / row->time_s.min * 1e-9;
    } else {
        /* Latency: the figure is the time itself, in microseconds; lower is better. */
        row->median = row->time_s.median * 1e6;
        row->best = row->time_s.min * 1e6;
    }
    row->value = row->stat_best ? row->best : row->median;
    row->alt_value = 0;
    if (row->n_alt_times && row->work > 0) {
        struct clb_stats host;
        clb_stats_compute(row->alt_times_s, row->n_alt_times, &host);
        row->alt_value = row->work / (row->stat_best ? host.min : host.median) * 1e-9;
    }
}

bool clb_micro_want(const struct clb_row *row, size_t calls, double min_time_s)
{
    return row->n_times < calls ||
           (row->measured_s < min_time_s && row->n_times < CLB_MICRO_MAX_CALLS);
}

/* Appends x to the n doubles at *v (room for *cap), grown as needed; -1 when out of memory. */
static int append(double **v, size_t *n, size_t *cap, double x)
{
    if (*n == *cap) {
        size_t grown_cap = *cap ? 2 * *cap : 16;
        double *grown = realloc(*v, grown_cap * sizeof(*grown));
        if (!grown)
            return -1;
        *v = grown;
        *cap = grown_cap;
    }
    (*v)[(*n)++] = x;
    return 0;
}

int clb_micro_push(struct clb_row *row, double seconds)
{
    if (append(&row->times_s, &row->n_times, &row->times_cap, seconds))
        return -1;
    row->measured_s += seconds;
    return 0;
}

int clb_micro_push_alt(struct clb_row *row, double seconds)
{
    return append(&row->alt_times_s, &row->n_alt_times, &row->alt_times_cap, seconds);
}

/* dev's verified peak row in precision: its headline, or (isa non-NULL) that variant's. */
static const struct clb_row *find(const struct clb_micro_results *r,
                                        const struct clb_device *dev,
                                        enum clb_precision precision, const char *isa)
{
    for (size_t i = 0; i < r->n_rows; i++) {
        const struct clb_row *row = &r->rows[i];
        if (row->device == dev && row->status == CLB_ROW_OK &&
            row->benchmark == CLB_BENCH_PEAK && row->precision == precision &&
            (isa ? row->isa && !strcmp(row->isa, isa) : row->headline))
            return row;
    }
    return NULL;
}

double clb_micro_peak(const struct clb_micro_results *r, const struct clb_device *dev,
                      enum clb_precision precision)
{
    /* A limit: another process can only slow a call down, so the fastest verified one counts. */
    const struct clb_row *row = clb_micro_peak_row(r, dev, precision, NULL);
    return row ? row->best : 0.0;
}

const struct clb_row *clb_micro_peak_row(const struct clb_micro_results *r,
                                               const struct clb_device *dev,
                                               enum clb_precision precision, const char *isa)
{
    return find(r, dev, precision, isa);
}

/* Whether two peak rows are of one figure: the same device, backend and precision. */
static bool same_peak(const struct clb_row *a, const struct clb_row *b)
{
    return a->device == b->device && a->benchmark == CLB_BENCH_PEAK &&
           b->benchmark == CLB_BENCH_PEAK &&
           !strcmp(a->backend, b->backend) &&
           a->precision != CLB_PRECISION_NONE && a->precision == b->precision;
}

void clb_micro_pick_headlines(struct clb_micro_results *r)
{
    for (size_t i = 0; i < r->n_rows; i++) {
        const struct clb_row *best = NULL;
        for (size_t j = 0; j < r->n_rows; j++)
            if (same_peak(&r->rows[i], &r->rows[j]) && r->rows[j].status == CLB_ROW_OK &&
                (!best || r->rows[j].value > best->value))
                best = &r->rows[j];
        if (best)
            r->rows[i].headline = &r->rows[i] == best;
    }
}
