/* compare's output: the side-by-side table, its JSON and CSV. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/output/compare.h"
#include "clbench/output/table.h"
#include "clbench/results/compare.h"
#include "clbench/util/units.h"

static const char *base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static void value_str(json_t *v, char *buf, size_t len)
{
    if (v)
        clb_config_value_str(NULL, v, buf, len);
    else
        snprintf(buf, len, "-");
}

/* The fleet row among a pair or a compared row: paired rows share its host and local rank. */
static const struct clb_row *placed(const struct clb_row *const *rows, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (rows[i] && rows[i]->host)
            return rows[i];
    return NULL;
}

static const struct clb_row *unpaired_place(const struct clb_compare_unpaired *u)
{
    return u->first->host ? u->first : u->other->host ? u->other : NULL;
}

static void write_place(FILE *out, const struct clb_row *p)
{
    if (p)
        fprintf(out, " @ %s:%d", p->host, p->local_rank);
}

static json_t *json_place_host(const struct clb_row *p)
{
    return p ? json_string(p->host) : json_null();
}

static json_t *json_place_rank(const struct clb_row *p)
{
    return p ? json_integer(p->local_rank) : json_null();
}

/* One line per row not compared, each after `prefix`. */
static void write_unpaired(FILE *out, const struct clb_comparison *c, const char *prefix)
{
    char a[128], b[128];

    for (size_t k = 0; k < c->n_unpaired; k++) {
        const struct clb_compare_unpaired *u = &c->unpaired[k];
        fprintf(out, "%snot compared: %s %s %s on %s", prefix, u->first->benchmark_name,
                u->first->case_, u->first->backend, u->first->device_name);
        if (strcmp(u->first->device_name, u->other->device_name))
            fprintf(out, " / %s", u->other->device_name);
        write_place(out, unpaired_place(u));
        for (size_t d = 0; d < u->n_diffs; d++) {
            clb_config_value_str(u->diff[d].key, u->diff[d].first, a, sizeof(a));
            clb_config_value_str(u->diff[d].key, u->diff[d].other, b, sizeof(b));
            fprintf(out, "%s%s %s vs %s", d ? ", " : ": ", u->diff[d].key, a, b);
        }
        fprintf(out, " (%s vs %s)\n", base(c->files[0]->path), base(c->files[u->file]->path));
    }
}

/* The differences between the files that did not keep rows apart, on one line. */
static void write_ignored(FILE *out, const struct clb_comparison *c, const char *prefix)
{
    char a[128];

    if (c->n_ignored == 0)
        return;
    fprintf(out, "%sdifferences ignored:", prefix);
    for (size_t k = 0; k < c->n_ignored; k++) {
        fprintf(out, "%s %s", k ? ";" : "", c->ignored[k].field);
        for (size_t i = 0; i < c->n_files; i++) {
            value_str(c->ignored[k].values[i], a, sizeof(a));
            fprintf(out, "%s%s", i ? " vs " : " ", a);
        }
    }
    fputc('\n', out);
}

/* The price of row r's device (NULL: none, or no prices given). */
static const struct clb_price *price_of(const struct clb_prices *prices,
                                        const struct clb_row *r)
{
    const struct clb_price *p = NULL;
    struct clb_error e;

    /* Held against the files already: no two prices are left for one device. */
    if (prices && r)
        clb_price_find(prices, r->device_name, r->device_id, &p, &e);
    return p;
}

/* Row r's figure per USD/h of its device's price; 0 where none (see clb_compare_write). */
static double per_usd_hour(const struct clb_prices *prices, const struct clb_row *r)
{
    const struct clb_price *p = price_of(prices, r);

    if (!p || !r->has_value || clb_metric_lower_is_better(r->metric))
        return 0;
    return clb_per_usd_hour(r->value, p->usd_per_hour);
}

/* " (0.80x)" beyond noise, " (≈0.80x)" within, " (0.80x ?)" not judged: file i's ratio. */
static void ratio_str(const struct clb_compare_row *row, size_t i, double ratio, char *buf,
                      size_t len)
{
    snprintf(buf, len, " (%s%.2fx%s)", row->noise[i] == CLB_NOISE_WITHIN ? "≈" : "", ratio,
             row->noise[i] == CLB_NOISE_UNKNOWN ? " ?" : "");
}

