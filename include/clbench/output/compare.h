#ifndef CLBENCH_OUTPUT_COMPARE_H
#define CLBENCH_OUTPUT_COMPARE_H

/* compare's output: the side-by-side table, its JSON and CSV. Writers only read. */
#include <stdio.h>

#include "clbench/cli/cli.h"
#include "clbench/results/compare.h"
#include "clbench/results/prices.h"

/*
 * A comparison: table (with what was not compared and the differences
 * ignored), JSON, or CSV on `out`; with CSV those two lists go to `notes`.
 * Where a row was paired with a fleet file's row, the table's device reads
 * "DEVICE @ host:local_rank" (so do the unpaired and geometric-mean lines);
 * JSON rows carry per file "hosts", "ranks", "local_ranks" (null for a single
 * run's row), geomeans and unpaired entries "host" and "local_rank"; CSV
 * lines end in host,rank,local_rank (empty for a single run's row).
 *
 * With prices (--price/--prices, held to the files' devices already; NULL:
 * none), each figure of a higher-is-better metric per USD/h of its device's
 * price as well (figure / price; none for latency, a device without a price
 * or one at price 0): the table adds a column "PER $/H: FILE" per file
 * ("14.5 (0.50x)": the ratio to the first file's per-dollar figure), JSON
 * rows "usd_per_hour" and "per_usd_hour" (per file, null where none) and
 * the root "prices", CSV lines end in usd_per_hour,per_usd_hour.
 * Returns 0, or -1 when writing failed.
 */
int clb_compare_write(FILE *out, FILE *notes, enum clb_format fmt, const struct clb_comparison *c,
                      const struct clb_prices *prices);

#endif
