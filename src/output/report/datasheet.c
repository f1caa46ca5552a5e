#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/results/compare.h"
#include "clbench/util/units.h"
#include "sections.h"
#include "svg.h"

enum { W = 1000 };

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
    svg_esc(out, figure);
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


/*
 * Whether r is drawn against its datasheet figure: a verified peak at its
 * best width, triad, or the fastest GEMM row of its precision and device
 * (the first of equals).
 */
static bool datasheet_bar(const struct clb_result_file *f, const struct clb_row *r)
{
    if (!r->has_value || !r->has_datasheet)
        return false;
    if (r->benchmark == CLB_BENCH_PEAK)
        return r->headline;
    if (r->benchmark == CLB_BENCH_BANDWIDTH)
        return clb_result_row_is_triad(r);
    if (r->benchmark != CLB_BENCH_GEMM || !r->precision_name)
        return false;
    for (const struct clb_row *o = f->rows; o < f->rows + f->n_rows; o++)
        if (o != r && o->has_value && o->has_datasheet && o->benchmark == CLB_BENCH_GEMM &&
            clb_result_row_same_precision(o, r) && clb_result_row_same_device(o, r) &&
            (o->value > r->value || (o->value == r->value && o < r)))
            return false;
    return true;
}

/* "datasheet of NVIDIA H100 PCIe 80GB = 51000 GFLOP/s", "derived peak of AMD Zen 4: ..." */
static void datasheet_against(FILE *out, const struct clb_row *r)
{
    const struct clb_datasheet_ref *d = &r->datasheet;

    fputs(d->derived ? "derived peak of " : "datasheet of ", out);
    svg_esc(out, d->name);
    if (d->derived && d->cores > 0 && d->flops_per_cycle > 0 && d->clock_ghz > 0)
        fprintf(out, ": %.4g cores x %.4g flops/cycle x %.3g GHz (measured)", d->cores,
                d->flops_per_cycle, d->clock_ghz);
    fputs(" = ", out);
    figure_value(out, d->value);
    fprintf(out, " %s", clb_metric_unit(r->metric));
}

enum { DL = 330, DR = 740, DT = 34, D_ROW = 40, D_BAR = 26 };

/* One figure at y: the datasheet's as a grey bar (100%), the measured one over it. */
static void datasheet_row(FILE *out, const struct clb_row *r, double y, double hi,
                          const char *color)
{
    const char *unit = clb_metric_unit(r->metric);
    const double pct = clb_result_row_datasheet_percent(r);
    const double x100 = svg_scale(100, 0, hi, false, DL, DR), xe = svg_scale(pct, 0, hi, false, DL, DR);
    char label[128];

    /* Clipped to 50 characters below: a longer label may be cut here too. */
    if (snprintf(label, sizeof(label), "%s %s", r->benchmark_name, r->case_) < 0)
        label[0] = '\0';
    fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"12\">", DL - 8,
            y + 11);
    svg_esc_clip(out, label, 50);
    fprintf(out, "</text><text class=\"figure-kind\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\" "
                 "font-size=\"11\" fill=\"#666\">", DL - 8, y + 25);
    svg_esc_clip(out, r->backend, 24);
    fputs(" · ", out);
    figure_kind(out, r->datasheet.figure);
    fputs(r->datasheet.derived ? ", derived peak" : ", datasheet", out);
    fprintf(out, "</text>\n<rect class=\"datasheet-bar\" x=\"%d\" y=\"%.1f\" width=\"%.1f\" "
                 "height=\"%d\" fill=\"#e8e8e8\" stroke=\"#bbb\"><title>", DL, y, x100 - DL, D_BAR);
    datasheet_against(out, r);
    fputs(" (source: ", out);
    svg_esc(out, r->datasheet.source ? r->datasheet.source : "not given");
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

static bool same_source(const struct clb_datasheet_ref *a, const struct clb_datasheet_ref *b)
{
    return a->derived == b->derived && !strcmp(a->name, b->name) &&
           !strcmp(a->source ? a->source : "", b->source ? b->source : "");
}

