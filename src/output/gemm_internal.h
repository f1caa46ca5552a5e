#ifndef CLBENCH_OUTPUT_GEMM_INTERNAL_H
#define CLBENCH_OUTPUT_GEMM_INTERNAL_H

/* Shared by the GEMM writers: gemm.c (result document, CSV) and gemm_table.c (table). */
#include <stddef.h>
#include <stdio.h>

#include "clbench/output/gemm.h"

/*
 * The shape, the mode where it is not the default ("128x96x64 TN col ld+3
 * off16"), and what the shape stands for in a model (gemm --shapes):
 * "512x12288x4096 (qkv, prefill)". Written into buf (len bytes).
 */
void clb_gemm_row_label(const struct clb_row *row, char *buf, size_t len);

/* The table format: micro rows when shown, the GEMM table, libraries, summary. 0 or -1. */
int clb_gemm_write_text(FILE *out, const struct clb_gemm_report *r);

#endif
