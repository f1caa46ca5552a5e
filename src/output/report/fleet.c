#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/results/compare.h"
#include "clbench/results/fleet.h"
#include "clbench/util/units.h"
#include "sections.h"
#include "svg.h"

/*
 * The Fleet section of a fleet file: a figure is the rows of every rank with
 * one (benchmark, case, backend, precision, device, metric, config), as
 * results/fleet.h reads them back from fleet.figures.
 */
enum { FLEET_MAX_CHARTS = 24 };

/* "node1 (ranks 0, 1), node2 (rank 2)": the hosts of the rows' ranks. */
static void fleet_hosts(FILE *out, const struct clb_fleet_figures *figs)
{
    for (size_t i = 0; i < figs->n_rank_hosts; i++) {
        const struct clb_fleet_host *h = &figs->rank_hosts[i];
        fputs(i ? ", " : "", out);
        svg_esc(out, h->hostname);
        fprintf(out, " (rank%s", h->n_ranks == 1 ? "" : "s");
        for (size_t k = 0; k < h->n_ranks; k++)
            fprintf(out, "%s %lld", k ? "," : "", h->ranks[k]);
        fputc(')', out);
    }
}

static void figure_title(FILE *out, const struct clb_row *r)
{
    svg_esc(out, r->benchmark_name);
    fputc(' ', out);
    svg_esc(out, r->case_);
    fputs(" · ", out);
    svg_esc(out, r->backend);
    fputs(" · ", out);
    svg_esc(out, r->device_name);
}

static void rank_name(FILE *out, const struct clb_row *r)
{
    svg_esc(out, r->host);
    fprintf(out, " r%d", r->rank);
}

enum { FW = 1000, FH = 290, FL = 80, FR = 840, FT = 20, FB = 220 };

/* A rank without a verified figure: its status where its bar would be. */
static void unmeasured(FILE *out, const struct clb_row *r, double x, double font,
                       bool vertical)
{
    fprintf(out, "<text class=\"unmeasured\" x=\"%.1f\" y=\"%d\" font-size=\"%.1f\" "
                 "fill=\"#777\" ", x, FB - 6, font);
    if (vertical)
        fprintf(out, "transform=\"rotate(-90 %.1f %d)\"><title>", x, FB - 6);
    else
        fputs("text-anchor=\"middle\"><title>", out);
    rank_name(out, r);
    fputs(": ", out);
    svg_esc(out, r->status_name);
    fputs(", not drawn</title>", out);
    svg_esc(out, r->status_name);
    fputs("</text>\n", out);
}

/* A rank's bar, red and marked when it straggles. */
static void rank_bar(FILE *out, const struct clb_fleet_figure *g, const struct clb_row *r,
                     double x, double yhi, double bar_w, double font, bool vertical)
{
    const double y = svg_scale(r->value, 0, yhi, false, FB, FT);

    fprintf(out, "<rect class=\"bar%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                 "height=\"%.1f\" fill=\"%s\"><title>",
            r->straggler ? " straggler" : "", x - bar_w / 2, y, bar_w, fmax(FB - y, 1),
            r->straggler ? "#d62728" : svg_color(0));
    rank_name(out, r);
    fprintf(out, ": %.4g %s", r->value, clb_metric_unit(g->first->metric));
    if (g->median > 0)
        fprintf(out, ", %+.1f%% vs the median", (r->value / g->median - 1.0) * 100.0);
    fprintf(out, "%s</title></rect>", r->straggler ? ", straggler" : "");
    if (r->straggler && vertical)
        fprintf(out, "<text class=\"straggler-mark\" x=\"%.1f\" y=\"%.1f\" "
                     "font-size=\"%.1f\" fill=\"#d62728\" transform=\"rotate(-90 %.1f "
                     "%.1f)\">straggler</text>", x + font / 3, y - 4, font, x + font / 3, y - 4);
    else if (r->straggler)
        fprintf(out, "<text class=\"straggler-mark\" x=\"%.1f\" y=\"%.1f\" "
                     "text-anchor=\"middle\" font-size=\"%.1f\" fill=\"#d62728\">"
                     "straggler</text>", x, y - 6, font);
    fputc('\n', out);
}

