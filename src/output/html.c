#include "clbench/output/html.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/results/compare.h"
#include "clbench/results/fleet.h"
#include "clbench/util/units.h"

static const char *const palette[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                       "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22" };
#define N_COLORS (sizeof(palette) / sizeof(palette[0]))

static void esc(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*s, out); break;
        }
    }
}

static const char *base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* s escaped, cut to fewer than max bytes with "..." (long names would run off a chart's edge). */
static void esc_clip(FILE *out, const char *s, size_t max)
{
    char buf[64];

    if (strlen(s) < max || max < 4) {
        esc(out, s);
        return;
    }
    size_t cut = (max < sizeof(buf) ? max : sizeof(buf)) - 4;
    while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80) /* not inside a UTF-8 character */
        cut--;
    memcpy(buf, s, cut);
    memcpy(buf + cut, "...", 4);
    esc(out, buf);
}

/* A point of a GEMM curve: size on x (cube root of m*n*k), the figure on y. */
struct point {
    double x, y;
    const struct clb_result_row *row;
};

struct series {
    size_t file;
    const char *device, *backend;
    bool median; /* a fleet file's: the points are fleet medians, one per case */
    struct point *pts;
    size_t n;
};

static double cube_size(const struct clb_result_row *r)
{
    return cbrt((double)r->m * (double)r->n * (double)r->k);
}

static int cmp_point(const void *a, const void *b)
{
    double x = ((const struct point *)a)->x, y = ((const struct point *)b)->x;
    return (x > y) - (x < y);
}

/* Collects the GEMM series of one precision across files; returns how many. */
static size_t collect(struct clb_result_file *const *files, size_t n_files, const char *prec,
                      struct series *ser, size_t cap)
{
    size_t n = 0;

    for (size_t f = 0; f < n_files; f++) {
        for (size_t i = 0; i < files[f]->n_rows; i++) {
            const struct clb_result_row *r = &files[f]->rows[i];
            /* One line per rank would be a tangle: a fleet's line is its median. */
            const bool median = r->host != NULL;
            if (strcmp(r->benchmark, "gemm") || !r->m || !r->precision ||
                strcmp(r->precision, prec) || !(median ? r->fleet_median > 0 : r->has_value))
                continue;
            size_t s = 0;
            while (s < n && !(ser[s].file == f && !strcmp(ser[s].device, r->device) &&
                              !strcmp(ser[s].backend, r->backend)))
                s++;
            if (s == n) {
                if (n == cap)
                    continue;
                ser[n] = (struct series){ .file = f, .device = r->device, .backend = r->backend,
                                          .median = median,
                                          .pts = calloc(files[f]->n_rows, sizeof(struct point)) };
                if (!ser[n].pts)
                    continue;
                n++;
            }
            bool seen = false;
            for (size_t j = 0; median && j < ser[s].n && !seen; j++)
                seen = !strcmp(ser[s].pts[j].row->case_, r->case_);
            if (!seen)
                ser[s].pts[ser[s].n++] =
                    (struct point){ cube_size(r), median ? r->fleet_median : r->value, r };
        }
    }
    for (size_t s = 0; s < n; s++)
        qsort(ser[s].pts, ser[s].n, sizeof(struct point), cmp_point);
    return n;
}

/* Maps v in [lo, hi] (log or linear) onto [a, b]. */
static double scale(double v, double lo, double hi, bool log_scale, double a, double b)
{
    if (log_scale) {
        v = log10(v);
        lo = log10(lo);
        hi = log10(hi);
    }
    return hi > lo ? a + (v - lo) / (hi - lo) * (b - a) : (a + b) / 2;
}

static void series_label(FILE *out, const struct series *s, struct clb_result_file *const *files,
                         size_t n_files)
{
    esc(out, s->device);
    fputs(" (", out);
    esc(out, s->backend);
    fputs(s->median ? ", fleet median)" : ")", out);
    if (n_files > 1) {
        fputs(" · ", out);
        esc(out, base(files[s->file]->path));
    }
}

enum { W = 1000, H = 440, L = 80, R = 600, T = 24, B = 380 };

static void line_chart(FILE *out, struct clb_result_file *const *files, size_t n_files,
                       const char *prec)
{
    struct series ser[32];
    size_t n = collect(files, n_files, prec, ser, 32);
    double xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0;

    if (n == 0)
        return;
    for (size_t s = 0; s < n; s++)
        for (size_t i = 0; i < ser[s].n; i++) {
            const struct point *p = &ser[s].pts[i];
            xlo = fmin(xlo, p->x), xhi = fmax(xhi, p->x);
            if (p->y > 0)
                ylo = fmin(ylo, p->y), yhi = fmax(yhi, p->y);
        }
    if (!(yhi > 0)) {
        for (size_t s = 0; s < n; s++)
            free(ser[s].pts);
        return;
    }
    if (xhi <= xlo)
        xlo /= 2, xhi *= 2;
    const bool ylog = yhi / ylo > 50;
    if (ylog) {
        ylo = pow(10, floor(log10(ylo)));
        yhi = pow(10, ceil(log10(yhi)));
    } else {
        double step = pow(10, floor(log10(yhi))) / 2;
        ylo = 0;
        yhi = ceil(yhi * 1.05 / step) * step;
    }

    fprintf(out, "<h2>GEMM throughput, %s</h2>\n", prec);
    fprintf(out, "<svg class=\"chart line-chart\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
                 "role=\"img\" aria-label=\"GFLOP/s against matrix size, %s\">\n", W, H, W, H, prec);
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" stroke=\"#ccc\"/>\n",
            L, T, R - L, B - T);
    /* y grid and labels */
    if (ylog) {
        for (double v = ylo; v <= yhi * 1.0001; v *= 10) {
            double y = scale(v, ylo, yhi, true, B, T);
            fprintf(out, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>"
                         "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"12\">%g</text>\n",
                    L, R, y, y, L - 6, y + 4, v);
        }
    } else {
        for (int i = 0; i <= 5; i++) {
            double v = yhi * i / 5, y = scale(v, ylo, yhi, false, B, T);
            fprintf(out, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>"
                         "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"12\">%.4g</text>\n",
                    L, R, y, y, L - 6, y + 4, v);
        }
    }
    /* x ticks at every size measured */
    double last_tick = -1;
    for (size_t s = 0; s < n; s++)
        for (size_t i = 0; i < ser[s].n; i++) {
            const struct point *p = &ser[s].pts[i];
            double x = scale(p->x, xlo, xhi, true, L + 20, R - 20);
            bool seen = false;
            for (size_t t = 0; t < s && !seen; t++)
                for (size_t j = 0; j < ser[t].n; j++)
                    seen |= ser[t].pts[j].x == p->x;
            for (size_t j = 0; j < i; j++)
                seen |= ser[s].pts[j].x == p->x;
            if (seen || fabs(x - last_tick) < 1)
                continue;
            last_tick = x;
            fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#999\"/>"
                         "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\">",
                    x, x, B, B + 5, x, B + 18);
            if (p->row->m == p->row->n && p->row->n == p->row->k)
                fprintf(out, "%" PRIu64, p->row->m);
            else
                fprintf(out, "%" PRIu64 "×%" PRIu64 "×%" PRIu64, p->row->m, p->row->n, p->row->k);
            fputs("</text>\n", out);
        }
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\">matrix size "
                 "(M = N = K, log scale)</text>\n", (L + R) / 2, B + 40);
    fprintf(out, "<text x=\"18\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\" "
                 "transform=\"rotate(-90 18 %d)\">GFLOP/s%s</text>\n", (T + B) / 2, (T + B) / 2,
            ylog ? " (log scale)" : "");
    for (size_t s = 0; s < n; s++) {
        const char *color = palette[s % N_COLORS];
        fprintf(out, "<g class=\"series\" stroke=\"%s\" fill=\"%s\">\n", color, color);
        if (ser[s].n > 1) {
            fputs("<polyline fill=\"none\" stroke-width=\"2\" points=\"", out);
            for (size_t i = 0; i < ser[s].n; i++)
                fprintf(out, "%.1f,%.1f ", scale(ser[s].pts[i].x, xlo, xhi, true, L + 20, R - 20),
                        scale(ser[s].pts[i].y, ylo > 0 ? ylo : 0, yhi, ylog, B, T));
            fputs("\"/>\n", out);
        }
        for (size_t i = 0; i < ser[s].n; i++) {
            const struct point *p = &ser[s].pts[i];
            fprintf(out, "<circle r=\"4\" cx=\"%.1f\" cy=\"%.1f\"><title>",
                    scale(p->x, xlo, xhi, true, L + 20, R - 20),
                    scale(p->y, ylo > 0 ? ylo : 0, yhi, ylog, B, T));
            series_label(out, &ser[s], files, n_files);
            fprintf(out, ", %s: %.4g GFLOP/s</title></circle>\n", p->row->case_, p->y);
        }
        fputs("</g>\n", out);
        /* legend */
        double ly = T + 10 + 22.0 * (double)s;
        fprintf(out, "<g class=\"legend\"><rect x=\"%d\" y=\"%.1f\" width=\"14\" height=\"14\" "
                     "fill=\"%s\"/><text x=\"%d\" y=\"%.1f\" font-size=\"12\">",
                R + 16, ly, color, R + 36, ly + 11);
        series_label(out, &ser[s], files, n_files);
        fputs("</text></g>\n", out);
        free(ser[s].pts);
    }
    fputs("</svg>\n", out);
}

