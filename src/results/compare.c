#include "clbench/results/compare.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/util/parse.h"
#include "clbench/util/units.h"

bool clb_devices_match(const char *first, const char *other, const struct clb_pair_list *pairs)
{
    if (strcmp(first, other) == 0)
        return true;
    for (size_t i = 0; pairs && i < pairs->n; i++)
        if (clb_contains_nocase(first, pairs->v[i].first) && clb_contains_nocase(other, pairs->v[i].other))
            return true;
    return false;
}

bool clb_compare_regressed(const char *metric, double ratio, double threshold)
{
    if (threshold <= 0 || ratio <= 0)
        return false;
    return clb_metric_lower_is_better(metric) ? ratio > 1.0 + threshold : ratio < 1.0 - threshold;
}

bool clb_compare_row_regressed(const struct clb_comparison *c, const struct clb_compare_row *row,
                               size_t i)
{
    return i > 0 && clb_compare_regressed(row->row[0]->metric, row->ratio[i], c->threshold);
}

const char *clb_compare_stat(const struct clb_row *r)
{
    json_t *v = json_object_get(r->config, "stat");
    return json_is_string(v) ? json_string_value(v) : "median";
}

struct clb_figure_spread clb_compare_spread(const struct clb_row *r)
{
    struct clb_figure_spread s = { 0 };
    /* The call the headline is: every figure is work per call time, or a time (latency). */
    const double head_s = !strcmp(clb_compare_stat(r), "best") ? r->time_s.min : r->time_s.median;

    if (!r->has_value || r->time_s.n < CLB_COMPARE_MIN_CALLS || !(head_s > 0) ||
        !(r->time_s.min > 0))
        return s;
    s.known = true;
    if (clb_metric_lower_is_better(r->metric)) {
        s.lo = r->value * r->time_s.min / head_s;
        s.hi = r->value * r->time_s.max / head_s;
    } else {
        s.lo = r->value * head_s / r->time_s.max;
        s.hi = r->value * head_s / r->time_s.min;
    }
    return s;
}

enum clb_noise clb_compare_noise(struct clb_figure_spread a, struct clb_figure_spread b)
{
    if (!a.known || !b.known)
        return CLB_NOISE_UNKNOWN;
    /* Apart only when every call of one file beat every call of the other. */
    return a.lo <= b.hi && b.lo <= a.hi ? CLB_NOISE_WITHIN : CLB_NOISE_BEYOND;
}

const char *clb_noise_name(enum clb_noise n)
{
    return n == CLB_NOISE_WITHIN ? "within" : n == CLB_NOISE_BEYOND ? "beyond" : "unknown";
}

static const char *hostname(const struct clb_result_file *f)
{
    json_t *v = json_object_get(f->host, "hostname");
    return json_is_string(v) ? json_string_value(v) : NULL;
}

bool clb_compare_same_place(const struct clb_result_file *fa, const struct clb_row *a,
                            const struct clb_result_file *fb, const struct clb_row *b)
{
    if (!a->host && !b->host)
        return true;
    const char *ha = a->host ? a->host : hostname(fa), *hb = b->host ? b->host : hostname(fb);
    const int la = a->host ? a->local_rank : 0, lb = b->host ? b->local_rank : 0;
    return ha && hb && !strcmp(ha, hb) && la == lb;
}

static bool same_problem(const struct clb_row *a, const struct clb_row *b)
{
    return clb_result_row_same_benchmark(a, b) && !strcmp(a->case_, b->case_) &&
           !strcmp(a->backend, b->backend) && !strcmp(a->metric, b->metric);
}

bool clb_config_equal(json_t *a, json_t *b)
{
    const char *key;
    json_t *v;

    if (!a || !b)
        return a == b;
    if (json_is_number(a) && json_is_number(b))
        return json_number_value(a) == json_number_value(b);
    if (json_is_object(a) && json_is_object(b)) {
        if (json_object_size(a) != json_object_size(b))
            return false;
        json_object_foreach(a, key, v)
            if (!clb_config_equal(v, json_object_get(b, key)))
                return false;
        return true;
    }
    if (json_is_array(a) && json_is_array(b)) {
        if (json_array_size(a) != json_array_size(b))
            return false;
        for (size_t i = 0; i < json_array_size(a); i++)
            if (!clb_config_equal(json_array_get(a, i), json_array_get(b, i)))
                return false;
        return true;
    }
    return json_equal(a, b);
}

