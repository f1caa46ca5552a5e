#include <math.h>
#include <string.h>

#include "sections.h"
#include "svg.h"

enum { W = 1000, MAX_BARS = 64 };

static double cube_size(const struct clb_result_row *r)
{
    return cbrt((double)r->m * (double)r->n * (double)r->k);
}

/* Each device backend's row at its largest size, per file, precision and rank; how many. */
static size_t speedup_rows(const struct report *rep, const struct clb_result_row **best,
                           size_t *file_of)
{
    size_t n = 0;

    for (size_t f = 0; f < rep->n_files; f++) {
        for (size_t i = 0; i < rep->files[f]->n_rows; i++) {
            const struct clb_result_row *r = &rep->files[f]->rows[i];
            if (strcmp(r->benchmark, "gemm") || !r->has_value || r->speedup <= 0 ||
                !r->precision || r->baseline)
                continue;
            size_t b = 0;
            while (b < n && !(file_of[b] == f && !strcmp(best[b]->device, r->device) &&
                              !strcmp(best[b]->backend, r->backend) &&
                              !strcmp(best[b]->precision, r->precision) &&
                              best[b]->rank == r->rank))
                b++;
            if (b == n) {
                if (n == MAX_BARS)
                    continue;
                best[n] = r;
                file_of[n++] = f;
            } else if (cube_size(r) >= cube_size(best[b])) {
                best[b] = r;
            }
        }
    }
    return n;
}

static void bar_label(FILE *out, const struct report *rep, const struct clb_result_row *r,
                      size_t file)
{
    svg_esc_clip(out, r->device, 30);
    fprintf(out, " (%s, %s, %s)", r->backend, r->precision,
            r->case_ + strcspn(r->case_, " ") + 1);
    if (r->host) {
        fputs(" · ", out);
        svg_esc(out, r->host);
        fprintf(out, " r%d", r->rank);
    }
    if (rep->n_files > 1) {
        fputs(" · ", out);
        svg_esc(out, svg_base(rep->files[file]->path));
    }
}

/* Horizontal bars: each device backend's speedup at its largest size, per file and precision. */
void report_speedup(FILE *out, const struct report *rep, const struct report_section *sec)
{
    const struct clb_result_row *best[MAX_BARS];
    size_t file_of[MAX_BARS];
    const size_t n = speedup_rows(rep, best, file_of);
    double lo = 1, hi = 1;

    if (n == 0)
        return;
    for (size_t b = 0; b < n; b++)
        lo = fmin(lo, best[b]->speedup), hi = fmax(hi, best[b]->speedup);
    const bool xlog = hi / lo > 100;
    if (xlog) {
        svg_log_bounds(&lo, &hi);
    } else {
        lo = 0;
        hi *= 1.15;
    }
    const int left = 440, right = 900, bar_h = 20, gap = 8, top = 30;
    const int height = top + (int)n * (bar_h + gap) + 50;

    fprintf(out, "<h2>%s</h2>\n", sec->title);
    svg_open(out, "bar-chart", W, height);
    fputs("speedup over the CPU baseline", out);
    svg_label_end(out);
    double x1 = svg_scale(1.0, xlog ? lo : 0, hi, xlog, left, right);
    for (size_t b = 0; b < n; b++) {
        const struct clb_result_row *r = best[b];
        double y = top + (double)b * (bar_h + gap);
        double x0 = xlog ? left : svg_scale(0, 0, hi, false, left, right);
        double xe = svg_scale(r->speedup, xlog ? lo : 0, hi, xlog, left, right);
        fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"12\">",
                left - 8, y + 14);
        bar_label(out, rep, r, file_of[b]);
        fprintf(out, "</text>\n<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                     "height=\"%d\" fill=\"%s\"><title>%.3gx</title></rect>"
                     "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\">%.3gx</text>\n",
                x0, y, fmax(xe - x0, 1), bar_h, svg_color(b), r->speedup, xe + 4, y + 14,
                r->speedup);
    }
    int axis_y = top + (int)n * (bar_h + gap);
    fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#333\" "
                 "stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
                 "font-size=\"12\">CPU baseline = 1x</text>\n",
            x1, x1, top - 6, axis_y, x1, top - 10);
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\">speedup "
                 "(GFLOP/s over OpenBLAS's, same precision and size%s)</text>\n",
            (left + right) / 2, axis_y + 30, xlog ? "; log scale" : "");
    fputs("</svg>\n", out);
}