/* Horizontal bars: each device backend's speedup at its largest size, per file and precision. */
static void speedup_chart(FILE *out, struct clb_result_file *const *files, size_t n_files)
{
    const struct clb_result_row *best[64];
    size_t file_of[64], n = 0;
    double lo = 1, hi = 1;

    for (size_t f = 0; f < n_files; f++) {
        for (size_t i = 0; i < files[f]->n_rows; i++) {
            const struct clb_result_row *r = &files[f]->rows[i];
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
                if (n == 64)
                    continue;
                best[n] = r;
                file_of[n++] = f;
            } else if (cube_size(r) >= cube_size(best[b])) {
                best[b] = r;
            }
        }
    }
    if (n == 0)
        return;
    for (size_t b = 0; b < n; b++)
        lo = fmin(lo, best[b]->speedup), hi = fmax(hi, best[b]->speedup);
    const bool xlog = hi / lo > 100;
    if (xlog) {
        lo = pow(10, floor(log10(lo)));
        hi = pow(10, ceil(log10(hi)));
    } else {
        lo = 0;
        hi *= 1.15;
    }
    const int left = 440, right = 900, bar_h = 20, gap = 8, top = 30;
    const int height = top + (int)n * (bar_h + gap) + 50;

    fputs("<h2>Speedup over the CPU baseline (OpenBLAS), at the largest size measured</h2>\n", out);
    fprintf(out, "<svg class=\"chart bar-chart\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
                 "role=\"img\" aria-label=\"speedup over the CPU baseline\">\n", W, height, W, height);
    double x1 = scale(1.0, xlog ? lo : 0, hi, xlog, left, right);
    for (size_t b = 0; b < n; b++) {
        const struct clb_result_row *r = best[b];
        double y = top + (double)b * (bar_h + gap);
        double x0 = xlog ? left : scale(0, 0, hi, false, left, right);
        double xe = scale(r->speedup, xlog ? lo : 0, hi, xlog, left, right);
        fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"12\">", left - 8,
                y + 14);
        esc_clip(out, r->device, 30);
        fprintf(out, " (%s, %s, %s)", r->backend, r->precision, r->case_ + strcspn(r->case_, " ") + 1);
        if (r->host) {
            fputs(" · ", out);
            esc(out, r->host);
            fprintf(out, " r%d", r->rank);
        }
        if (n_files > 1) {
            fputs(" · ", out);
            esc(out, base(files[file_of[b]]->path));
        }
        fprintf(out, "</text>\n<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                     "height=\"%d\" fill=\"%s\"><title>%.3gx</title></rect>"
                     "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\">%.3gx</text>\n",
                x0, y, fmax(xe - x0, 1), bar_h, palette[b % N_COLORS], r->speedup, xe + 4,
                y + 14, r->speedup);
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

static double elem_bytes(const char *precision)
{
    return !strcmp(precision, "fp64") ? 8 : !strcmp(precision, "fp16") ? 2 : 4;
}

/* A verified figure of `device` from the rank of of_rank (in a single run, any row). */
static bool measured_on(const struct clb_result_row *r, const char *device,
                        const struct clb_result_row *of_rank)
{
    return !strcmp(r->device, device) && r->has_value && r->rank == of_rank->rank;
}

/* "DEVICE · host r1 · file.json": a device's chart title (host and rank in a fleet file). */
static void device_title(FILE *out, const struct clb_result_file *f, const char *device,
                         const struct clb_result_row *of_rank, size_t n_files)
{
    esc(out, device);
    if (of_rank->host) {
        fputs(" · ", out);
        esc(out, of_rank->host);
        fprintf(out, " r%d", of_rank->rank);
    }
    if (n_files > 1) {
        fputs(" · ", out);
        esc(out, base(f->path));
    }
}

/*
 * Roofline per device: the measured peak of each precision as the flat roof
 * (its fastest verified call, the statistic every limit takes; the headline
 * in files that lack it),
 * the measured triad bandwidth as the slope (performance = intensity x
 * bandwidth), and each GEMM result at its arithmetic intensity: 2mnk FLOP
 * over the (m*k + k*n + 2*m*n) elements a cache-perfect GEMM must move.
 */
static void roofline(FILE *out, const struct clb_result_file *f, const char *device,
                     const struct clb_result_row *of_rank, size_t n_files)
{
    const char *precs[] = { "fp32", "fp64", "fp16" };
    double peak[3] = { 0 }, bw = 0, xlo = 0.1, xhi = 10, ylo = INFINITY, yhi = 0;
    size_t n_points = 0;

    for (size_t i = 0; i < f->n_rows; i++) {
        const struct clb_result_row *r = &f->rows[i];
        if (!measured_on(r, device, of_rank))
            continue;
        if (clb_result_row_is_triad(r))
            bw = r->value;
        for (int p = 0; p < 3; p++)
            if (!strcmp(r->benchmark, "peak") && r->headline && r->precision &&
                !strcmp(r->precision, precs[p]) && r->has_value)
                peak[p] = r->best > 0 ? r->best : r->value;
    }
    if (bw <= 0 || (peak[0] <= 0 && peak[1] <= 0 && peak[2] <= 0))
        return;
    for (size_t i = 0; i < f->n_rows; i++) {
        const struct clb_result_row *r = &f->rows[i];
        if (!measured_on(r, device, of_rank) || strcmp(r->benchmark, "gemm") || !r->m)
            continue;
        double ai = 2.0 * r->m * r->n * r->k /
                    (((double)r->m * r->k + (double)r->k * r->n + 2.0 * r->m * r->n) *
                     elem_bytes(r->precision));
        xlo = fmin(xlo, ai / 2), xhi = fmax(xhi, ai * 2);
        ylo = fmin(ylo, r->value / 2);
        n_points++;
    }
    for (int p = 0; p < 3; p++)
        if (peak[p] > 0) {
            yhi = fmax(yhi, peak[p] * 2);
            xhi = fmax(xhi, peak[p] / bw * 4); /* show each ridge point */
        }
    ylo = fmin(ylo, xlo * bw);
    xlo = pow(10, floor(log10(xlo)));
    xhi = pow(10, ceil(log10(xhi)));
    ylo = pow(10, floor(log10(ylo)));
    yhi = pow(10, ceil(log10(yhi)));

    fputs("<h2>Roofline: ", out);
    device_title(out, f, device, of_rank, n_files);
    fprintf(out, "</h2>\n<svg class=\"chart roofline\" viewBox=\"0 0 %d %d\" width=\"%d\" "
                 "height=\"%d\" role=\"img\" aria-label=\"roofline\">\n", W, H, W, H);
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" "
                 "stroke=\"#ccc\"/>\n", L, T, R - L, B - T);
    for (double v = xlo; v <= xhi * 1.0001; v *= 10) {
        double x = scale(v, xlo, xhi, true, L, R);
        fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#e0e0e0\"/>"
                     "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\">%g</text>\n",
                x, x, T, B, x, B + 18, v);
    }
    for (double v = ylo; v <= yhi * 1.0001; v *= 10) {
        double y = scale(v, ylo, yhi, true, B, T);
        fprintf(out, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>"
                     "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"12\">%g</text>\n",
                L, R, y, y, L - 6, y + 4, v);
    }
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\">arithmetic "
                 "intensity (FLOP/byte, log scale)</text>\n", (L + R) / 2, B + 40);
    fprintf(out, "<text x=\"18\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\" "
                 "transform=\"rotate(-90 18 %d)\">GFLOP/s (log scale)</text>\n", (T + B) / 2,
            (T + B) / 2);
    int legend = 0;
    for (int p = 0; p < 3; p++) {
        if (peak[p] <= 0)
            continue;
        const char *color = palette[p];
        double ridge = peak[p] / bw;
        double x0 = xlo, y0 = fmax(xlo * bw, ylo);
        x0 = y0 / bw;
        fprintf(out, "<polyline class=\"roof\" fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\" "
                     "points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"><title>%s roof: %.4g GFLOP/s peak (fastest verified call), "
                     "%.4g GB/s</title></polyline>\n",
                color, scale(x0, xlo, xhi, true, L, R), scale(y0, ylo, yhi, true, B, T),
                scale(ridge, xlo, xhi, true, L, R), scale(peak[p], ylo, yhi, true, B, T),
                scale(xhi, xlo, xhi, true, L, R), scale(peak[p], ylo, yhi, true, B, T),
                precs[p], peak[p], bw);
        double ly = T + 10 + 22.0 * legend++;
        fprintf(out, "<g class=\"legend\"><rect x=\"%d\" y=\"%.1f\" width=\"14\" height=\"14\" "
                     "fill=\"%s\"/><text x=\"%d\" y=\"%.1f\" font-size=\"12\">%s: peak %.4g "
                     "GFLOP/s (fastest call), triad %.4g GB/s</text></g>\n",
                R + 16, ly, color, R + 36, ly + 11, precs[p], peak[p], bw);
    }
    for (size_t i = 0; i < f->n_rows; i++) {
        const struct clb_result_row *r = &f->rows[i];
        if (!measured_on(r, device, of_rank) || strcmp(r->benchmark, "gemm") || !r->m)
            continue;
        int p = !strcmp(r->precision, "fp64") ? 1 : !strcmp(r->precision, "fp16") ? 2 : 0;
        double ai = 2.0 * r->m * r->n * r->k /
                    (((double)r->m * r->k + (double)r->k * r->n + 2.0 * r->m * r->n) *
                     elem_bytes(r->precision));
        fprintf(out, "<circle class=\"gemm-point\" r=\"5\" cx=\"%.1f\" cy=\"%.1f\" fill=\"%s\" "
                     "stroke=\"#000\"><title>%s %s: %.4g GFLOP/s at %.3g FLOP/byte</title></circle>\n",
                scale(ai, xlo, xhi, true, L, R), scale(r->value, ylo, yhi, true, B, T),
                palette[p], r->backend, r->case_, r->value, ai);
    }
    fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-size=\"12\">dots: GEMM results (%zu)</text>\n",
            R + 16, T + 10 + 22.0 * legend + 11, n_points);
    fputs("</svg>\n", out);
}

