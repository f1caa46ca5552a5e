#include <inttypes.h>

#include "clbench/output/fit.h"
#include "clbench/util/units.h"
#include "sections.h"
#include "svg.h"

/* One device's row of the estimates table: fit --from's cells, and with prices its costs. */
static void estimate_row(FILE *out, const struct clb_fit_speed *s, const struct clb_speed_cost *cost)
{
    const struct clb_device_speed *m = &s->measured;
    struct clb_fit_speed_cells c;

    clb_fit_speed_cells(s, &c);
    fputs("<tr><td>", out);
    svg_esc(out, m->device);
    if (m->host) {
        fputs(" · ", out);
        svg_esc(out, m->host);
        fprintf(out, " r%d", m->rank);
    }
    const char *cells[] = { c.rate, c.backend, c.prefill, c.bandwidth, c.decode };
    for (size_t k = 0; k < sizeof(cells) / sizeof(cells[0]); k++) {
        fputs(k == 1 ? "</td><td>" : "</td><td class=\"num\">", out);
        svg_esc(out, cells[k]);
    }
    if (cost) {
        struct clb_fit_cost_cells cc;
        clb_fit_cost_cells(s, cost, &cc);
        const char *more[] = { cc.price, cc.run_cost, cc.prefill, cc.decode, cc.prefill_rate };
        for (size_t k = 0; k < sizeof(more) / sizeof(more[0]); k++) {
            fputs("</td><td class=\"num\">", out);
            svg_esc(out, more[k]);
        }
    }
    fputs("</td></tr>\n", out);
}

enum { CHART_W = 480, BAR_H = 20, GAP = 8, TOP = 30, LABEL_W = 200 };

/*
 * A bar per device of value(i) (0: no bar, why in its place), the chart
 * `title` in `unit`. Two of these side by side: prefill tokens/s per device,
 * and per dollar.
 */
static void bar_chart(FILE *out, const char *cls, const char *title, const char *unit,
                      const struct clb_fit_report *r, const double *value, const char **why)
{
    const int h = TOP + (int)r->n_speeds * (BAR_H + GAP) + 10;
    double max = 0;

    for (size_t i = 0; i < r->n_speeds; i++)
        max = value[i] > max ? value[i] : max;
    svg_open(out, cls, CHART_W, h);
    svg_esc(out, title);
    svg_label_end(out);
    fprintf(out, "<text class=\"chart-title\" x=\"%d\" y=\"18\" font-size=\"13\">", CHART_W / 2);
    svg_esc(out, title);
    fputs("</text>\n", out);
    for (size_t i = 0; i < r->n_speeds; i++) {
        const double y = TOP + (double)i * (BAR_H + GAP);
        char v[48];
        fprintf(out, "<text class=\"bar-label\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\" "
                     "font-size=\"11\">", LABEL_W - 6, y + BAR_H * 0.7);
        svg_esc_clip(out, r->speeds[i].measured.device, 30);
        fputs("</text>", out);
        if (!(value[i] > 0)) {
            fprintf(out, "<text class=\"unmeasured\" x=\"%d\" y=\"%.1f\" font-size=\"11\">",
                    LABEL_W + 4, y + BAR_H * 0.7);
            svg_esc(out, why[i]);
            fputs("</text>\n", out);
            continue;
        }
        const double w = svg_scale(value[i], 0, max, false, 0, CHART_W - LABEL_W - 90);
        snprintf(v, sizeof(v), "%.3g %s", value[i], unit);
        fprintf(out, "<rect class=\"bar\" x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
                     "fill=\"%s\"><title>", LABEL_W, y, w, BAR_H, svg_color(i));
        svg_esc(out, r->speeds[i].measured.device);
        fputs(": ", out);
        svg_esc(out, v);
        fprintf(out, "</title></rect><text class=\"bar-value\" x=\"%.1f\" y=\"%.1f\" "
                     "font-size=\"11\">", LABEL_W + w + 4, y + BAR_H * 0.7);
        svg_esc(out, v);
        fputs("</text>\n", out);
    }
    fputs("</svg>\n", out);
}

