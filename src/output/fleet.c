/* A fleet run's output: every rank's rows figure by figure, the fleet's statistics, stragglers. */
#include <jansson.h>

#include "clbench/output/fleet.h"
#include "clbench/output/table.h"
#include "clbench/util/units.h"

static void figure_name(const struct clb_row *r, char *buf, size_t len)
{
    /* Ranks with several devices: each of their devices is a step of its own. */
    if (r->slot > 0)
        snprintf(buf, len, "%s %s %s [device %d]", r->benchmark_name, r->case_, r->backend,
                 r->slot + 1);
    else
        snprintf(buf, len, "%s %s %s", r->benchmark_name, r->case_, r->backend);
}

/* Rows, figure by figure, each rank's under its figure's name. */
static int rows_table(FILE *out, const struct clb_fleet_figures *figs)
{
    static const char *const head[] = { "FIGURE", "HOST", "RANK", "DEVICE", "VALUE",
                                        "/ MEDIAN", "STATUS" };
    struct clb_table *t = clb_table_create(head, 7);
    char name[256], rank[32], value[64], ratio[32], status[64];
    int rc = t ? 0 : -1;

    if (t) {
        clb_table_align_right(t, 2);
        clb_table_align_right(t, 4);
        clb_table_align_right(t, 5);
    }
    for (size_t k = 0; !rc && k < figs->n; k++) {
        const struct clb_fleet_figure *g = &figs->figs[k];
        /* peak: the widths that are some rank's best, as a single run's table (JSON: all). */
        if (!g->headline)
            continue;
        figure_name(g->first, name, sizeof(name));
        for (size_t i = 0; !rc && i < g->n_rows; i++) {
            const struct clb_row *r = g->rows[i];
            snprintf(rank, sizeof(rank), "%d", r->rank);
            if (r->has_value)
                clb_format_metric(r->metric, r->value, value, sizeof(value));
            else
                snprintf(value, sizeof(value), "-");
            if (r->has_value && r->fleet_median > 0)
                snprintf(ratio, sizeof(ratio), "%.2f", r->value / r->fleet_median);
            else
                snprintf(ratio, sizeof(ratio), "-");
            snprintf(status, sizeof(status), "%s%s", r->status_name,
                     r->straggler ? "  STRAGGLER" : !r->judged ? "  not judged" : "");
            const char *cells[] = { i == 0 ? name : "", r->host, rank, r->device_name, value, ratio,
                                    status };
            rc = clb_table_add(t, cells);
        }
    }
    if (!rc)
        clb_table_print(t, out);
    clb_table_destroy(t);
    return rc;
}

/* "host rank R, ..." of g's ranks that are stragglers (or not judged), "-" when none. */
static void rank_list(const struct clb_fleet_figure *g, bool stragglers, char *who, size_t len)
{
    size_t k = 0, used = 0;

    snprintf(who, len, "-");
    for (size_t i = 0; i < g->n_rows && used < len; i++) {
        const struct clb_row *r = g->rows[i];
        if (stragglers ? !r->straggler : r->judged)
            continue;
        used += (size_t)snprintf(who + used, len - used, "%s%s rank %d", k++ ? ", " : "",
                                 r->host, r->rank);
    }
}

/* The fleet's statistics per figure measured on more than one rank. */
static int figures_table(FILE *out, const struct clb_fleet_figures *figs)
{
    static const char *const head[] = { "FIGURE", "RANKS", "SUM", "MIN", "MEDIAN", "MAX",
                                        "STRAGGLERS", "NOT JUDGED" };
    struct clb_table *t = clb_table_create(head, 8);
    char name[256], n[24], v[4][64], who[256], unjudged[256];
    int rc = t ? 0 : -1;

    for (size_t c = 1; t && c < 6; c++)
        clb_table_align_right(t, c);
    for (size_t k = 0; !rc && k < figs->n; k++) {
        const struct clb_fleet_figure *g = &figs->figs[k];
        if (g->n_values < 2 || !g->headline)
            continue;
        figure_name(g->first, name, sizeof(name));
        snprintf(n, sizeof(n), "%zu", g->n_values);
        const double stat[] = { g->sum, g->min, g->median, g->max };
        for (size_t q = 0; q < 4; q++)
            clb_format_metric(g->first->metric, stat[q], v[q], sizeof(v[q]));
        /* A sum of latencies is no figure. */
        if (clb_metric_lower_is_better(g->first->metric))
            snprintf(v[0], sizeof(v[0]), "-");
        rank_list(g, true, who, sizeof(who));
        rank_list(g, false, unjudged, sizeof(unjudged));
        const char *cells[] = { name, n, v[0], v[1], v[2], v[3], who, unjudged };
        rc = clb_table_add(t, cells);
    }
    if (!rc)
        clb_table_print(t, out);
    clb_table_destroy(t);
    return rc;
}