static void roofline_charts(FILE *out, struct clb_result_file *const *files, size_t n_files)
{
    for (size_t f = 0; f < n_files; f++) {
        for (size_t i = 0; i < files[f]->n_rows; i++) {
            const struct clb_result_row *r = &files[f]->rows[i];
            bool first = true;
            if (strcmp(r->benchmark, "peak"))
                continue;
            for (size_t j = 0; j < i && first; j++)
                first = strcmp(files[f]->rows[j].benchmark, "peak") ||
                        strcmp(files[f]->rows[j].device, r->device);
            /* In a fleet file, that device's first rank: roofs are not medians. */
            if (first)
                roofline(out, files[f], r->device, r, n_files);
        }
    }
}

/*
 * The Fleet section of a fleet file: a figure is the rows of every rank with
 * one (benchmark, case, backend, precision, device, metric, config).
 */
enum { FLEET_MAX_CHARTS = 24 };

struct fleet_figure {
    const struct clb_result_row *first; /* its identity */
    size_t n_rows, n_values, n_stragglers, n_unmeasured;
    double sum, min, max, median;
    bool headline, drawn;
};

static int cmp_rank(const void *a, const void *b)
{
    int x = (*(const struct clb_result_row *const *)a)->rank;
    int y = (*(const struct clb_result_row *const *)b)->rank;
    return (x > y) - (x < y);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The rows of figure k (fig_of[i] == k), in rank order, into rows; returns how many. */
static size_t figure_rows(const struct clb_result_file *f, const size_t *fig_of, size_t k,
                          const struct clb_result_row **rows)
{
    size_t n = 0;
    for (size_t i = 0; i < f->n_rows; i++)
        if (fig_of[i] == k)
            rows[n++] = &f->rows[i];
    qsort(rows, n, sizeof(rows[0]), cmp_rank);
    return n;
}

/*
 * A GEMM figure is a headline when no figure of its backend, precision and
 * device is larger; a peak figure at its best width; any other benchmark's.
 */
static bool fleet_headline(const struct clb_result_file *f, const struct clb_result_row *r)
{
    if (strcmp(r->benchmark, "gemm"))
        return r->headline;
    for (size_t i = 0; i < f->n_rows; i++) {
        const struct clb_result_row *o = &f->rows[i];
        if (o->host && !strcmp(o->benchmark, "gemm") && !strcmp(o->backend, r->backend) &&
            !strcmp(o->device, r->device) && o->precision && r->precision &&
            !strcmp(o->precision, r->precision) && cube_size(o) > cube_size(r))
            return false;
    }
    return true;
}

/* Groups the fleet rows into figures; fig_of[i] is row i's figure, SIZE_MAX for none. */
static size_t fleet_figures(const struct clb_result_file *f, size_t *fig_of,
                            struct fleet_figure *figs, const struct clb_result_row **rows,
                            double *values)
{
    size_t n = 0;

    for (size_t i = 0; i < f->n_rows; i++) {
        const struct clb_result_row *r = &f->rows[i];
        fig_of[i] = SIZE_MAX;
        if (!r->host)
            continue;
        size_t k = 0;
        while (k < n && !clb_fleet_same_figure(figs[k].first, r))
            k++;
        if (k == n)
            figs[n++] = (struct fleet_figure){ .first = r, .min = INFINITY };
        fig_of[i] = k;
    }
    for (size_t k = 0; k < n; k++) {
        struct fleet_figure *g = &figs[k];
        size_t n_values = 0;
        g->n_rows = figure_rows(f, fig_of, k, rows);
        for (size_t i = 0; i < g->n_rows; i++) {
            const struct clb_result_row *r = rows[i];
            g->n_stragglers += r->straggler;
            if (r->fleet_median > 0)
                g->median = r->fleet_median;
            if (!r->has_value) {
                g->n_unmeasured++;
                continue;
            }
            values[n_values++] = r->value;
            g->sum += r->value;
            g->min = fmin(g->min, r->value);
            g->max = fmax(g->max, r->value);
        }
        g->n_values = n_values;
        /* The run's own median stands; files without one get it from the figures. */
        if (g->median <= 0 && n_values > 0) {
            qsort(values, n_values, sizeof(values[0]), cmp_double);
            g->median = n_values % 2 ? values[n_values / 2]
                                     : (values[n_values / 2 - 1] + values[n_values / 2]) / 2;
        }
        g->headline = fleet_headline(f, g->first);
    }
    return n;
}

static double fleet_threshold(const struct clb_result_file *f)
{
    json_t *t = json_object_get(f->fleet, "threshold");
    return json_is_number(t) && json_number_value(t) > 0 && json_number_value(t) < 1
               ? json_number_value(t)
               : 0;
}

/* "node1 (ranks 0, 1), node2 (rank 2)": ranks holds one row per rank, in rank order. */
static void fleet_hosts(FILE *out, const struct clb_result_row **ranks, size_t n)
{
    for (size_t i = 0, n_hosts = 0; i < n; i++) {
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = !strcmp(ranks[j]->host, ranks[i]->host);
        if (seen)
            continue;
        size_t n_ranks = 0;
        for (size_t j = i; j < n; j++)
            n_ranks += !strcmp(ranks[j]->host, ranks[i]->host);
        fputs(n_hosts++ ? ", " : "", out);
        esc(out, ranks[i]->host);
        fprintf(out, " (rank%s", n_ranks == 1 ? "" : "s");
        for (size_t j = i, k = 0; j < n; j++)
            if (!strcmp(ranks[j]->host, ranks[i]->host))
                fprintf(out, "%s %d", k++ ? "," : "", ranks[j]->rank);
        fputc(')', out);
    }
}

static void figure_title(FILE *out, const struct clb_result_row *r)
{
    esc(out, r->benchmark);
    fputc(' ', out);
    esc(out, r->case_);
    fputs(" · ", out);
    esc(out, r->backend);
    fputs(" · ", out);
    esc(out, r->device);
}

static void rank_name(FILE *out, const struct clb_result_row *r)
{
    esc(out, r->host);
    fprintf(out, " r%d", r->rank);
}

/* The round step (1, 2, 2.5 or 5 times a power of ten) at or above raw > 0. */
static double nice_step(double raw)
{
    static const double mult[] = { 1, 2, 2.5, 5 };
    const double p = pow(10, floor(log10(raw)));

    for (size_t i = 0; i < sizeof(mult) / sizeof(mult[0]); i++)
        if (mult[i] * p >= raw)
            return mult[i] * p;
    return 10 * p;
}

enum { FW = 1000, FH = 290, FL = 80, FR = 840, FT = 20, FB = 220 };

/*
 * One bar per rank (rows in rank order), the median as a dashed line and the
 * straggler threshold as a dotted one; stragglers red and marked; a rank
 * without a verified figure gets its status where its bar would be.
 */
static void fleet_chart(FILE *out, const struct fleet_figure *g,
                        const struct clb_result_row *const *rows, double threshold)
{
    const char *unit = clb_metric_unit(g->first->metric);
    const bool lower = clb_metric_lower_is_better(g->first->metric);
    const double slot = (double)(FR - FL) / (double)g->n_rows;
    const double bar_w = fmin(slot * 0.6, 60), font = fmin(12, fmax(6, slot * 0.45));
    /* Headroom above the tallest bar for its mark; four round steps. */
    double yhi = fmax(g->n_values ? g->max : 0, g->median) * 1.3;

    yhi = yhi > 0 ? 4 * nice_step(yhi / 4) : 1;
    fputs("<h3>", out);
    figure_title(out, g->first);
    fprintf(out, "</h3>\n<svg class=\"chart fleet-chart\" viewBox=\"0 0 %d %d\" width=\"%d\" "
                 "height=\"%d\" role=\"img\" aria-label=\"", FW, FH, FW, FH);
    figure_title(out, g->first);
    fprintf(out, " per rank\">\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                 "fill=\"#fafafa\" stroke=\"#ccc\"/>\n", FL, FT, FR - FL, FB - FT);
    for (int i = 0; i <= 4; i++) {
        double v = yhi * i / 4, y = scale(v, 0, yhi, false, FB, FT);
        fprintf(out, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" "
                     "stroke=\"#e0e0e0\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" "
                     "font-size=\"12\">%.4g</text>\n", FL, FR, y, y, FL - 6, y + 4, v);
    }
    fprintf(out, "<text x=\"18\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\" "
                 "transform=\"rotate(-90 18 %d)\">%s</text>\n", (FT + FB) / 2, (FT + FB) / 2, unit);
    for (size_t i = 0; i < g->n_rows; i++) {
        const struct clb_result_row *r = rows[i];
        const double x = FL + slot * ((double)i + 0.5);
        const bool vertical = slot < 70; /* a word wider than its slot stands upright */
        fprintf(out, "<text class=\"rank-label\" x=\"%.1f\" y=\"%d\" text-anchor=\"end\" "
                     "font-size=\"%.1f\" transform=\"rotate(-40 %.1f %d)\">", x, FB + 14, font,
                x, FB + 14);
        rank_name(out, r);
        fputs("</text>\n", out);
        if (!r->has_value) {
            fprintf(out, "<text class=\"unmeasured\" x=\"%.1f\" y=\"%d\" font-size=\"%.1f\" "
                         "fill=\"#777\" ", x, FB - 6, font);
            if (vertical)
                fprintf(out, "transform=\"rotate(-90 %.1f %d)\"><title>", x, FB - 6);
            else
                fputs("text-anchor=\"middle\"><title>", out);
            rank_name(out, r);
            fputs(": ", out);
            esc(out, r->status);
            fputs(", not drawn</title>", out);
            esc(out, r->status);
            fputs("</text>\n", out);
            continue;
        }
        const double y = scale(r->value, 0, yhi, false, FB, FT);
        fprintf(out, "<rect class=\"bar%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                     "height=\"%.1f\" fill=\"%s\"><title>",
                r->straggler ? " straggler" : "", x - bar_w / 2, y, bar_w, fmax(FB - y, 1),
                r->straggler ? "#d62728" : palette[0]);
        rank_name(out, r);
        fprintf(out, ": %.4g %s", r->value, unit);
        if (g->median > 0)
            fprintf(out, ", %+.1f%% vs the median", (r->value / g->median - 1.0) * 100.0);
        fprintf(out, "%s</title></rect>", r->straggler ? ", straggler" : "");
        if (r->straggler) {
            if (vertical)
                fprintf(out, "<text class=\"straggler-mark\" x=\"%.1f\" y=\"%.1f\" "
                             "font-size=\"%.1f\" fill=\"#d62728\" transform=\"rotate(-90 %.1f "
                             "%.1f)\">straggler</text>", x + font / 3, y - 4, font, x + font / 3,
                        y - 4);
            else
                fprintf(out, "<text class=\"straggler-mark\" x=\"%.1f\" y=\"%.1f\" "
                             "text-anchor=\"middle\" font-size=\"%.1f\" fill=\"#d62728\">"
                             "straggler</text>", x, y - 6, font);
        }
        fputc('\n', out);
    }
    if (g->median > 0) {
        const double y = scale(g->median, 0, yhi, false, FB, FT);
        fprintf(out, "<line class=\"median\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" "
                     "stroke=\"#222\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>"
                     "<text class=\"median-label\" x=\"%d\" y=\"%.1f\" font-size=\"12\">"
                     "median %.4g %s</text>\n", FL, FR, y, y, FR + 6, y + 4, g->median, unit);
        if (threshold > 0) {
            const double t = g->median * (lower ? 1 + threshold : 1 - threshold);
            const double yt = scale(t, 0, yhi, false, FB, FT);
            fprintf(out, "<line class=\"threshold\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" "
                         "y2=\"%.1f\" stroke=\"#d62728\" stroke-dasharray=\"2 3\"/>", FL, FR,
                    yt, yt);
            if (fabs(yt - y) >= 12)
                fprintf(out, "<text class=\"threshold-label\" x=\"%d\" y=\"%.1f\" "
                             "font-size=\"11\" fill=\"#d62728\">straggler %s %.4g</text>",
                        FR + 6, yt + 4, lower ? "above" : "below", t);
            fputc('\n', out);
        }
    }
    fputs("</svg>\n", out);
}

/* sum, min, median, max and the threshold, on one line under the chart (or in the table). */
static void fleet_caption(FILE *out, const struct fleet_figure *g,
                          const struct clb_result_row *const *rows, double threshold)
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
    for (size_t pass = 0; pass < 2; pass++) {
        size_t k = 0;
        for (size_t i = 0; i < g->n_rows; i++) {
            const struct clb_result_row *r = rows[i];
            if (pass == 0 ? !r->straggler : r->has_value)
                continue;
            fputs(k++ ? ", " : pass == 0 ? " · stragglers: " : " · not drawn: ", out);
            rank_name(out, r);
            if (pass == 1) {
                fputc(' ', out);
                esc(out, r->status);
            }
        }
    }
    fputs("</p>\n", out);
}

