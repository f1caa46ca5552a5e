#include <inttypes.h>

#include "clbench/output/fit.h"
#include "clbench/util/units.h"
#include "sections.h"
#include "svg.h"

/* One device's row of the estimates table: fit --from's cells. */
static void estimate_row(FILE *out, const struct clb_fit_speed *s)
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
    fputs("</td></tr>\n", out);
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
                 "<th>decode tokens/s</th></tr>\n", params, r->request->context,
            r->request->batch, clb_dtype_name(r->request->dtype),
            clb_dtype_name(r->request->kv_dtype));
    for (size_t i = 0; i < r->n_speeds; i++)
        estimate_row(out, &r->speeds[i]);
    fputs("</table>\n", out);
    estimates_caption(out, r);
}

void report_estimates(FILE *out, const struct report *rep, const struct report_section *sec)
{
    (void)sec;
    for (size_t f = 0; rep->estimates && f < rep->n_files; f++)
        if (rep->estimates[f].fit.measured_shapes)
            estimates_section(out, rep->files[f], &rep->estimates[f], rep->n_files);
}
