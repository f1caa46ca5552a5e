#include "clbench/results/estimates.h"

#include <stdlib.h>

long clb_speed_estimates(const struct clb_speed_row *rows, size_t n_rows,
                         const struct clb_fit_request *req, const struct clb_fit_estimate *memory,
                         double train_tokens, struct clb_fit_speed **out)
{
    *out = NULL;
    struct clb_device_speed *measured = calloc(n_rows + 1, sizeof(*measured));
    if (!measured)
        return -1;
    /* The GEMMs of the weights' precision where they ran; integer weights have none. */
    const enum clb_precision precision = req->mode == CLB_FIT_TRAIN ? CLB_FP16
                                         : clb_dtype_bits(req->dtype) >= 16
                                             ? (req->dtype == CLB_DT_FP32 ? CLB_FP32 : CLB_FP16)
                                             : CLB_PRECISION_NONE;
    const size_t n = clb_speeds_of_rows(rows, n_rows, precision, measured, n_rows);
    if (n && !(*out = calloc(n, sizeof(**out)))) {
        free(measured);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const struct clb_speed_inputs in = { measured[i].prefill_gflops,
                                             measured[i].bandwidth_gbps, train_tokens };
        (*out)[i].measured = measured[i];
        clb_speed_estimate(req, memory, &in, &(*out)[i].estimate);
    }
    free(measured);
    return (long)n;
}

long clb_file_speed_estimates(const struct clb_result_file *f, const struct clb_fit_request *req,
                              const struct clb_fit_estimate *memory, double train_tokens,
                              struct clb_fit_speed **out)
{
    struct clb_speed_row *rows = calloc(f->n_rows + 1, sizeof(*rows));

    *out = NULL;
    if (!rows)
        return -1;
    const long n = clb_speed_estimates(rows, clb_speed_rows_of_file(f, rows), req, memory,
                                       train_tokens, out);
    free(rows);
    return n;
}
