#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sections.h"
#include "svg.h"

enum { W = 1000, MAX_BARS = 64 };

/* Each device backend's row at its largest size, per file, precision and rank; how many. */
static size_t speedup_rows(const struct report *rep, const struct clb_row **best,
                           size_t *file_of)
{
    size_t n = 0;

    for (size_t f = 0; f < rep->n_files; f++) {
        for (size_t i = 0; i < rep->files[f]->n_rows; i++) {
            const struct clb_row *r = &rep->files[f]->rows[i];
            if (r->benchmark != CLB_BENCH_GEMM || !r->has_value || r->speedup <= 0 ||
                !r->precision_name || r->baseline)
                continue;
            size_t b = 0;
            while (b < n && !(file_of[b] == f && !strcmp(best[b]->device_name, r->device_name) &&
                              !strcmp(best[b]->backend, r->backend) &&
                              clb_result_row_same_precision(best[b], r) &&
                              best[b]->rank == r->rank))
                b++;
            if (b == n) {
                if (n == MAX_BARS)
                    continue;
                best[n] = r;
                file_of[n++] = f;
            } else if (clb_result_row_cube_size(r) >= clb_result_row_cube_size(best[b])) {
                best[b] = r;
            }
        }
    }
    return n;
}

/* "DEVICE (BACKEND, PRECISION, SIZE) · HOST rN · FILE" (unescaped). */
static void bar_label(char *buf, size_t len, const struct report *rep,
                      const struct clb_row *r, size_t file)
{
    char host[160] = "";

    if (r->host)
        snprintf(host, sizeof(host), " · %s r%d", r->host, r->rank);
    snprintf(buf, len, "%s (%s, %s, %s)%s%s%s", r->device_name, r->backend, r->precision_name,
             r->case_ + strcspn(r->case_, " ") + 1, host, rep->n_files > 1 ? " · " : "",
             rep->n_files > 1 ? svg_base(rep->files[file]->path) : "");
}

enum { LABEL_MIN = 200, LABEL_MAX = 560, RIGHT = 900, BAR_H = 20, GAP = 8, TOP = 30 };

/* The bars' label column: as wide as the widest label, within LABEL_MIN..LABEL_MAX. */
static int label_column(const struct report *rep, const struct clb_row *const *best,
                        const size_t *file_of, size_t n)
{
    double widest = 0;
    char label[512];

    for (size_t b = 0; b < n; b++) {
        bar_label(label, sizeof(label), rep, best[b], file_of[b]);
        widest = fmax(widest, svg_text_width(label, 12));
    }
    return (int)fmin(fmax(widest + 16, LABEL_MIN), LABEL_MAX);
}

/* How tall bar b's row is: its label may wrap onto more lines. */
static double row_height(const struct report *rep, const struct clb_row *r, size_t file,
                         int left)
{
    char label[512], lines[8][128];

    bar_label(label, sizeof(label), rep, r, file);
    return fmax(BAR_H, 14.0 * (double)svg_wrap(label, left - 16, 12, lines, 8)) + GAP;
}

/* Horizontal bars: each device backend's speedup at its largest size, per file and precision. */
void report_speedup(FILE *out, const struct report *rep, const struct report_section *sec)
{
    const struct clb_row *best[MAX_BARS];
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
    const int left = label_column(rep, best, file_of, n), right = RIGHT, top = TOP;
    double axis_y = top;
    for (size_t b = 0; b < n; b++)
        axis_y += row_height(rep, best[b], file_of[b], left);

    fprintf(out, "<h2>%s</h2>\n", sec->title);
    svg_open(out, "bar-chart", W, (int)ceil(axis_y) + 50);
    fputs("speedup over the CPU baseline", out);
    svg_label_end(out);
    double x1 = svg_scale(1.0, xlog ? lo : 0, hi, xlog, left, right), y = top;
    for (size_t b = 0; b < n; b++) {
        const struct clb_row *r = best[b];
        double x0 = xlog ? left : svg_scale(0, 0, hi, false, left, right);
        double xe = svg_scale(r->speedup, xlog ? lo : 0, hi, xlog, left, right);
        char label[512];
        bar_label(label, sizeof(label), rep, r, file_of[b]);
        svg_text_wrapped(out, NULL, left - 8, y + 14, "end", 12, 14, left - 16, label);
        const char *mark = r->baseline_handicap ? " *" : "";
        fprintf(out, "\n<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                     "height=\"%d\" fill=\"%s\"><title>%.3gx%s</title></rect>"
                     "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\">%.3gx%s</text>\n",
                x0, y, fmax(xe - x0, 1), BAR_H, svg_color(b), r->speedup, mark, xe + 4,
                y + 14, r->speedup, mark);
        y += row_height(rep, r, file_of[b], left);
    }
    fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#333\" "
                 "stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
                 "font-size=\"12\">CPU baseline = 1x</text>\n",
            x1, x1, top - 6, (int)axis_y, x1, top - 10);
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\">speedup "
                 "(GFLOP/s over OpenBLAS's, same precision and size%s)</text>\n",
            (left + right) / 2, (int)axis_y + 30, xlog ? "; log scale" : "");
    fputs("</svg>\n", out);
    report_handicap_notes(out, rep);
}
