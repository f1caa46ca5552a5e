#ifndef CLBENCH_FIT_MODELS_H
#define CLBENCH_FIT_MODELS_H

/*
 * The presets: well-known open models with their published configurations
 * (src/fit/models.c), what --model and --shapes take.
 */
#include <stddef.h>
#include <stdint.h>

#include "clbench/fit/fit.h"

extern const struct clb_model clb_models[];
extern const size_t clb_n_models;
const struct clb_model *clb_model_find(const char *name); /* case-insensitive; NULL if none */

/*
 * Parameters of a Llama-style decoder (gated MLP, grouped-query attention)
 * from its shape: a check on a preset's published count.
 */
uint64_t clb_model_params_from_shape(const struct clb_model *m);

#endif
