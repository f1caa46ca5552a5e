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

/* Writes s as one CSV field (RFC 4180 quoting when needed). */
void clb_csv_field(FILE *out, const char *s);

#endif
