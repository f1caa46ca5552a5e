#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sections.h"
#include "svg.h"

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

/* The series r belongs to among ser[0..*n) (added when new); SIZE_MAX when full. */
static size_t series_of(struct series *ser, size_t *n, size_t cap, size_t f,
                        const struct clb_result_file *file, const struct clb_result_row *r)
{
    size_t s = 0;

    while (s < *n && !(ser[s].file == f && !strcmp(ser[s].device, r->device) &&
                       !strcmp(ser[s].backend, r->backend)))
        s++;
    if (s < *n)
        return s;
    if (*n == cap)
        return SIZE_MAX;
    ser[*n] = (struct series){ .file = f, .device = r->device, .backend = r->backend,
                               .median = r->host != NULL,
                               .pts = calloc(file->n_rows, sizeof(struct point)) };
    return ser[*n].pts ? (*n)++ : SIZE_MAX;
}

/* Collects the GEMM series of one precision across files; returns how many. */
static size_t collect(const struct report *rep, const char *prec, struct series *ser,
                      size_t cap)
{
    size_t n = 0;

    for (size_t f = 0; f < rep->n_files; f++) {
        for (size_t i = 0; i < rep->files[f]->n_rows; i++) {
            const struct clb_result_row *r = &rep->files[f]->rows[i];
            /* One line per rank would be a tangle: a fleet's line is its median. */
            const bool median = r->host != NULL;
            if (strcmp(r->benchmark, "gemm") || !r->m || !r->precision ||
                strcmp(r->precision, prec) || !(median ? r->fleet_median > 0 : r->has_value))
                continue;
            const size_t s = series_of(ser, &n, cap, f, rep->files[f], r);
            if (s == SIZE_MAX)
                continue;
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

static void series_label(FILE *out, const struct series *s, const struct report *rep)
{
    svg_esc(out, s->device);
    fputs(" (", out);
    svg_esc(out, s->backend);
    fputs(s->median ? ", fleet median)" : ")", out);
    if (rep->n_files > 1) {
        fputs(" · ", out);
        svg_esc(out, svg_base(rep->files[s->file]->path));
    }
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

/* x ticks at every size measured, the first of equals. */
static void line_xticks(FILE *out, const struct series *ser, size_t n, const struct bounds *b)
{
    double last_tick = -1;

    for (size_t s = 0; s < n; s++)
        for (size_t i = 0; i < ser[s].n; i++) {
            const struct point *p = &ser[s].pts[i];
            double x = svg_scale(p->x, b->xlo, b->xhi, true, L + 20, R - 20);
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
                fprintf(out, "%" PRIu64 "×%" PRIu64 "×%" PRIu64, p->row->m, p->row->n,
                        p->row->k);
            fputs("</text>\n", out);
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
    double ly = T + 10 + 22.0 * (double)k;
    fprintf(out, "<g class=\"legend\"><rect x=\"%d\" y=\"%.1f\" width=\"14\" height=\"14\" "
                 "fill=\"%s\"/><text x=\"%d\" y=\"%.1f\" font-size=\"12\">",
            R + 16, ly, color, R + 36, ly + 11);
    series_label(out, s, rep);
    fputs("</text></g>\n", out);
}

static void line_chart(FILE *out, const struct report *rep, const char *prec)
{
    struct series ser[32];
    const size_t n = collect(rep, prec, ser, 32);
    struct bounds b;

    if (n > 0 && line_bounds(ser, n, &b)) {
        fprintf(out, "<h2>GEMM throughput, %s</h2>\n", prec);
        svg_open(out, "line-chart", W, H);
        fprintf(out, "GFLOP/s against matrix size, %s", prec);
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
        fputs("</svg>\n", out);
    }
    for (size_t s = 0; s < n; s++)
        free(ser[s].pts);
}

void report_gemm(FILE *out, const struct report *rep, const struct report_section *sec)
{
    static const char *const precs[] = { "fp32", "fp64", "fp16" };

    (void)sec;
    for (size_t p = 0; p < sizeof(precs) / sizeof(precs[0]); p++)
        line_chart(out, rep, precs[p]);
}
