#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clbench/results/roofline.h"
#include "sections.h"
#include "svg.h"

enum { W = 1000, H = 440, L = 80, R = 600, T = 24, B = 380 };

struct bounds {
    double xlo, xhi, ylo, yhi;
};

static struct bounds roof_bounds(const struct clb_roofline *roof)
{
    struct bounds b = { 0.1, 10, INFINITY, 0 };

    for (size_t i = 0; i < roof->n_points; i++) {
        const struct clb_roof_point *p = &roof->points[i];
        b.xlo = fmin(b.xlo, p->intensity / 2), b.xhi = fmax(b.xhi, p->intensity * 2);
        b.ylo = fmin(b.ylo, p->row->value / 2);
    }
    for (int p = 0; p < CLB_ROOF_PRECISIONS; p++)
        if (roof->peak[p] > 0) {
            b.yhi = fmax(b.yhi, roof->peak[p] * 2);
            b.xhi = fmax(b.xhi, roof->peak[p] / roof->bandwidth * 4); /* show each ridge point */
        }
    b.ylo = fmin(b.ylo, b.xlo * roof->bandwidth);
    svg_log_bounds(&b.xlo, &b.xhi);
    svg_log_bounds(&b.ylo, &b.yhi);
    return b;
}

static void roof_axes(FILE *out, const struct bounds *b)
{
    for (double v = b->xlo; v <= b->xhi * 1.0001; v *= 10) {
        double x = svg_scale(v, b->xlo, b->xhi, true, L, R);
        fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#e0e0e0\"/>"
                     "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\">%g</text>\n",
                x, x, T, B, x, B + 18, v);
    }
    for (double v = b->ylo; v <= b->yhi * 1.0001; v *= 10)
        svg_ytick(out, svg_scale(v, b->ylo, b->yhi, true, B, T), L, R, "%g", v, false);
    svg_xtitle(out, (L + R) / 2, B + 40, "arithmetic intensity (FLOP/byte, log scale)");
    svg_ytitle(out, T, B, "GFLOP/s (log scale)");
}

/* Each precision's roof: the bandwidth slope up to its ridge point, then flat. */
static double roofs(FILE *out, const struct clb_roofline *roof, const struct bounds *b)
{
    const double bw = roof->bandwidth;
    char names[CLB_ROOF_PRECISIONS][128];
    const char *labels[CLB_ROOF_PRECISIONS], *colors[CLB_ROOF_PRECISIONS];
    size_t legend = 0;

    for (int p = 0; p < CLB_ROOF_PRECISIONS; p++) {
        const double peak = roof->peak[p];
        if (peak <= 0)
            continue;
        const char *color = svg_color((size_t)p);
        const double ridge = peak / bw, y0 = fmax(b->xlo * bw, b->ylo), x0 = y0 / bw;
        fprintf(out, "<polyline class=\"roof\" fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\" "
                     "points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"><title>%s roof: %.4g GFLOP/s peak (fastest verified call), "
                     "%.4g GB/s</title></polyline>\n",
                color, svg_scale(x0, b->xlo, b->xhi, true, L, R),
                svg_scale(y0, b->ylo, b->yhi, true, B, T),
                svg_scale(ridge, b->xlo, b->xhi, true, L, R),
                svg_scale(peak, b->ylo, b->yhi, true, B, T),
                svg_scale(b->xhi, b->xlo, b->xhi, true, L, R),
                svg_scale(peak, b->ylo, b->yhi, true, B, T), clb_precision_name(clb_roof_precision[p]), peak, bw);
        snprintf(names[legend], sizeof(names[legend]), "%s: peak %.4g GFLOP/s (fastest call), "
                 "triad %.4g GB/s", clb_precision_name(clb_roof_precision[p]), peak, bw);
        labels[legend] = names[legend];
        colors[legend++] = color;
    }
    return svg_legend(out, R + 10, W - 2, T + 10, labels, colors, legend);
}

static void roofline(FILE *out, const struct clb_result_file *f, const char *device,
                     const struct clb_row *of_rank, size_t n_files)
{
    struct clb_roofline roof;

    if (clb_roofline_of(f, device, of_rank, &roof) <= 0)
        return;
    const struct bounds b = roof_bounds(&roof);
    fputs("<h2>Roofline: ", out);
    report_device_title(out, f, device, of_rank, n_files);
    fputs("</h2>\n", out);
    svg_open(out, "roofline", W, H);
    fputs("roofline", out);
    svg_label_end(out);
    svg_frame(out, L, T, R, B);
    roof_axes(out, &b);
    const double legend = roofs(out, &roof, &b);
    for (size_t i = 0; i < roof.n_points; i++) {
        const struct clb_roof_point *p = &roof.points[i];
        const struct clb_row *r = p->row;
        fprintf(out, "<circle class=\"gemm-point\" r=\"5\" cx=\"%.1f\" cy=\"%.1f\" fill=\"%s\" "
                     "stroke=\"#000\"><title>%s %s: %.4g GFLOP/s at %.3g FLOP/byte</title></circle>\n",
                svg_scale(p->intensity, b.xlo, b.xhi, true, L, R),
                svg_scale(r->value, b.ylo, b.yhi, true, B, T), svg_color((size_t)p->precision),
                r->backend, r->case_, r->value, p->intensity);
    }
    fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-size=\"12\">dots: GEMM results (%zu)</text>\n",
            R + 16, legend + 11, roof.n_points);
    fputs("</svg>\n", out);
    clb_roofline_finish(&roof);
}

void report_roofline(FILE *out, const struct report *rep, const struct report_section *sec)
{
    (void)sec;
    for (size_t f = 0; f < rep->n_files; f++) {
        const struct clb_result_file *file = rep->files[f];
        for (size_t i = 0; i < file->n_rows; i++) {
            const struct clb_row *r = &file->rows[i];
            bool first = true;
            if (r->benchmark != CLB_BENCH_PEAK)
                continue;
            for (size_t j = 0; j < i && first; j++)
                first = file->rows[j].benchmark != CLB_BENCH_PEAK ||
                        strcmp(file->rows[j].device_name, r->device_name);
            /* In a fleet file, that device's first rank: roofs are not medians. */
            if (first)
                roofline(out, file, r->device_name, r, rep->n_files);
        }
    }
}