/* One per-dollar cell of the table. */
static void per_usd_cell(const struct clb_prices *prices, const struct clb_compare_row *row,
                         size_t i, char *buf, size_t len)
{
    const struct clb_row *ri = row->row[i];
    const struct clb_price *p = price_of(prices, ri);
    const double v = per_usd_hour(prices, ri), first = per_usd_hour(prices, row->row[0]);
    char ratio[32] = "";

    if (!ri || !ri->has_value || clb_metric_lower_is_better(ri->metric)) {
        snprintf(buf, len, "-");
    } else if (!p) {
        snprintf(buf, len, "no price");
    } else if (!(p->usd_per_hour > 0)) {
        snprintf(buf, len, "free");
    } else {
        /* Prices are no measurement: the figures' noise is the per-dollar figures'. */
        if (i > 0 && first > 0)
            ratio_str(row, i, v / first, ratio, sizeof(ratio));
        snprintf(buf, len, "%.4g%s", v, ratio);
    }
}

/*
 * One figure of the table: "7.941 GFLOP/s [7.865, 8.104]" (the spread, "[?]"
 * unknown), then for the other files the ratio (ratio_str), " !" a regression.
 */
static void figure_cell(const struct clb_comparison *c, const struct clb_compare_row *row,
                        size_t i, char *buf, size_t len)
{
    const struct clb_row *ri = row->row[i];
    const struct clb_figure_spread s = ri ? clb_compare_spread(ri) : (struct clb_figure_spread){ 0 };
    char spread[48] = " [?]", ratio[32] = "";

    if (!ri) {
        snprintf(buf, len, "-");
        return;
    }
    if (!ri->has_value) {
        snprintf(buf, len, "%s", ri->status_name);
        return;
    }
    if (s.known)
        snprintf(spread, sizeof(spread), " [%.4g, %.4g]", s.lo, s.hi);
    if (i > 0 && row->ratio[i] > 0)
        ratio_str(row, i, row->ratio[i], ratio, sizeof(ratio));
    snprintf(buf, len, "%.4g %s%s%s%s", ri->value, clb_metric_unit(ri->metric), spread, ratio,
             clb_compare_row_regressed(c, row, i) ? " !" : "");
}