static int write_table(FILE *out, const struct clb_fleet_figures *figs)
{
    const long long stragglers = figs->n_stragglers, unjudged = figs->n_unjudged;

    fprintf(out, "Fleet: %lld ranks on %zu host%s:", figs->world_ranks, figs->n_hosts,
            figs->n_hosts == 1 ? "" : "s");
    for (size_t i = 0; i < figs->n_hosts; i++) {
        const struct clb_fleet_host *h = &figs->hosts[i];
        fprintf(out, "%s %s (rank%s", i ? ";" : "", h->hostname, h->n_ranks == 1 ? "" : "s");
        for (size_t k = 0; k < h->n_ranks; k++)
            fprintf(out, "%s%lld", k ? ", " : " ", h->ranks[k]);
        fputc(')', out);
    }
    fputs("\n\n", out);
    if (rows_table(out, figs))
        return -1;
    fputs("\nThe fleet (each figure measured by every rank in the same step, after a barrier; "
          "SUM adds the ranks' figures of one step, not of one instant):\n", out);
    if (figures_table(out, figs))
        return -1;
    fprintf(out, "\n%lld straggler%s: ", stragglers, stragglers == 1 ? "" : "s");
    fprintf(out, "rows more than %.0f%% below their figure's fleet median (above it for "
                 "latency, --straggler) whose fastest call is still worse than the other "
                 "ranks' slowest are marked STRAGGLER.\n", figs->threshold * 100);
    if (unjudged)
        fprintf(out, "%lld row%s beyond it %s not judged: %s calls were fewer than %lld, added "
                     "up to less than %.3g ms or overlap the other ranks' (more --runs or "
                     "--min-time can judge them).\n",
                unjudged, unjudged == 1 ? "" : "s", unjudged == 1 ? "is" : "are",
                unjudged == 1 ? "its" : "their", figs->judge_min_calls, 1e3 * figs->judge_min_s);
    for (size_t i = 0; i < figs->n_missing; i++)
        fprintf(out, "rank %lld: no results: %s\n", figs->missing[i].rank, figs->missing[i].why);
    if (!figs->file->complete)
        fputs("The run is incomplete: a rank was interrupted or sent no results.\n", out);
    return ferror(out) ? -1 : 0;
}

static int write_csv(FILE *out, const struct clb_result_file *f)
{
    char buf[64];

    fputs("host,rank,local_rank,benchmark,case,backend,precision,device,status,metric,value,"
          "fleet_median,straggler,judged\n", out);
    for (size_t i = 0; i < f->n_rows; i++) {
        const struct clb_row *r = &f->rows[i];
        clb_csv_field(out, r->host);
        fprintf(out, ",%d,%d,", r->rank, r->local_rank);
        const char *const cells[] = { r->benchmark_name, r->case_, r->backend,
                                      r->precision_name ? r->precision_name : "", r->device_name,
                                      r->status_name,
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

int clb_fleet_write(FILE *out, enum clb_format fmt, const struct clb_fleet_figures *figs)
{
    const struct clb_result_file *f = figs->file;

    switch (fmt) {
    case CLB_FORMAT_JSON: {
        int rc = json_dumpf(f->root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        fputc('\n', out);
        return rc || ferror(out) ? -1 : 0;
    }
    case CLB_FORMAT_CSV:
        return write_csv(out, f);
    default:
        return write_table(out, figs);
    }
}