static void fleet_section(FILE *out, const struct clb_result_file *f, size_t n_files)
{
    size_t *fig_of = calloc(f->n_rows + 1, sizeof(*fig_of));
    struct fleet_figure *figs = calloc(f->n_rows + 1, sizeof(*figs));
    const struct clb_result_row **rows = calloc(f->n_rows + 1, sizeof(*rows));
    double *values = calloc(f->n_rows + 1, sizeof(*values));
    const double threshold = fleet_threshold(f);

    if (!fig_of || !figs || !rows || !values)
        goto out;
    size_t n_figs = fleet_figures(f, fig_of, figs, rows, values);
    size_t n_ranks = 0;
    for (size_t i = 0; i < f->n_rows; i++)
        if (f->rows[i].host)
            rows[n_ranks++] = &f->rows[i];
    qsort(rows, n_ranks, sizeof(rows[0]), cmp_rank);
    size_t u = 0;
    for (size_t i = 0; i < n_ranks; i++)
        if (u == 0 || rows[i]->rank != rows[u - 1]->rank)
            rows[u++] = rows[i];
    n_ranks = u;

    fputs("<h2>Fleet", out);
    if (n_files > 1) {
        fputs(": ", out);
        esc(out, base(f->path));
    }
    fprintf(out, "</h2>\n<p>%zu rank%s on ", n_ranks, n_ranks == 1 ? "" : "s");
    fleet_hosts(out, rows, n_ranks);
    fputs(", measuring at the same time. Each bar is one rank's figure; the dashed line is the "
          "figure's median over the ranks", out);
    if (threshold > 0)
        fprintf(out, ", the dotted one the straggler threshold: a red bar marked "
                     "<span class=\"straggler-mark\">straggler</span> is more than %.3g%% "
                     "worse than the median (below it, or above it where lower is better)",
                threshold * 100.0);
    fprintf(out, ". A rank without a verified figure (failed, error) is named, not drawn. Charts: "
                 "the figures with a straggler or such a rank first, then the headline ones (each "
                 "GEMM backend's largest size per precision and device, each peak's best width, "
                 "every other benchmark's figure), at most %d; the table lists all %zu.</p>\n",
            FLEET_MAX_CHARTS, n_figs);

    size_t n_drawn = 0;
    for (size_t pass = 0; pass < 2; pass++) {
        for (size_t k = 0; k < n_figs && n_drawn < FLEET_MAX_CHARTS; k++) {
            struct fleet_figure *g = &figs[k];
            const bool flagged = g->n_stragglers > 0 || g->n_unmeasured > 0;
            if (g->drawn || (pass == 0 ? !flagged : !g->headline))
                continue;
            figure_rows(f, fig_of, k, rows);
            fleet_chart(out, g, rows, threshold);
            fleet_caption(out, g, rows, threshold);
            g->drawn = true;
            n_drawn++;
        }
    }
    fputs("<table class=\"fleet\"><tr><th>figure</th><th>ranks</th><th>sum</th><th>min</th>"
          "<th>median</th><th>max</th><th>stragglers</th><th>chart</th></tr>\n", out);
    for (size_t k = 0; k < n_figs; k++) {
        const struct fleet_figure *g = &figs[k];
        const char *unit = clb_metric_unit(g->first->metric);
        size_t n = figure_rows(f, fig_of, k, rows);
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
        for (size_t i = 0, s = 0; i < n; i++)
            if (rows[i]->straggler) {
                fputs(s++ ? ", " : "", out);
                rank_name(out, rows[i]);
            }
        fprintf(out, "</td><td>%s</td></tr>\n", g->drawn ? "above" : "");
    }
    fputs("</table>\n", out);
out:
    free(fig_of);
    free(figs);
    free(rows);
    free(values);
}