static int write_table(FILE *out, const struct clb_comparison *c, const struct clb_prices *prices)
{
    enum { FIGS = 5 }; /* the first figure column */
    const char *head[FIGS + 2 * CLB_COMPARE_MAX_FILES];
    char per_head[CLB_COMPARE_MAX_FILES][160];
    struct clb_table *t;
    const size_t n_cols = FIGS + c->n_files * (prices ? 2 : 1);

    head[0] = "BENCHMARK";
    head[1] = "CASE";
    head[2] = "BACKEND";
    head[3] = "DEVICE";
    head[4] = "STAT";
    for (size_t i = 0; i < c->n_files; i++)
        head[FIGS + i] = base(c->files[i]->path);
    for (size_t i = 0; prices && i < c->n_files; i++) {
        snprintf(per_head[i], sizeof(per_head[i]), "PER $/H: %s", base(c->files[i]->path));
        head[FIGS + c->n_files + i] = per_head[i];
    }
    if (!(t = clb_table_create(head, n_cols)))
        return -1;
    for (size_t i = FIGS; i < n_cols; i++)
        clb_table_align_right(t, i);
    for (size_t r = 0; r < c->n_rows; r++) {
        const struct clb_compare_row *row = &c->rows[r];
        char cells[CLB_COMPARE_MAX_FILES][128], per[CLB_COMPARE_MAX_FILES][48], dev[300];
        const char *cp[FIGS + 2 * CLB_COMPARE_MAX_FILES];
        size_t used = (size_t)snprintf(dev, sizeof(dev), "%s", row->row[0]->device_name);

        for (size_t i = 0; i < c->n_files; i++) {
            const struct clb_row *ri = row->row[i];
            if (i > 0 && ri && strcmp(ri->device_name, row->row[0]->device_name) && used < sizeof(dev))
                used += (size_t)snprintf(dev + used, sizeof(dev) - used, " / %s", ri->device_name);
            figure_cell(c, row, i, cells[i], sizeof(cells[i]));
            cp[FIGS + i] = cells[i];
            if (prices) {
                per_usd_cell(prices, row, i, per[i], sizeof(per[i]));
                cp[FIGS + c->n_files + i] = per[i];
            }
        }
        const struct clb_row *p = placed(row->row, c->n_files);
        if (p && used < sizeof(dev))
            snprintf(dev + used, sizeof(dev) - used, " @ %s:%d", p->host, p->local_rank);
        cp[0] = row->row[0]->benchmark_name;
        cp[1] = row->row[0]->case_;
        cp[2] = row->row[0]->backend;
        cp[3] = dev;
        cp[4] = clb_compare_stat(row->row[0]); /* paired rows share their config's stat */
        if (clb_table_add(t, cp)) {
            clb_table_destroy(t);
            return -1;
        }
    }
    clb_table_print(t, out);
    clb_table_destroy(t);
    fprintf(out, "STAT: which call each figure is, median (the median timed call's) or best (the "
                 "fastest's)\n[low, high]: the figure each timed call gives; [?]: unknown (fewer "
                 "than %d calls' times in the file)\n≈: the two ranges overlap, the ratio is within "
                 "the calls' noise; ?: a spread is unknown, the ratio not judged\n",
            CLB_COMPARE_MIN_CALLS);
    write_unpaired(out, c, "");
    if (prices)
        fprintf(out, "%s\nper $/h: each figure / its device's price in USD per hour, higher is "
                     "better (none for latency, a device without a price, or a free one)\n",
                CLB_PRICES_NOTE);
    fputc('\n', out);
    for (size_t g = 0; g < c->n_groups; g++) {
        const struct clb_compare_group *gr = &c->groups[g];
        fprintf(out, "geometric mean, %s vs %s: %s %s, %s on %s", base(c->files[gr->file]->path),
                base(c->files[0]->path), gr->benchmark, gr->metric, gr->backend, gr->device0);
        if (strcmp(gr->device0, gr->device))
            fprintf(out, " / %s", gr->device);
        if (gr->host)
            fprintf(out, " @ %s:%d", gr->host, gr->local_rank);
        fprintf(out, ": %.3fx over %zu result%s\n", gr->geomean, gr->n, gr->n == 1 ? "" : "s");
    }
    if (c->threshold > 0) {
        fprintf(out, "%zu figure%s more than %.3g%% worse than the first file's (marked !)",
                c->n_regressions, c->n_regressions == 1 ? "" : "s", c->threshold * 100.0);
        if (c->n_noisy)
            fprintf(out, ", %zu of them within the calls' noise (≈): rerun with more calls "
                         "(--min-time) to tell", c->n_noisy);
        fputc('\n', out);
    }
    write_ignored(out, c, "");
    return 0;
}

/* Borrowed: the value, or JSON null for NULL (for "O" in json_pack, which takes a reference). */
static json_t *value_or_null(json_t *v)
{
    return v ? v : json_null();
}

static json_t *files_json(const struct clb_comparison *c)
{
    json_t *files = json_array();

    for (size_t i = 0; i < c->n_files; i++)
        json_array_append_new(files, json_pack("{s:s, s:s, s:s, s:b}", "path",
                                               c->files[i]->path, "clbench_version",
                                               c->files[i]->version, "created",
                                               c->files[i]->created, "complete",
                                               c->files[i]->complete));
    return files;
}

