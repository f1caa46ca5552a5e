#ifndef CLBENCH_RESULTS_COMPARE_H
#define CLBENCH_RESULTS_COMPARE_H

/*
 * Lining up result files: each row of the first file against the row of
 * every other file with the same benchmark, case, backend and metric on a
 * matching device (same name, or paired with --pair) whose "config" is equal
 * (the tuned flag, alpha/beta, OpenBLAS threads and core, the bandwidth
 * array size...: clb_row.config). A candidate measured with another
 * config is not paired but listed as unpaired, with the differences. Rows
 * without a measured figure (error, skipped, unavailable) pair whatever their
 * config: there is no figure to mistake, and a figure lost counts as a
 * regression.
 *
 * Fleet files (a run under mpirun/srun: rows carry host, rank, local_rank)
 * hold one row per rank for each figure; rows of different ranks are never
 * paired. Two rows pair only measured at the same place
 * (clb_compare_same_place): the same host and the same local rank on it, not
 * the same global rank, which depends on how the launcher ordered the hosts.
 * A single run's row pairs with a fleet file's row of local rank 0 on a host
 * of the single file's host.hostname: the same machine's first process, and
 * devices must still match by name. (That rank measured while the others
 * ran; what they share, memory bandwidth or a PCIe switch, may make it
 * slower than a lone run.) Host names must be equal as written: files of
 * different clusters pair nothing.
 *
 * Ratios are other / first of the headline figure; their geometric mean per
 * (benchmark, metric, backend, first file's device, other file's device,
 * place, other file), where peak rows count only at the best width of their
 * precision in both files. A regression is a ratio below 1 - threshold, or
 * above 1 + threshold for lower-is-better metrics (latency); one within the
 * calls' noise (clb_compare_noise) still counts and is said to be.
 *
 * Each headline figure is one call's, the median call's (or with config
 * "stat": "best", the fastest call's); a ratio of two such figures can be
 * noise. A row's spread is the figure each of its timed calls would give
 * (clb_compare_spread); a ratio whose two spreads overlap is within noise and
 * marked "≈": the reader is told, and a regression beyond the threshold still
 * counts (a single slow call widens a spread).
 */
#include <stdbool.h>
#include <stddef.h>

#include "clbench/results/resultfile.h"

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


/* Whether a ratio stands out from its two figures' noise. */
enum clb_noise {
    CLB_NOISE_UNKNOWN, /* a spread is unknown (too few timed calls): not judged */
    CLB_NOISE_WITHIN,  /* the two spreads overlap: the ratio may be noise ("≈") */
    CLB_NOISE_BEYOND,  /* they do not: even the calls' extremes differ */
};

/*
 * A row's figure as each of its timed calls ("times_s") would give it: the
 * headline scaled by the headline's call time over each call's (times, for
 * lower-is-better metrics), lo the lowest, hi the highest, in the metric's
 * unit. known false where the row has no figure or fewer than
 * CLB_COMPARE_MIN_CALLS calls (files without per-call times).
 */
struct clb_figure_spread {
    bool known;
    double lo, hi;
};

enum { CLB_COMPARE_MIN_CALLS = 3 };

struct clb_compare_row {
    const struct clb_row *row[CLB_COMPARE_MAX_FILES]; /* [0] the first file's; NULL: absent */
    double ratio[CLB_COMPARE_MAX_FILES]; /* row[i] / row[0]; 0 when either has no figure */
    enum clb_noise noise[CLB_COMPARE_MAX_FILES]; /* ratio[i]'s; UNKNOWN where no ratio, [0] */
};

struct clb_compare_group {
    const char *benchmark, *metric;         /* "gemm", "gflops" */
    const struct clb_row *first;     /* the first file's row that opened the group */
    const char *device0, *backend, *device; /* first file's device, backend, other's device */
    const char *host; /* with a fleet file: the host the rows were measured on, else NULL */
    int local_rank;   /* and the rank on it (0 for a single run's row); -1 with host NULL */
    size_t file;                            /* the other file's index */
    size_t n;                               /* ratios in the mean */
    double geomean;
};

enum { CLB_CONFIG_MAX_DIFFS = 16 };

