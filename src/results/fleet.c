#include "clbench/results/fleet.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/core/types.h"
#include "clbench/results/compare.h"
#include "clbench/util/units.h"

/* The rows of every rank that are one figure (their statistics are across ranks). */
struct figure {
    const struct clb_result_row *first; /* the first row seen, whose identity the others share */
    double *values; /* the verified values, in rank order */
    size_t n, cap;
    double median;
};

static const char *str(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : "";
}

static bool same_str(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

bool clb_fleet_same_figure(const struct clb_result_row *a, const struct clb_result_row *b)
{
    return a->slot == b->slot && same_str(a->host_cpu, b->host_cpu) &&
           clb_result_row_same_benchmark(a, b) && !strcmp(a->case_, b->case_) &&
           !strcmp(a->backend, b->backend) && !strcmp(a->device, b->device) &&
           !strcmp(a->metric, b->metric) &&
           clb_result_row_same_precision(a, b) && clb_config_equal(a->config, b->config);
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(const double *v, size_t n, double *sorted)
{
    memcpy(sorted, v, n * sizeof(*v));
    qsort(sorted, n, sizeof(*sorted), cmp_double);
    return n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

/* The figure of row (added when new); NULL when out of memory. */
static struct figure *figure_of(struct figure **figs, size_t *n, size_t *cap,
                                const struct clb_result_row *row)
{
    for (size_t i = 0; i < *n; i++)
        if (clb_fleet_same_figure((*figs)[i].first, row))
            return &(*figs)[i];
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 16;
        struct figure *f = realloc(*figs, c * sizeof(*f));
        if (!f)
            return NULL;
        *figs = f;
        *cap = c;
    }
    (*figs)[*n] = (struct figure){ .first = row };
    return &(*figs)[(*n)++];
}

static int figure_add(struct figure *f, double v)
{
    if (f->n == f->cap) {
        size_t c = f->cap ? f->cap * 2 : 8;
        double *p = realloc(f->values, c * sizeof(*p));
        if (!p)
            return -1;
        f->values = p;
        f->cap = c;
    }
    f->values[f->n++] = v;
    return 0;
}

/* Whether figure a is worse than b: below it, or above it for lower-is-better metrics. */
static bool worse(double a, double b, bool lower_better)
{
    return lower_better ? a > b : a < b;
}

/*
 * The row's figure had its calls all been its fastest (best) or its slowest
 * one: its value scaled by the calls' spread around their median. Every
 * fleet metric is work per call time (GFLOP/s, GB/s) or a time (us).
 */
static double call_figure(const struct clb_result_row *r, bool best, bool lower_better)
{
    const double t = best ? r->fastest_s : r->slowest_s;
    if (lower_better)
        return r->value * t / r->call_median_s;
    return t > 0 ? r->value * r->call_median_s / t : INFINITY;
}

/* A row with enough calls to say how far its figure spreads. */
static bool has_spread(const struct clb_result_row *r)
{
    return r->has_value && r->n_calls >= CLB_FLEET_JUDGE_MIN_CALLS && r->call_median_s > 0;
}

enum verdict { FINE, STRAGGLER, NOT_JUDGED };

/*
 * Row r of figure f (median set), against the other ranks' rows of it among
 * parsed's: beyond the threshold from the median, and even its best call
 * worse than the median of the others' slowest calls. Beyond the threshold
 * but measured too little, or within the others' spread: not judged. The
 * others need only their spread: however short, their slowest call is the
 * worst they saw.
 */
static enum verdict judge(const struct figure *f, const struct clb_result_row *r,
                          const struct clb_result_file *parsed, double threshold,
                          double *scratch)
{
    const bool lower = clb_metric_lower_is_better(f->first->metric);
    const double bound = lower ? (1.0 + threshold) * f->median : (1.0 - threshold) * f->median;
    size_t n = 0;

    if (!worse(r->value, bound, lower))
        return FINE;
    if (!has_spread(r) || r->calls_s < CLB_FLEET_JUDGE_MIN_S)
        return NOT_JUDGED;
    for (size_t i = 0; i < parsed->n_rows; i++) {
        const struct clb_result_row *o = &parsed->rows[i];
        if (o != r && has_spread(o) && clb_fleet_same_figure(f->first, o))
            scratch[n++] = call_figure(o, false, lower);
    }
    if (!n)
        return NOT_JUDGED;
    const double others_slowest = median_of(scratch, n, scratch + n);
    return worse(call_figure(r, true, lower), others_slowest, lower) ? STRAGGLER : NOT_JUDGED;
}

/*
 * The figure's summary for "fleet.figures"; its rows (rows[i] is parsed[i])
 * get fleet_median and straggler.
 */
static json_t *figure_json(struct figure *f, const struct clb_result_file *parsed, json_t *rows,
                           double threshold)
{
    json_t *o = json_object(), *who = json_array(), *unjudged = json_array();
    const bool lower = clb_metric_lower_is_better(f->first->metric);
    double sum = 0, lo = INFINITY, hi = -INFINITY;
    double *sorted = malloc(2 * (parsed->n_rows + 1) * sizeof(*sorted));

    if (!o || !who || !unjudged || !sorted) {
        json_decref(o);
        json_decref(who);
        json_decref(unjudged);
        free(sorted);
        return NULL;
    }
    f->median = f->n ? median_of(f->values, f->n, sorted) : 0;
    for (size_t i = 0; i < f->n; i++) {
        sum += f->values[i];
        lo = fmin(lo, f->values[i]);
        hi = fmax(hi, f->values[i]);
    }
    for (size_t i = 0; f->n && i < parsed->n_rows; i++) {
        const struct clb_result_row *r = &parsed->rows[i];
        if (!clb_fleet_same_figure(f->first, r))
            continue;
        /* A peak width that is not its rank's best is listed, never judged. */
        const enum verdict v = r->has_value && r->headline
                                   ? judge(f, r, parsed, threshold, sorted) : FINE;
        json_t *row = json_array_get(rows, i);
        json_object_set_new(row, "fleet_median", json_real(f->median));
        json_object_set_new(row, "straggler", json_boolean(v == STRAGGLER));
        json_object_set_new(row, "judged", json_boolean(v != NOT_JUDGED));
        if (v != FINE)
            json_array_append_new(v == STRAGGLER ? who : unjudged, json_integer(r->rank));
    }
    free(sorted);
    const struct clb_result_row *r = f->first;
    json_object_set_new(o, "benchmark", json_string(r->benchmark_name));
    json_object_set_new(o, "case", json_string(r->case_));
    json_object_set_new(o, "backend", json_string(r->backend));
    json_object_set_new(o, "precision",
                        r->precision_name ? json_string(r->precision_name) : json_null());
    json_object_set_new(o, "device_name", json_string(r->device));
    json_object_set_new(o, "slot", r->slot >= 0 ? json_integer(r->slot) : json_null());
    json_object_set_new(o, "host_cpu", r->host_cpu ? json_string(r->host_cpu) : json_null());
    json_object_set_new(o, "metric", json_string(r->metric));
    bool headline = false;
    for (size_t i = 0; i < parsed->n_rows; i++)
        headline |= parsed->rows[i].headline && clb_fleet_same_figure(r, &parsed->rows[i]);
    json_object_set_new(o, "headline", json_boolean(headline));
    json_object_set_new(o, "lower_is_better", json_boolean(lower));
    json_object_set_new(o, "ranks", json_integer((json_int_t)f->n));
    json_object_set_new(o, "sum", f->n ? json_real(sum) : json_null());
    json_object_set_new(o, "min", f->n ? json_real(lo) : json_null());
    json_object_set_new(o, "median", f->n ? json_real(f->median) : json_null());
    json_object_set_new(o, "max", f->n ? json_real(hi) : json_null());
    json_object_set_new(o, "stragglers", who);
    json_object_set_new(o, "not_judged", unjudged);
    return o;
}

/* Stamps who measured each of `from`'s entries and appends them to `to`. */
static int stamp_all(json_t *from, json_t *to, const char *host, size_t rank, int local_rank)
{
    size_t i;
    json_t *v;

    json_array_foreach(from, i, v) {
        if (!json_is_object(v))
            continue;
        json_object_set_new(v, "host", json_string(host));
        json_object_set_new(v, "rank", json_integer((json_int_t)rank));
        json_object_set_new(v, "local_rank", json_integer(local_rank));
        if (json_array_append(to, v))
            return -1;
    }
    return 0;
}

/*
 * What makes a rank's row one figure with other ranks' beyond its own fields:
 * the step it ran in, its device's place among the rank's devices ("slot"),
 * and for a host row the CPU it ran on ("host_cpu").
 */
static void stamp_place(json_t *results, json_t *devices, json_t *host)
{
    size_t i, d;
    json_t *row, *dev;

    json_array_foreach(results, i, row) {
        const char *id = str(row, "device");
        if (!strcmp(id, "host")) {
            json_object_set(row, "host_cpu", json_object_get(host, "cpu"));
            continue;
        }
        json_array_foreach(devices, d, dev)
            if (!strcmp(str(dev, "id"), id))
                break;
        if (d < json_array_size(devices))
            json_object_set_new(row, "slot", json_integer((json_int_t)d));
    }
}

/* The node of each rank, in the order nodes first appear: [{hostname, ranks, host}]. */
static int add_host(json_t *hosts, const char *name, size_t rank, json_t *host)
{
    size_t i;
    json_t *h;

    json_array_foreach(hosts, i, h) {
        if (!strcmp(str(h, "hostname"), name))
            return json_array_append_new(json_object_get(h, "ranks"),
                                         json_integer((json_int_t)rank));
    }
    return json_array_append_new(hosts, json_pack("{s:s, s:[I], s:O}", "hostname", name, "ranks",
                                                  (json_int_t)rank, "host", host));
}

/* The rank's document, checked as any result file is; NULL with why set. */
static json_t *part_doc(const struct clb_fleet_part *p, char *why, size_t len)
{
    struct clb_result_file *f;
    struct clb_error e;
    json_t *d;

    if (!p->text || !p->len) {
        snprintf(why, len, "it sent no results (its document could not be written)");
        return NULL;
    }
    if (!(f = clb_result_file_parse("its results", p->text, p->len, &e))) {
        snprintf(why, len, "%s", e.msg);
        return NULL;
    }
    d = json_incref(f->root);
    clb_result_file_destroy(f);
    return d;
}

json_t *clb_fleet_merge(const struct clb_fleet_part *parts, size_t n, double threshold,
                        struct clb_error *e)
{
    char why[sizeof(((struct clb_error *)0)->msg)];
    json_t *doc = n ? part_doc(&parts[0], why, sizeof(why)) : NULL;
    json_t *rows = json_array(), *devices = json_array(), *hosts = json_array();
    json_t *missing = json_array(), *figs_json = json_array();
    struct figure *figs = NULL;
    size_t n_figs = 0, cap = 0, n_stragglers = 0, n_unjudged = 0;
    bool complete = true, ok = rows && devices && hosts && missing && figs_json;

    if (!doc && n)
        clb_error_set(e, "rank 0: %s", why);
    else if (!doc)
        clb_error_set(e, "no rank sent results");
    for (size_t r = 0; doc && ok && r < n; r++) {
        json_t *d = r ? part_doc(&parts[r], why, sizeof(why)) : json_incref(doc);
        if (!d) {
            complete = false;
            ok = !json_array_append_new(missing, json_pack("{s:I, s:s}", "rank", (json_int_t)r,
                                                           "why", why));
            continue;
        }
        json_t *host = json_object_get(d, "host");
        const char *name = str(host, "hostname");
        complete &= json_is_true(json_object_get(d, "complete"));
        stamp_place(json_object_get(d, "results"), json_object_get(d, "devices"), host);
        ok = !stamp_all(json_object_get(d, "results"), rows, name, r, parts[r].local_rank) &&
             !stamp_all(json_object_get(d, "devices"), devices, name, r, parts[r].local_rank) &&
             !add_host(hosts, name, r, host);
        json_decref(d);
    }
    /* The stamped rows read back as the reader sees them: one identity of a figure. */
    struct clb_result_file *parsed = NULL;
    if (doc && ok && !json_object_set(doc, "results", rows) &&
        !json_object_set(doc, "devices", devices)) {
        char *text = json_dumps(doc, JSON_COMPACT);
        parsed = text ? clb_result_file_parse("the merged results", text, strlen(text), e) : NULL;
        free(text);
    }
    const bool unreadable = doc && ok && !parsed; /* e says why */
    ok = ok && !unreadable;
    for (size_t i = 0; ok && parsed && i < parsed->n_rows; i++) {
        struct figure *f = figure_of(&figs, &n_figs, &cap, &parsed->rows[i]);
        ok = f && (!parsed->rows[i].has_value || !figure_add(f, parsed->rows[i].value));
    }
    for (size_t k = 0; ok && k < n_figs; k++) {
        json_t *fj = figure_json(&figs[k], parsed, rows, threshold);
        ok = fj && !json_array_append_new(figs_json, fj);
        if (ok) {
            n_stragglers += json_array_size(json_object_get(fj, "stragglers"));
            n_unjudged += json_array_size(json_object_get(fj, "not_judged"));
        }
    }
    for (size_t k = 0; k < n_figs; k++)
        free(figs[k].values);
    free(figs);
    clb_result_file_destroy(parsed);
    if (doc && ok) {
        json_t *fleet = json_pack("{s:I, s:f, s:{s:I, s:f}, s:O, s:O, s:I, s:I, s:O}", "ranks",
                                  (json_int_t)n, "threshold", threshold, "judged_when",
                                  "calls", (json_int_t)CLB_FLEET_JUDGE_MIN_CALLS, "seconds",
                                  CLB_FLEET_JUDGE_MIN_S, "hosts", hosts, "figures", figs_json,
                                  "stragglers", (json_int_t)n_stragglers, "not_judged",
                                  (json_int_t)n_unjudged, "missing", missing);
        ok = fleet && !json_object_set_new(doc, "fleet", fleet) &&
             !json_object_set_new(doc, "complete", json_boolean(complete));
    }
    if (doc && !ok) {
        if (!unreadable)
            clb_error_set(e, "out of host memory merging the ranks' results");
        json_decref(doc);
        doc = NULL;
    }
    json_decref(rows);
    json_decref(devices);
    json_decref(hosts);
    json_decref(missing);
    json_decref(figs_json);
    return doc;
}

static int cmp_rank(const void *a, const void *b)
{
    int x = (*(const struct clb_result_row *const *)a)->rank;
    int y = (*(const struct clb_result_row *const *)b)->rank;
    return (x > y) - (x < y);
}

/* The statistics of fleet.figures[k] when its entry is f's k-th figure; false when not. */
static bool figure_stats(const struct clb_result_file *f, size_t k, struct clb_fleet_figure *g)
{
    json_t *o = json_array_get(json_object_get(f->fleet, "figures"), k);
    json_t *ranks = json_object_get(o, "ranks");
    const struct clb_result_row *r = g->first;

    if (!json_is_object(o) || strcmp(str(o, "benchmark"), r->benchmark_name) ||
        strcmp(str(o, "case"), r->case_) || strcmp(str(o, "backend"), r->backend) ||
        strcmp(str(o, "device_name"), r->device) || strcmp(str(o, "metric"), r->metric) ||
        !json_is_integer(ranks) || (size_t)json_integer_value(ranks) != g->n_values)
        return false;
    if (!g->n_values)
        return true;
    double *const to[] = { &g->sum, &g->min, &g->median, &g->max };
    static const char *const keys[] = { "sum", "min", "median", "max" };
    for (size_t i = 0; i < 4; i++) {
        json_t *v = json_object_get(o, keys[i]);
        if (!json_is_number(v))
            return false;
        *to[i] = json_number_value(v);
    }
    return true;
}

/* From the rows, where fleet.figures does not say: the merge's statistics. */
static void figure_from_rows(struct clb_fleet_figure *g, double *sorted)
{
    size_t n = 0;

    g->sum = 0, g->min = INFINITY, g->max = -INFINITY, g->median = 0;
    for (size_t i = 0; i < g->n_rows; i++) {
        const struct clb_result_row *r = g->rows[i];
        if (r->fleet_median > 0)
            g->median = r->fleet_median;
        if (!r->has_value)
            continue;
        sorted[n++] = r->value;
        g->sum += r->value;
        g->min = fmin(g->min, r->value);
        g->max = fmax(g->max, r->value);
    }
    /* The run's own median stands; files without one get it from the figures. */
    if (g->median <= 0 && n > 0) {
        qsort(sorted, n, sizeof(*sorted), cmp_double);
        g->median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    }
}

/* Row i's figure among figs[0..n) (added when new). */
static size_t figure_index(struct clb_fleet_figures *out, const struct clb_result_row *r)
{
    size_t k = 0;

    while (k < out->n && !clb_fleet_same_figure(out->figs[k].first, r))
        k++;
    if (k == out->n)
        out->figs[out->n++] = (struct clb_fleet_figure){ .first = r };
    return k;
}

int clb_fleet_figures_read(const struct clb_result_file *f, struct clb_fleet_figures *out)
{
    size_t *fig_of = calloc(f->n_rows + 1, sizeof(*fig_of));
    double *sorted = calloc(f->n_rows + 1, sizeof(*sorted));

    memset(out, 0, sizeof(*out));
    out->figs = calloc(f->n_rows + 1, sizeof(*out->figs));
    out->rows_ = calloc(2 * f->n_rows + 1, sizeof(*out->rows_));
    if (!fig_of || !sorted || !out->figs || !out->rows_) {
        free(fig_of);
        free(sorted);
        clb_fleet_figures_finish(out);
        return -1;
    }
    size_t used = 0;
    for (size_t i = 0; i < f->n_rows; i++)
        fig_of[i] = f->rows[i].host ? figure_index(out, &f->rows[i]) : SIZE_MAX;
    for (size_t k = 0; k < out->n; k++) {
        struct clb_fleet_figure *g = &out->figs[k];
        const struct clb_result_row **rows = out->rows_ + used;
        for (size_t i = 0; i < f->n_rows; i++)
            if (fig_of[i] == k)
                rows[g->n_rows++] = &f->rows[i];
        qsort(rows, g->n_rows, sizeof(rows[0]), cmp_rank);
        used += g->n_rows;
        g->rows = rows;
        for (size_t i = 0; i < g->n_rows; i++) {
            g->n_stragglers += rows[i]->straggler;
            g->n_values += rows[i]->has_value;
        }
        g->n_unmeasured = g->n_rows - g->n_values;
        if (!figure_stats(f, k, g))
            figure_from_rows(g, sorted);
    }
    out->ranks = out->rows_ + used;
    for (size_t i = 0; i < f->n_rows; i++)
        if (f->rows[i].host)
            out->ranks[out->n_ranks++] = &f->rows[i];
    qsort(out->ranks, out->n_ranks, sizeof(out->ranks[0]), cmp_rank);
    size_t u = 0;
    for (size_t i = 0; i < out->n_ranks; i++)
        if (u == 0 || out->ranks[i]->rank != out->ranks[u - 1]->rank)
            out->ranks[u++] = out->ranks[i];
    out->n_ranks = u;
    free(fig_of);
    free(sorted);
    return 0;
}

void clb_fleet_figures_finish(struct clb_fleet_figures *figs)
{
    free(figs->figs);
    free(figs->rows_);
    memset(figs, 0, sizeof(*figs));
}