/* The median as a dashed line, the straggler threshold as a dotted one. */
static void median_lines(FILE *out, const struct clb_fleet_figure *g, double yhi,
                         double threshold)
{
    const char *unit = clb_metric_unit(g->first->metric);
    const bool lower = clb_metric_lower_is_better(g->first->metric);
    const double y = svg_scale(g->median, 0, yhi, false, FB, FT);

    fprintf(out, "<line class=\"median\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" "
                 "stroke=\"#222\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>"
                 "<text class=\"median-label\" x=\"%d\" y=\"%.1f\" font-size=\"12\">"
                 "median %.4g %s</text>\n", FL, FR, y, y, FR + 6, y + 4, g->median, unit);
    if (threshold <= 0)
        return;
    const double t = g->median * (lower ? 1 + threshold : 1 - threshold);
    const double yt = svg_scale(t, 0, yhi, false, FB, FT);
    fprintf(out, "<line class=\"threshold\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" "
                 "y2=\"%.1f\" stroke=\"#d62728\" stroke-dasharray=\"2 3\"/>", FL, FR, yt, yt);
    if (fabs(yt - y) >= 12)
        fprintf(out, "<text class=\"threshold-label\" x=\"%d\" y=\"%.1f\" "
                     "font-size=\"11\" fill=\"#d62728\">straggler %s %.4g</text>",
                FR + 6, yt + 4, lower ? "above" : "below", t);
    fputc('\n', out);
}

/*
 * One bar per rank (rows in rank order), the median as a dashed line and the
 * straggler threshold as a dotted one; stragglers red and marked; a rank
 * without a verified figure gets its status where its bar would be.
 */
static void fleet_chart(FILE *out, const struct clb_fleet_figure *g, double threshold)
{
    const double slot = (double)(FR - FL) / (double)g->n_rows;
    const double bar_w = fmin(slot * 0.6, 60), font = fmin(12, fmax(6, slot * 0.45));
    const bool vertical = slot < 70; /* a word wider than its slot stands upright */
    /* Headroom above the tallest bar for its mark; four round steps. */
    double yhi = fmax(g->n_values ? g->max : 0, g->median) * 1.3;

    yhi = yhi > 0 ? 4 * svg_nice_step(yhi / 4) : 1;
    fputs("<h3>", out);
    figure_title(out, g->first);
    fputs("</h3>\n", out);
    svg_open(out, "fleet-chart", FW, FH);
    figure_title(out, g->first);
    fputs(" per rank", out);
    svg_label_end(out);
    svg_frame(out, FL, FT, FR, FB);
    for (int i = 0; i <= 4; i++)
        svg_ytick(out, svg_scale(yhi * i / 4, 0, yhi, false, FB, FT), FL, FR, "%.4g",
                  yhi * i / 4, true);
    svg_ytitle(out, FT, FB, clb_metric_unit(g->first->metric));
    for (size_t i = 0; i < g->n_rows; i++) {
        const struct clb_row *r = g->rows[i];
        const double x = FL + slot * ((double)i + 0.5);
        fprintf(out, "<text class=\"rank-label\" x=\"%.1f\" y=\"%d\" text-anchor=\"end\" "
                     "font-size=\"%.1f\" transform=\"rotate(-40 %.1f %d)\">", x, FB + 14, font,
                x, FB + 14);
        rank_name(out, r);
        fputs("</text>\n", out);
        if (!r->has_value)
            unmeasured(out, r, x, font, vertical);
        else
            rank_bar(out, g, r, x, yhi, bar_w, font, vertical);
    }
    if (g->median > 0)
        median_lines(out, g, yhi, threshold);
    fputs("</svg>\n", out);
}

/* sum, min, median, max and the threshold, on one line under the chart (or in the table). */
static void fleet_caption(FILE *out, const struct clb_fleet_figure *g, double threshold)
{
    const char *unit = clb_metric_unit(g->first->metric);
    const bool lower = clb_metric_lower_is_better(g->first->metric);

    fputs("<p class=\"caption\">", out);
    if (g->n_values == 0) {
        fputs("no rank has a verified figure", out);
    } else {
        /* The ranks ran at once: their figures add up, but latencies do not. */
        if (!lower)
            fprintf(out, "sum %.4g %s over %zu rank%s · ", g->sum, unit, g->n_values,
                    g->n_values == 1 ? "" : "s");
        fprintf(out, "min %.4g · median %.4g · max %.4g %s", g->min, g->median, g->max, unit);
        if (lower)
            fprintf(out, " over %zu rank%s (lower is better)", g->n_values,
                    g->n_values == 1 ? "" : "s");
    }
    if (threshold > 0)
        fprintf(out, " · straggler: more than %.3g%% %s the median", threshold * 100.0,
                lower ? "above" : "below");
    static const char *const passes[] = { " · stragglers: ", " · not judged: ", " · not drawn: " };
    for (size_t pass = 0; pass < 3; pass++) {
        size_t k = 0;
        for (size_t i = 0; i < g->n_rows; i++) {
            const struct clb_row *r = g->rows[i];
            if (pass == 0 ? !r->straggler : pass == 1 ? r->judged : r->has_value)
                continue;
            fputs(k++ ? ", " : passes[pass], out);
            rank_name(out, r);
            if (pass == 2) {
                fputc(' ', out);
                svg_esc(out, r->status_name);
            }
        }
    }
    fputs("</p>\n", out);
}