/*
 * Datasheet vs measured: a device's headline figures, each as a share of the
 * figure it is held against (a vendor's datasheet, or a CPU's derived peak).
 */
static const struct {
    const char *figure, *kind;
} figure_kinds[] = { { "fp64_vector", "fp64 vector peak" }, { "fp32_vector", "fp32 vector peak" },
                     { "fp16_vector", "fp16 vector peak" }, { "memory", "memory bandwidth" } };

static void figure_kind(FILE *out, const char *figure)
{
    for (size_t i = 0; i < sizeof(figure_kinds) / sizeof(figure_kinds[0]); i++)
        if (!strcmp(figure, figure_kinds[i].figure)) {
            fputs(figure_kinds[i].kind, out);
            return;
        }
    esc(out, figure);
}

/* "49.3%", and a small share with two digits that say something: "0.037%". */
static void percent_value(FILE *out, double pct)
{
    fprintf(out, pct >= 1 || pct == 0 ? "%.1f%%" : "%.2g%%", pct);
}

/* A figure as people read it: "82.32", "51000" (not "5.1e+04"). */
static void figure_value(FILE *out, double v)
{
    fprintf(out, v >= 1e4 ? "%.0f" : "%.4g", v);
}

static bool same_place(const struct clb_result_row *a, const struct clb_result_row *b)
{
    return !strcmp(a->device, b->device) && !strcmp(a->device_id, b->device_id);
}

static bool same_device(const struct clb_result_row *a, const struct clb_result_row *b)
{
    return same_place(a, b) && a->rank == b->rank;
}

/*
 * Whether r is drawn against its datasheet figure: a verified peak at its
 * best width, triad, or the fastest GEMM row of its precision and device
 * (the first of equals).
 */
static bool datasheet_bar(const struct clb_result_file *f, const struct clb_result_row *r)
{
    if (!r->has_value || !r->has_datasheet)
        return false;
    if (!strcmp(r->benchmark, "peak"))
        return r->headline;
    if (!strcmp(r->benchmark, "bandwidth"))
        return clb_result_row_is_triad(r);
    if (strcmp(r->benchmark, "gemm") || !r->precision)
        return false;
    for (const struct clb_result_row *o = f->rows; o < f->rows + f->n_rows; o++)
        if (o != r && o->has_value && o->has_datasheet && !strcmp(o->benchmark, "gemm") &&
            o->precision && !strcmp(o->precision, r->precision) && same_device(o, r) &&
            (o->value > r->value || (o->value == r->value && o < r)))
            return false;
    return true;
}

/* "datasheet of NVIDIA H100 PCIe 80GB = 51000 GFLOP/s", "derived peak of AMD Zen 4: ..." */
static void datasheet_against(FILE *out, const struct clb_result_row *r)
{
    const struct clb_result_datasheet *d = &r->datasheet;

    fputs(d->derived ? "derived peak of " : "datasheet of ", out);
    esc(out, d->accelerator);
    if (d->derived && d->cores > 0 && d->flops_per_cycle > 0 && d->clock_ghz > 0)
        fprintf(out, ": %.4g cores x %.4g flops/cycle x %.3g GHz (measured)", d->cores,
                d->flops_per_cycle, d->clock_ghz);
    fputs(" = ", out);
    figure_value(out, d->value);
    fprintf(out, " %s", clb_metric_unit(r->metric));
}

enum { DL = 330, DR = 740, DT = 34, D_ROW = 40, D_BAR = 26 };

/* One figure at y: the datasheet's as a grey bar (100%), the measured one over it. */
static void datasheet_row(FILE *out, const struct clb_result_row *r, double y, double hi,
                          const char *color)
{
    const char *unit = clb_metric_unit(r->metric);
    const double pct = clb_result_row_datasheet_percent(r);
    const double x100 = scale(100, 0, hi, false, DL, DR), xe = scale(pct, 0, hi, false, DL, DR);
    char label[128];

    snprintf(label, sizeof(label), "%s %s", r->benchmark, r->case_);
    fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"12\">", DL - 8,
            y + 11);
    esc_clip(out, label, 50);
    fprintf(out, "</text><text class=\"figure-kind\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\" "
                 "font-size=\"11\" fill=\"#666\">", DL - 8, y + 25);
    esc_clip(out, r->backend, 24);
    fputs(" · ", out);
    figure_kind(out, r->datasheet.figure);
    fputs(r->datasheet.derived ? ", derived peak" : ", datasheet", out);
    fprintf(out, "</text>\n<rect class=\"datasheet-bar\" x=\"%d\" y=\"%.1f\" width=\"%.1f\" "
                 "height=\"%d\" fill=\"#e8e8e8\" stroke=\"#bbb\"><title>", DL, y, x100 - DL, D_BAR);
    datasheet_against(out, r);
    fputs(" (source: ", out);
    esc(out, r->datasheet.source ? r->datasheet.source : "not given");
    fprintf(out, ")</title></rect><rect class=\"bar measured\" x=\"%d\" y=\"%.1f\" "
                 "width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>measured %.4g %s = ", DL,
            y + 5, fmax(xe - DL, 1), D_BAR - 10, color, r->value, unit);
    percent_value(out, pct);
    fputs(" of the ", out);
    datasheet_against(out, r);
    fprintf(out, "</title></rect>\n<text class=\"percent\" x=\"%.1f\" y=\"%.1f\" "
                 "font-size=\"12\" font-weight=\"600\">", fmax(xe, x100) + 6, y + 11);
    percent_value(out, pct);
    fprintf(out, "</text><text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#444\">%.4g of ",
            fmax(xe, x100) + 6, y + 25, r->value);
    figure_value(out, r->datasheet.value);
    fprintf(out, " %s</text>\n", unit);
}

static bool same_source(const struct clb_result_datasheet *a, const struct clb_result_datasheet *b)
{
    return a->derived == b->derived && !strcmp(a->accelerator, b->accelerator) &&
           !strcmp(a->source ? a->source : "", b->source ? b->source : "");
}

/* Under a device's chart: what its bars are held against and where that is from, once each. */
static void datasheet_caption(FILE *out, const struct clb_result_file *f, const bool *bar,
                              const struct clb_result_row *dev)
{
    size_t k = 0;

    fputs("<p class=\"caption\">", out);
    for (size_t i = 0; i < f->n_rows; i++) {
        const struct clb_result_row *r = &f->rows[i];
        bool seen = false;
        if (!bar[i] || !same_device(r, dev))
            continue;
        for (size_t j = 0; j < i && !seen; j++)
            seen = bar[j] && same_device(&f->rows[j], dev) &&
                   same_source(&f->rows[j].datasheet, &r->datasheet);
        if (seen)
            continue;
        fputs(k++ ? "; " : "Held against: ", out);
        fputs(r->datasheet.derived ? "the derived peak of " : "the datasheet of ", out);
        esc(out, r->datasheet.accelerator);
        if (r->datasheet.derived)
            fputs(" (physical cores x FMA flops per cycle x the clock measured with the host "
                  "peak)", out);
        fputs(", source: ", out);
        esc(out, r->datasheet.source ? r->datasheet.source : "not given");
    }
    fputs("</p>\n", out);
}

/* dev's chart: its figures (bar[i]) against their datasheet figure, in percent. */
static void datasheet_chart(FILE *out, const struct clb_result_file *f, const bool *bar,
                            const struct clb_result_row *dev, size_t n_files)
{
    size_t n = 0, n_derived = 0;
    double hi = 100;

    for (size_t i = 0; i < f->n_rows; i++)
        if (bar[i] && same_device(&f->rows[i], dev)) {
            hi = fmax(hi, clb_result_row_datasheet_percent(&f->rows[i]));
            n_derived += f->rows[i].datasheet.derived;
            n++;
        }
    const double step = nice_step(hi / 4);
    const int bottom = DT + (int)n * D_ROW, height = bottom + 44;

    hi = ceil(hi / step - 1e-9) * step;
    fputs("<h3>", out);
    device_title(out, f, dev->device, dev, n_files);
    fprintf(out, "</h3>\n<svg class=\"chart datasheet-chart\" viewBox=\"0 0 %d %d\" "
                 "width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"measured against the "
                 "datasheet, ", W, height, W, height);
    device_title(out, f, dev->device, dev, n_files);
    fputs("\">\n", out);
    for (double v = 0; v <= hi * 1.0001; v += step) {
        const double x = scale(v, 0, hi, false, DL, DR);
        fprintf(out, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" "
                     "stroke=\"#e0e0e0\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
                     "font-size=\"12\">%g%%</text>\n", x, x, DT - 6, bottom, x, bottom + 16, v);
    }
    const double x100 = scale(100, 0, hi, false, DL, DR);
    fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#333\" "
                 "stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
                 "font-size=\"12\">%s = 100%%</text>\n", x100, x100, DT - 6, bottom, x100, DT - 12,
            !n_derived ? "datasheet" : n_derived == n ? "derived peak" : "datasheet, derived peak");
    for (size_t i = 0, k = 0; i < f->n_rows; i++)
        if (bar[i] && same_device(&f->rows[i], dev)) {
            datasheet_row(out, &f->rows[i], DT + (double)k * D_ROW, hi, palette[k % N_COLORS]);
            k++;
        }
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\">measured, "
                 "%% of the figure it is held against</text>\n</svg>\n", (DL + DR) / 2,
            bottom + 36);
    datasheet_caption(out, f, bar, dev);
}