/* With prices: prefill tokens/s per device beside the same per USD/h. */
static void cost_charts(FILE *out, const struct clb_fit_report *r)
{
    double per_device[64], per_usd[64];
    const char *why_device[64], *why_usd[64];
    const size_t n = r->n_speeds < 64 ? r->n_speeds : 64;
    const struct clb_fit_report shown = { .speeds = r->speeds, .n_speeds = n };

    for (size_t i = 0; i < n; i++) {
        const struct clb_speed_cost *c = &r->costs[i];
        per_device[i] = r->speeds[i].estimate.prefill_tokens_s;
        why_device[i] = "no prefill figure";
        per_usd[i] = c->prefill_tokens_s_per_usd_hour;
        why_usd[i] = !c->price                        ? "no price given"
                     : !(c->price->usd_per_hour > 0)  ? "free (price 0): no per-dollar figure"
                                                      : "no prefill figure";
    }
    fputs("<div class=\"cost-charts\">\n", out);
    bar_chart(out, "estimates-chart per-device", "prefill tokens/s per device", "tokens/s",
              &shown, per_device, why_device);
    bar_chart(out, "estimates-chart per-dollar", "prefill tokens/s per dollar (per USD/h)",
              "tokens/s per $/h", &shown, per_usd, why_usd);
    fputs("</div>\n", out);
}

/* Under the table: the formulas with the model's numbers, and fit --from's notes. */
static void estimates_caption(FILE *out, const struct clb_fit_report *r)
{
    char lines[3][320], note[320];

    clb_fit_speed_formulas(r, lines);
    fputs("<p class=\"caption formulas\">", out);
    svg_esc(out, lines[0]);
    fputs("<br>", out);
    svg_esc(out, lines[1]);
    for (size_t i = 0; i < r->n_speeds; i++)
        if (clb_fit_speed_note(r, i, note, sizeof(note))) {
            fputs("<br>note: ", out);
            svg_esc(out, note);
        }
    if (r->costs) {
        char cost_lines[4][320];
        const size_t n = clb_fit_cost_notes(r, cost_lines);
        for (size_t i = 0; i < n; i++) {
            fputs("<br>", out);
            svg_esc(out, cost_lines[i]);
        }
    }
    fputs("</p>\n", out);
}

/* A --shapes file's estimates for its model, as `fit --from` prints them. */
static void estimates_section(FILE *out, const struct clb_result_file *f,
                              const struct clb_html_estimates *est, size_t n_files)
{
    const struct clb_fit_report *r = &est->fit;
    char params[32];

    fputs("<h2>Estimates for ", out);
    svg_esc(out, r->preset ? r->preset->display : r->measured_shapes);
    if (n_files > 1) {
        fputs(" · ", out);
        svg_esc(out, svg_base(f->path));
    }
    fputs("</h2>\n", out);
    if (!r->n_speeds) {
        fputs("<p class=\"no-estimates\">No estimates: ", out);
        svg_esc(out, est->none);
        fputs(".</p>\n", out);
        return;
    }
    clb_format_params(r->request->params, params, sizeof(params));
    fputs("<p>What the figures measured in ", out);
    svg_esc(out, svg_base(f->path));
    fputs(" mean for ", out);
    svg_esc(out, r->measured_shapes);
    fprintf(out, " (%s parameters) at context %" PRIu64 " and batch %" PRIu64 ", %s weights "
                 "and %s KV cache, as <code>clbench fit --from</code> gives them. Upper bounds: "
                 "no attention FLOPs, no overlap loss, every GEMM at the measured rate.</p>\n"
                 "<table class=\"estimates\"><tr><th>device</th><th>prefill GEMM rate</th>"
                 "<th>backend, precision</th><th>prefill tokens/s</th><th>triad bandwidth</th>"
                 "<th>decode tokens/s</th>%s</tr>\n", params, r->request->context,
            r->request->batch, clb_dtype_name(r->request->dtype),
            clb_dtype_name(r->request->kv_dtype),
            r->costs ? "<th>price</th><th>run cost (timed calls)</th><th>USD per million "
                       "prefill tokens</th><th>USD per million decode tokens</th><th>prefill "
                       "tokens/s per USD/h</th>" : "");
    for (size_t i = 0; i < r->n_speeds; i++)
        estimate_row(out, &r->speeds[i], r->costs ? &r->costs[i] : NULL);
    fputs("</table>\n", out);
    if (r->costs)
        cost_charts(out, r);
    estimates_caption(out, r);
}

void report_estimates(FILE *out, const struct report *rep, const struct report_section *sec)
{
    (void)sec;
    for (size_t f = 0; rep->estimates && f < rep->n_files; f++)
        if (rep->estimates[f].fit.measured_shapes)
            estimates_section(out, rep->files[f], &rep->estimates[f], rep->n_files);
}
