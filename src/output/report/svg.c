#include "svg.h"

#include <math.h>
#include <string.h>

static const char *const palette[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                       "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22" };

const char *svg_color(size_t i)
{
    return palette[i % (sizeof(palette) / sizeof(palette[0]))];
}

void svg_esc(FILE *out, const char *s)
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

void svg_esc_clip(FILE *out, const char *s, size_t max)
{
    char buf[64];

    if (strlen(s) < max || max < 4) {
        svg_esc(out, s);
        return;
    }
    size_t cut = (max < sizeof(buf) ? max : sizeof(buf)) - 4;
    while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
        cut--;
    memcpy(buf, s, cut);
    memcpy(buf + cut, "...", 4);
    svg_esc(out, buf);
}

const char *svg_base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

double svg_scale(double v, double lo, double hi, bool log_scale, double a, double b)
{
    if (log_scale) {
        v = log10(v);
        lo = log10(lo);
        hi = log10(hi);
    }
    return hi > lo ? a + (v - lo) / (hi - lo) * (b - a) : (a + b) / 2;
}

void svg_log_bounds(double *lo, double *hi)
{
    *lo = pow(10, floor(log10(*lo)));
    *hi = pow(10, ceil(log10(*hi)));
}

double svg_nice_step(double raw)
{
    static const double mult[] = { 1, 2, 2.5, 5 };
    const double p = pow(10, floor(log10(raw)));

    for (size_t i = 0; i < sizeof(mult) / sizeof(mult[0]); i++)
        if (mult[i] * p >= raw)
            return mult[i] * p;
    return 10 * p;
}

double svg_text_width(const char *s, double font)
{
    double em = 0;

    /* Wide letters and a UTF-8 character (× ·) count more than a digit or a narrow one. */
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if ((*c & 0xC0) == 0x80)
            continue;
        em += strchr("ilj.,:;'| ()[]", *c) ? 0.36 : (*c >= 'A' && *c <= 'Z') || strchr("mwMW%", *c) ? 0.78 : 0.6;
    }
    return em * font;
}

void svg_open(FILE *out, const char *cls, int width, int height)
{
    fprintf(out, "<svg class=\"chart %s\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
                 "role=\"img\" aria-label=\"", cls, width, height, width, height);
}

void svg_label_end(FILE *out)
{
    fputs("\">\n", out);
}

void svg_frame(FILE *out, int left, int top, int right, int bottom)
{
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" "
                 "stroke=\"#ccc\"/>\n", left, top, right - left, bottom - top);
}

void svg_ytick(FILE *out, double y, int x1, int x2, const char *fmt, double v, bool grid)
{
    fprintf(out, "<line %sx1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>"
                 "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"12\">",
            grid ? "class=\"grid\" " : "", x1, x2, y, y, x1 - 6, y + 4);
    char label[32];
    /* Formatted apart: GCC's sanitizer builds see a null-format path in fprintf(out, fmt, v). */
    snprintf(label, sizeof(label), fmt ? fmt : "%g", v);
    fputs(label, out);
    fputs("</text>\n", out);
}

void svg_xtitle(FILE *out, double x, double y, const char *text)
{
    fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\" font-size=\"13\">", x, y);
    svg_esc(out, text);
    fputs("</text>\n", out);
}

void svg_ytitle(FILE *out, int top, int bottom, const char *text)
{
    fprintf(out, "<text x=\"18\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\" "
                 "transform=\"rotate(-90 18 %d)\">", (top + bottom) / 2, (top + bottom) / 2);
    svg_esc(out, text);
    fputs("</text>\n", out);
}

/* The longest prefix of word (n bytes) with "..." that fits width, into line. */
static void cut_word(const char *word, size_t n, double width, double font, char *line)
{
    size_t cut = n < 120 ? n : 120;

    for (;;) {
        memcpy(line, word, cut);
        strcpy(line + cut, cut < n ? "..." : "");
        if (cut == 0 || svg_text_width(line, font) <= width)
            return;
        do
            cut--;
        while (cut > 0 && ((unsigned char)word[cut] & 0xC0) == 0x80);
    }
}

size_t svg_wrap(const char *text, double width, double font, char lines[][128],
                size_t max_lines)
{
    size_t n = 0;
    const char *s = text;

    while (*s == ' ')
        s++;
    while (*s && n < max_lines) {
        char *line = lines[n++];
        size_t len = 0;
        line[0] = '\0';
        while (*s) {
            const size_t w = strcspn(s, " ");
            char try[256];
            snprintf(try, sizeof(try), "%s%s%.*s", line, len ? " " : "", (int)w, s);
            if (strlen(try) >= 128 || (len && svg_text_width(try, font) > width))
                break;
            if (!len && svg_text_width(try, font) > width) {
                cut_word(s, w, width, font, line);
                s += w;
                len = strlen(line);
                break;
            }
            strcpy(line, try);
            len = strlen(line);
            s += w;
            while (*s == ' ')
                s++;
        }
        while (*s == ' ')
            s++;
        if (n == max_lines && *s) /* what does not fit ends the last line */
            cut_word(line, strlen(line), width - svg_text_width("...", font), font, line);
    }
    return n;
}

size_t svg_text_wrapped(FILE *out, const char *cls, double x, double y, const char *anchor,
                        double font, double line_h, double width, const char *text)
{
    char lines[8][128];
    const size_t n = svg_wrap(text, width, font, lines, 8);

    fprintf(out, "<text%s%s%s x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%g\">",
            cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "", x, y, anchor, font);
    for (size_t i = 0; i < n; i++) {
        if (n > 1) /* one line is the text itself */
            fprintf(out, "<tspan x=\"%.1f\" dy=\"%g\">", x, i ? line_h : 0);
        svg_esc(out, lines[i]);
        fputs(n > 1 ? "</tspan>" : "", out);
    }
    fputs("</text>", out);
    return n;
}

double svg_legend(FILE *out, double x, double x_max, double y, const char *const *labels,
                  const char *const *colors, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "<g class=\"legend\"><rect x=\"%.0f\" y=\"%.1f\" width=\"14\" "
                     "height=\"14\" fill=\"%s\"/>", x, y, colors[i]);
        const size_t lines = svg_text_wrapped(out, NULL, x + 20, y + 11, "start", 12, 15,
                                              x_max - x - 20, labels[i]);
        fputs("</g>\n", out);
        y += 22.0 + 15.0 * (double)(lines - 1);
    }
    return y;
}
