#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sections.h"
#include "svg.h"

/* A point of a GEMM curve: size on x (cube root of m*n*k), the figure on y. */
struct point {
    double x, y;
    const struct clb_row *row;
};

struct series {
    size_t file;
    const char *device, *backend;
    bool median; /* a fleet file's: the points are fleet medians, one per case */
    struct point *pts;
    size_t n;
};

static int cmp_point(const void *a, const void *b)
{
    double x = ((const struct point *)a)->x, y = ((const struct point *)b)->x;
    return (x > y) - (x < y);
}

/* The series r belongs to among ser[0..*n) (added when new); SIZE_MAX when full. */
static size_t series_of(struct series *ser, size_t *n, size_t cap, size_t f,
                        const struct clb_result_file *file, const struct clb_row *r)
{
    size_t s = 0;

    while (s < *n && !(ser[s].file == f && !strcmp(ser[s].device, r->device_name) &&
                       !strcmp(ser[s].backend, r->backend)))
        s++;
    if (s < *n)
        return s;
    if (*n == cap)
        return SIZE_MAX;
    ser[*n] = (struct series){ .file = f, .device = r->device_name, .backend = r->backend,
                               .median = r->host != NULL,
                               .pts = calloc(file->n_rows, sizeof(struct point)) };
    return ser[*n].pts ? (*n)++ : SIZE_MAX;
}

static bool is_square(const struct clb_row *r)
{
    return r->shape.m == r->shape.n && r->shape.n == r->shape.k;
}

/*
 * Collects the GEMM series of one precision across files, of square sizes or
 * of the other shapes (a model's, --mnk); returns how many.
 */
static size_t collect(const struct report *rep, enum clb_precision prec, bool square,
                      struct series *ser, size_t cap)
{
    size_t n = 0;

    for (size_t f = 0; f < rep->n_files; f++) {
        for (size_t i = 0; i < rep->files[f]->n_rows; i++) {
            const struct clb_row *r = &rep->files[f]->rows[i];
            /* One line per rank would be a tangle: a fleet's line is its median. */
            const bool median = r->host != NULL;
            if (r->benchmark != CLB_BENCH_GEMM || !r->shape.m || r->precision != prec ||
                !(median ? r->fleet_median > 0 : r->has_value) ||
                is_square(r) != square)
                continue;
            const size_t s = series_of(ser, &n, cap, f, rep->files[f], r);
            if (s == SIZE_MAX)
                continue;
            bool seen = false;
            for (size_t j = 0; median && j < ser[s].n && !seen; j++)
                seen = !strcmp(ser[s].pts[j].row->case_, r->case_);
            if (!seen)
                ser[s].pts[ser[s].n++] = (struct point){
                    clb_result_row_cube_size(r), median ? r->fleet_median : r->value, r };
        }
    }
    for (size_t s = 0; s < n; s++)
        qsort(ser[s].pts, ser[s].n, sizeof(struct point), cmp_point);
    return n;
}

/* "DEVICE (BACKEND) · FILE": a series' name (unescaped). */
static void series_name(char *buf, size_t len, const struct series *s, const struct report *rep)
{
    snprintf(buf, len, "%s (%s%s)%s%s", s->device, s->backend, s->median ? ", fleet median" : "",
             rep->n_files > 1 ? " · " : "", rep->n_files > 1 ? svg_base(rep->files[s->file]->path) : "");
}

static void series_label(FILE *out, const struct series *s, const struct report *rep)
{
    char name[512];

    series_name(name, sizeof(name), s, rep);
    svg_esc(out, name);
}

enum { W = 1000, H = 440, L = 80, R = 600, T = 24, B = 380 };

struct bounds {
    double xlo, xhi, ylo, yhi;
    bool ylog;
};

