#include "clbench/output/html.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* A point of a GEMM curve: size on x (cube root of m*n*k), the figure on y. */
struct point {
    double x, y;
    const struct clb_result_row *row;
};

struct series {
    size_t file;
    const char *device, *backend;
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
            if (strcmp(r->benchmark, "gemm") || !r->has_value || !r->m || !r->precision ||
                strcmp(r->precision, prec))
                continue;
            size_t s = 0;
            while (s < n && !(ser[s].file == f && !strcmp(ser[s].device, r->device) &&
                              !strcmp(ser[s].backend, r->backend)))
                s++;
            if (s == n) {
                if (n == cap)
                    continue;
                ser[n] = (struct series){ .file = f, .device = r->device, .backend = r->backend,
                                          .pts = calloc(files[f]->n_rows, sizeof(struct point)) };
                if (!ser[n].pts)
                    continue;
                n++;
            }
            ser[s].pts[ser[s].n++] = (struct point){ cube_size(r), r->value, r };
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
    fputc(')', out);
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
                              !strcmp(best[b]->precision, r->precision)))
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
        /* Long device names would run off the left edge. */
        char dev[30];
        snprintf(dev, sizeof(dev), "%s", r->device);
        if (strlen(r->device) >= sizeof(dev))
            memcpy(dev + sizeof(dev) - 4, "...", 4);
        esc(out, dev);
        fprintf(out, " (%s, %s, %s)", r->backend, r->precision, r->case_ + strcspn(r->case_, " ") + 1);
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

/*
 * Roofline per device: the measured peak of each precision as the flat roof,
 * the measured triad bandwidth as the slope (performance = intensity x
 * bandwidth), and each GEMM result at its arithmetic intensity: 2mnk FLOP
 * over the (m*k + k*n + 2*m*n) elements a cache-perfect GEMM must move.
 */
static void roofline(FILE *out, const struct clb_result_file *f, const char *device,
                     size_t n_files)
{
    const char *precs[] = { "fp32", "fp64", "fp16" };
    double peak[3] = { 0 }, bw = 0, xlo = 0.1, xhi = 10, ylo = INFINITY, yhi = 0;
    size_t n_points = 0;

    for (size_t i = 0; i < f->n_rows; i++) {
        const struct clb_result_row *r = &f->rows[i];
        if (strcmp(r->device, device) || !r->has_value)
            continue;
        if (!strcmp(r->benchmark, "bandwidth") && !strcmp(r->case_, "triad"))
            bw = r->value;
        for (int p = 0; p < 3; p++)
            if (!strcmp(r->benchmark, "peak") && r->headline && r->precision &&
                !strcmp(r->precision, precs[p]))
                peak[p] = r->value;
    }
    if (bw <= 0 || (peak[0] <= 0 && peak[1] <= 0 && peak[2] <= 0))
        return;
    for (size_t i = 0; i < f->n_rows; i++) {
        const struct clb_result_row *r = &f->rows[i];
        if (strcmp(r->device, device) || !r->has_value || strcmp(r->benchmark, "gemm") || !r->m)
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
    esc(out, device);
    if (n_files > 1) {
        fputs(" · ", out);
        esc(out, base(f->path));
    }
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
                     "points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"><title>%s roof: %.4g GFLOP/s peak, "
                     "%.4g GB/s</title></polyline>\n",
                color, scale(x0, xlo, xhi, true, L, R), scale(y0, ylo, yhi, true, B, T),
                scale(ridge, xlo, xhi, true, L, R), scale(peak[p], ylo, yhi, true, B, T),
                scale(xhi, xlo, xhi, true, L, R), scale(peak[p], ylo, yhi, true, B, T),
                precs[p], peak[p], bw);
        double ly = T + 10 + 22.0 * legend++;
        fprintf(out, "<g class=\"legend\"><rect x=\"%d\" y=\"%.1f\" width=\"14\" height=\"14\" "
                     "fill=\"%s\"/><text x=\"%d\" y=\"%.1f\" font-size=\"12\">%s: peak %.4g "
                     "GFLOP/s, triad %.4g GB/s</text></g>\n",
                R + 16, ly, color, R + 36, ly + 11, precs[p], peak[p], bw);
    }
    for (size_t i = 0; i < f->n_rows; i++) {
        const struct clb_result_row *r = &f->rows[i];
        if (strcmp(r->device, device) || !r->has_value || strcmp(r->benchmark, "gemm") || !r->m)
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
            if (first)
                roofline(out, files[f], r->device, n_files);
        }
    }
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

static void results_table(FILE *out, struct clb_result_file *const *files, size_t n_files)
{
    fputs("<h2>All results</h2>\n<table class=\"results\"><tr><th>file</th><th>benchmark</th>"
          "<th>case</th><th>device</th><th>backend</th><th>status</th><th>figure</th>"
          "<th>speedup</th></tr>\n", out);
    for (size_t f = 0; f < n_files; f++) {
        for (size_t i = 0; i < files[f]->n_rows; i++) {
            const struct clb_result_row *r = &files[f]->rows[i];
            fputs("<tr><td>", out);
            esc(out, base(files[f]->path));
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
            fputs("</td></tr>\n", out);
        }
    }
    fputs("</table>\n", out);
}

int clb_html_report(FILE *out, struct clb_result_file *const *files, size_t n_files)
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
    for (size_t p = 0; p < sizeof(precs) / sizeof(precs[0]); p++)
        line_chart(out, files, n_files, precs[p]);
    speedup_chart(out, files, n_files);
    roofline_charts(out, files, n_files);
    runs_table(out, files, n_files);
    devices_table(out, files, n_files);
    results_table(out, files, n_files);
    fputs("</body>\n</html>\n", out);
    return ferror(out) ? -1 : 0;
}
