#ifndef CLBENCH_CLI_ARGS_H
#define CLBENCH_CLI_ARGS_H

/*
 * Value parsers for the options of compare, report, fit, transfer and
 * collective (option-table field parsers, cli.h).
 */
#include <stddef.h>
#include <stdint.h>

#include "clbench/cli/cli.h"
#include "clbench/fit/fit.h"
#include "clbench/results/compare.h"

/* --pair "A=B[,C=D...]" into a struct clb_pair_list. */
int clb_opt_pairs(const char *arg, void *field, struct clb_error *e);
/* --threshold, --overhead: "5%" or "5" into a double fraction (0.05), 0..100 %. */
int clb_opt_percent(const char *arg, void *field, struct clb_error *e);
/* --straggler: as clb_opt_percent, strictly between 0 % (every rank) and 100 % (none). */
int clb_opt_straggler(const char *arg, void *field, struct clb_error *e);
/* --dtype, --kv-dtype into an enum clb_dtype. */
int clb_opt_dtype(const char *arg, void *field, struct clb_error *e);

/* The options of a command that can run as ranks of a fleet (mpirun, srun). */
#define CLB_FLEET_OPTIONS(type)                                                               \
    { .name = "straggler", .metavar = "PERCENT",                                              \
      .help = "Under mpirun/srun: flag a rank's figure this far below its figure's fleet "     \
              "median (above it for latency) when its calls tell it from noise (else: not "   \
              "judged), more than 0% and less than 100%",                                     \
      .parse = clb_opt_straggler, .offset = offsetof(type, common.straggler), .def = "10%" }, \
    { .name = "fail-on-straggler",                                                            \
      .help = "Under mpirun/srun: exit 1 when a figure is flagged (never for one not judged)", \
      .offset = offsetof(type, common.fail_on_straggler) }

#define CLB_BYTE_LIST_MAX 32
struct clb_byte_list {
    size_t n;
    uint64_t v[CLB_BYTE_LIST_MAX]; /* bytes, in the order given */
};
/* --sizes "4K,1M,256M" into a struct clb_byte_list (each > 0). */
int clb_opt_byte_list(const char *arg, void *field, struct clb_error *e);

#endif