/* The chart's bounds from its points; false when no point has a figure. */
static bool line_bounds(const struct series *ser, size_t n, struct bounds *b)
{
    *b = (struct bounds){ INFINITY, 0, INFINITY, 0, false };
    for (size_t s = 0; s < n; s++)
        for (size_t i = 0; i < ser[s].n; i++) {
            const struct point *p = &ser[s].pts[i];
            b->xlo = fmin(b->xlo, p->x), b->xhi = fmax(b->xhi, p->x);
            if (p->y > 0)
                b->ylo = fmin(b->ylo, p->y), b->yhi = fmax(b->yhi, p->y);
        }
    if (!(b->yhi > 0))
        return false;
    if (b->xhi <= b->xlo)
        b->xlo /= 2, b->xhi *= 2;
    b->ylog = b->yhi / b->ylo > 50;
    if (b->ylog) {
        svg_log_bounds(&b->ylo, &b->yhi);
    } else {
        double step = pow(10, floor(log10(b->yhi))) / 2;
        b->ylo = 0;
        b->yhi = ceil(b->yhi * 1.05 / step) * step;
    }
    return true;
}

/* x ticks at every size measured, a label only where it does not run into the last one. */
static void line_xticks(FILE *out, const struct series *ser, size_t n, const struct bounds *b)
{
    struct point ticks[256];
    size_t n_ticks = 0;
    double last_right = -INFINITY;

    for (size_t s = 0; s < n; s++)
        for (size_t i = 0; i < ser[s].n && n_ticks < 256; i++) {
            bool seen = false;
            for (size_t t = 0; t < n_ticks && !seen; t++)
                seen = ticks[t].x == ser[s].pts[i].x;
            if (!seen)
                ticks[n_ticks++] = ser[s].pts[i];
        }
    qsort(ticks, n_ticks, sizeof(ticks[0]), cmp_point);
    for (size_t t = 0; t < n_ticks; t++) {
        const double x = svg_scale(ticks[t].x, b->xlo, b->xhi, true, L + 20, R - 20);
        char label[32];
        snprintf(label, sizeof(label), "%" PRIu64, ticks[t].row->shape.m);
        const double w = svg_text_width(label, 12);
        fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#999\"/>",
                x, x, B, B + 5);
        if (x - w / 2 >= last_right + 4) {
            fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\">"
                         "%s</text>", x, B + 18, label);
            last_right = x + w / 2;
        }
        fputc('\n', out);
    }
}

static void line_series(FILE *out, const struct series *s, size_t k, const struct bounds *b,
                        const struct report *rep)
{
    const char *color = svg_color(k);
    const double ylo = b->ylo > 0 ? b->ylo : 0;

    fprintf(out, "<g class=\"series\" stroke=\"%s\" fill=\"%s\">\n", color, color);
    if (s->n > 1) {
        fputs("<polyline fill=\"none\" stroke-width=\"2\" points=\"", out);
        for (size_t i = 0; i < s->n; i++)
            fprintf(out, "%.1f,%.1f ", svg_scale(s->pts[i].x, b->xlo, b->xhi, true, L + 20, R - 20),
                    svg_scale(s->pts[i].y, ylo, b->yhi, b->ylog, B, T));
        fputs("\"/>\n", out);
    }
    for (size_t i = 0; i < s->n; i++) {
        const struct point *p = &s->pts[i];
        fprintf(out, "<circle r=\"4\" cx=\"%.1f\" cy=\"%.1f\"><title>",
                svg_scale(p->x, b->xlo, b->xhi, true, L + 20, R - 20),
                svg_scale(p->y, ylo, b->yhi, b->ylog, B, T));
        series_label(out, s, rep);
        fprintf(out, ", %s: %.4g GFLOP/s</title></circle>\n", p->row->case_, p->y);
    }
    fputs("</g>\n", out);
}

/* The series' legend right of the plot, wrapped to fit the SVG. */
static void series_legend(FILE *out, double x, const struct series *ser, size_t n,
                          const struct report *rep)
{
    char names[32][512];
    const char *labels[32], *colors[32];

    for (size_t s = 0; s < n && s < 32; s++) {
        series_name(names[s], sizeof(names[s]), &ser[s], rep);
        labels[s] = names[s];
        colors[s] = svg_color(s);
    }
    svg_legend(out, x, W - 4, T + 10, labels, colors, n < 32 ? n : 32);
}

