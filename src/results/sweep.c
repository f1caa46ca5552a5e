#include "clbench/results/sweep.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/util/units.h"

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The p-quantile of n > 0 sorted values, linear between neighbours (numpy's default). */
static double quantile(const double *sorted, size_t n, double p)
{
    const double pos = p * (double)(n - 1);
    const size_t i = (size_t)pos;

    return i + 1 < n ? sorted[i] + (pos - (double)i) * (sorted[i + 1] - sorted[i]) : sorted[i];
}

bool clb_sweep_spread(const double *times_s, size_t n, double work, double *lo, double *hi)
{
    double *s;

    *lo = *hi = 0;
    if (n < 2 || !(work > 0) || !(s = malloc(n * sizeof(*s))))
        return false;
    memcpy(s, times_s, n * sizeof(*s));
    qsort(s, n, sizeof(*s), cmp_double);
    const double q1 = quantile(s, n, 0.25), q3 = quantile(s, n, 0.75);
    free(s);
    if (!(q1 > 0))
        return false; /* a call of no time has no GB/s */
    *lo = work / q3 * 1e-9;
    *hi = work / q1 * 1e-9;
    return true;
}

/* The same rule as the rows' cache_resident (limits/limits.c): all three arrays fit. */
static bool inside(const struct clb_sweep_size *s, uint64_t llc_bytes)
{
    return 3 * s->array_bytes <= llc_bytes;
}

/* "1 MiB arrays", "48.06 GB/s", "47.5-49 GB/s": one size's words. */
struct words {
    char bytes[24], value[32], range[40];
};

static void words_of(const struct clb_sweep_size *s, struct words *w)
{
    clb_format_bytes(s->array_bytes, w->bytes, sizeof(w->bytes));
    clb_format_metric("gbps", s->value, w->value, sizeof(w->value));
    snprintf(w->range, sizeof(w->range), "%.4g-%.4g GB/s", s->lo, s->hi);
}

static void finding_text(const struct clb_sweep_size *size, uint64_t llc_bytes,
                         struct clb_sweep_finding *f)
{
    struct words c, p;
    char llc[24];

    clb_format_bytes(llc_bytes, llc, sizeof(llc));
    words_of(&size[f->cached], &c);
    words_of(&size[f->past], &p);
    switch (f->verdict) {
    case CLB_SWEEP_NONE:
        f->text[0] = '\0';
        break;
    case CLB_SWEEP_EDGE:
        snprintf(f->text, sizeof(f->text), "caches help up to %s arrays (%s; middle half of "
                 "calls %s) and stop by %s, past the %s LLC (%s; %s)", c.bytes, c.value,
                 c.range, p.bytes, llc, p.value, p.range);
        break;
    case CLB_SWEEP_NOISE:
        snprintf(f->text, sizeof(f->text), "within noise: %s arrays, the fastest inside the %s "
                 "LLC (%s; middle half of calls %s), overlap %s past it (%s; %s)", c.bytes, llc,
                 c.value, c.range, p.bytes, p.value, p.range);
        break;
    case CLB_SWEEP_NO_GAIN:
        snprintf(f->text, sizeof(f->text), "caches did not help: %s arrays, the fastest inside "
                 "the %s LLC (%s; middle half of calls %s), ran slower than %s past it (%s; %s)",
                 c.bytes, llc, c.value, c.range, p.bytes, p.value, p.range);
        break;
    case CLB_SWEEP_NO_LLC:
        snprintf(f->text, sizeof(f->text), "not judged: the last-level cache's size is not "
                 "known, so no size is known to be past the caches");
        break;
    case CLB_SWEEP_NONE_PAST:
        snprintf(f->text, sizeof(f->text), "not judged: every size's three arrays fit the %s "
                 "LLC, so none is past the caches", llc);
        break;
    case CLB_SWEEP_NONE_INSIDE:
        snprintf(f->text, sizeof(f->text), "not judged: no size's three arrays fit the %s "
                 "LLC, so none ran from the caches", llc);
        break;
    case CLB_SWEEP_NO_CALLS:
        snprintf(f->text, sizeof(f->text), "not judged: %s arrays have fewer than 2 timed "
                 "calls, no spread to weigh", p.bytes);
        break;
    }
}

/*
 * Which verdict, and of which sizes: past, the smallest size past the LLC; of the sizes
 * inside it, cached, the largest whose middle half lies wholly above past's, else the
 * fastest by headline (the one a reader of the table would take for the caches' help).
 */
static enum clb_sweep_verdict judge(const struct clb_sweep_size *size, size_t n,
                                    uint64_t llc_bytes, size_t *past, size_t *cached)
{
    size_t apart = SIZE_MAX, fastest = SIZE_MAX, n_inside = 0;
    double top = 0; /* the highest hi inside */

    if (!llc_bytes)
        return CLB_SWEEP_NO_LLC;
    *past = SIZE_MAX;
    for (size_t j = 0; j < n; j++)
        if (inside(&size[j], llc_bytes))
            n_inside++;
        else if (*past == SIZE_MAX || size[j].array_bytes < size[*past].array_bytes)
            *past = j;
    if (*past == SIZE_MAX) {
        *past = 0;
        return CLB_SWEEP_NONE_PAST;
    }
    if (!n_inside)
        return CLB_SWEEP_NONE_INSIDE;
    const struct clb_sweep_size *p = &size[*past];
    if (!(p->hi > 0))
        return CLB_SWEEP_NO_CALLS;
    for (size_t j = 0; j < n; j++) {
        const struct clb_sweep_size *s = &size[j];
        if (!inside(s, llc_bytes))
            continue;
        if (!(s->hi > 0)) {
            *past = j; /* the size the text names */
            return CLB_SWEEP_NO_CALLS;
        }
        if (s->lo > p->hi && (apart == SIZE_MAX || s->array_bytes > size[apart].array_bytes))
            apart = j;
        if (fastest == SIZE_MAX || s->value > size[fastest].value)
            fastest = j;
        top = s->hi > top ? s->hi : top;
    }
    *cached = apart != SIZE_MAX ? apart : fastest;
    return apart != SIZE_MAX ? CLB_SWEEP_EDGE : top < p->lo ? CLB_SWEEP_NO_GAIN : CLB_SWEEP_NOISE;
}

void clb_sweep_judge(const struct clb_sweep_size *size, size_t n, uint64_t llc_bytes,
                     struct clb_sweep_finding *f)
{
    memset(f, 0, sizeof(*f));
    if (!n)
        return;
    f->verdict = judge(size, n, llc_bytes, &f->past, &f->cached);
    finding_text(size, llc_bytes, f);
}

bool clb_sweep_row(const struct clb_row *r)
{
    return r->benchmark == CLB_BENCH_BANDWIDTH && r->has_value && r->precision_name &&
           !strcmp(r->metric, "gbps") && r->kernel[0] && r->sized && r->array_bytes > 0;
}

static double bytes_per_call(const struct clb_row *r)
{
    json_t *w = json_object_get(r->config, "bytes_per_call");

    return r->work > 0 ? r->work : json_is_number(w) ? json_number_value(w) : 0;
}

bool clb_sweep_triad(const struct clb_row *r)
{
    return clb_sweep_row(r) && clb_result_row_is_sized_triad(r) && bytes_per_call(r) > 0;
}

void clb_sweep_of(const struct clb_result_file *f, const struct clb_row *dev,
                  struct clb_sweep *s)
{
    uint64_t llc_bytes = 0;

    memset(s, 0, sizeof(*s));
    for (size_t i = 0; i < f->n_rows; i++) {
        const struct clb_row *r = &f->rows[i];
        if (!clb_result_row_same_device(r, dev) || !clb_sweep_triad(r) ||
            !clb_result_row_same_precision(r, dev))
            continue;
        if (s->n_triad == CLB_SWEEP_MAX_TRIADS)
            break; /* the rows it holds are the sweep it states; so are their sizes */
        bool seen = false;
        for (size_t j = 0; j < s->n_triad && !seen; j++)
            seen = s->size[j].array_bytes == r->array_bytes;
        s->n_sizes += !seen;
        if (!s->n_triad)
            llc_bytes = r->llc_bytes;
        struct clb_sweep_size *z = &s->size[s->n_triad];
        z->array_bytes = r->array_bytes;
        z->value = r->value;
        clb_sweep_spread(r->times_s, r->time_s.n, bytes_per_call(r), &z->lo, &z->hi);
        s->triad[s->n_triad++] = r;
    }
    clb_sweep_judge(s->size, s->n_triad, llc_bytes, &s->finding);
}

/* By place and precision, then in row order (the rows lie in one array). */
static int cmp_place(const void *a, const void *b)
{
    const struct clb_row *p = *(const struct clb_row *const *)a;
    const struct clb_row *q = *(const struct clb_row *const *)b;
    int c = strcmp(p->device_name, q->device_name);

    if (!c)
        c = strcmp(p->device_id, q->device_id);
    if (!c)
        c = clb_result_row_cmp_precision(p, q);
    return c ? c : (p > q) - (p < q);
}

static int cmp_row(const void *a, const void *b)
{
    const struct clb_row *p = *(const struct clb_row *const *)a;
    const struct clb_row *q = *(const struct clb_row *const *)b;
    return (p > q) - (p < q);
}

int clb_sweeps_of(const struct clb_result_file *f, struct clb_sweeps *out)
{
    const struct clb_row **t = malloc((f->n_rows + 1) * sizeof(*t));
    size_t n = 0, m = 0;

    memset(out, 0, sizeof(*out));
    if (!t)
        return -1;
    for (size_t i = 0; i < f->n_rows; i++)
        if (clb_sweep_triad(&f->rows[i]))
            t[n++] = &f->rows[i];
    /* Each place and precision's first triad row, back in row order. */
    qsort(t, n, sizeof(*t), cmp_place);
    for (size_t k = 0; k < n; k++)
        if (k == 0 || !clb_result_row_same_place(t[k - 1], t[k]) ||
            !clb_result_row_same_precision(t[k - 1], t[k]))
            t[m++] = t[k];
    qsort(t, m, sizeof(*t), cmp_row);
    out->s = calloc(m + 1, sizeof(*out->s));
    if (!out->s) {
        free(t);
        return -1;
    }
    for (size_t k = 0; k < m; k++)
        clb_sweep_of(f, t[k], &out->s[k]);
    out->n = m;
    free(t);
    return 0;
}

void clb_sweeps_finish(struct clb_sweeps *s)
{
    free(s->s);
    memset(s, 0, sizeof(*s));
}

/* By place and precision, then in point order (the points lie in one array). */
static int cmp_point(const void *a, const void *b)
{
    const struct clb_sweep_point *p = *(const struct clb_sweep_point *const *)a;
    const struct clb_sweep_point *q = *(const struct clb_sweep_point *const *)b;
    const uintptr_t x = (uintptr_t)p->place, y = (uintptr_t)q->place;
    int c = (x > y) - (x < y);

    if (!c)
        c = (p->precision > q->precision) - (p->precision < q->precision);
    return c ? c : (p > q) - (p < q);
}

static int cmp_first(const void *a, const void *b)
{
    const size_t x = ((const struct clb_sweep_group *)a)->first;
    const size_t y = ((const struct clb_sweep_group *)b)->first;
    return (x > y) - (x < y);
}

/* The group of t[0 .. n), one place and precision's points in point order. */
static void judge_group(const struct clb_sweep_point *const *t, size_t n,
                        struct clb_sweep_group *g)
{
    struct clb_sweep_size size[CLB_SWEEP_MAX_TRIADS];

    g->n_sizes = 0;
    for (size_t j = 0; j < n && g->n_sizes < CLB_SWEEP_MAX_TRIADS; j++) {
        struct clb_sweep_size *z = &size[g->n_sizes++];
        *z = (struct clb_sweep_size){ .array_bytes = t[j]->array_bytes, .value = t[j]->value };
        clb_sweep_spread(t[j]->times_s, t[j]->n_times, t[j]->work, &z->lo, &z->hi);
    }
    clb_sweep_judge(size, g->n_sizes, t[0]->llc_bytes, &g->finding);
}

int clb_sweep_group_points(const struct clb_sweep_point *p, size_t n,
                           struct clb_sweep_groups *out)
{
    const struct clb_sweep_point **t = malloc((n + 1) * sizeof(*t));

    memset(out, 0, sizeof(*out));
    out->g = calloc(n + 1, sizeof(*out->g));
    if (!t || !out->g) {
        free(t);
        clb_sweep_groups_finish(out);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        t[i] = &p[i];
    qsort(t, n, sizeof(*t), cmp_point);
    for (size_t k = 0, e; k < n; k = e) {
        for (e = k + 1; e < n && t[e]->place == t[k]->place &&
                        t[e]->precision == t[k]->precision; e++)
            ;
        struct clb_sweep_group *g = &out->g[out->n++];
        g->place = t[k]->place;
        g->precision = t[k]->precision;
        g->first = (size_t)(t[k] - p);
        judge_group(t + k, e - k, g);
    }
    qsort(out->g, out->n, sizeof(*out->g), cmp_first);
    free(t);
    return 0;
}

void clb_sweep_groups_finish(struct clb_sweep_groups *g)
{
    free(g->g);
    memset(g, 0, sizeof(*g));
}
