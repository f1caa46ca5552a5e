#ifndef CLBENCH_OUTPUT_MICRO_INTERNAL_H
#define CLBENCH_OUTPUT_MICRO_INTERNAL_H

/* Shared by the micro writers: micro.c (result document, CSV) and micro_table.c (tables). */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "clbench/output/micro.h"

/* Whether the table and CSV show a row: peak shows only its headline widths unless verbose. */
bool clb_micro_row_shown(const struct clb_row *row, bool verbose);

/* "arrays 3 x 64 KiB = 192 KiB <= LLC 1 MiB" into buf (len bytes): why a row has no % of DRAM. */
void clb_micro_resident_why(const struct clb_row *r, char *buf, size_t len);

/* The table with its notes; host_time: a column of the host-clock figures. 0 or -1. */
int clb_micro_write_text(FILE *out, const struct clb_micro_results *res, bool verbose,
                         bool host_time);

/* Collective rows (clbench/mpi/collective.h): MPI's time, the whole path, algbw, busbw. */
int clb_micro_write_collective(FILE *out, const struct clb_micro_results *res);

#endif
