#ifndef CLBENCH_REPORT_H
#define CLBENCH_REPORT_H

/*
 * Output writers. They only read measurement structs and never measure.
 */
#include <jansson.h>
#include <stdio.h>

#include "clbench/check.h"
#include "clbench/cli.h"
#include "clbench/device.h"
#include "clbench/record.h"

struct clb_devices_report {
    const struct clb_inventory *inv;
    struct clb_device *const *devices; /* the selected ones */
    size_t n_devices;
    const struct clb_check_result *checks; /* n_devices entries, or NULL without --check */
    bool verbose;
    const struct clb_run_record *record;   /* the ICDs (json, -v), borrowed */
};

/*
 * A device as people read it, "0:1 NAME", and as files name it, "0:1"; NULL
 * is the host CPU itself: "host CPU" and "host".
 */
void clb_device_label(const struct clb_device *dev, char *buf, size_t len);
void clb_device_id(const struct clb_device *dev, char *buf, size_t len);

/* Returns 0, or -1 when writing failed (e.g. out of memory). */
int clb_devices_write(FILE *out, enum clb_format fmt, const struct clb_devices_report *r);

/*
 * One device as a JSON object: "id" ("P:D"), "platform", every applicable
 * property under its key (raw numbers: bytes, MHz), null for one that could
 * not be read, with its error name under "unavailable". New reference.
 */
json_t *clb_device_json(const struct clb_device *dev);



#include "clbench/gemm_run.h"
#include "clbench/result.h"

struct clb_micro_results;

struct clb_gemm_report {
    const struct clb_run_meta *meta;
    const struct clb_micro_results *micro; /* peak/bandwidth rows measured alongside, or NULL */
    bool show_micro;                       /* table: print them before the GEMM table */
    const struct clb_gemm_results *results;
    const struct clb_gemm_options *options;
    struct clb_device *const *devices; /* the selected devices */
    size_t n_devices;
};

/*
 * GEMM results: a table with a summary (table), one JSON document with
 * the libraries, host, devices and every row's raw figures (json), or one
 * line per row (csv). Returns 0, or -1 when writing failed.
 */
int clb_gemm_write(FILE *out, enum clb_format fmt, const struct clb_gemm_report *r);


#include "clbench/fit.h"

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
};

int clb_fit_write(FILE *out, enum clb_format fmt, const struct clb_fit_report *r);
/* The preset table of --list-models. */
int clb_fit_write_models(FILE *out, enum clb_format fmt);

#include "clbench/micro.h"

struct clb_micro_report {
    const struct clb_run_meta *meta;
    const struct clb_micro_results *results;
    struct clb_device *const *devices;
    size_t n_devices;
    unsigned runs;
    bool verbose; /* peak: every vector width, not only the best */
};

/* Peak, bandwidth, transfer and latency rows: table, result document, or CSV. */
int clb_micro_write(FILE *out, enum clb_format fmt, const struct clb_micro_report *r);
/* The rows as result-document entries, appended to `results` (for `clbench run`). */
int clb_micro_rows_json(const struct clb_micro_results *res, json_t *results);
/* The table alone (no libraries or notes), for `clbench run`. */
int clb_micro_write_table(FILE *out, const struct clb_micro_results *res, bool verbose);

#include "clbench/compare.h"

/*
 * A comparison: table (with what was not compared and the differences
 * ignored), JSON, or CSV on `out`; with CSV those two lists go to `notes`.
 * Returns 0, or -1 when writing failed.
 */
int clb_compare_write(FILE *out, FILE *notes, enum clb_format fmt, const struct clb_comparison *c);

#endif
