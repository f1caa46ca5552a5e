/* A fleet run's output: every rank's rows figure by figure, the fleet's statistics, stragglers. */
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/output/fleet.h"
#include "clbench/output/table.h"
#include "clbench/results/fleet.h"
#include "clbench/util/units.h"

static void figure_name(const struct clb_result_row *r, char *buf, size_t len)
{
    /* Ranks with several devices: each of their devices is a step of its own. */
    if (r->slot > 0)
        snprintf(buf, len, "%s %s %s [device %d]", r->benchmark_name, r->case_, r->backend,
                 r->slot + 1);
    else
        snprintf(buf, len, "%s %s %s", r->benchmark_name, r->case_, r->backend);
}

static double num(json_t *o, const char *key)
{
    return json_number_value(json_object_get(o, key));
}

/* Rows, figure by figure, each rank's under its figure's name. */
static int rows_table(FILE *out, const struct clb_result_file *f)
{
    static const char *const head[] = { "FIGURE", "HOST", "RANK", "DEVICE", "VALUE",
                                        "/ MEDIAN", "STATUS" };
    struct clb_table *t = clb_table_create(head, 7);
    bool *done = calloc(f->n_rows + 1, sizeof(*done));
    char name[256], rank[32], value[64], ratio[32], status[64];
    int rc = t && done ? 0 : -1;

    if (t) {
        clb_table_align_right(t, 2);
        clb_table_align_right(t, 4);
        clb_table_align_right(t, 5);
    }
    for (size_t i = 0; !rc && i < f->n_rows; i++) {
        if (done[i])
            continue;
        /* peak: the widths that are some rank's best, as a single run's table (JSON: all). */
        bool headline = false;
        for (size_t j = i; j < f->n_rows; j++)
            headline |= f->rows[j].headline && clb_fleet_same_figure(&f->rows[i], &f->rows[j]);
        if (!headline)
            continue;
        figure_name(&f->rows[i], name, sizeof(name));
        for (size_t j = i; !rc && j < f->n_rows; j++) {
            const struct clb_result_row *r = &f->rows[j];
            if (done[j] || !clb_fleet_same_figure(&f->rows[i], r))
                continue;
            done[j] = true;
            snprintf(rank, sizeof(rank), "%d", r->rank);
            if (r->has_value)
                clb_format_metric(r->metric, r->value, value, sizeof(value));
            else
                snprintf(value, sizeof(value), "-");
            if (r->has_value && r->fleet_median > 0)
                snprintf(ratio, sizeof(ratio), "%.2f", r->value / r->fleet_median);
            else
                snprintf(ratio, sizeof(ratio), "-");
            snprintf(status, sizeof(status), "%s%s", r->status,
                     r->straggler ? "  STRAGGLER" : !r->judged ? "  not judged" : "");
            const char *cells[] = { j == i ? name : "", r->host, rank, r->device, value, ratio,
                                    status };
            rc = clb_table_add(t, cells);
        }
    }
    if (!rc)
        clb_table_print(t, out);
    clb_table_destroy(t);
    free(done);
    return rc;
}

/* "host rank R, ..." of the ranks listed in ranks (a JSON array), "-" when none. */
static void rank_list(const struct clb_result_file *f, json_t *ranks, char *who, size_t len)
{
    size_t k, used = 0;
    json_t *x;

    snprintf(who, len, "-");
    json_array_foreach(ranks, k, x) {
        json_int_t r = json_integer_value(x);
        const char *host = "?";
        for (size_t j = 0; j < f->n_rows; j++)
            if (f->rows[j].rank == r)
                host = f->rows[j].host;
        used += (size_t)snprintf(who + used, used < len ? len - used : 0,
                                 "%s%s rank %" JSON_INTEGER_FORMAT, k ? ", " : "", host, r);
        if (used >= len)
            break;
    }
}

/* The fleet's statistics per figure measured on more than one rank. */
static int figures_table(FILE *out, const struct clb_result_file *f)
{
    static const char *const head[] = { "FIGURE", "RANKS", "SUM", "MIN", "MEDIAN", "MAX",
                                        "STRAGGLERS", "NOT JUDGED" };
    struct clb_table *t = clb_table_create(head, 8);
    json_t *figs = json_object_get(f->fleet, "figures"), *fig;
    char name[256], n[24], v[4][64], who[256], unjudged[256];
    size_t i;
    int rc = t ? 0 : -1;

    for (size_t c = 1; t && c < 6; c++)
        clb_table_align_right(t, c);
    json_array_foreach(figs, i, fig) {
        const char *metric = json_string_value(json_object_get(fig, "metric"));
        const json_int_t ranks = json_integer_value(json_object_get(fig, "ranks"));
        if (rc || ranks < 2 || !metric || json_is_false(json_object_get(fig, "headline")))
            continue;
        const json_int_t slot = json_integer_value(json_object_get(fig, "slot"));
        snprintf(name, sizeof(name), slot > 0 ? "%s %s %s [device %d]" : "%s %s %s",
                 json_string_value(json_object_get(fig, "benchmark")),
                 json_string_value(json_object_get(fig, "case")),
                 json_string_value(json_object_get(fig, "backend")), (int)slot + 1);
        snprintf(n, sizeof(n), "%" JSON_INTEGER_FORMAT, ranks);
        static const char *const keys[] = { "sum", "min", "median", "max" };
        for (size_t q = 0; q < 4; q++)
            clb_format_metric(metric, num(fig, keys[q]), v[q], sizeof(v[q]));
        /* A sum of latencies is no figure. */
        if (clb_metric_lower_is_better(metric))
            snprintf(v[0], sizeof(v[0]), "-");
        rank_list(f, json_object_get(fig, "stragglers"), who, sizeof(who));
        rank_list(f, json_object_get(fig, "not_judged"), unjudged, sizeof(unjudged));
        const char *cells[] = { name, n, v[0], v[1], v[2], v[3], who, unjudged };
        rc = clb_table_add(t, cells);
    }
    if (!rc)
        clb_table_print(t, out);
    clb_table_destroy(t);
    return rc;
}