/* How tall the legend of n series gets, so the SVG can hold it. */
static int legend_bottom(double x, const struct series *ser, size_t n, const struct report *rep)
{
    double y = T + 10;
    char name[512], lines[8][128];

    for (size_t s = 0; s < n; s++) {
        series_name(name, sizeof(name), &ser[s], rep);
        y += 22.0 + 15.0 * (double)(svg_wrap(name, W - 4 - x - 20, 12, lines, 8) - 1);
    }
    return (int)ceil(y);
}

static void line_chart(FILE *out, const struct report *rep, enum clb_precision prec)
{
    struct series ser[32];
    const size_t n = collect(rep, prec, true, ser, 32);
    struct bounds b;

    if (n > 0 && line_bounds(ser, n, &b)) {
        const int bottom = legend_bottom(R + 16, ser, n, rep) + 10;
        fprintf(out, "<h2>GEMM throughput, %s</h2>\n", clb_precision_name(prec));
        svg_open(out, "line-chart", W, bottom > H ? bottom : H);
        fprintf(out, "GFLOP/s against matrix size, %s", clb_precision_name(prec));
        svg_label_end(out);
        svg_frame(out, L, T, R, B);
        if (b.ylog)
            for (double v = b.ylo; v <= b.yhi * 1.0001; v *= 10)
                svg_ytick(out, svg_scale(v, b.ylo, b.yhi, true, B, T), L, R, "%g", v, true);
        else
            for (int i = 0; i <= 5; i++)
                svg_ytick(out, svg_scale(b.yhi * i / 5, b.ylo, b.yhi, false, B, T), L, R,
                          "%.4g", b.yhi * i / 5, true);
        line_xticks(out, ser, n, &b);
        svg_xtitle(out, (L + R) / 2, B + 40, "matrix size (M = N = K, log scale)");
        svg_ytitle(out, T, B, b.ylog ? "GFLOP/s (log scale)" : "GFLOP/s");
        for (size_t s = 0; s < n; s++)
            line_series(out, &ser[s], s, &b, rep);
        series_legend(out, R + 16, ser, n, rep);
        fputs("</svg>\n", out);
    }
    for (size_t s = 0; s < n; s++)
        free(ser[s].pts);
}

enum { SW = 1000, S_TOP = 10, S_LABEL_MAX = 330, S_RIGHT = 740, S_BAR = 14, MAX_SHAPES = 64 };

/* The shapes of the series' points, in the order first seen (one point each). */
static size_t shapes_of(const struct series *ser, size_t n, const struct clb_row **shape)
{
    size_t n_shapes = 0;

    for (size_t s = 0; s < n; s++)
        for (size_t i = 0; i < ser[s].n; i++) {
            const struct clb_row *r = ser[s].pts[i].row;
            size_t k = 0;
            while (k < n_shapes && !(shape[k]->shape.m == r->shape.m && shape[k]->shape.n == r->shape.n &&
                                     shape[k]->shape.k == r->shape.k))
                k++;
            if (k == n_shapes && n_shapes < MAX_SHAPES)
                shape[n_shapes++] = r;
        }
    return n_shapes;
}

/* Series s's point of shape r, or NULL. */
static const struct point *point_of(const struct series *s, const struct clb_row *r)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->pts[i].row->shape.m == r->shape.m && s->pts[i].row->shape.n == r->shape.n && s->pts[i].row->shape.k == r->shape.k)
            return &s->pts[i];
    return NULL;
}

/* A shape's name: its case without the precision, "16x12288x4096 (qkv, prefill)". */
static const char *shape_name(const struct clb_row *r)
{
    const char *sp = strchr(r->case_, ' ');
    return sp ? sp + 1 : r->case_;
}

