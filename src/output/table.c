#include "clbench/output/table.h"

#include <stdlib.h>
#include <string.h>

struct clb_table {
    size_t n_cols, n_rows, cap_rows;
    char **cells; /* (n_rows + 1) * n_cols, row 0 the header */
    bool *right;
};

static char *dup_or_empty(const char *s)
{
    return strdup(s ? s : "");
}

struct clb_table *clb_table_create(const char *const *headers, size_t n_cols)
{
    struct clb_table *t = calloc(1, sizeof(*t));

    if (!t)
        return NULL;
    t->n_cols = n_cols;
    t->right = calloc(n_cols, sizeof(*t->right));
    if (!t->right || clb_table_add(t, headers) != 0) {
        clb_table_destroy(t);
        return NULL;
    }
    return t;
}

void clb_table_destroy(struct clb_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n_rows * t->n_cols; i++)
        free(t->cells[i]);
    free(t->cells);
    free(t->right);
    free(t);
}

void clb_table_align_right(struct clb_table *t, size_t col)
{
    if (col < t->n_cols)
        t->right[col] = true;
}

int clb_table_add(struct clb_table *t, const char *const *cells)
{
    if (t->n_rows == t->cap_rows) {
        size_t cap = t->cap_rows ? t->cap_rows * 2 : 8;
        char **grown = realloc(t->cells, cap * t->n_cols * sizeof(*grown));
        if (!grown)
            return -1;
        t->cells = grown;
        t->cap_rows = cap;
    }
    char **row = t->cells + t->n_rows * t->n_cols;
    for (size_t c = 0; c < t->n_cols; c++) {
        if (!(row[c] = dup_or_empty(cells[c]))) {
            while (c > 0)
                free(row[--c]);
            return -1;
        }
    }
    t->n_rows++;
    return 0;
}

/* Display width: counts UTF-8 code points, so block-character bars line up. */
static size_t display_width(const char *s)
{
    size_t w = 0;

    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

void clb_table_print(const struct clb_table *t, FILE *out)
{
    size_t *width = calloc(t->n_cols, sizeof(*width));

    if (!width)
        return;
    for (size_t r = 0; r < t->n_rows; r++)
        for (size_t c = 0; c < t->n_cols; c++) {
            size_t w = display_width(t->cells[r * t->n_cols + c]);
            if (w > width[c])
                width[c] = w;
        }
    for (size_t r = 0; r < t->n_rows; r++) {
        /* Empty cells at the end of a row print nothing: no line ends in blanks. */
        size_t end = t->n_cols;
        while (end > 1 && !t->cells[r * t->n_cols + end - 1][0])
            end--;
        for (size_t c = 0; c < end; c++) {
            const char *s = t->cells[r * t->n_cols + c];
            size_t pad = width[c] - display_width(s);
            bool last = c + 1 == end;
            if (t->right[c])
                fprintf(out, "%*s%s", (int)pad, "", s);
            else
                fprintf(out, "%s%*s", s, last ? 0 : (int)pad, "");
            fputs(last ? "\n" : "  ", out);
        }
        if (r == 0) {
            for (size_t c = 0; c < t->n_cols; c++) {
                for (size_t i = 0; i < width[c]; i++)
                    fputc('-', out);
                fputs(c + 1 == t->n_cols ? "\n" : "  ", out);
            }
        }
    }
    free(width);
}

void clb_csv_field(FILE *out, const char *s)
{
    if (!s)
        s = "";
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

void clb_format_spread(size_t n, double cv, char *buf, size_t len, bool *noisy, bool *few)
{
    if (n < CLB_SPREAD_MIN_CALLS) {
        snprintf(buf, len, "—");
        *few = true;
        return;
    }
    snprintf(buf, len, "±%.1f%%%s", cv * 100.0, cv > CLB_NOISY_CV ? " !" : "");
    if (cv > CLB_NOISY_CV)
        *noisy = true;
}

void clb_spread_notes(FILE *out, bool noisy, bool few)
{
    if (noisy)
        fprintf(out, "! spread (coefficient of variation of the timed calls) above %.0f%%: "
                     "the machine was busy or the clock ramped; rerun with --min-time\n",
                CLB_NOISY_CV * 100.0);
    if (few)
        fprintf(out, "SPREAD —: fewer than %d timed calls, too few for a spread; --runs %d or "
                     "more gives one\n",
                CLB_SPREAD_MIN_CALLS, CLB_SPREAD_MIN_CALLS);
}