static void datasheet_section(FILE *out, struct clb_result_file *const *files, size_t n_files)
{
    bool started = false;

    for (size_t f = 0; f < n_files; f++) {
        const struct clb_result_file *file = files[f];
        bool *bar = calloc(file->n_rows + 1, sizeof(*bar));
        if (!bar)
            continue;
        for (size_t i = 0; i < file->n_rows; i++)
            bar[i] = datasheet_bar(file, &file->rows[i]);
        for (size_t i = 0; i < file->n_rows; i++) {
            bool first = bar[i];
            for (size_t j = 0; j < i && first; j++)
                first = !bar[j] || !same_place(&file->rows[j], &file->rows[i]);
            if (!first)
                continue;
            if (!started)
                fputs("<h2>Datasheet vs measured</h2>\n<p>Each device's headline figures (a "
                      "peak's best vector width and the triad, per precision; the fastest GEMM "
                      "row per precision) as a share of the figure they are held against: the "
                      "vendor's datasheet (the vector peak, never a matrix unit's; the memory "
                      "bandwidth), or for a CPU the <em>derived peak</em>, its physical cores x "
                      "FMA flops per cycle x the clock measured with the host peak. The grey "
                      "bar is that figure (100%), the coloured one the verified measurement. "
                      "Figures without one are not drawn; in a fleet file, the first rank's.</p>\n",
                      out);
            started = true;
            datasheet_chart(out, file, bar, &file->rows[i], n_files);
        }
        free(bar);
    }
}

bool clb_sweep_cache_edge(const double *work, const double *value, size_t n, size_t *big,
                          size_t *cached, size_t *after)
{
    size_t b = 0, c = SIZE_MAX, a = SIZE_MAX;

    if (n == 0)
        return false;
    for (size_t j = 1; j < n; j++)
        if (work[j] > work[b])
            b = j;
    for (size_t j = 0; j < n; j++)
        if (value[j] >= 1.5 * value[b] && (c == SIZE_MAX || work[j] > work[c]))
            c = j;
    for (size_t j = 0; c != SIZE_MAX && j < n; j++)
        if (work[j] > work[c] && (a == SIZE_MAX || work[j] < work[a]))
            a = j;
    *big = b;
    if (c == SIZE_MAX || a == SIZE_MAX)
        return false;
    *cached = c;
    *after = a;
    return true;
}

/*
 * Bandwidth by array size. A `bandwidth --sizes` row names its size last:
 * "fp32 triad 8 MiB" is kernel "triad" (its length in *kernel_len, after the
 * precision) at 8 MiB per array (*array_bytes). Rows without a size are no sweep's.
 */
static bool sweep_row(const struct clb_result_row *r, size_t *kernel_len, double *array_bytes)
{
    static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    size_t p = r->precision ? strlen(r->precision) : 0;

    if (strcmp(r->benchmark, "bandwidth") || !r->has_value || !p || strcmp(r->metric, "gbps") ||
        strncmp(r->case_, r->precision, p) || r->case_[p] != ' ')
        return false;
    const char *kernel = r->case_ + p + 1, *unit = strrchr(kernel, ' ');
    if (!unit || unit == kernel)
        return false;
    const char *num = unit - 1;
    while (num > kernel && num[-1] != ' ')
        num--;
    if (num <= kernel + 1)
        return false;
    char *end;
    double v = strtod(num, &end);
    if (end != unit || !(v > 0))
        return false;
    for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++, v *= 1024)
        if (!strcmp(unit + 1, units[u])) {
            *kernel_len = (size_t)(num - 1 - kernel);
            *array_bytes = v;
            return true;
        }
    return false;
}

static bool sweep_triad(const struct clb_result_row *r, double *work)
{
    size_t len;
    double x;
    json_t *w = json_object_get(r->config, "bytes_per_call");

    if (!sweep_row(r, &len, &x) || len != 5 || strncmp(r->case_ + strlen(r->precision) + 1,
                                                       "triad", 5))
        return false;
    *work = json_is_number(w) ? json_number_value(w) : 0;
    return *work > 0;
}

/* The finding, as `bandwidth` prints it under its table (after "DEVICE PRECISION triad: "). */
static void sweep_finding(char *buf, size_t len, const struct clb_result_row *const *triad,
                          const double *work, bool found, size_t big, size_t cached, size_t after)
{
    char a[32], b[32], va[48], vb[48];

    if (!found) {
        clb_format_bytes((uint64_t)(work[big] / 3), b, sizeof(b));
        clb_format_metric(triad[big]->metric, triad[big]->value, vb, sizeof(vb));
        snprintf(buf, len, "no size ran 1.5x faster than %s arrays (%s)", b, vb);
        return;
    }
    clb_format_bytes((uint64_t)(work[cached] / 3), a, sizeof(a));
    clb_format_metric(triad[cached]->metric, triad[cached]->value, va, sizeof(va));
    clb_format_bytes((uint64_t)(work[after] / 3), b, sizeof(b));
    clb_format_metric(triad[after]->metric, triad[after]->value, vb, sizeof(vb));
    snprintf(buf, len, "caches help up to %s arrays (%s) and stop by %s (%s)", a, va, b, vb);
}

enum { SWEEP_MAX_KERNELS = 16, SWEEP_MAX_TRIADS = 64 };

/* How many sizes of triad dev's rows of its precision have. */
static size_t sweep_sizes(const struct clb_result_file *f, const struct clb_result_row *dev)
{
    double works[SWEEP_MAX_TRIADS];
    size_t n = 0;

    for (size_t i = 0; i < f->n_rows && n < SWEEP_MAX_TRIADS; i++) {
        const struct clb_result_row *r = &f->rows[i];
        double w;
        bool seen = false;
        if (!same_device(r, dev) || !sweep_triad(r, &w) || strcmp(r->precision, dev->precision))
            continue;
        for (size_t j = 0; j < n && !seen; j++)
            seen = works[j] == w;
        if (!seen)
            works[n++] = w;
    }
    return n;
}