/* One key whose value differs between two config objects. */
struct clb_config_diff {
    const char *key;       /* borrowed from a config object */
    json_t *first, *other; /* borrowed; NULL where that config lacks the key */
};

/* A row of the first file and a candidate of another that differ in config. */
struct clb_compare_unpaired {
    const struct clb_row *first, *other;
    size_t file;                                 /* the other file's index */
    struct clb_config_diff diff[CLB_CONFIG_MAX_DIFFS]; /* the first n_diffs differences */
    size_t n_diffs;
};

/*
 * A difference between the files that does not prevent pairing: the clbench
 * version, options other than those in the rows' configs, host fields,
 * library versions, the driver versions of paired devices.
 */
struct clb_compare_ignored {
    char field[192];                       /* "options.runs", "devices[NAME].driver_version" */
    json_t *values[CLB_COMPARE_MAX_FILES]; /* per file, borrowed; NULL where a file lacks it */
};

struct clb_comparison {
    struct clb_result_file *const *files;
    size_t n_files;
    struct clb_compare_row *rows;
    size_t n_rows;
    struct clb_compare_group *groups;
    size_t n_groups;
    struct clb_compare_unpaired *unpaired; /* in the first file's row order */
    size_t n_unpaired;
    struct clb_compare_ignored *ignored;
    size_t n_ignored;
    size_t n_regressions; /* ratios worse than the threshold allows; lost figures */
    size_t n_noisy;       /* of those ratios, the ones within the calls' noise */
    double threshold;     /* 0: none */
};

/*
 * Fails (-1, e set) only when out of memory or when no row is in common (the
 * message names a config difference when rows matched but not their configs).
 * out borrows from files: keep them until clb_comparison_finish.
 */
int clb_compare(struct clb_result_file *const *files, size_t n_files,
                const struct clb_pair_list *pairs, double threshold, struct clb_comparison *out,
                struct clb_error *e);
void clb_comparison_finish(struct clb_comparison *c);

/* Whether `ratio` (other / first) is worse than `threshold` allows for this metric. */
bool clb_compare_regressed(const char *metric, double ratio, double threshold);

/* Whether file i's figure of row counts as a regression: worse than c's threshold allows
 * (i > 0), within noise or not: a gate that one slow call could open is no gate. */
bool clb_compare_row_regressed(const struct clb_comparison *c, const struct clb_compare_row *row,
                               size_t i);

/* "median" or "best": which call a row's headline is (its config's "stat"; absent: median). */
const char *clb_compare_stat(const struct clb_row *r);

/* Row r's spread (see struct clb_figure_spread). */
struct clb_figure_spread clb_compare_spread(const struct clb_row *r);

/* Two figures' spreads: within noise when they overlap; unknown when either is. */
enum clb_noise clb_compare_noise(struct clb_figure_spread a, struct clb_figure_spread b);

/* "within", "beyond", "unknown". */
const char *clb_noise_name(enum clb_noise n);

/*
 * Whether two configs (or any two JSON values) are equal: the same keys with
 * equal values, where numbers compare by value (1 and 1.0 are equal; a file
 * that went through jq may have either). NULL equals only NULL.
 */
bool clb_config_equal(json_t *a, json_t *b);

/* The keys of a and b whose values differ (a's keys first); at most cap of them. */
size_t clb_config_diff(json_t *a, json_t *b, struct clb_config_diff *out, size_t cap);

/* What a config without `key` was measured with: "median" for "stat"; NULL for other keys. */
const char *clb_config_absent(const char *key);

/*
 * Config key's value v for people: a string as it is, a number, true/false;
 * for NULL (the config lacks the key) what that means (clb_config_absent),
 * else "none". key may be NULL.
 */
void clb_config_value_str(const char *key, json_t *v, char *buf, size_t len);

/*
 * Whether two rows of files fa and fb were measured at the same place: always
 * when neither is a fleet row (host NULL); otherwise the same host and local
 * rank, where a single run's row stands at (fb's or fa's host.hostname, 0).
 */
bool clb_compare_same_place(const struct clb_result_file *fa, const struct clb_row *a,
                            const struct clb_result_file *fb, const struct clb_row *b);

/* Whether two device names match, directly or through a pair. */
bool clb_devices_match(const char *first, const char *other, const struct clb_pair_list *pairs);

#endif