/* One lined-up figure: where each file measured it, its values and ratios to the first's. */
static json_t *row_json(const struct clb_comparison *c, const struct clb_compare_row *row,
                        const struct clb_prices *prices)
{
    json_t *values = json_array(), *ratios = json_array(), *devices = json_array(),
           *hosts = json_array(), *ranks = json_array(), *local_ranks = json_array(),
           *spreads = json_array(), *noise = json_array();

    for (size_t i = 0; i < c->n_files; i++) {
        const struct clb_row *ri = row->row[i];
        const struct clb_row *fleet = ri && ri->host ? ri : NULL;
        json_array_append_new(values, ri && ri->has_value ? json_real(ri->value) : json_null());
        json_array_append_new(devices, ri ? json_string(ri->device_name) : json_null());
        json_array_append_new(hosts, json_place_host(fleet));
        json_array_append_new(local_ranks, json_place_rank(fleet));
        json_array_append_new(ranks, fleet ? json_integer(fleet->rank) : json_null());
        json_array_append_new(ratios, i == 0 ? json_real(1.0)
                                      : row->ratio[i] > 0 ? json_real(row->ratio[i])
                                                          : json_null());
        const struct clb_figure_spread s = ri ? clb_compare_spread(ri)
                                              : (struct clb_figure_spread){ 0 };
        json_array_append_new(spreads, s.known ? json_pack("[f, f]", s.lo, s.hi) : json_null());
        json_array_append_new(noise, i > 0 && row->ratio[i] > 0
                                         ? json_string(clb_noise_name(row->noise[i]))
                                         : json_null());
    }
    json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
                          "benchmark", row->row[0]->benchmark_name, "case",
                          row->row[0]->case_, "backend", row->row[0]->backend,
                          "metric", row->row[0]->metric, "stat",
                          clb_compare_stat(row->row[0]), "devices", devices,
                          "hosts", hosts, "local_ranks", local_ranks, "ranks",
                          ranks, "values", values, "spreads", spreads, "ratios", ratios,
                          "noise", noise);
    if (o && prices) {
        json_t *usd = json_array(), *per = json_array();
        for (size_t i = 0; i < c->n_files; i++) {
            const struct clb_price *p = price_of(prices, row->row[i]);
            const double v = per_usd_hour(prices, row->row[i]);
            json_array_append_new(usd, p ? json_real(p->usd_per_hour) : json_null());
            json_array_append_new(per, v > 0 ? json_real(v) : json_null());
        }
        json_object_set_new(o, "usd_per_hour", usd);
        json_object_set_new(o, "per_usd_hour", per);
    }
    return o;
}

static json_t *group_json(const struct clb_comparison *c, const struct clb_compare_group *gr)
{
    return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:I, "
                     "s:f}", "file", c->files[gr->file]->path,
                     "benchmark", gr->benchmark, "metric", gr->metric,
                     "device_first", gr->device0, "device",
                     gr->device, "backend", gr->backend, "host",
                     gr->host ? json_string(gr->host) : json_null(),
                     "local_rank",
                     gr->host ? json_integer(gr->local_rank)
                              : json_null(),
                     "n", (json_int_t)gr->n, "geomean", gr->geomean);
}

/* A config's value of key (new): what its absence means where that is known, else null. */
static json_t *config_value_json(const char *key, json_t *v)
{
    const char *absent = clb_config_absent(key);
    return v ? json_incref(v) : absent ? json_string(absent) : json_null();
}

/* A row another file measured another way, with the fields that differ. */
static json_t *unpaired_json(const struct clb_comparison *c, const struct clb_compare_unpaired *u)
{
    json_t *diffs = json_array();

    for (size_t d = 0; d < u->n_diffs; d++)
        json_array_append_new(diffs, json_pack("{s:s, s:[oo]}", "field", u->diff[d].key,
                                               "values",
                                               config_value_json(u->diff[d].key,
                                                                 u->diff[d].first),
                                               config_value_json(u->diff[d].key,
                                                                 u->diff[d].other)));
    const struct clb_row *p = unpaired_place(u);
    return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o}",
                     "benchmark", u->first->benchmark_name, "case",
                     u->first->case_, "backend", u->first->backend,
                     "device", u->first->device_name, "file",
                     c->files[u->file]->path, "device_in_file",
                     u->other->device_name, "host", json_place_host(p),
                     "local_rank", json_place_rank(p),
                     "differences", diffs);
}

static json_t *ignored_json(const struct clb_comparison *c)
{
    json_t *ignored = json_array();

    for (size_t k = 0; k < c->n_ignored; k++) {
        json_t *values = json_array();
        for (size_t i = 0; i < c->n_files; i++)
            json_array_append(values, value_or_null(c->ignored[k].values[i]));
        json_array_append_new(ignored, json_pack("{s:s, s:o}", "field", c->ignored[k].field,
                                                 "values", values));
    }
    return ignored;
}