/* Under a device's chart: what its bars are held against and where that is from, once each. */
static void datasheet_caption(FILE *out, const struct clb_result_file *f, const bool *bar,
                              const struct clb_row *dev)
{
    size_t k = 0;

    fputs("<p class=\"caption\">", out);
    for (size_t i = 0; i < f->n_rows; i++) {
        const struct clb_row *r = &f->rows[i];
        bool seen = false;
        if (!bar[i] || !clb_result_row_same_device(r, dev))
            continue;
        for (size_t j = 0; j < i && !seen; j++)
            seen = bar[j] && clb_result_row_same_device(&f->rows[j], dev) &&
                   same_source(&f->rows[j].datasheet, &r->datasheet);
        if (seen)
            continue;
        fputs(k++ ? "; " : "Held against: ", out);
        fputs(r->datasheet.derived ? "the derived peak of " : "the datasheet of ", out);
        svg_esc(out, r->datasheet.name);
        if (r->datasheet.derived)
            fputs(" (physical cores x FMA flops per cycle x the clock measured with the host "
                  "peak)", out);
        fputs(", source: ", out);
        svg_esc(out, r->datasheet.source ? r->datasheet.source : "not given");
    }
    fputs("</p>\n", out);
}

/* dev's chart: its figures (bar[i]) against their datasheet figure, in percent. */
static void datasheet_chart(FILE *out, const struct clb_result_file *f, const bool *bar,
                            const struct clb_row *dev, size_t n_files)
{
    size_t n = 0, n_derived = 0;
    double hi = 100;

    for (size_t i = 0; i < f->n_rows; i++)
        if (bar[i] && clb_result_row_same_device(&f->rows[i], dev)) {
            hi = fmax(hi, clb_result_row_datasheet_percent(&f->rows[i]));
            n_derived += f->rows[i].datasheet.derived;
            n++;
        }
    const double step = svg_nice_step(hi / 4);
    const int bottom = DT + (int)n * D_ROW, height = bottom + 44;

    hi = ceil(hi / step - 1e-9) * step;
    fputs("<h3>", out);
    report_device_title(out, f, dev->device_name, dev, n_files);
    fputs("</h3>\n", out);
    svg_open(out, "datasheet-chart", W, height);
    fputs("measured against the datasheet, ", out);
    report_device_title(out, f, dev->device_name, dev, n_files);
    svg_label_end(out);
    for (double v = 0; v <= hi * 1.0001; v += step) {
        const double x = svg_scale(v, 0, hi, false, DL, DR);
        fprintf(out, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" "
                     "stroke=\"#e0e0e0\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
                     "font-size=\"12\">%g%%</text>\n", x, x, DT - 6, bottom, x, bottom + 16, v);
    }
    const double x100 = svg_scale(100, 0, hi, false, DL, DR);
    fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#333\" "
                 "stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
                 "font-size=\"12\">%s = 100%%</text>\n", x100, x100, DT - 6, bottom, x100, DT - 12,
            !n_derived ? "datasheet" : n_derived == n ? "derived peak" : "datasheet, derived peak");
    for (size_t i = 0, k = 0; i < f->n_rows; i++)
        if (bar[i] && clb_result_row_same_device(&f->rows[i], dev)) {
            datasheet_row(out, &f->rows[i], DT + (double)k * D_ROW, hi, svg_color(k));
            k++;
        }
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\">measured, "
                 "%% of the figure it is held against</text>\n</svg>\n", (DL + DR) / 2,
            bottom + 36);
    datasheet_caption(out, f, bar, dev);
}

void report_datasheet(FILE *out, const struct report *rep, const struct report_section *sec)
{
    bool started = false;

    for (size_t f = 0; f < rep->n_files; f++) {
        const struct clb_result_file *file = rep->files[f];
        bool *bar = calloc(file->n_rows + 1, sizeof(*bar));
        if (!bar)
            continue;
        for (size_t i = 0; i < file->n_rows; i++)
            bar[i] = datasheet_bar(file, &file->rows[i]);
        for (size_t i = 0; i < file->n_rows; i++) {
            bool first = bar[i];
            for (size_t j = 0; j < i && first; j++)
                first = !bar[j] || !clb_result_row_same_place(&file->rows[j], &file->rows[i]);
            if (!first)
                continue;
            if (!started)
                fprintf(out, "<h2>%s</h2>\n", sec->title);
            if (!started)
                fputs("<p>Each device's headline figures (a "
                      "peak's best vector width and the triad, per precision; the fastest GEMM "
                      "row per precision) as a share of the figure they are held against: the "
                      "vendor's datasheet (the vector peak, never a matrix unit's; the memory "
                      "bandwidth), or for a CPU the <em>derived peak</em>, its physical cores x "
                      "FMA flops per cycle x the clock measured with the host peak. The grey "
                      "bar is that figure (100%), the coloured one the verified measurement. "
                      "Figures without one are not drawn; in a fleet file, the first rank's.</p>\n",
                      out);
            started = true;
            datasheet_chart(out, file, bar, &file->rows[i], rep->n_files);
        }
        free(bar);
    }
}

