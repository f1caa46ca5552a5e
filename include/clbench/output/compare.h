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
 * Each figure is named by its statistic (clb_compare_stat: the table's STAT
 * column, JSON rows' "stat", CSV's stat) and shown with its spread
 * (clb_compare_spread: "[low, high]" in the table, "[?]" unknown; JSON
 * "spreads", per file [low, high] or null; CSV spread_low,spread_high), each
 * ratio with its noise (clb_compare_noise: "(≈0.71x)" within, "(0.50x)"
 * beyond, "(0.90x ?)" unknown; JSON "noise", per file "within", "beyond",
 * "unknown" or null for the first file and where there is no ratio; CSV
 * noise). With a threshold, JSON's root "within_noise" counts the ratios
 * beyond it but within noise, which "regressions" leaves out.
 * Where a row was paired with a fleet file's row, the table's device reads
 * "DEVICE @ host:local_rank" (so do the unpaired and geometric-mean lines);
 * JSON rows carry per file "hosts", "ranks", "local_ranks" (null for a single
 * run's row), geomeans and unpaired entries "host" and "local_rank"; CSV
 * lines have host,rank,local_rank (empty for a single run's row) before stat.
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