size_t clb_config_diff(json_t *a, json_t *b, struct clb_config_diff *out, size_t cap)
{
    const char *key;
    json_t *v;
    size_t n = 0;

    json_object_foreach(a, key, v)
        if (n < cap && !clb_config_equal(v, json_object_get(b, key)))
            out[n++] = (struct clb_config_diff){ key, v, json_object_get(b, key) };
    json_object_foreach(b, key, v)
        if (n < cap && !json_object_get(a, key))
            out[n++] = (struct clb_config_diff){ key, NULL, v };
    return n;
}

const char *clb_config_absent(const char *key)
{
    /* Writers leave "stat" out for the median, so older files and median rows pair. */
    return key && !strcmp(key, "stat") ? "median" : NULL;
}

void clb_config_value_str(const char *key, json_t *v, char *buf, size_t len)
{
    if (!v)
        snprintf(buf, len, "%s", clb_config_absent(key) ? clb_config_absent(key) : "none");
    else if (json_is_string(v))
        snprintf(buf, len, "%s", json_string_value(v));
    else if (json_is_integer(v))
        snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    else if (json_is_real(v))
        snprintf(buf, len, "%.6g", json_real_value(v));
    else if (json_is_boolean(v))
        snprintf(buf, len, "%s", json_is_true(v) ? "true" : "false");
    else if (json_is_null(v))
        snprintf(buf, len, "null");
    else
        snprintf(buf, len, "%s", json_is_object(v) ? "{...}" : "[...]");
}

/* Status ok or failed: the row holds a figure, verified or not. */
static bool measured(const struct clb_row *r)
{
    return !strcmp(r->status_name, "ok") || !strcmp(r->status_name, "failed");
}

static bool comparable(const struct clb_row *a, const struct clb_row *b)
{
    return !measured(a) || !measured(b) || clb_config_equal(a->config, b->config);
}

static struct clb_compare_group *group_for(struct clb_comparison *c, size_t file,
                                           const struct clb_row *r0,
                                           const struct clb_row *ri)
{
    /* Paired rows share their place when either has one (clb_compare_same_place). */
    const struct clb_row *placed = r0->host ? r0 : ri;

    for (size_t g = 0; g < c->n_groups; g++) {
        struct clb_compare_group *gr = &c->groups[g];
        if (gr->file == file && clb_result_row_same_benchmark(gr->first, r0) &&
            !strcmp(gr->metric, r0->metric) && !strcmp(gr->device0, r0->device_name) &&
            !strcmp(gr->backend, r0->backend) && !strcmp(gr->device, ri->device_name) &&
            (gr->host == placed->host ||
             (gr->host && placed->host && !strcmp(gr->host, placed->host))) &&
            gr->local_rank == placed->local_rank)
            return gr;
    }
    struct clb_compare_group *gr = &c->groups[c->n_groups++];
    gr->file = file;
    gr->benchmark = r0->benchmark_name;
    gr->first = r0;
    gr->metric = r0->metric;
    gr->device0 = r0->device_name;
    gr->backend = r0->backend;
    gr->device = ri->device_name;
    gr->host = placed->host;
    gr->local_rank = placed->local_rank;
    return gr;
}

static json_t *section_value(const struct clb_result_file *f, const char *section,
                             const char *key, const char *sub)
{
    json_t *v = json_object_get(json_object_get(f->root, section), key);
    return sub ? json_object_get(v, sub) : v;
}