/* One device and precision's sweep (dev's rank, in a fleet file): a line per kernel. */
static void sweep_chart(FILE *out, const struct clb_result_file *f,
                        const struct clb_result_row *dev, size_t n_files)
{
    const struct clb_result_row *triad[SWEEP_MAX_TRIADS];
    double work[SWEEP_MAX_TRIADS], xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0;
    size_t n_triad = 0, n_kernels = 0;
    const char *kernel[SWEEP_MAX_KERNELS];
    size_t kernel_len[SWEEP_MAX_KERNELS];
    struct point *pts = calloc(f->n_rows + 1, sizeof(*pts));
    struct point *line = calloc(f->n_rows + 1, sizeof(*line));
    size_t *of_kernel = calloc(f->n_rows + 1, sizeof(*of_kernel));
    const size_t skip = strlen(dev->precision) + 1;

    if (!pts || !line || !of_kernel)
        goto done;
    for (size_t i = 0; i < f->n_rows; i++) {
        const struct clb_result_row *r = &f->rows[i];
        size_t len, k = 0;
        double x, w;
        of_kernel[i] = SIZE_MAX;
        if (!same_device(r, dev) || !r->precision || strcmp(r->precision, dev->precision) ||
            !sweep_row(r, &len, &x))
            continue;
        while (k < n_kernels &&
               !(kernel_len[k] == len && !strncmp(kernel[k], r->case_ + skip, len)))
            k++;
        if (k == SWEEP_MAX_KERNELS)
            continue;
        if (k == n_kernels) {
            kernel[k] = r->case_ + skip;
            kernel_len[n_kernels++] = len;
        }
        of_kernel[i] = k;
        pts[i] = (struct point){ x, r->value, r };
        xlo = fmin(xlo, x), xhi = fmax(xhi, x);
        if (r->value > 0)
            ylo = fmin(ylo, r->value), yhi = fmax(yhi, r->value);
        if (n_triad < SWEEP_MAX_TRIADS && sweep_triad(r, &w)) {
            triad[n_triad] = r;
            work[n_triad++] = w;
        }
    }
    if (n_triad < 2 || !(yhi > 0) || !(xhi > xlo))
        goto done;
    const bool ylog = yhi / ylo > 50;
    double step = 0;
    if (ylog) {
        ylo = pow(10, floor(log10(ylo)));
        yhi = pow(10, ceil(log10(yhi)));
    } else {
        step = nice_step(yhi / 5);
        ylo = 0;
        yhi = ceil(yhi * 1.05 / step) * step;
    }
    char finding[256];
    size_t big, cached, after;
    double value[SWEEP_MAX_TRIADS];
    for (size_t i = 0; i < n_triad; i++)
        value[i] = triad[i]->value;
    const bool found = clb_sweep_cache_edge(work, value, n_triad, &big, &cached, &after);
    sweep_finding(finding, sizeof(finding), triad, work, found, big, cached, after);

    fputs("<h3>", out);
    device_title(out, f, dev->device, dev, n_files);
    fprintf(out, ", %s</h3>\n<svg class=\"chart sweep-chart\" viewBox=\"0 0 %d %d\" width=\"%d\" "
                 "height=\"%d\" role=\"img\" aria-label=\"GB/s against bytes per array, ",
            dev->precision, W, H, W, H);
    device_title(out, f, dev->device, dev, n_files);
    fprintf(out, ", %s\">\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" "
                 "stroke=\"#ccc\"/>\n", dev->precision, L, T, R - L, B - T);
    if (ylog) {
        for (double v = ylo; v <= yhi * 1.0001; v *= 10) {
            double y = scale(v, ylo, yhi, true, B, T);
            fprintf(out, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" "
                         "stroke=\"#e0e0e0\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" "
                         "font-size=\"12\">%g</text>\n", L, R, y, y, L - 6, y + 4, v);
        }
    } else {
        for (double v = 0; v <= yhi * 1.0001; v += step) {
            double y = scale(v, 0, yhi, false, B, T);
            fprintf(out, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" "
                         "stroke=\"#e0e0e0\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" "
                         "font-size=\"12\">%g</text>\n", L, R, y, y, L - 6, y + 4, v);
        }
    }
    /* x ticks at every size measured, named as the cases name it */
    double last_tick = -1;
    for (size_t i = 0; i < f->n_rows; i++) {
        if (of_kernel[i] == SIZE_MAX)
            continue;
        double x = scale(pts[i].x, xlo, xhi, true, L + 20, R - 20);
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = of_kernel[j] != SIZE_MAX && pts[j].x == pts[i].x;
        if (seen || fabs(x - last_tick) < 1)
            continue;
        last_tick = x;
        fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#999\"/>"
                     "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\">",
                x, x, B, B + 5, x, B + 18);
        esc(out, pts[i].row->case_ + skip + kernel_len[of_kernel[i]] + 1);
        fputs("</text>\n", out);
    }
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\">bytes per "
                 "array (log scale)</text>\n", (L + R) / 2, B + 40);
    fprintf(out, "<text x=\"18\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\" "
                 "transform=\"rotate(-90 18 %d)\">GB/s%s</text>\n", (T + B) / 2, (T + B) / 2,
            ylog ? " (log scale)" : "");
    if (found) {
        /* Halfway (on the log axis) between the last size the caches helped and the next. */
        size_t lo_len, hi_len;
        double xc, xa;
        sweep_row(triad[cached], &lo_len, &xc);
        sweep_row(triad[after], &hi_len, &xa);
        const double x = (scale(xc, xlo, xhi, true, L + 20, R - 20) +
                          scale(xa, xlo, xhi, true, L + 20, R - 20)) / 2;
        fprintf(out, "<line class=\"cache-edge\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" "
                     "stroke=\"#333\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"><title>%s "
                     "triad: ", x, x, T, B, dev->precision);
        esc(out, finding);
        fprintf(out, "</title></line><text class=\"cache-edge-label\" x=\"%.1f\" y=\"%d\" "
                     "text-anchor=\"middle\" font-size=\"12\">caches stop helping</text>\n",
                x, T + 14);
    }
    for (size_t k = 0; k < n_kernels; k++) {
        const char *color = palette[k % N_COLORS];
        char name[64];
        size_t n = 0;
        for (size_t i = 0; i < f->n_rows; i++)
            if (of_kernel[i] == k)
                line[n++] = pts[i];
        qsort(line, n, sizeof(*line), cmp_point);
        fprintf(out, "<g class=\"series\" stroke=\"%s\" fill=\"%s\">\n", color, color);
        if (n > 1) {
            fputs("<polyline class=\"sweep-line\" fill=\"none\" stroke-width=\"2\" "
                  "points=\"", out);
            for (size_t i = 0; i < n; i++)
                fprintf(out, "%.1f,%.1f ", scale(line[i].x, xlo, xhi, true, L + 20, R - 20),
                        scale(line[i].y, ylo, yhi, ylog, B, T));
            fputs("\"/>\n", out);
        }
        for (size_t i = 0; i < n; i++) {
            fprintf(out, "<circle r=\"4\" cx=\"%.1f\" cy=\"%.1f\"><title>",
                    scale(line[i].x, xlo, xhi, true, L + 20, R - 20),
                    scale(line[i].y, ylo, yhi, ylog, B, T));
            esc(out, line[i].row->case_);
            fprintf(out, ": %.4g GB/s</title></circle>\n", line[i].y);
        }
        fputs("</g>\n", out);
        snprintf(name, sizeof(name), "%.*s", (int)kernel_len[k], kernel[k]);
        double ly = T + 10 + 22.0 * (double)k;
        fprintf(out, "<g class=\"legend\"><rect x=\"%d\" y=\"%.1f\" width=\"14\" height=\"14\" "
                     "fill=\"%s\"/><text x=\"%d\" y=\"%.1f\" font-size=\"12\">",
                R + 16, ly, color, R + 36, ly + 11);
        esc(out, name);
        fputs("</text></g>\n", out);
    }
    fputs("</svg>\n<p class=\"caption sweep-finding\">", out);
    fprintf(out, "%s triad: ", dev->precision);
    esc(out, finding);
    fputs("</p>\n", out);
done:
    free(pts);
    free(line);
    free(of_kernel);
}

static void sweep_section(FILE *out, struct clb_result_file *const *files, size_t n_files)
{
    bool started = false;

    for (size_t f = 0; f < n_files; f++) {
        const struct clb_result_file *file = files[f];
        for (size_t i = 0; i < file->n_rows; i++) {
            const struct clb_result_row *r = &file->rows[i];
            double w;
            bool first = sweep_triad(r, &w);
            /* one chart per device and precision; in a fleet file, its first rank's */
            for (size_t j = 0; j < i && first; j++)
                first = !(sweep_triad(&file->rows[j], &w) && same_place(&file->rows[j], r) &&
                          !strcmp(file->rows[j].precision, r->precision));
            if (!first || sweep_sizes(file, r) < 2)
                continue;
            if (!started)
                fputs("<h2>Bandwidth by array size</h2>\n<p>From <code>bandwidth --sizes</code>: "
                      "each kernel's GB/s (bytes read plus written per second) against the size "
                      "of each array, per device and precision. The dashed line is where the "
                      "caches stop helping: between the largest size whose triad still ran at "
                      "1.5x or more of the largest size's and the next size, the finding "
                      "<code>bandwidth</code> prints under its table.</p>\n", out);
            started = true;
            sweep_chart(out, file, r, n_files);
        }
    }
}

/* One device's row of the estimates table: fit --from's cells. */
static void estimate_row(FILE *out, const struct clb_fit_speed *s)
{
    const struct clb_device_speed *m = &s->measured;
    struct clb_fit_speed_cells c;

    clb_fit_speed_cells(s, &c);
    fputs("<tr><td>", out);
    esc(out, m->device);
    if (m->host) {
        fputs(" · ", out);
        esc(out, m->host);
        fprintf(out, " r%d", m->rank);
    }
    const char *cells[] = { c.rate, c.backend, c.prefill, c.bandwidth, c.decode };
    for (size_t k = 0; k < sizeof(cells) / sizeof(cells[0]); k++) {
        fputs(k == 1 ? "</td><td>" : "</td><td class=\"num\">", out);
        esc(out, cells[k]);
    }
    fputs("</td></tr>\n", out);
}

