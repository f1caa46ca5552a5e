#ifndef CLBENCH_OUTPUT_FLEET_H
#define CLBENCH_OUTPUT_FLEET_H

/*
 * A fleet run's one document (clb_fleet_merge, read back as a result file
 * and its figures read once by clb_fleet_figures_read): the table every
 * rank's rows make, figure by figure, the fleet's statistics and its
 * stragglers; or the document itself (JSON), or its rows as CSV with host,
 * rank and local rank. Writers only read; they compute nothing.
 */
#include <stdio.h>

#include "clbench/cli/cli.h"
#include "clbench/results/fleet.h"

/* figs of a fleet file (figs->file->fleet not NULL). 0, or -1 when writing failed. */
int clb_fleet_write(FILE *out, enum clb_format fmt, const struct clb_fleet_figures *figs);

#endif
