#ifndef CLBENCH_COMMANDS_SHAPES_H
#define CLBENCH_COMMANDS_SHAPES_H

/*
 * `gemm`/`run --shapes MODEL`: its options, the layer's GEMMs they stand
 * for, the prices held to the run's devices, and the estimates of what the
 * run measured. The estimates are `fit --from`'s: the run's result document
 * is read back as any result file (clb_result_file_parse) and handed to the
 * same code (clb_file_speed_estimates, clb_cmd_file_costs), so both print
 * the same rows for the same figures.
 */
#include <stdbool.h>
#include <stdio.h>

#include "clbench/bench/gemm_run.h"
#include "clbench/cli/args.h"
#include "clbench/cli/gemm_args.h"
#include "clbench/fit/models.h"
#include "clbench/output/gemm.h"
#include "clbench/results/prices.h"
#include "selection.h"

struct clb_shapes {
    const struct clb_model *model;               /* --shapes; NULL: not given */
    unsigned context, batch;                     /* 0: not given (clb_shapes_validate fills) */
    struct clb_shape_role roles[CLB_MAX_SHAPES]; /* each shape's role (clb_shapes_validate) */
    struct clb_prices prices;                    /* --price, then --prices FILE's */
    const char *prices_file;                     /* --prices (borrowed from argv) */
};

/* --shapes's parser: a preset of clb_model_find into a const struct clb_model *. */
int clb_shapes_opt_model(const char *arg, void *field, struct clb_error *e);

/* The options of a struct clb_shapes `field` of the config `type`, in the option table. */
#define CLB_SHAPES_OPTIONS(type, field)                                                      \
    { .name = "shapes", .metavar = "MODEL",                                                  \
      .help = "The GEMMs one layer of MODEL (a 'clbench fit --list-models' preset) does "    \
              "instead of --size: QKV, attention out, MLP up/gate, MLP down, at prefill (M = " \
              "context x batch) and decode (M = batch)",                                     \
      .parse = clb_shapes_opt_model, .offset = offsetof(type, field.model),                  \
      .words_hook = clb_model_words },                                                       \
    /* --context and --batch stay 0 ("not given", an error without --shapes). */            \
    { .name = "context", .metavar = "TOKENS",                                                \
      .help = "With --shapes: prompt tokens per sequence at prefill",                        \
      .parse = clb_opt_positive, .offset = offsetof(type, field.context),                    \
      .def_help = "512" },                                                                   \
    { .name = "batch", .metavar = "N",                                                       \
      .help = "With --shapes: sequences at once",                                            \
      .parse = clb_opt_positive, .offset = offsetof(type, field.batch), .def_help = "1" },   \
    CLB_PRICE_OPTIONS(type, field.prices, field.prices_file)

/*
 * Checks s without a device and, with --shapes, fills sizes with the layer's
 * GEMMs at prefill, then at decode (s->roles theirs), and the defaults of
 * --context and --batch; loads --prices FILE. fmt: the output format (the
 * prices cost the estimates table alone). 0, or a usage error printed and 2.
 */
int clb_shapes_validate(struct clb_shapes *s, enum clb_format fmt, struct clb_shape_list *sizes);

/* Whether any price was given (--price or --prices). */
bool clb_shapes_priced(const struct clb_shapes *s);

/*
 * Holds the prices given to the devices the rows will name: sel's, and the
 * host CPU when host (a host backend runs). cmd: "gemm", "run". 0, or the
 * exit status with its error printed (2 for the prices, 1 out of memory).
 */
int clb_shapes_hold_prices(const struct clb_shapes *s, const char *cmd,
                           const struct clb_selection *sel, bool host);

/*
 * The estimates table (clb_fit_write_speeds) of r's --shapes preset from
 * what r measured, with its costs at r->prices; nothing without r->shapes.
 * 0, or -1 when writing failed or out of memory.
 */
int clb_shapes_write_estimates(FILE *out, const struct clb_gemm_report *r);

#endif