/* Under the table: the formulas with the model's numbers, and fit --from's notes. */
static void estimates_caption(FILE *out, const struct clb_fit_report *r)
{
    char lines[3][320], note[320];

    clb_fit_speed_formulas(r, lines);
    fputs("<p class=\"caption formulas\">", out);
    esc(out, lines[0]);
    fputs("<br>", out);
    esc(out, lines[1]);
    for (size_t i = 0; i < r->n_speeds; i++)
        if (clb_fit_speed_note(r, i, note, sizeof(note))) {
            fputs("<br>note: ", out);
            esc(out, note);
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
    esc(out, r->preset ? r->preset->display : r->measured_shapes);
    if (n_files > 1) {
        fputs(" · ", out);
        esc(out, base(f->path));
    }
    fputs("</h2>\n", out);
    if (!r->n_speeds) {
        fputs("<p class=\"no-estimates\">No estimates: ", out);
        esc(out, est->none);
        fputs(".</p>\n", out);
        return;
    }
    clb_format_params(r->request->params, params, sizeof(params));
    fputs("<p>What the figures measured in ", out);
    esc(out, base(f->path));
    fputs(" mean for ", out);
    esc(out, r->measured_shapes);
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

static const char *jstr(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : "";
}

static void jbytes(FILE *out, json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    char buf[32] = "";
    if (json_is_integer(v))
        clb_format_bytes((uint64_t)json_integer_value(v), buf, sizeof(buf));
    fputs(buf, out);
}

static void jnum(FILE *out, json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (json_is_integer(v))
        fprintf(out, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
}

static void jbool(FILE *out, json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    fputs(json_is_true(v) ? "yes" : json_is_false(v) ? "no" : "", out);
}

static void runs_table(FILE *out, struct clb_result_file *const *files, size_t n_files)
{
    fputs("<h2>Runs</h2>\n<table class=\"runs\"><tr><th>file</th><th>created</th><th>clbench</th>"
          "<th>host</th><th>CPU</th><th>OS</th><th>complete</th></tr>\n", out);
    for (size_t f = 0; f < n_files; f++) {
        fputs("<tr><td>", out);
        esc(out, base(files[f]->path));
        fputs("</td><td>", out);
        esc(out, files[f]->created);
        fputs("</td><td>", out);
        esc(out, files[f]->version);
        fputs("</td><td>", out);
        esc(out, jstr(files[f]->host, "hostname"));
        fputs("</td><td>", out);
        esc(out, jstr(files[f]->host, "cpu"));
        fputs("</td><td>", out);
        esc(out, jstr(files[f]->host, "os"));
        fprintf(out, "</td><td>%s</td></tr>\n", files[f]->complete ? "yes" : "no (interrupted)");
    }
    fputs("</table>\n", out);
}

static void devices_table(FILE *out, struct clb_result_file *const *files, size_t n_files)
{
    fputs("<h2>Devices</h2>\n<table class=\"devices\"><tr><th>file</th><th>id</th><th>name</th>"
          "<th>type</th><th>vendor</th><th>driver</th><th>OpenCL</th><th>compute units</th>"
          "<th>clock (MHz)</th><th>global memory</th><th>largest allocation</th>"
          "<th>fp64</th><th>fp16</th></tr>\n", out);
    for (size_t f = 0; f < n_files; f++) {
        size_t i;
        json_t *d;
        json_array_foreach(files[f]->devices, i, d) {
            if (!json_is_object(d))
                continue;
            fputs("<tr><td>", out);
            esc(out, base(files[f]->path));
            static const char *const strs[] = { "id", "name", "type", "vendor", "driver_version",
                                                "opencl_version" };
            for (size_t k = 0; k < sizeof(strs) / sizeof(strs[0]); k++) {
                fputs("</td><td>", out);
                esc(out, jstr(d, strs[k]));
            }
            fputs("</td><td class=\"num\">", out);
            jnum(out, d, "compute_units");
            fputs("</td><td class=\"num\">", out);
            jnum(out, d, "max_clock_mhz");
            fputs("</td><td class=\"num\">", out);
            jbytes(out, d, "global_mem_bytes");
            fputs("</td><td class=\"num\">", out);
            jbytes(out, d, "max_alloc_bytes");
            fputs("</td><td>", out);
            jbool(out, d, "fp64");
            fputs("</td><td>", out);
            jbool(out, d, "fp16");
            fputs("</td></tr>\n", out);
        }
    }
    fputs("</table>\n", out);
}

static bool any_fleet(struct clb_result_file *const *files, size_t n_files)
{
    for (size_t f = 0; f < n_files; f++)
        if (files[f]->fleet)
            return true;
    return false;
}

static void results_table(FILE *out, struct clb_result_file *const *files, size_t n_files)
{
    const bool fleet = any_fleet(files, n_files);

    fprintf(out, "<h2>All results</h2>\n<table class=\"results\"><tr><th>file</th>%s"
                 "<th>benchmark</th><th>case</th><th>device</th><th>backend</th><th>status</th>"
                 "<th>figure</th><th>speedup</th>%s</tr>\n",
            fleet ? "<th>host</th><th>rank</th>" : "",
            fleet ? "<th>vs fleet median</th>" : "");
    for (size_t f = 0; f < n_files; f++) {
        for (size_t i = 0; i < files[f]->n_rows; i++) {
            const struct clb_result_row *r = &files[f]->rows[i];
            fputs("<tr><td>", out);
            esc(out, base(files[f]->path));
            if (fleet) {
                fputs("</td><td>", out);
                esc(out, r->host);
                fputs("</td><td class=\"num\">", out);
                if (r->host)
                    fprintf(out, "%d", r->rank);
            }
            fputs("</td><td>", out);
            esc(out, r->benchmark);
            fputs("</td><td>", out);
            esc(out, r->case_);
            fputs("</td><td>", out);
            esc(out, r->device);
            fputs("</td><td>", out);
            esc(out, r->backend);
            fputs("</td><td>", out);
            esc(out, r->status);
            /* A failed row was measured, but its figure is not one to read or to rank. */
            const bool failed = !strcmp(r->status, "failed");
            fputs("</td><td class=\"num\">", out);
            if (r->has_value)
                fprintf(out, "%.4g %s", r->value, clb_metric_unit(r->metric));
            else if (failed)
                fputs("unverified", out);
            fputs("</td><td class=\"num\">", out);
            if (r->has_value && r->speedup > 0)
                fprintf(out, "%.3gx", r->speedup);
            else if (failed)
                fputs("unverified", out);
            if (fleet) {
                fputs("</td><td class=\"num\">", out);
                if (r->host && r->has_value && r->fleet_median > 0)
                    fprintf(out, "%+.1f%%%s", (r->value / r->fleet_median - 1.0) * 100.0,
                            r->straggler ? " straggler" : "");
            }
            fputs("</td></tr>\n", out);
        }
    }
    fputs("</table>\n", out);
}

int clb_html_report(FILE *out, struct clb_result_file *const *files, size_t n_files,
                    const struct clb_html_estimates *estimates)
{
    static const char *const precs[] = { "fp32", "fp64", "fp16" };

    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<title>clbench report</title>\n<style>\n"
          "body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; color: #222;"
          " max-width: 1000px; margin: 1.5em auto; padding: 0 1em; }\n"
          "h1 { font-size: 1.6em; } h2 { font-size: 1.2em; margin-top: 1.8em; }\n"
          "svg.chart { width: 100%; height: auto; display: block; }\n"
          "svg text { fill: #222; font-family: inherit; }\n"
          "table { border-collapse: collapse; font-size: 13px; width: 100%; }\n"
          "th, td { padding: 3px 8px; border-bottom: 1px solid #ddd; text-align: left; }\n"
          "td.num { text-align: right; white-space: nowrap; }\n"
          "p.caption { margin-top: 0; font-size: 13px; color: #444; }\n"
          "span.straggler-mark { color: #d62728; font-weight: 600; }\n"
          "</style>\n</head>\n<body>\n<h1>clbench report</h1>\n<p>", out);
    for (size_t f = 0; f < n_files; f++) {
        fputs(f ? ", " : "From ", out);
        esc(out, base(files[f]->path));
    }
    size_t n_failed = 0;
    for (size_t f = 0; f < n_files; f++)
        for (size_t i = 0; i < files[f]->n_rows; i++)
            n_failed += !strcmp(files[f]->rows[i].status, "failed");
    fputs(". Every figure drawn was verified against a higher-precision reference", out);
    if (n_failed)
        fprintf(out, "; %zu result%s failed verification and %s shown as unverified, not drawn",
                n_failed, n_failed == 1 ? "" : "s", n_failed == 1 ? "is" : "are");
    fputs("; see the runs' JSON for each call's time.</p>\n", out);
    for (size_t f = 0; f < n_files; f++)
        if (files[f]->fleet)
            fleet_section(out, files[f], n_files);
    for (size_t p = 0; p < sizeof(precs) / sizeof(precs[0]); p++)
        line_chart(out, files, n_files, precs[p]);
    speedup_chart(out, files, n_files);
    roofline_charts(out, files, n_files);
    sweep_section(out, files, n_files);
    datasheet_section(out, files, n_files);
    for (size_t f = 0; estimates && f < n_files; f++)
        if (estimates[f].fit.measured_shapes)
            estimates_section(out, files[f], &estimates[f], n_files);
    runs_table(out, files, n_files);
    devices_table(out, files, n_files);
    results_table(out, files, n_files);
    fputs("</body>\n</html>\n", out);
    return ferror(out) ? -1 : 0;
}
