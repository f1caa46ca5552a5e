#ifndef CLBENCH_OUTPUT_TUNE_H
#define CLBENCH_OUTPUT_TUNE_H

/* `clbench tune`'s output: the trials of each device's search and its outcomes. Writers only read. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "clbench/core/types.h"
#include "clbench/tune/search.h"

/*
 * One search (device, precision, size): its trials (the best of each
 * backend marked), then each backend's default, best, confirmation and what
 * it skipped, and the cache path when something was stored. Returns 0, or
 * -1 when out of memory.
 */
int clb_tune_write_table(FILE *out, const struct clb_tune_result *r, const char *cache_path);

/* One search as a JSON object (trials, per-backend outcomes). New reference. */
json_t *clb_tune_result_json(const struct clb_tune_result *r);

/* {"tuning_cache": path, "searches": [...]} on out; takes the reference to `searches`. */
int clb_tune_write_json(FILE *out, const char *cache_path, json_t *searches);

#endif