/* Records `field` when at least two files have it and their values differ. */
static int add_ignored(struct clb_comparison *c, size_t *cap, const char *field,
                       json_t *const *values)
{
    json_t *first = NULL;
    size_t have = 0;
    bool differ = false;

    for (size_t i = 0; i < c->n_files; i++) {
        if (!values[i])
            continue;
        have++;
        if (!first)
            first = values[i];
        else if (!clb_config_equal(first, values[i]))
            differ = true;
    }
    if (have < 2 || !differ)
        return 0;
    if (c->n_ignored == *cap) {
        size_t n = *cap ? 2 * *cap : 16;
        struct clb_compare_ignored *p = realloc(c->ignored, n * sizeof(*p));
        if (!p)
            return -1;
        c->ignored = p;
        *cap = n;
    }
    struct clb_compare_ignored *ig = &c->ignored[c->n_ignored++];
    snprintf(ig->field, sizeof(ig->field), "%s", field);
    memcpy(ig->values, values, c->n_files * sizeof(values[0]));
    return 0;
}

/* Each key of the files' `section` objects (less `skip`), or its `sub` field, once. */
static int section_ignored(struct clb_comparison *c, size_t *cap, const char *section,
                           const char *sub, const char *const *skip, size_t n_skip)
{
    json_t *values[CLB_COMPARE_MAX_FILES], *v;
    const char *key;
    char field[192];

    for (size_t f = 0; f < c->n_files; f++) {
        json_object_foreach(json_object_get(c->files[f]->root, section), key, v) {
            bool seen = false;
            for (size_t k = 0; k < n_skip && !seen; k++)
                seen = !strcmp(key, skip[k]);
            for (size_t g = 0; g < f && !seen; g++)
                seen = section_value(c->files[g], section, key, NULL) != NULL;
            if (seen)
                continue;
            for (size_t i = 0; i < c->n_files; i++)
                values[i] = section_value(c->files[i], section, key, sub);
            snprintf(field, sizeof(field), "%s.%s%s%s", section, key, sub ? "." : "",
                     sub ? sub : "");
            if (add_ignored(c, cap, field, values))
                return -1;
        }
    }
    return 0;
}

/* The device a row ran on: its id, and in a fleet file the same rank's ("P:D" repeats). */
static json_t *device_of(const struct clb_result_file *f, const struct clb_row *r)
{
    size_t i;
    json_t *d;

    json_array_foreach(f->devices, i, d) {
        json_t *v = json_object_get(d, "id"), *rank = json_object_get(d, "rank");
        if (json_is_string(v) && !strcmp(json_string_value(v), r->device_id) &&
            (r->rank < 0 || (json_is_integer(rank) && json_integer_value(rank) == r->rank)))
            return d;
    }
    return NULL;
}

static bool same_device(const struct clb_row *a, const struct clb_row *b)
{
    return !strcmp(a->device_id, b->device_id) && a->rank == b->rank;
}

/* The driver versions of the devices each of the first file's devices was paired with. */
static int driver_ignored(struct clb_comparison *c, size_t *cap)
{
    json_t *values[CLB_COMPARE_MAX_FILES];
    char field[192];

    for (size_t r = 0; r < c->n_rows; r++) {
        const struct clb_row *r0 = c->rows[r].row[0];
        bool seen = !strcmp(r0->device_id, "host") || !r0->device_id[0];
        for (size_t q = 0; q < r && !seen; q++)
            seen = same_device(c->rows[q].row[0], r0);
        if (seen)
            continue;
        values[0] = json_object_get(device_of(c->files[0], r0), "driver_version");
        for (size_t i = 1; i < c->n_files; i++) {
            values[i] = NULL;
            for (size_t q = r; q < c->n_rows && !values[i]; q++) {
                const struct clb_compare_row *row = &c->rows[q];
                if (row->row[i] && same_device(row->row[0], r0))
                    values[i] = json_object_get(device_of(c->files[i], row->row[i]),
                                                "driver_version");
            }
        }
        if (r0->host)
            snprintf(field, sizeof(field), "devices[%.96s @ %.64s:%d].driver_version", r0->device_name,
                     r0->host, r0->local_rank);
        else
            snprintf(field, sizeof(field), "devices[%s].driver_version", r0->device_name);
        if (add_ignored(c, cap, field, values))
            return -1;
    }
    return 0;
}

