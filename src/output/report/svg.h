#ifndef CLBENCH_OUTPUT_REPORT_SVG_H
#define CLBENCH_OUTPUT_REPORT_SVG_H

/*
 * The report's SVG layer, written once: escaping, scales (linear or log, one
 * bounds rule), axes with their ticks and titles, legends that fit the space
 * they are given (wrapping onto more lines), and text kept inside the SVG.
 * Every chart of src/output/report/ draws through it. Coordinates are SVG
 * user units (the viewBox), font sizes in the same units.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The palette; svg_color(i) cycles through it. */
const char *svg_color(size_t i);

/* s HTML-escaped (NULL prints nothing). */
void svg_esc(FILE *out, const char *s);
/* s escaped, cut to fewer than max bytes with "..." (not inside a UTF-8 character). */
void svg_esc_clip(FILE *out, const char *s, size_t max);
/* The file name of a path. */
const char *svg_base(const char *path);

/* Maps v in [lo, hi] (log or linear) onto [a, b]; the middle when hi <= lo. */
double svg_scale(double v, double lo, double hi, bool log_scale, double a, double b);
/* Widens [lo, hi] (both > 0) to whole powers of ten: the bounds of every log axis. */
void svg_log_bounds(double *lo, double *hi);
/* The round step (1, 2, 2.5 or 5 times a power of ten) at or above raw > 0. */
double svg_nice_step(double raw);

/*
 * The width text of n characters takes at font size `font`, erring wide (the
 * browser's fonts are not known here): what layout keeps apart.
 */
double svg_text_width(const char *s, double font);

/*
 * <svg class="chart CLASS" ...> up to its aria-label's opening quote: the
 * caller writes the label (escaped), svg_label_end closes the tag.
 */
void svg_open(FILE *out, const char *cls, int width, int height);
void svg_label_end(FILE *out);
/* The plot area's background. */
void svg_frame(FILE *out, int left, int top, int right, int bottom);

/*
 * A horizontal grid line across [x1, x2] at y with its value label left of
 * x1 (fmt a printf format of one double); grid: class="grid" on the line.
 */
void svg_ytick(FILE *out, double y, int x1, int x2, const char *fmt, double v, bool grid);
/* The axis titles: centred under the plot at y; rotated along its left edge. */
void svg_xtitle(FILE *out, double x, double y, const char *text);
void svg_ytitle(FILE *out, int top, int bottom, const char *text);

/*
 * Lines of a label wrapped at spaces to fit width at font (a word wider than
 * width is cut with "..."): at most max_lines, each < 128 bytes. Returns how
 * many lines.
 */
size_t svg_wrap(const char *text, double width, double font, char lines[][128],
                size_t max_lines);
/*
 * text wrapped (svg_wrap) into a <text> at x, y (the first line's baseline),
 * line_h apart; anchor "start", "end" or "middle"; cls NULL for none.
 * Returns the lines written.
 */
size_t svg_text_wrapped(FILE *out, const char *cls, double x, double y, const char *anchor,
                        double font, double line_h, double width, const char *text);

/*
 * A legend of n entries (labels[i], colors[i]) in the column from x to
 * x_max starting at y: a swatch and its label wrapped to the column. Returns
 * the y below its last entry.
 */
double svg_legend(FILE *out, double x, double x_max, double y, const char *const *labels,
                  const char *const *colors, size_t n);

#endif
