#ifndef CLBENCH_RESULTS_ESTIMATES_H
#define CLBENCH_RESULTS_ESTIMATES_H

/*
 * What measured figures mean for a model (`fit --from FILE`, `run
 * --shapes`, the report): each device's prefill GEMM rate and triad
 * bandwidth (clbench/results/speed.h) through clb_speed_estimate.
 */
#include <stddef.h>

#include "clbench/fit/fit.h"
#include "clbench/results/resultfile.h"
#include "clbench/results/speed.h"

/* One device's measured figures and what follows from them. */
struct clb_fit_speed {
    struct clb_device_speed measured;
    struct clb_speed_estimate estimate;
};

/*
 * The speed estimates of req's model (memory: its clb_fit_estimate) from the
 * figures of the n_rows rows (clb_speeds_of_rows: prefill GEMM rate, triad
 * bandwidth), with the training time on train_tokens (0: none). The GEMM
 * rows preferred are those of the weights' precision (fp32; fp16 for fp16
 * and bf16, and for training's mixed precision); the table names the one
 * taken. *out is new, one entry per device that has either figure (free()
 * it; NULL when none), borrowing the rows' strings. Returns how many, or -1
 * when out of memory.
 */
long clb_speed_estimates(const struct clb_speed_row *rows, size_t n_rows,
                         const struct clb_fit_request *req, const struct clb_fit_estimate *memory,
                         double train_tokens, struct clb_fit_speed **out);

/* The same from the figures measured in f (its rows: clb_speed_rows_of_file), borrowing f's strings. */
long clb_file_speed_estimates(const struct clb_result_file *f, const struct clb_fit_request *req,
                              const struct clb_fit_estimate *memory, double train_tokens,
                              struct clb_fit_speed **out);

#endif