static int write_table(FILE *out, const struct clb_result_file *f)
{
    json_t *hosts = json_object_get(f->fleet, "hosts"), *h, *r;
    json_t *missing = json_object_get(f->fleet, "missing"), *m;
    const double thr = num(f->fleet, "threshold");
    const json_int_t stragglers = json_integer_value(json_object_get(f->fleet, "stragglers"));
    const json_int_t unjudged = json_integer_value(json_object_get(f->fleet, "not_judged"));
    size_t i, k;

    fprintf(out, "Fleet: %" JSON_INTEGER_FORMAT " ranks on %zu host%s:",
            json_integer_value(json_object_get(f->fleet, "ranks")), json_array_size(hosts),
            json_array_size(hosts) == 1 ? "" : "s");
    json_array_foreach(hosts, i, h) {
        fprintf(out, "%s %s (rank%s", i ? ";" : "",
                json_string_value(json_object_get(h, "hostname")),
                json_array_size(json_object_get(h, "ranks")) == 1 ? "" : "s");
        json_array_foreach(json_object_get(h, "ranks"), k, r)
            fprintf(out, "%s%" JSON_INTEGER_FORMAT, k ? ", " : " ", json_integer_value(r));
        fputc(')', out);
    }
    fputs("\n\n", out);
    if (rows_table(out, f))
        return -1;
    fputs("\nThe fleet (each figure measured by every rank in the same step, after a barrier; "
          "SUM adds the ranks' figures of one step, not of one instant):\n", out);
    if (figures_table(out, f))
        return -1;
    fprintf(out, "\n%" JSON_INTEGER_FORMAT " straggler%s: ", stragglers,
            stragglers == 1 ? "" : "s");
    fprintf(out, "rows more than %.0f%% below their figure's fleet median (above it for "
                 "latency, --straggler) whose fastest call is still worse than the other "
                 "ranks' slowest are marked STRAGGLER.\n", thr * 100);
    if (unjudged)
        fprintf(out, "%" JSON_INTEGER_FORMAT " row%s beyond it %s not judged: %s calls were "
                     "fewer than %" JSON_INTEGER_FORMAT ", added up to less than %.3g ms or "
                     "overlap the other ranks' (more --runs or --min-time can judge them).\n",
                unjudged, unjudged == 1 ? "" : "s", unjudged == 1 ? "is" : "are",
                unjudged == 1 ? "its" : "their",
                json_integer_value(json_object_get(json_object_get(f->fleet, "judged_when"),
                                                   "calls")),
                1e3 * num(json_object_get(f->fleet, "judged_when"), "seconds"));
    json_array_foreach(missing, i, m)
        fprintf(out, "rank %" JSON_INTEGER_FORMAT ": no results: %s\n",
                json_integer_value(json_object_get(m, "rank")),
                json_string_value(json_object_get(m, "why")));
    if (!f->complete)
        fputs("The run is incomplete: a rank was interrupted or sent no results.\n", out);
    return ferror(out) ? -1 : 0;
}

static int write_csv(FILE *out, const struct clb_result_file *f)
{
    char buf[64];

    fputs("host,rank,local_rank,benchmark,case,backend,precision,device,status,metric,value,"
          "fleet_median,straggler,judged\n", out);
    for (size_t i = 0; i < f->n_rows; i++) {
        const struct clb_result_row *r = &f->rows[i];
        clb_csv_field(out, r->host);
        fprintf(out, ",%d,%d,", r->rank, r->local_rank);
        const char *const cells[] = { r->benchmark_name, r->case_, r->backend,
                                      r->precision_name ? r->precision_name : "", r->device,
                                      r->status,
                                      r->metric };
        for (size_t c = 0; c < sizeof(cells) / sizeof(cells[0]); c++) {
            clb_csv_field(out, cells[c]);
            fputc(',', out);
        }
        if (r->has_value)
            fprintf(out, "%.17g", r->value);
        fputc(',', out);
        if (r->fleet_median > 0) {
            snprintf(buf, sizeof(buf), "%.17g", r->fleet_median);
            fputs(buf, out);
        }
        fprintf(out, ",%s,%s\n", r->straggler ? "true" : "false", r->judged ? "true" : "false");
    }
    return ferror(out) ? -1 : 0;
}

int clb_fleet_write(FILE *out, enum clb_format fmt, const struct clb_result_file *f)
{
    switch (fmt) {
    case CLB_FORMAT_JSON: {
        int rc = json_dumpf(f->root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        fputc('\n', out);
        return rc || ferror(out) ? -1 : 0;
    }
    case CLB_FORMAT_CSV:
        return write_csv(out, f);
    default:
        return write_table(out, f);
    }
}