static int write_json(FILE *out, const struct clb_comparison *c, const struct clb_prices *prices)
{
    json_t *root = json_object(), *files = files_json(c), *rows = json_array(),
           *groups = json_array(), *unpaired = json_array(), *ignored = ignored_json(c);

    for (size_t r = 0; r < c->n_rows; r++)
        json_array_append_new(rows, row_json(c, &c->rows[r], prices));
    for (size_t g = 0; g < c->n_groups; g++)
        json_array_append_new(groups, group_json(c, &c->groups[g]));
    for (size_t k = 0; k < c->n_unpaired; k++)
        json_array_append_new(unpaired, unpaired_json(c, &c->unpaired[k]));
    json_object_set_new(root, "files", files);
    json_object_set_new(root, "rows", rows);
    json_object_set_new(root, "geomeans", groups);
    json_object_set_new(root, "unpaired", unpaired);
    json_object_set_new(root, "ignored_differences", ignored);
    if (prices)
        json_object_set_new(root, "prices", json_string(CLB_PRICES_NOTE));
    if (c->threshold > 0) {
        json_object_set_new(root, "threshold", json_real(c->threshold));
        json_object_set_new(root, "regressions", json_integer((json_int_t)c->n_regressions));
        json_object_set_new(root, "within_noise", json_integer((json_int_t)c->n_noisy));
    }
    int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(root);
    return rc;
}

/* With prices: ",usd_per_hour,per_usd_hour" (each empty where none). */
static void csv_price(FILE *out, const struct clb_prices *prices, const struct clb_row *r)
{
    const struct clb_price *p = price_of(prices, r);
    const double v = per_usd_hour(prices, r);

    if (!prices)
        return;
    fputc(',', out);
    if (p)
        fprintf(out, "%.9g", p->usd_per_hour);
    fputc(',', out);
    if (v > 0)
        fprintf(out, "%.9g", v);
}

static int write_csv(FILE *out, const struct clb_comparison *c, const struct clb_prices *prices)
{
    fprintf(out, "benchmark,case,backend,device,file,device_in_file,value,ratio,host,rank,"
                 "local_rank,stat,spread_low,spread_high,noise%s\n",
            prices ? ",usd_per_hour,per_usd_hour" : "");
    for (size_t r = 0; r < c->n_rows; r++) {
        const struct clb_compare_row *row = &c->rows[r];
        for (size_t i = 0; i < c->n_files; i++) {
            const struct clb_row *ri = row->row[i];
            fprintf(out, "%s,", row->row[0]->benchmark_name);
            clb_csv_field(out, row->row[0]->case_);
            fprintf(out, ",%s,", row->row[0]->backend);
            clb_csv_field(out, row->row[0]->device_name);
            fputc(',', out);
            clb_csv_field(out, c->files[i]->path);
            fputc(',', out);
            clb_csv_field(out, ri ? ri->device_name : "");
            if (ri && ri->has_value)
                fprintf(out, ",%.9g", ri->value);
            else
                fputc(',', out);
            if (i == 0 || row->ratio[i] > 0)
                fprintf(out, ",%.6g", i == 0 ? 1.0 : row->ratio[i]);
            else
                fputc(',', out);
            /* A fleet file's rank; empty for a single run's row or none. */
            fputc(',', out);
            if (ri && ri->host) {
                clb_csv_field(out, ri->host);
                fprintf(out, ",%d,%d", ri->rank, ri->local_rank);
            } else {
                fputs(",,", out);
            }
            const struct clb_figure_spread s = ri ? clb_compare_spread(ri)
                                                  : (struct clb_figure_spread){ 0 };
            fprintf(out, ",%s,", clb_compare_stat(row->row[0]));
            if (s.known)
                fprintf(out, "%.9g,%.9g", s.lo, s.hi);
            else
                fputc(',', out);
            fprintf(out, ",%s", i > 0 && row->ratio[i] > 0 ? clb_noise_name(row->noise[i]) : "");
            csv_price(out, prices, ri);
            fputc('\n', out);
        }
    }
    return 0;
}

int clb_compare_write(FILE *out, FILE *notes, enum clb_format fmt, const struct clb_comparison *c,
                      const struct clb_prices *prices)
{
    switch (fmt) {
    case CLB_FORMAT_JSON:
        return write_json(out, c, prices);
    case CLB_FORMAT_CSV:
        if (write_csv(out, c, prices))
            return -1;
        write_unpaired(notes, c, "clbench compare: note: ");
        write_ignored(notes, c, "clbench compare: note: ");
        return 0;
    case CLB_FORMAT_TABLE:
        break;
    }
    return write_table(out, c, prices);
}