static void fleet_intro(FILE *out, const struct clb_result_file *f,
                        const struct clb_fleet_figures *figs, size_t n_files)
{
    const double threshold = f->fleet_threshold;

    fputs("<h2>Fleet", out);
    if (n_files > 1) {
        fputs(": ", out);
        svg_esc(out, svg_base(f->path));
    }
    fprintf(out, "</h2>\n<p>%zu rank%s on ", figs->n_ranks, figs->n_ranks == 1 ? "" : "s");
    fleet_hosts(out, figs);
    fputs(", measuring at the same time. Each bar is one rank's figure; the dashed line is the "
          "figure's median over the ranks", out);
    if (threshold > 0)
        fprintf(out, ", the dotted one the straggler threshold: a red bar marked "
                     "<span class=\"straggler-mark\">straggler</span> is more than %.3g%% "
                     "worse than the median (below it, or above it where lower is better) "
                     "with even its fastest call worse than the other ranks' slowest; one "
                     "beyond it whose calls cannot tell it from noise is named not judged",
                threshold * 100.0);
    fprintf(out, ". A rank without a verified figure (failed, error) is named, not drawn. Charts: "
                 "the figures with a straggler or such a rank first, then the headline ones (each "
                 "GEMM backend's largest size per precision and device, each peak's best width, "
                 "every other benchmark's figure), at most %d; the table lists all %zu.</p>\n",
            FLEET_MAX_CHARTS, figs->n);
}

/* Every figure: its statistics, its stragglers, whether it is drawn above. */
static void fleet_table(FILE *out, const struct clb_fleet_figures *figs, const bool *drawn)
{
    fputs("<table class=\"fleet\"><tr><th>figure</th><th>ranks</th><th>sum</th><th>min</th>"
          "<th>median</th><th>max</th><th>stragglers</th><th>chart</th></tr>\n", out);
    for (size_t k = 0; k < figs->n; k++) {
        const struct clb_fleet_figure *g = &figs->figs[k];
        const char *unit = clb_metric_unit(g->first->metric);
        fputs("<tr><td>", out);
        figure_title(out, g->first);
        fprintf(out, "</td><td class=\"num\">%zu of %zu</td><td class=\"num\">", g->n_values,
                g->n_rows);
        if (g->n_values && !clb_metric_lower_is_better(g->first->metric))
            fprintf(out, "%.4g %s", g->sum, unit);
        fputs("</td><td class=\"num\">", out);
        if (g->n_values)
            fprintf(out, "%.4g %s</td><td class=\"num\">%.4g %s</td><td class=\"num\">%.4g %s",
                    g->min, unit, g->median, unit, g->max, unit);
        else
            fputs("</td><td class=\"num\"></td><td class=\"num\">", out);
        fputs("</td><td>", out);
        for (size_t i = 0, s = 0; i < g->n_rows; i++)
            if (g->rows[i]->straggler) {
                fputs(s++ ? ", " : "", out);
                rank_name(out, g->rows[i]);
            }
        for (size_t i = 0, s = 0; i < g->n_rows; i++)
            if (!g->rows[i]->judged) {
                fputs(s++ ? ", " : g->n_stragglers ? "; not judged: " : "not judged: ", out);
                rank_name(out, g->rows[i]);
            }
        fprintf(out, "</td><td>%s</td></tr>\n", drawn[k] ? "above" : "");
    }
    fputs("</table>\n", out);
}

static void fleet_section(FILE *out, const struct clb_result_file *f, size_t n_files)
{
    struct clb_fleet_figures figs;

    if (clb_fleet_figures_read(f, &figs))
        return;
    bool *drawn = calloc(figs.n + 1, sizeof(*drawn));
    if (!drawn) {
        clb_fleet_figures_finish(&figs);
        return;
    }
    fleet_intro(out, f, &figs, n_files);
    size_t n_drawn = 0;
    for (size_t pass = 0; pass < 2; pass++) {
        for (size_t k = 0; k < figs.n && n_drawn < FLEET_MAX_CHARTS; k++) {
            const struct clb_fleet_figure *g = &figs.figs[k];
            const bool flagged = g->n_stragglers > 0 || g->n_unmeasured > 0;
            if (drawn[k] || (pass == 0 ? !flagged : !g->lead))
                continue;
            fleet_chart(out, g, f->fleet_threshold);
            fleet_caption(out, g, f->fleet_threshold);
            drawn[k] = true;
            n_drawn++;
        }
    }
    fleet_table(out, &figs, drawn);
    free(drawn);
    clb_fleet_figures_finish(&figs);
}

void report_fleet(FILE *out, const struct report *rep, const struct report_section *sec)
{
    (void)sec;
    for (size_t f = 0; f < rep->n_files; f++)
        if (rep->files[f]->fleet)
            fleet_section(out, rep->files[f], rep->n_files);
}