static int find_ignored(struct clb_comparison *c)
{
    /* These are in the rows' configs: a difference there keeps rows apart. */
    static const char *const config_options[] = { "alpha", "beta", "transfers", "host_threads" };
    json_t *values[CLB_COMPARE_MAX_FILES];
    size_t cap = 0;

    for (size_t i = 0; i < c->n_files; i++)
        values[i] = json_object_get(c->files[i]->root, "clbench_version");
    if (add_ignored(c, &cap, "clbench_version", values) ||
        section_ignored(c, &cap, "options", NULL, config_options,
                        sizeof(config_options) / sizeof(config_options[0])) ||
        section_ignored(c, &cap, "host", NULL, NULL, 0) ||
        section_ignored(c, &cap, "libraries", "version", NULL, 0) || driver_ignored(c, &cap))
        return -1;
    return 0;
}

static void no_rows_error(const struct clb_comparison *c, struct clb_error *e)
{
    char a[64], b[64];

    bool fleet = false;
    for (size_t i = 0; i < c->n_files; i++)
        fleet |= c->files[i]->fleet != NULL;
    if (c->n_unpaired == 0 || c->unpaired[0].n_diffs == 0) {
        clb_error_set(e, "no results in common between the files (same benchmark, case and "
                         "backend on devices of the same name%s; --pair FIRST=OTHER pairs devices "
                         "of different names)",
                      fleet ? ", measured on the same host by the same local rank (a single "
                              "run counts as local rank 0 of its host)" : "");
        return;
    }
    const struct clb_compare_unpaired *u = &c->unpaired[0];
    const struct clb_config_diff *d = &u->diff[0];
    clb_config_value_str(d->key, d->first, a, sizeof(a));
    clb_config_value_str(d->key, d->other, b, sizeof(b));
    clb_error_set(e, "no results in common between the files: %zu match%s but %s measured "
                     "differently (e.g. %s %s %s: %s %s vs %s)", c->n_unpaired,
                  c->n_unpaired == 1 ? "es" : "", c->n_unpaired == 1 ? "was" : "were",
                  u->first->benchmark_name, u->first->case_, u->first->backend, d->key, a, b);
}

/*
 * The row of file fi that pairs with r0, SIZE_MAX where none does; *near: a row of the
 * same problem measured differently (SIZE_MAX where none). Same device name: prefer the
 * same P:D (identical GPUs in one machine). used: which of fi's rows are paired already.
 */
static size_t pick_row(const struct clb_result_file *f0, const struct clb_row *r0,
                       const struct clb_result_file *fi, const bool *used,
                       const struct clb_pair_list *pairs, size_t *near)
{
    size_t pick = SIZE_MAX;

    *near = SIZE_MAX;
    for (size_t j = 0; j < fi->n_rows; j++) {
        const struct clb_row *ri = &fi->rows[j];
        if (used[j] || !same_problem(r0, ri) ||
            !clb_devices_match(r0->device_name, ri->device_name, pairs) ||
            !clb_compare_same_place(f0, r0, fi, ri))
            continue;
        const bool same_id = !strcmp(ri->device_id, r0->device_id);
        if (!comparable(r0, ri)) {
            if (*near == SIZE_MAX || same_id)
                *near = j;
            continue;
        }
        if (pick == SIZE_MAX || same_id)
            pick = j;
        if (same_id)
            break;
    }
    return pick;
}

/* The ratio of file i's row ri to r0 in out, counted in its group and as a regression. */
static void pair_ratio(struct clb_comparison *c, struct clb_compare_row *out, size_t i,
                       const struct clb_row *r0, const struct clb_row *ri)
{
    if (r0->has_value && ri->has_value && r0->value > 0) {
        out->ratio[i] = ri->value / r0->value;
        out->noise[i] = clb_compare_noise(clb_compare_spread(r0), clb_compare_spread(ri));
        /* One ratio per peak precision: the device's peak, not every width. */
        if (r0->headline && ri->headline) {
            struct clb_compare_group *g = group_for(c, i, r0, ri);
            g->geomean += log(out->ratio[i]); /* a log sum until the end */
            g->n++;
        }
        if (clb_compare_row_regressed(c, out, i)) {
            c->n_regressions++;
            c->n_noisy += out->noise[i] == CLB_NOISE_WITHIN;
        }
    } else if (c->threshold > 0 && r0->has_value && !ri->has_value) {
        /* Measured before, failed or missing now: the worst regression there is. */
        c->n_regressions++;
    }
}

