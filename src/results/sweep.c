#include "clbench/results/sweep.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "clbench/util/units.h"

bool clb_sweep_cache_edge(const double *work, const double *value, size_t n, size_t *big,
                          size_t *cached, size_t *after)
{
    size_t b = 0, c = SIZE_MAX, a = SIZE_MAX;

    if (n == 0)
        return false;
    for (size_t j = 1; j < n; j++)
        if (work[j] > work[b])
            b = j;
    for (size_t j = 0; j < n; j++)
        if (value[j] >= 1.5 * value[b] && (c == SIZE_MAX || work[j] > work[c]))
            c = j;
    for (size_t j = 0; c != SIZE_MAX && j < n; j++)
        if (work[j] > work[c] && (a == SIZE_MAX || work[j] < work[a]))
            a = j;
    *big = b;
    if (c == SIZE_MAX || a == SIZE_MAX)
        return false;
    *cached = c;
    *after = a;
    return true;
}

void clb_sweep_finding_text(char *buf, size_t len, const char *metric, const double *work,
                            const double *value, bool found, size_t big, size_t cached,
                            size_t after)
{
    char a[32], b[32], va[48], vb[48];

    if (!found) {
        clb_format_bytes((uint64_t)(work[big] / 3), b, sizeof(b));
        clb_format_metric(metric, value[big], vb, sizeof(vb));
        snprintf(buf, len, "no size ran 1.5x faster than %s arrays (%s)", b, vb);
        return;
    }
    clb_format_bytes((uint64_t)(work[cached] / 3), a, sizeof(a));
    clb_format_metric(metric, value[cached], va, sizeof(va));
    clb_format_bytes((uint64_t)(work[after] / 3), b, sizeof(b));
    clb_format_metric(metric, value[after], vb, sizeof(vb));
    snprintf(buf, len, "caches help up to %s arrays (%s) and stop by %s (%s)", a, va, b, vb);
}

bool clb_sweep_row(const struct clb_result_row *r)
{
    return !strcmp(r->benchmark, "bandwidth") && r->has_value && r->precision &&
           !strcmp(r->metric, "gbps") && r->kernel && r->sized && r->array_bytes > 0;
}

static double bytes_per_call(const struct clb_result_row *r)
{
    json_t *w = json_object_get(r->config, "bytes_per_call");

    return r->work_per_call > 0 ? r->work_per_call : json_is_number(w) ? json_number_value(w) : 0;
}

bool clb_sweep_triad(const struct clb_result_row *r)
{
    return clb_sweep_row(r) && !strcmp(r->kernel, "triad") && bytes_per_call(r) > 0;
}

void clb_sweep_of(const struct clb_result_file *f, const struct clb_result_row *dev,
                  struct clb_sweep *s)
{
    memset(s, 0, sizeof(*s));
    for (size_t i = 0; i < f->n_rows; i++) {
        const struct clb_result_row *r = &f->rows[i];
        if (!clb_result_row_same_device(r, dev) || !clb_sweep_triad(r) ||
            strcmp(r->precision, dev->precision))
            continue;
        if (s->n_triad == CLB_SWEEP_MAX_TRIADS)
            break; /* the rows it holds are the sweep it states; so are their sizes */
        bool seen = false;
        const double w = bytes_per_call(r);
        for (size_t j = 0; j < s->n_triad && !seen; j++)
            seen = s->work[j] == w;
        s->n_sizes += !seen;
        s->triad[s->n_triad] = r;
        s->value[s->n_triad] = r->value;
        s->work[s->n_triad++] = w;
    }
    if (!s->n_triad)
        return;
    s->found = clb_sweep_cache_edge(s->work, s->value, s->n_triad, &s->big, &s->cached,
                                    &s->after);
    clb_sweep_finding_text(s->finding, sizeof(s->finding), s->triad[s->big]->metric, s->work,
                           s->value, s->found, s->big, s->cached, s->after);
}
