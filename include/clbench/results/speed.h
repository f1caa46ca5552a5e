#ifndef CLBENCH_RESULTS_SPEED_H
#define CLBENCH_RESULTS_SPEED_H

/*
 * What a result file measured that a model's speed follows from (clbench fit
 * --from), device by device: the GEMM rate at the model's prefill shapes
 * (`gemm --shapes MODEL` rows of phase "prefill") and the memory bandwidth
 * (`bandwidth`'s triad, BabelStream's headline; `run` measures both).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/results/resultfile.h"

struct clb_device_speed {
    const char *device;     /* device_name, "host CPU" for host backends (borrowed) */
    const char *device_id;  /* "P:D", "host" (borrowed) */
    const char *host;       /* a fleet file's: the rank's node (borrowed), else NULL */
    int rank;               /* and its rank; -1 in a single run */
    const char *backend;    /* whose prefill rate it is: the fastest's; NULL: none */
    enum clb_precision precision; /* of those rows; NONE: no prefill rate */
    /*
     * One layer's prefill GEMMs as one: the sum of per_layer x 2mnk over the
     * sum of per_layer x median time, over that backend's verified prefill
     * rows, GFLOP/s; 0: none.
     */
    double prefill_gflops;
    unsigned prefill_roles; /* the roles behind it (4: the whole layer) */
    double bandwidth_gbps;  /* triad, GB/s; 0: not measured */
};

/*
 * One measured row as the speed figures see it, read from a result file
 * (clb_speed_rows_of_file; `run --shapes` reads its own document back so)
 * (strings borrowed).
 */
struct clb_speed_row {
    const char *device;     /* as clb_device_speed's */
    const char *device_id;
    const char *host;
    int rank;
    const char *backend;
    enum clb_precision precision; /* NONE: none */
    bool triad;             /* a verified bandwidth triad row (either precision) */
    double bandwidth_gbps;  /* its figure, GB/s */
    bool prefill;           /* a verified GEMM row of a model's prefill phase, timed */
    unsigned per_layer;     /* its role's GEMMs per layer */
    uint64_t m, n, k;
    double median_s;        /* its median timed call, s (> 0) */
};

/*
 * The rows of f that either figure follows from, in file order, into rows
 * (f->n_rows entries always hold them); returns how many.
 */
size_t clb_speed_rows_of_file(const struct clb_result_file *f, struct clb_speed_row *rows);

/*
 * One entry per device of the n_rows rows that has either figure, in row
 * order; returns how many (<= cap: n_rows entries always hold them all).
 * A device's prefill rate is of its rows in `precision` (fp16) where it
 * has any (NONE: any precision), then of a whole layer rather than part of
 * one, then of the faster backend.
 */
size_t clb_speeds_of_rows(const struct clb_speed_row *rows, size_t n_rows,
                          enum clb_precision precision,
                          struct clb_device_speed *out, size_t cap);

/*
 * The same over a result file's rows: one entry per device of f that has
 * either figure, in file order; returns
 * how many (<= cap: f->n_rows entries always hold them all). A device's
 * prefill rate is of its rows in `precision` (fp16) where it has any
 * (NONE: any precision), then of a whole layer rather than part of one,
 * then of the faster backend. 0 also when out of memory.
 */
size_t clb_result_speeds(const struct clb_result_file *f, enum clb_precision precision,
                         struct clb_device_speed *out, size_t cap);

#endif
