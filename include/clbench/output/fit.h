#ifndef CLBENCH_OUTPUT_FIT_H
#define CLBENCH_OUTPUT_FIT_H

/* `clbench fit`: per-device memory figures and the model presets. Writers only read. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "clbench/cl/device.h"
#include "clbench/cli/cli.h"
#include "clbench/fit/fit.h"
#include "clbench/results/estimates.h"
#include "clbench/results/prices.h"

/* `clbench fit`: one device's figures. */
struct clb_fit_device {
    const struct clb_device *device;
    uint64_t memory_bytes, max_alloc_bytes;
    uint64_t max_params[CLB_DT_COUNT]; /* largest inference model per weight dtype */
    uint64_t max_params_train;
    bool fits;                          /* with a model: total <= memory */
    int64_t headroom_bytes;             /* memory - total (negative: short by) */
    bool tensor_too_big;                /* the largest tensor exceeds max_alloc */
};

struct clb_fit_report {
    const struct clb_fit_request *request;
    const struct clb_model *preset;      /* NULL unless --model named one */
    bool has_model;                      /* false: capacity of each device */
    struct clb_fit_estimate estimate;
    uint64_t largest_tensor_bytes;       /* 0 when unknown */
    const char *largest_tensor;          /* its name */
    struct clb_fit_device *devices;
    size_t n_devices;
    /* --from: the estimates from a result file's measured figures (n_speeds 0: none). */
    const char *from;                    /* its path */
    const char *measured_shapes;         /* the model its --shapes rows were, or NULL */
    double train_tokens;                 /* --train-tokens (0: none) */
    const struct clb_fit_speed *speeds;
    size_t n_speeds;
    /*
     * --price/--prices: speeds[i]'s costs (n_speeds entries; price NULL for
     * a device without one), or NULL when no price was given: then nothing
     * of costs is written.
     */
    const struct clb_speed_cost *costs;
};

int clb_fit_write(FILE *out, enum clb_format fmt, const struct clb_fit_report *r);
/*
 * The estimates table alone (r->speeds, measured in r->from: a path, or
 * "this run"), with its formulas; what `fit --from` and `run --shapes`
 * print. 0, or -1 when out of memory.
 */
int clb_fit_write_speeds(FILE *out, const struct clb_fit_report *r);
/*
 * The pieces of that table for other writers (the HTML report): the
 * formulas with r's numbers (prefill, decode, training; one per line) ...
 */
void clb_fit_speed_formulas(const struct clb_fit_report *r, char lines[3][320]);
/* ... one device's cells as the table has them ("-" where no figure) ... */
struct clb_fit_speed_cells {
    char backend[64];   /* whose prefill rate: "clbench fp32", "... (part of a layer)" */
    char rate[48];      /* the prefill GEMM rate, "12.73 GFLOP/s" */
    char prefill[32];   /* prefill tokens/s, "7.42" */
    char bandwidth[32]; /* triad, "100 GB/s" */
    char decode[32];    /* decode tokens/s, "<= 7.41" */
};
void clb_fit_speed_cells(const struct clb_fit_speed *s, struct clb_fit_speed_cells *c);
/*
 * ... one device's costs as the costs table has them: "-" where no figure,
 * "free" for a per-dollar figure at price 0, price "no price given" ...
 */
struct clb_fit_cost_cells {
    char price[64];         /* "$2.00/h", "$0/h (owned)", "no price given" */
    char run[32];           /* the run's timed calls on it, "1.23 s" */
    char run_cost[32];      /* "$0.000683" */
    char prefill[32];       /* USD per million prefill tokens, "$74.90" */
    char decode[32];        /* USD per million decode tokens */
    char train[32];         /* the training run, "$559,117" */
    char gflops[32];        /* prefill GEMM GFLOP/s per USD/h, "6.36" */
    char prefill_rate[32];  /* prefill tokens/s per USD/h */
    char decode_rate[32];   /* decode tokens/s per USD/h */
};
void clb_fit_cost_cells(const struct clb_fit_speed *s, const struct clb_speed_cost *c,
                        struct clb_fit_cost_cells *out);
/* The lines under the costs table (prices' origin, run clock, formulas): n written, <= 4. */
size_t clb_fit_cost_notes(const struct clb_fit_report *r, char lines[4][320]);
/*
 * The prices' part of the writers (output/fit_prices.c), for r->costs
 * non-NULL: the costs table under the estimates table, with its notes (0, or
 * -1 when out of memory) ...
 */
int clb_fit_write_costs(FILE *out, const struct clb_fit_report *r);
/*
 * ... and in the result document's "speed" object (its "devices" one per
 * speed, in order), each device's "cost" (null and a "cost_note" for a device
 * without a price), then the prices' notes.
 */
void clb_fit_costs_json(const struct clb_fit_report *r, json_t *speed);
/*
 * ... and the note when device i's prefill rate is of another precision than
 * the weights' (none ran in theirs): true with buf filled, else false.
 */
bool clb_fit_speed_note(const struct clb_fit_report *r, size_t i, char *buf, size_t len);
/* The preset table of --list-models. */
int clb_fit_write_models(FILE *out, enum clb_format fmt);

#endif
