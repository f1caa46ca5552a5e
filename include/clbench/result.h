#ifndef CLBENCH_RESULT_H
#define CLBENCH_RESULT_H

/*
 * The result document every measuring command writes with --format json or
 * -o FILE.json: schema "clbench-result/1", described field by field in
 * docs/result-schema.md. This builds the part all commands share; each
 * command adds its "options" and "results".
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "clbench/device.h"
#include "clbench/gemm.h"

#define CLB_RESULT_SCHEMA "clbench-result/1"

struct clb_run_meta {
    int argc;
    char **argv;      /* the command line as run (borrowed) */
    time_t started;   /* wall clock at the start */
    bool complete;    /* false when a signal stopped the run early */
    int signal;       /* that signal, or 0 */
};

/*
 * schema, clbench_version, created, complete (+ interrupted_by), command,
 * host, libraries (ICD loader and each backend's library), devices. New
 * reference, NULL when out of memory.
 */
json_t *clb_result_doc_create(const struct clb_run_meta *meta,
                              const struct clb_gemm_backend *const *backends, size_t n_backends,
                              struct clb_device *const *devices, size_t n_devices);

/* "host CPU: ..." and one line per library, for the end of a table. */
void clb_result_libraries_text(FILE *out, const struct clb_gemm_backend *const *backends,
                               size_t n_backends);

#endif
