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
#include "clbench/results/prices.h"

/* --pair "A=B[,C=D...]" into a struct clb_pair_list. */
int clb_opt_pairs(const char *arg, void *field, struct clb_error *e);
/* --threshold, --overhead: "5%" or "5" into a double fraction (0.05), 0..100 %. */
int clb_opt_percent(const char *arg, void *field, struct clb_error *e);
/* --straggler: as clb_opt_percent, strictly between 0 % (every rank) and 100 % (none). */
int clb_opt_straggler(const char *arg, void *field, struct clb_error *e);
/* --dtype, --kv-dtype into an enum clb_dtype. */
int clb_opt_dtype(const char *arg, void *field, struct clb_error *e);

/*
 * --price "DEVICE=USD_PER_HOUR", repeatable (.repeat): appends to a struct
 * clb_prices (clbench/results/prices.h), source "--price".
 */
int clb_opt_price(const char *arg, void *field, struct clb_error *e);

/*
 * The price options of fit, run, gemm, compare and report: --price into
 * prices_field (a struct clb_prices), --prices into file_field (a path the
 * command loads with clb_prices_load after parsing).
 */
#define CLB_PRICE_OPTIONS(type, prices_field, file_field)                                     \
    { .name = "price", .metavar = "DEVICE=USD",                                               \
      .help = "What a device costs per hour, in USD (0: owned), to show what the run, a "     \
              "million tokens and a training run cost and figures per dollar; DEVICE is a "   \
              "name substring or an id (P:D, host) of a device in the results, which it must " \
              "match; repeatable. No price is built in",                                      \
      .parse = clb_opt_price, .offset = offsetof(type, prices_field), .repeat = true },       \
    { .name = "prices", .metavar = "FILE",                                                    \
      .help = "A table of prices: one DEVICE=USD_PER_HOUR per line, # comments; entries "     \
              "that match no device are fine (a catalogue)",                                  \
      .parse = clb_opt_string, .offset = offsetof(type, file_field), .file = true }

/* Completion words (clb_opt_words_hook): the dtypes; the model presets' names (--model, --shapes). */
void clb_dtype_words(FILE *out);
void clb_model_words(FILE *out);

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
