#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/results/sweep.h"
#include "clbench/util/units.h"
#include "sections.h"
#include "svg.h"

enum { W = 1000, H = 440, L = 80, R = 600, T = 24, B = 380, SWEEP_MAX_KERNELS = 16 };

/* One device and precision's chart: its rows by kernel, the bounds, the analysis. */
struct sweep_chart {
    const struct clb_result_file *f;
    const struct clb_row *dev;
    const char *kernel[SWEEP_MAX_KERNELS];
    size_t n_kernels;
    size_t *of_kernel; /* per row of f: its kernel, SIZE_MAX for none */
    double xlo, xhi, ylo, yhi, step;
    bool ylog;
    const struct clb_sweep *sweep; /* results/sweep.h's, judged before drawing */
};

static bool of_chart(const struct clb_row *r, const struct clb_row *dev)
{
    return clb_result_row_same_device(r, dev) && r->precision_name &&
           clb_result_row_same_precision(r, dev) && clb_sweep_row(r);
}

/* Groups dev's sweep rows by kernel and finds the bounds; false when there is no chart. */
static bool sweep_collect(struct sweep_chart *c)
{
    const struct clb_result_file *f = c->f;

    c->xlo = c->ylo = INFINITY, c->xhi = c->yhi = 0;
    for (size_t i = 0; i < f->n_rows; i++) {
        const struct clb_row *r = &f->rows[i];
        size_t k = 0;
        c->of_kernel[i] = SIZE_MAX;
        if (!of_chart(r, c->dev))
            continue;
        while (k < c->n_kernels && strcmp(c->kernel[k], r->kernel))
            k++;
        if (k == SWEEP_MAX_KERNELS)
            continue;
        if (k == c->n_kernels)
            c->kernel[c->n_kernels++] = r->kernel;
        c->of_kernel[i] = k;
        c->xlo = fmin(c->xlo, (double)r->array_bytes), c->xhi = fmax(c->xhi, (double)r->array_bytes);
        if (r->value > 0)
            c->ylo = fmin(c->ylo, r->value), c->yhi = fmax(c->yhi, r->value);
    }
    if (c->sweep->n_triad < 2 || !(c->yhi > 0) || !(c->xhi > c->xlo))
        return false;
    c->ylog = c->yhi / c->ylo > 50;
    if (c->ylog) {
        svg_log_bounds(&c->ylo, &c->yhi);
    } else {
        c->step = svg_nice_step(c->yhi / 5);
        c->ylo = 0;
        c->yhi = ceil(c->yhi * 1.05 / c->step) * c->step;
    }
    return true;
}

static double sx(const struct sweep_chart *c, double bytes)
{
    return svg_scale(bytes, c->xlo, c->xhi, true, L + 20, R - 20);
}

static double sy(const struct sweep_chart *c, double v)
{
    return svg_scale(v, c->ylo, c->yhi, c->ylog, B, T);
}

/* The y grid, and x ticks at every size measured (the first of equals). */
static void sweep_axes(FILE *out, const struct sweep_chart *c)
{
    const struct clb_result_file *f = c->f;
    double last_tick = -1;

    for (double v = c->ylo; v <= c->yhi * 1.0001; v = c->ylog ? v * 10 : v + c->step)
        svg_ytick(out, sy(c, v), L, R, "%g", v, true);
    for (size_t i = 0; i < f->n_rows; i++) {
        if (c->of_kernel[i] == SIZE_MAX)
            continue;
        const double bytes = (double)f->rows[i].array_bytes, x = sx(c, bytes);
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = c->of_kernel[j] != SIZE_MAX && (double)f->rows[j].array_bytes == bytes;
        if (seen || fabs(x - last_tick) < 1)
            continue;
        last_tick = x;
        char size[32];
        clb_format_bytes(f->rows[i].array_bytes, size, sizeof(size));
        fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#999\"/>"
                     "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\">",
                x, x, B, B + 5, x, B + 18);
        svg_esc(out, size);
        fputs("</text>\n", out);
    }
    svg_xtitle(out, (L + R) / 2, B + 40, "bytes per array (log scale)");
    svg_ytitle(out, T, B, c->ylog ? "GB/s (log scale)" : "GB/s");
}

/* Halfway (on the log axis) between the last size the caches helped and the size past them. */
static void cache_edge(FILE *out, const struct sweep_chart *c)
{
    const struct clb_sweep *s = c->sweep;
    const double x = (sx(c, (double)s->size[s->finding.cached].array_bytes) +
                      sx(c, (double)s->size[s->finding.past].array_bytes)) / 2;

    fprintf(out, "<line class=\"cache-edge\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" "
                 "stroke=\"#333\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"><title>%s "
                 "triad: ", x, x, T, B, c->dev->precision_name);
    svg_esc(out, s->finding.text);
    fprintf(out, "</title></line><text class=\"cache-edge-label\" x=\"%.1f\" y=\"%d\" "
                 "text-anchor=\"middle\" font-size=\"12\">caches stop helping</text>\n",
            x, T + 14);
}

