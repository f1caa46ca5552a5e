#ifndef CLBENCH_RESULTS_SWEEP_H
#define CLBENCH_RESULTS_SWEEP_H

/*
 * Where the caches stop helping in a `bandwidth --sizes` sweep: the analysis
 * `bandwidth` prints under its table and `report` draws, computed here once.
 */
#include <stdbool.h>
#include <stddef.h>

#include "clbench/results/resultfile.h"

/*
 * Of one device and precision's n triad figures in row order (work[i] bytes
 * per call, value[i] the headline GB/s), *big is the largest work, *cached
 * the largest work whose figure is at least 1.5x big's, *after the smallest
 * work above cached's, each the first of equals. Returns true with all three
 * set; false ("no size ran 1.5x faster") with *big alone set (n > 0). A pure
 * function, so any writer that states the finding states the same one.
 */
bool clb_sweep_cache_edge(const double *work, const double *value, size_t n, size_t *big,
                          size_t *cached, size_t *after);

/*
 * The finding in `bandwidth`'s words, after "DEVICE PRECISION triad: ": "caches help up to
 * 1 MiB arrays (80 GB/s) and stop by 16 MiB (20 GB/s)" or "no size ran 1.5x faster than
 * 16 MiB arrays (20 GB/s)". metric names the values' unit ("gbps"); the indices are
 * clb_sweep_cache_edge's (found its result).
 */
void clb_sweep_finding_text(char *buf, size_t len, const char *metric, const double *work,
                            const double *value, bool found, size_t big, size_t cached,
                            size_t after);

enum { CLB_SWEEP_MAX_TRIADS = 64 };

/*
 * One device and precision of a file (dev's device, its rank's rows): its
 * verified triad rows of a --sizes sweep (clb_sweep_row) in row order, at
 * most CLB_SWEEP_MAX_TRIADS, their bytes per call and figures, and the finding.
 */
struct clb_sweep {
    const struct clb_result_row *triad[CLB_SWEEP_MAX_TRIADS];
    double work[CLB_SWEEP_MAX_TRIADS], value[CLB_SWEEP_MAX_TRIADS];
    size_t n_triad, n_sizes; /* rows; distinct sizes among them */
    bool found;              /* caches helped: cached and after are set */
    size_t big, cached, after;
    char finding[256];       /* clb_sweep_finding_text's; "" when n_triad is 0 */
};

/* A verified GB/s bandwidth row of one array size of a sweep (clb_result_row.sized). */
bool clb_sweep_row(const struct clb_result_row *r);
/* A sweep row of the triad with its bytes per call. */
bool clb_sweep_triad(const struct clb_result_row *r);

/* Fills s for dev's device and precision in f. */
void clb_sweep_of(const struct clb_result_file *f, const struct clb_result_row *dev,
                  struct clb_sweep *s);

#endif
