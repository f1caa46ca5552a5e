#ifndef CLBENCH_COMPARE_H
#define CLBENCH_COMPARE_H

/*
 * Lining up result files: each row of the first file against the row of
 * every other file with the same benchmark, case and backend on a matching
 * device (same name, or paired with --pair). Ratios are other / first of the
 * headline figure; per device pair, their geometric mean. A regression is a
 * ratio below 1 - threshold, or above 1 + threshold for lower-is-better
 * metrics (latency).
 */
#include <stdbool.h>
#include <stddef.h>

#include "clbench/resultfile.h"

enum { CLB_COMPARE_MAX_FILES = 16, CLB_COMPARE_MAX_PAIRS = 16 };

/* "first=other": a device of the first file whose name contains `first` matches
 * one of another file whose name contains `other` (case-insensitive). */
struct clb_device_pair {
    char first[128], other[128];
};

struct clb_pair_list {
    size_t n;
    struct clb_device_pair v[CLB_COMPARE_MAX_PAIRS];
};

/* Option parser for --pair "A=B[,C=D...]" into a struct clb_pair_list. */
int clb_opt_pairs(const char *arg, void *field, struct clb_error *e);
/* Option parser for --threshold "5%" or "5" into a double fraction (0.05). */
int clb_opt_percent(const char *arg, void *field, struct clb_error *e);

struct clb_compare_row {
    const struct clb_result_row *row[CLB_COMPARE_MAX_FILES]; /* [0] the first file's; NULL: absent */
    double ratio[CLB_COMPARE_MAX_FILES]; /* row[i] / row[0]; 0 when either has no figure */
};

struct clb_compare_group {
    const char *device0, *backend, *device; /* first file's device, backend, other's device */
    size_t file;                            /* the other file's index */
    size_t n;                               /* ratios in the mean */
    double geomean;
};

struct clb_comparison {
    struct clb_result_file *const *files;
    size_t n_files;
    struct clb_compare_row *rows;
    size_t n_rows;
    struct clb_compare_group *groups;
    size_t n_groups;
    size_t n_regressions; /* ratios worse than the threshold allows */
    double threshold;     /* 0: none */
};

/* Fails (-1, e set) only when out of memory or when no row is in common. */
int clb_compare(struct clb_result_file *const *files, size_t n_files,
                const struct clb_pair_list *pairs, double threshold, struct clb_comparison *out,
                struct clb_error *e);
void clb_comparison_finish(struct clb_comparison *c);

/* Whether `ratio` (other / first) is worse than `threshold` allows for this metric. */
bool clb_compare_regressed(const char *metric, double ratio, double threshold);

/* Whether two device names match, directly or through a pair. */
bool clb_devices_match(const char *first, const char *other, const struct clb_pair_list *pairs);

#endif
