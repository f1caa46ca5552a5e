#ifndef CLBENCH_OUTPUT_RESULT_H
#define CLBENCH_OUTPUT_RESULT_H

/*
 * The result document every measuring command writes with --format json or
 * -o FILE.json: schema "clbench-result/1", described field by field in
 * docs/result-schema.md. This builds the part all commands share; each
 * command adds its "options" and "results".
 */
#include <jansson.h>

#include "clbench/core/row.h"
#include "clbench/core/types.h"
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "clbench/backends/backend.h"
#include "clbench/cl/device.h"
#include "clbench/util/record.h"


struct clb_run_meta {
    int argc;
    char **argv;      /* the command line as run (borrowed) */
    time_t started;   /* wall clock at the start */
    bool complete;    /* false when a signal stopped the run early */
    int signal;       /* that signal, or 0 */
    const struct clb_run_record *record; /* machine and libraries (borrowed) */
};

/*
 * schema, clbench_version, created, complete (+ interrupted_by), command,
 * host, libraries (the record's: ICD loader and each backend's library),
 * devices. New reference, NULL when out of memory.
 */
json_t *clb_result_doc_create(const struct clb_run_meta *meta, struct clb_device *const *devices,
                              size_t n_devices);

/*
 * Every result row's first keys, in the schema's order: benchmark, case,
 * metric, device ("P:D" or "host"), device_name ("host CPU" for dev NULL)
 * and backend. The rest of the row is its benchmark's.
 */
void clb_row_envelope_json(json_t *o, enum clb_benchmark benchmark, const char *case_,
                           const char *metric, const struct clb_device *dev,
                           const char *backend);

/* A library of the record as a JSON object ("a.b" keys nested). New reference. */
json_t *clb_library_json(const struct clb_library_info *lib);

/*
 * A row's "datasheet" object: accelerator, figure, value (the row's unit),
 * source, and percent (100 x measured / value) and above_limit (measured >
 * value: the table marks it "^") when `verified`; a derived
 * peak adds derived: true, cores, flops_per_cycle and clock_ghz. New
 * reference.
 */
json_t *clb_datasheet_ref_json(const struct clb_datasheet_ref *d, double measured,
                               bool verified);
/* The row's key for d: "derived_peak" for a derived peak, else "datasheet". */
const char *clb_datasheet_ref_key(const struct clb_datasheet_ref *d);
/*
 * What d is, for a sentence: "the datasheet's fp32_vector of NVIDIA H100
 * PCIe 80GB" or "the fp32 peak derived for AMD Zen 4: 2 cores x 32
 * flops/cycle x 3.69 GHz (measured)".
 */
void clb_datasheet_what(const struct clb_datasheet_ref *d, char *buf, size_t len);
/* "% DATASHEET: of WHAT, VALUE (source: ...)" on one line ("% DERIVED: ..." for a derived
 * peak); value formatted by the caller. */
void clb_datasheet_note(FILE *out, const struct clb_datasheet_ref *d, const char *value);

/* "host CPU: ..." and one line per backend library (and its note), for the end of a table. */
void clb_result_libraries_text(FILE *out, const struct clb_run_record *record);

#endif
