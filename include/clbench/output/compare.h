#ifndef CLBENCH_OUTPUT_COMPARE_H
#define CLBENCH_OUTPUT_COMPARE_H

/* compare's output: the side-by-side table, its JSON and CSV. Writers only read. */
#include <stdio.h>

#include "clbench/cli/cli.h"
#include "clbench/results/compare.h"

/*
 * A comparison: table (with what was not compared and the differences
 * ignored), JSON, or CSV on `out`; with CSV those two lists go to `notes`.
 * Where a row was paired with a fleet file's row, the table's device reads
 * "DEVICE @ host:local_rank" (so do the unpaired and geometric-mean lines);
 * JSON rows carry per file "hosts", "ranks", "local_ranks" (null for a single
 * run's row), geomeans and unpaired entries "host" and "local_rank"; CSV
 * lines end in host,rank,local_rank (empty for a single run's row).
 * Returns 0, or -1 when writing failed.
 */
int clb_compare_write(FILE *out, FILE *notes, enum clb_format fmt, const struct clb_comparison *c);

#endif