/* One shape's group of bars (a bar per series that measured it) from y; returns its height. */
static double shape_group(FILE *out, const struct series *ser, size_t n,
                          const struct clb_row *shape, double y, double left, double hi,
                          const struct report *rep)
{
    double by = y;
    char lines[8][128];
    const size_t n_lines = svg_wrap(shape_name(shape), left - 16, 12, lines, 8);

    svg_text_wrapped(out, "shape-label", left - 8, y + 11, "end", 12, 15, left - 16,
                     shape_name(shape));
    fputc('\n', out);
    for (size_t s = 0; s < n; s++) {
        const struct point *p = point_of(&ser[s], shape);
        if (!p)
            continue;
        const double xe = svg_scale(p->y, 0, hi, false, left, S_RIGHT);
        fprintf(out, "<rect class=\"bar shape-bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                     "height=\"%d\" fill=\"%s\"><title>", left, by, fmax(xe - left, 1), S_BAR - 2,
                svg_color(s));
        series_label(out, &ser[s], rep);
        fprintf(out, ", %s: %.4g GFLOP/s</title></rect><text x=\"%.1f\" y=\"%.1f\" "
                     "font-size=\"11\">%.4g</text>\n", p->row->case_, p->y, xe + 4, by + 10, p->y);
        by += S_BAR;
    }
    return fmax(by - y, 15.0 * (double)n_lines) + 10;
}

/* The value axis under the groups: grid lines, round ticks, its title. */
static void shape_axis(FILE *out, double left, double top, double bottom, double hi, double step)
{
    for (double v = 0; v <= hi * 1.0001; v += step) {
        const double x = svg_scale(v, 0, hi, false, left, S_RIGHT);
        fprintf(out, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
                     "y2=\"%.1f\" stroke=\"#e0e0e0\"/><text x=\"%.1f\" y=\"%.1f\" "
                     "text-anchor=\"middle\" font-size=\"12\">%g</text>\n", x, x, top, bottom, x,
                bottom + 16, v);
    }
    svg_xtitle(out, (left + S_RIGHT) / 2, bottom + 36, "GFLOP/s (verified)");
}

/*
 * The shapes that are no square size (a model's layer, --mnk) on a chart of
 * their own: a group of horizontal bars per shape, named on the left, so that
 * no shape shares an axis of sizes with another.
 */
static void shape_chart(FILE *out, const struct report *rep, enum clb_precision prec)
{
    struct series ser[32];
    const struct clb_row *shape[MAX_SHAPES];
    const size_t n = collect(rep, prec, false, ser, 32);
    const size_t n_shapes = shapes_of(ser, n, shape);
    double widest = 0, hi = 0, y = S_TOP;

    for (size_t k = 0; k < n_shapes; k++)
        widest = fmax(widest, svg_text_width(shape_name(shape[k]), 12));
    for (size_t s = 0; s < n; s++)
        for (size_t i = 0; i < ser[s].n; i++)
            hi = fmax(hi, ser[s].pts[i].y);
    if (n_shapes > 0 && hi > 0) {
        const double left = fmin(widest, S_LABEL_MAX) + 24, step = svg_nice_step(hi * 1.15 / 5);
        hi = ceil(hi * 1.15 / step) * step;
        fprintf(out, "<h2>GEMM throughput by shape, %s</h2>\n", clb_precision_name(prec));
        /* The height is only known once drawn: the groups go into a group first. */
        char *body = NULL;
        size_t len = 0;
        FILE *g = open_memstream(&body, &len);
        for (size_t k = 0; g && k < n_shapes; k++)
            y += shape_group(g, ser, n, shape[k], y, left, hi, rep);
        if (g) {
            shape_axis(g, left, S_TOP - 4, y, hi, step);
            fclose(g);
            const int legend = legend_bottom(S_RIGHT + 50, ser, n, rep);
            svg_open(out, "shape-chart", SW, (int)fmax(y + 50, legend + 10));
            fprintf(out, "GFLOP/s per GEMM shape, %s", clb_precision_name(prec));
            svg_label_end(out);
            fwrite(body, 1, len, out);
            series_legend(out, S_RIGHT + 50, ser, n, rep);
            fputs("</svg>\n", out);
        }
        free(body);
    }
    for (size_t s = 0; s < n; s++)
        free(ser[s].pts);
}

void report_gemm(FILE *out, const struct report *rep, const struct report_section *sec)
{
    (void)sec;
    for (int p = 0; p < CLB_GEMM_PRECISIONS; p++) {
        line_chart(out, rep, (enum clb_precision)p);
        shape_chart(out, rep, (enum clb_precision)p);
    }
}
