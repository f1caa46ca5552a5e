#include "clbench/results/fleet.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/core/types.h"
#include "clbench/results/compare.h"
#include "clbench/util/units.h"

static const char *str(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : "";
}

static bool same_str(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

bool clb_fleet_same_figure(const struct clb_row *a, const struct clb_row *b)
{
    return a->slot == b->slot && same_str(a->host_cpu, b->host_cpu) &&
           clb_result_row_same_benchmark(a, b) && !strcmp(a->case_, b->case_) &&
           !strcmp(a->backend, b->backend) && !strcmp(a->device_name, b->device_name) &&
           !strcmp(a->metric, b->metric) &&
           clb_result_row_same_precision(a, b) && clb_config_equal(a->config, b->config);
}

/*
 * A file's rows grouped into figures (clb_fleet_same_figure), in the order
 * their first rows appear: fig_of[i] is row i's figure (SIZE_MAX: none), the
 * rows of figure k are idx[start[k] .. start[k + 1]), in row order.
 */
struct grouping {
    size_t n;       /* figures */
    size_t *fig_of; /* per row */
    size_t *first;  /* per figure: its first row */
    size_t *idx;    /* the rows, figure by figure */
    size_t *start;  /* n + 1 */
};

/* FNV-1a; NULL and "" hash apart, as same_str tells them apart. */
static uint64_t hash_str(uint64_t h, const char *s)
{
    if (!s)
        return (h ^ 0x100) * 0x100000001b3u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3u;
    return (h ^ 0x101) * 0x100000001b3u;
}

/* What clb_fleet_same_figure compares but the config: rows of one figure hash alike. */
static uint64_t figure_hash(const struct clb_row *r)
{
    const char *const s[] = { r->benchmark_name, r->case_,         r->backend, r->device_name,
                              r->metric,         r->precision_name, r->host_cpu };
    uint64_t h = 0xcbf29ce484222325u ^ (uint64_t)(int64_t)r->slot;

    for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
        h = hash_str(h, s[i]);
    return h;
}

static void grouping_finish(struct grouping *g)
{
    free(g->fig_of);
    free(g->first);
    free(g->idx);
    free(g->start);
    memset(g, 0, sizeof(*g));
}

/* Each row's figure through an open-addressed table (mask + 1 slots: figure + 1, 0 free). */
static void assign_figures(const struct clb_result_file *f, bool fleet_only, struct grouping *g,
                           size_t *table, uint64_t *hashes, size_t mask)
{
    for (size_t i = 0; i < f->n_rows; i++) {
        const struct clb_row *r = &f->rows[i];
        g->fig_of[i] = SIZE_MAX;
        if (fleet_only && !r->host)
            continue;
        const uint64_t h = figure_hash(r);
        size_t p = (size_t)h & mask;
        while (table[p] && !(hashes[table[p] - 1] == h &&
                             clb_fleet_same_figure(&f->rows[g->first[table[p] - 1]], r)))
            p = (p + 1) & mask;
        if (!table[p]) {
            hashes[g->n] = h;
            g->first[g->n] = i;
            table[p] = ++g->n;
        }
        g->fig_of[i] = table[p] - 1;
        g->start[table[p]]++;
    }
}

/* Groups f's rows (only those with a host when fleet_only); 0, or -1 out of memory. */
static int group_rows(const struct clb_result_file *f, bool fleet_only, struct grouping *g)
{
    const size_t n = f->n_rows + 1;
    size_t cap = 16;

    while (cap < 2 * n)
        cap *= 2;
    size_t *table = calloc(cap, sizeof(*table));
    uint64_t *hashes = malloc(n * sizeof(*hashes));
    memset(g, 0, sizeof(*g));
    g->fig_of = malloc(n * sizeof(*g->fig_of));
    g->first = malloc(n * sizeof(*g->first));
    g->idx = malloc(n * sizeof(*g->idx));
    g->start = calloc(n + 1, sizeof(*g->start));
    const bool ok = table && hashes && g->fig_of && g->first && g->idx && g->start;
    if (ok) {
        assign_figures(f, fleet_only, g, table, hashes, cap - 1);
        /* A counting sort: start[k + 1] counted figure k's rows. */
        for (size_t k = 0; k < g->n; k++)
            g->start[k + 1] += g->start[k];
        for (size_t i = 0; i < f->n_rows; i++)
            if (g->fig_of[i] != SIZE_MAX)
                g->idx[g->start[g->fig_of[i]]++] = i;
        for (size_t k = g->n; k > 0; k--)
            g->start[k] = g->start[k - 1];
        g->start[0] = 0;
    } else {
        grouping_finish(g);
    }
    free(table);
    free(hashes);
    return ok ? 0 : -1;
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
static double call_figure(const struct clb_row *r, bool best, bool lower_better)
{
    const double t = best ? r->time_s.min : r->time_s.max;
    if (lower_better)
        return r->value * t / r->time_s.median;
    return t > 0 ? r->value * r->time_s.median / t : INFINITY;
}

/* A row with enough calls to say how far its figure spreads. */
static bool has_spread(const struct clb_row *r)
{
    return r->has_value && r->time_s.n >= CLB_FLEET_JUDGE_MIN_CALLS && r->time_s.median > 0;
}

enum verdict { FINE, STRAGGLER, NOT_JUDGED };

/*
 * Row r of figure k of parsed's rows (its median given), against the other
 * ranks' rows of it: beyond the threshold from the median, and even its best call
 * worse than the median of the others' slowest calls. Beyond the threshold
 * but measured too little, or within the others' spread: not judged. The
 * others need only their spread: however short, their slowest call is the
 * worst they saw.
 */
static enum verdict judge(const struct grouping *g, size_t k, const struct clb_row *r,
                          const struct clb_result_file *parsed, double median, double threshold,
                          double *scratch)
{
    const bool lower = clb_metric_lower_is_better(parsed->rows[g->first[k]].metric);
    const double bound = lower ? (1.0 + threshold) * median : (1.0 - threshold) * median;
    size_t n = 0;

    if (!worse(r->value, bound, lower))
        return FINE;
    if (!has_spread(r) || r->measured_s < CLB_FLEET_JUDGE_MIN_S)
        return NOT_JUDGED;
    for (size_t j = g->start[k]; j < g->start[k + 1]; j++) {
        const struct clb_row *o = &parsed->rows[g->idx[j]];
        if (o != r && has_spread(o))
            scratch[n++] = call_figure(o, false, lower);
    }
    if (!n)
        return NOT_JUDGED;
    const double others_slowest = median_of(scratch, n, scratch + n);
    return worse(call_figure(r, true, lower), others_slowest, lower) ? STRAGGLER : NOT_JUDGED;
}

/*
 * Figure k's summary for "fleet.figures"; its rows (rows[i] is parsed[i])
 * get fleet_median and straggler.
 */
static json_t *figure_json(const struct grouping *g, size_t k, const struct clb_result_file *parsed,
                           json_t *rows, double threshold)
{
    json_t *o = json_object(), *who = json_array(), *unjudged = json_array();
    const struct clb_row *r = &parsed->rows[g->first[k]];
    const bool lower = clb_metric_lower_is_better(r->metric);
    const size_t n_rows = g->start[k + 1] - g->start[k];
    double sum = 0, lo = INFINITY, hi = -INFINITY, median = 0;
    /* the verified values in row order, then room to sort them or the others' calls */
    double *values = malloc(3 * (n_rows + 1) * sizeof(*values)), *sorted = values + n_rows + 1;
    size_t n = 0;
    bool headline = false;

    if (!o || !who || !unjudged || !values) {
        json_decref(o);
        json_decref(who);
        json_decref(unjudged);
        free(values);
        return NULL;
    }
    for (size_t j = g->start[k]; j < g->start[k + 1]; j++) {
        const struct clb_row *q = &parsed->rows[g->idx[j]];
        headline |= q->headline;
        if (q->has_value)
            values[n++] = q->value;
    }
    median = n ? median_of(values, n, sorted) : 0;
    for (size_t i = 0; i < n; i++) {
        sum += values[i];
        lo = fmin(lo, values[i]);
        hi = fmax(hi, values[i]);
    }
    for (size_t j = g->start[k]; n && j < g->start[k + 1]; j++) {
        const struct clb_row *q = &parsed->rows[g->idx[j]];
        /* A peak width that is not its rank's best is listed, never judged. */
        const enum verdict v = q->has_value && q->headline
                                   ? judge(g, k, q, parsed, median, threshold, sorted) : FINE;
        json_t *row = json_array_get(rows, g->idx[j]);
        json_object_set_new(row, "fleet_median", json_real(median));
        json_object_set_new(row, "straggler", json_boolean(v == STRAGGLER));
        json_object_set_new(row, "judged", json_boolean(v != NOT_JUDGED));
        if (v != FINE)
            json_array_append_new(v == STRAGGLER ? who : unjudged, json_integer(q->rank));
    }
    free(values);
    json_object_set_new(o, "benchmark", json_string(r->benchmark_name));
    json_object_set_new(o, "case", json_string(r->case_));
    json_object_set_new(o, "backend", json_string(r->backend));
    json_object_set_new(o, "precision",
                        r->precision_name ? json_string(r->precision_name) : json_null());
    json_object_set_new(o, "device_name", json_string(r->device_name));
    json_object_set_new(o, "slot", r->slot >= 0 ? json_integer(r->slot) : json_null());
    json_object_set_new(o, "host_cpu", r->host_cpu ? json_string(r->host_cpu) : json_null());
    json_object_set_new(o, "metric", json_string(r->metric));
    json_object_set_new(o, "headline", json_boolean(headline));
    json_object_set_new(o, "lower_is_better", json_boolean(lower));
    json_object_set_new(o, "ranks", json_integer((json_int_t)n));
    json_object_set_new(o, "sum", n ? json_real(sum) : json_null());
    json_object_set_new(o, "min", n ? json_real(lo) : json_null());
    json_object_set_new(o, "median", n ? json_real(median) : json_null());
    json_object_set_new(o, "max", n ? json_real(hi) : json_null());
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
    struct grouping g = { .n = 0 };
    size_t n_stragglers = 0, n_unjudged = 0;
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
    if (ok && parsed)
        ok = !group_rows(parsed, false, &g);
    for (size_t k = 0; ok && k < g.n; k++) {
        json_t *fj = figure_json(&g, k, parsed, rows, threshold);
        ok = fj && !json_array_append_new(figs_json, fj);
        if (ok) {
            n_stragglers += json_array_size(json_object_get(fj, "stragglers"));
            n_unjudged += json_array_size(json_object_get(fj, "not_judged"));
        }
    }
    grouping_finish(&g);
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

/* By rank; one rank's rows of a figure in row order (rows lie in one array). */
static int cmp_rank(const void *a, const void *b)
{
    const struct clb_row *x = *(const struct clb_row *const *)a;
    const struct clb_row *y = *(const struct clb_row *const *)b;
    if (x->rank != y->rank)
        return (x->rank > y->rank) - (x->rank < y->rank);
    return (x > y) - (x < y);
}

/* The statistics of fleet.figures[k] when its entry is f's k-th figure; false when not. */
static bool figure_stats(const struct clb_result_file *f, size_t k, struct clb_fleet_figure *g)
{
    json_t *o = json_array_get(json_object_get(f->fleet, "figures"), k);
    json_t *ranks = json_object_get(o, "ranks");
    const struct clb_row *r = g->first;

    if (!json_is_object(o) || strcmp(str(o, "benchmark"), r->benchmark_name) ||
        strcmp(str(o, "case"), r->case_) || strcmp(str(o, "backend"), r->backend) ||
        strcmp(str(o, "device_name"), r->device_name) || strcmp(str(o, "metric"), r->metric) ||
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
        const struct clb_row *r = g->rows[i];
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

/*
 * The rest of the "fleet" object: its counts, hosts and missing ranks, with
 * room ranks more in ranks_. 0, or -1 out of memory.
 */
static int read_fleet_object(json_t *fleet, size_t room, struct clb_fleet_figures *out)
{
    json_t *hosts = json_object_get(fleet, "hosts"), *missing = json_object_get(fleet, "missing");
    json_t *when = json_object_get(fleet, "judged_when"), *h, *m, *r;
    size_t i, k, n_ranks = 0;

    out->world_ranks = json_integer_value(json_object_get(fleet, "ranks"));
    out->threshold = json_number_value(json_object_get(fleet, "threshold"));
    out->judge_min_calls = json_integer_value(json_object_get(when, "calls"));
    out->judge_min_s = json_number_value(json_object_get(when, "seconds"));
    out->n_stragglers = json_integer_value(json_object_get(fleet, "stragglers"));
    out->n_unjudged = json_integer_value(json_object_get(fleet, "not_judged"));
    json_array_foreach(hosts, i, h)
        n_ranks += json_array_size(json_object_get(h, "ranks"));
    out->hosts = calloc(json_array_size(hosts) + 1, sizeof(*out->hosts));
    out->ranks_ = calloc(n_ranks + room + 1, sizeof(*out->ranks_));
    out->missing = calloc(json_array_size(missing) + 1, sizeof(*out->missing));
    if (!out->hosts || !out->ranks_ || !out->missing)
        return -1;
    n_ranks = 0;
    json_array_foreach(hosts, i, h) {
        struct clb_fleet_host *o = &out->hosts[out->n_hosts++];
        o->hostname = json_string_value(json_object_get(h, "hostname"));
        o->ranks = out->ranks_ + n_ranks;
        json_array_foreach(json_object_get(h, "ranks"), k, r)
            out->ranks_[n_ranks++] = json_integer_value(r);
        o->n_ranks = (size_t)(out->ranks_ + n_ranks - o->ranks);
    }
    json_array_foreach(missing, i, m)
        out->missing[out->n_missing++] = (struct clb_fleet_missing){
            json_integer_value(json_object_get(m, "rank")),
            json_string_value(json_object_get(m, "why"))
        };
    return 0;
}

/* Figure k of the grouping, its rows from rows (room for them) in rank order. */
static void figure_read(const struct clb_result_file *f, const struct grouping *grp, size_t k,
                        const struct clb_row **rows, struct clb_fleet_figure *g,
                        double *sorted)
{
    *g = (struct clb_fleet_figure){ .first = &f->rows[grp->first[k]], .rows = rows };
    for (size_t j = grp->start[k]; j < grp->start[k + 1]; j++)
        rows[g->n_rows++] = &f->rows[grp->idx[j]];
    qsort(rows, g->n_rows, sizeof(rows[0]), cmp_rank);
    for (size_t i = 0; i < g->n_rows; i++) {
        g->n_stragglers += rows[i]->straggler;
        g->n_values += rows[i]->has_value;
        g->headline |= rows[i]->headline;
    }
    g->n_unmeasured = g->n_rows - g->n_values;
    if (!figure_stats(f, k, g))
        figure_from_rows(g, sorted);
}

/* By host, then by rank. */
static int cmp_host(const void *a, const void *b)
{
    const struct clb_row *p = *(const struct clb_row *const *)a;
    const struct clb_row *q = *(const struct clb_row *const *)b;
    const int c = strcmp(p->host, q->host);
    return c ? c : (p->rank > q->rank) - (p->rank < q->rank);
}

static int cmp_first_rank(const void *a, const void *b)
{
    const long long x = ((const struct clb_fleet_host *)a)->ranks[0];
    const long long y = ((const struct clb_fleet_host *)b)->ranks[0];
    return (x > y) - (x < y);
}

/* rank_hosts from ranks (one row per rank), by a sort; its ranks after hosts'. 0, or -1. */
static int group_rank_hosts(struct clb_fleet_figures *out)
{
    const struct clb_row **t = malloc((out->n_ranks + 1) * sizeof(*t));
    long long *ranks = out->ranks_;

    out->rank_hosts = calloc(out->n_ranks + 1, sizeof(*out->rank_hosts));
    if (!t || !out->rank_hosts) {
        free(t);
        return -1;
    }
    for (size_t i = 0; i < out->n_hosts; i++)
        ranks += out->hosts[i].n_ranks;
    memcpy(t, out->ranks, out->n_ranks * sizeof(*t));
    qsort(t, out->n_ranks, sizeof(*t), cmp_host);
    for (size_t i = 0; i < out->n_ranks; i++) {
        if (i == 0 || strcmp(t[i]->host, t[i - 1]->host))
            out->rank_hosts[out->n_rank_hosts++] =
                (struct clb_fleet_host){ .hostname = t[i]->host, .ranks = ranks };
        out->rank_hosts[out->n_rank_hosts - 1].n_ranks++;
        *ranks++ = t[i]->rank;
    }
    qsort(out->rank_hosts, out->n_rank_hosts, sizeof(*out->rank_hosts), cmp_first_rank);
    free(t);
    return 0;
}

/* GEMM rows of one backend, device and precision. */
static int cmp_gemm_kind(const void *a, const void *b)
{
    const struct clb_row *p = *(const struct clb_row *const *)a;
    const struct clb_row *q = *(const struct clb_row *const *)b;
    int c = strcmp(p->backend, q->backend);

    if (!c)
        c = strcmp(p->device_name, q->device_name);
    return c ? c : clb_result_row_cmp_precision(p, q);
}

/* Each figure's lead, the largest GEMM size of each kind found by a sort. 0, or -1. */
static int mark_leads(const struct clb_result_file *f, struct clb_fleet_figures *out)
{
    const struct clb_row **t = malloc((f->n_rows + 1) * sizeof(*t));
    double *largest = malloc((f->n_rows + 1) * sizeof(*largest)); /* by row index */
    size_t n = 0;

    if (!t || !largest) {
        free(t);
        free(largest);
        return -1;
    }
    for (size_t i = 0; i < f->n_rows; i++) {
        const struct clb_row *o = &f->rows[i];
        if (o->host && o->benchmark == CLB_BENCH_GEMM && o->precision_name)
            t[n++] = o;
    }
    qsort(t, n, sizeof(*t), cmp_gemm_kind);
    for (size_t k = 0, e; k < n; k = e) {
        double top = clb_result_row_cube_size(t[k]);
        for (e = k + 1; e < n && !cmp_gemm_kind(&t[k], &t[e]); e++)
            top = fmax(top, clb_result_row_cube_size(t[e]));
        for (size_t j = k; j < e; j++)
            largest[t[j] - f->rows] = top;
    }
    for (size_t k = 0; k < out->n; k++) {
        const struct clb_row *r = out->figs[k].first;
        if (r->benchmark != CLB_BENCH_GEMM)
            out->figs[k].lead = r->headline;
        else
            out->figs[k].lead =
                !r->precision_name || !(largest[r - f->rows] > clb_result_row_cube_size(r));
    }
    free(t);
    free(largest);
    return 0;
}

int clb_fleet_figures_read(const struct clb_result_file *f, struct clb_fleet_figures *out)
{
    struct grouping grp;
    double *sorted = calloc(f->n_rows + 1, sizeof(*sorted));

    memset(out, 0, sizeof(*out));
    out->file = f;
    out->figs = calloc(f->n_rows + 1, sizeof(*out->figs));
    out->rows_ = calloc(2 * f->n_rows + 1, sizeof(*out->rows_));
    const int grouped = group_rows(f, true, &grp);
    if (grouped || !sorted || !out->figs || !out->rows_ ||
        read_fleet_object(f->fleet, f->n_rows, out)) {
        if (!grouped)
            grouping_finish(&grp);
        free(sorted);
        clb_fleet_figures_finish(out);
        return -1;
    }
    size_t used = 0;
    for (size_t k = 0; k < grp.n; k++) {
        figure_read(f, &grp, k, out->rows_ + used, &out->figs[k], sorted);
        used += out->figs[k].n_rows;
    }
    out->n = grp.n;
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
    grouping_finish(&grp);
    free(sorted);
    if (mark_leads(f, out) || group_rank_hosts(out)) {
        clb_fleet_figures_finish(out);
        return -1;
    }
    return 0;
}

void clb_fleet_figures_finish(struct clb_fleet_figures *figs)
{
    free(figs->figs);
    free(figs->rows_);
    free(figs->hosts);
    free(figs->missing);
    free(figs->rank_hosts);
    free(figs->ranks_);
    memset(figs, 0, sizeof(*figs));
}
