#ifndef CLBENCH_OUTPUT_TABLE_H
#define CLBENCH_OUTPUT_TABLE_H

/* A plain-text table for the terminal: columns sized to their widest cell. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct clb_table;

/* headers: n_cols strings, copied. NULL when out of memory. */
struct clb_table *clb_table_create(const char *const *headers, size_t n_cols);
void clb_table_destroy(struct clb_table *t);

void clb_table_align_right(struct clb_table *t, size_t col);
/* Adds a row of n_cols cells (copied; NULL prints empty). Returns -1 when out of memory. */
int clb_table_add(struct clb_table *t, const char *const *cells);
void clb_table_print(const struct clb_table *t, FILE *out);

/*
 * The SPREAD cell of a figure from n timed calls whose times have coefficient of variation
 * cv: "±1.2%", "±12.3% !" above CLB_NOISY_CV, or "—" for fewer than CLB_SPREAD_MIN_CALLS
 * calls (too few for a spread). Sets *noisy or *few when the cell shows that mark (each
 * left as it is otherwise), for clb_spread_notes.
 */
#define CLB_NOISY_CV 0.10
#define CLB_SPREAD_MIN_CALLS 3
void clb_format_spread(size_t n, double cv, char *buf, size_t len, bool *noisy, bool *few);
/* Under a table: what "!" and "—" in its SPREAD column mean, where it showed them. */
void clb_spread_notes(FILE *out, bool noisy, bool few);

/* Writes s as one CSV field (RFC 4180 quoting when needed). */
void clb_csv_field(FILE *out, const char *s);

#endif