static int cmp_size(const void *a, const void *b)
{
    const uint64_t x = (*(const struct clb_row *const *)a)->array_bytes;
    const uint64_t y = (*(const struct clb_row *const *)b)->array_bytes;
    return (x > y) - (x < y);
}

/* Kernel k's line through its sizes (line: room for every row). */
static void kernel_line(FILE *out, const struct sweep_chart *c, size_t k,
                        const struct clb_row **line)
{
    const char *color = svg_color(k);
    size_t n = 0;

    for (size_t i = 0; i < c->f->n_rows; i++)
        if (c->of_kernel[i] == k)
            line[n++] = &c->f->rows[i];
    qsort(line, n, sizeof(*line), cmp_size);
    fprintf(out, "<g class=\"series\" stroke=\"%s\" fill=\"%s\">\n", color, color);
    if (n > 1) {
        fputs("<polyline class=\"sweep-line\" fill=\"none\" stroke-width=\"2\" points=\"", out);
        for (size_t i = 0; i < n; i++)
            fprintf(out, "%.1f,%.1f ", sx(c, (double)line[i]->array_bytes), sy(c, line[i]->value));
        fputs("\"/>\n", out);
    }
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "<circle r=\"4\" cx=\"%.1f\" cy=\"%.1f\"><title>",
                sx(c, (double)line[i]->array_bytes), sy(c, line[i]->value));
        svg_esc(out, line[i]->case_);
        fprintf(out, ": %.4g GB/s</title></circle>\n", line[i]->value);
    }
    fputs("</g>\n", out);
    svg_legend(out, R + 16, W - 4, T + 10 + 22.0 * (double)k, &c->kernel[k], &color, 1);
}

/* One device and precision's sweep (its first row's rank, in a fleet file): a line per kernel. */
static void sweep_chart(FILE *out, const struct clb_result_file *f, const struct clb_sweep *s,
                        size_t n_files)
{
    const struct clb_row *dev = s->triad[0];
    struct sweep_chart *c = calloc(1, sizeof(*c));
    const struct clb_row **line = calloc(f->n_rows + 1, sizeof(*line));

    if (!c || !line || !(c->of_kernel = calloc(f->n_rows + 1, sizeof(size_t))))
        goto done;
    c->f = f, c->dev = dev, c->sweep = s;
    if (!sweep_collect(c))
        goto done;
    fputs("<h3>", out);
    report_device_title(out, f, dev->device_name, dev, n_files);
    fprintf(out, ", %s</h3>\n", dev->precision_name);
    svg_open(out, "sweep-chart", W, H);
    fputs("GB/s against bytes per array, ", out);
    report_device_title(out, f, dev->device_name, dev, n_files);
    fprintf(out, ", %s", dev->precision_name);
    svg_label_end(out);
    svg_frame(out, L, T, R, B);
    sweep_axes(out, c);
    if (s->finding.verdict == CLB_SWEEP_EDGE)
        cache_edge(out, c);
    for (size_t k = 0; k < c->n_kernels; k++)
        kernel_line(out, c, k, line);
    fprintf(out, "</svg>\n<p class=\"caption sweep-finding\">%s triad: ", dev->precision_name);
    svg_esc(out, s->finding.text);
    fputs("</p>\n", out);
done:
    if (c)
        free(c->of_kernel);
    free(c);
    free(line);
}

void report_sweep(FILE *out, const struct report *rep, const struct report_section *sec)
{
    bool started = false;

    for (size_t f = 0; f < rep->n_files; f++) {
        const struct clb_result_file *file = rep->files[f];
        struct clb_sweeps sweeps;
        if (clb_sweeps_of(file, &sweeps))
            continue;
        /* one chart per device and precision; in a fleet file, its first rank's */
        for (size_t k = 0; k < sweeps.n; k++) {
            if (sweeps.s[k].n_sizes < 2)
                continue;
            if (!started)
                fprintf(out, "<h2>%s</h2>\n<p>From <code>bandwidth --sizes</code>: "
                      "each kernel's GB/s (bytes read plus written per second) against the size "
                      "of each array, per device and precision. The dashed line is where the "
                      "caches stop helping: between the largest size whose arrays fit the "
                      "last-level cache and whose triad calls (their middle half) all ran "
                      "faster than those of the smallest size past it, and that size. Where "
                      "they overlap the finding says the difference is within noise; without "
                      "the cache's size it is not judged. The finding is the one "
                      "<code>bandwidth</code> prints under its table.</p>\n", sec->title);
            started = true;
            sweep_chart(out, file, &sweeps.s[k], rep->n_files);
        }
        clb_sweeps_finish(&sweeps);
    }
}