/* Pairs r0 with a row of every other file; whether any paired. */
static bool pair_row(struct clb_comparison *c, const struct clb_row *r0,
                     const struct clb_pair_list *pairs, bool *used, size_t max_rows)
{
    struct clb_result_file *const *files = c->files;
    struct clb_compare_row *out = &c->rows[c->n_rows];
    bool matched = false;
    size_t near;

    memset(out, 0, sizeof(*out));
    out->row[0] = r0;
    for (size_t i = 1; i < c->n_files; i++) {
        const size_t pick = pick_row(files[0], r0, files[i], used + i * max_rows, pairs, &near);
        if (pick == SIZE_MAX) {
            if (near != SIZE_MAX) {
                struct clb_compare_unpaired *u = &c->unpaired[c->n_unpaired++];
                u->first = r0;
                u->other = &files[i]->rows[near];
                u->file = i;
                u->n_diffs = clb_config_diff(r0->config, u->other->config, u->diff,
                                             CLB_CONFIG_MAX_DIFFS);
            }
            continue;
        }
        const struct clb_row *ri = &files[i]->rows[pick];
        used[i * max_rows + pick] = true;
        out->row[i] = ri;
        matched = true;
        pair_ratio(c, out, i, r0, ri);
    }
    return matched;
}

/* The groups' geometric means, file by file, each in the order its groups were met. */
static void finish_groups(struct clb_comparison *c)
{
    for (size_t g = 0; g < c->n_groups; g++)
        c->groups[g].geomean = exp(c->groups[g].geomean / (double)c->groups[g].n);
    /* A stable insertion sort. */
    for (size_t g = 1; g < c->n_groups; g++) {
        struct clb_compare_group gr = c->groups[g];
        size_t h = g;
        for (; h > 0 && c->groups[h - 1].file > gr.file; h--)
            c->groups[h] = c->groups[h - 1];
        c->groups[h] = gr;
    }
}

int clb_compare(struct clb_result_file *const *files, size_t n_files,
                const struct clb_pair_list *pairs, double threshold, struct clb_comparison *c,
                struct clb_error *e)
{
    const struct clb_result_file *f0 = files[0];
    bool *used = NULL;

    memset(c, 0, sizeof(*c));
    c->files = files;
    c->n_files = n_files;
    c->threshold = threshold;
    c->rows = calloc(f0->n_rows + 1, sizeof(*c->rows));
    c->groups = calloc(f0->n_rows * n_files + 1, sizeof(*c->groups));
    c->unpaired = calloc(f0->n_rows * n_files + 1, sizeof(*c->unpaired));
    if (!c->rows || !c->groups || !c->unpaired)
        goto oom;
    /* Each row of another file pairs with one row of the first at most. */
    size_t max_rows = 0;
    for (size_t i = 1; i < n_files; i++)
        max_rows = files[i]->n_rows > max_rows ? files[i]->n_rows : max_rows;
    if (!(used = calloc(n_files * (max_rows + 1), sizeof(*used))))
        goto oom;
    for (size_t r = 0; r < f0->n_rows; r++)
        if (pair_row(c, &f0->rows[r], pairs, used, max_rows))
            c->n_rows++;
    free(used);
    if (c->n_rows == 0) {
        no_rows_error(c, e);
        clb_comparison_finish(c);
        return -1;
    }
    finish_groups(c);
    if (find_ignored(c))
        goto oom;
    return 0;
oom:
    clb_comparison_finish(c);
    clb_error_set(e, "out of host memory");
    return -1;
}

void clb_comparison_finish(struct clb_comparison *c)
{
    free(c->rows);
    free(c->groups);
    free(c->unpaired);
    free(c->ignored);
    memset(c, 0, sizeof(*c));
}
