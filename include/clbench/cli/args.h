#ifndef CLBENCH_CLI_ARGS_H
#define CLBENCH_CLI_ARGS_H

/* Value parsers for the options of compare, report and fit (option-table field parsers, cli.h). */
#include "clbench/cli/cli.h"
#include "clbench/fit/fit.h"
#include "clbench/results/compare.h"

/* --pair "A=B[,C=D...]" into a struct clb_pair_list. */
int clb_opt_pairs(const char *arg, void *field, struct clb_error *e);
/* --threshold, --overhead: "5%" or "5" into a double fraction (0.05), 0..100 %. */
int clb_opt_percent(const char *arg, void *field, struct clb_error *e);
/* --dtype, --kv-dtype into an enum clb_dtype. */
int clb_opt_dtype(const char *arg, void *field, struct clb_error *e);

#endif
