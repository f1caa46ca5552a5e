#ifndef CLBENCH_RESULTS_SWEEP_H
#define CLBENCH_RESULTS_SWEEP_H

/*
 * Where the caches stop helping in a `bandwidth --sizes` sweep: the verdict
 * `bandwidth` prints under its table and `report` draws, judged here once.
 *
 * The verdict weighs evidence, not medians. A size is past the caches only
 * where its three arrays exceed the last-level cache (3 x array_bytes >
 * llc_bytes, the rows' cache_resident false; clbench/bench/micro.h); with
 * the LLC's size unknown nothing is judged. The caches helped only where a
 * size inside the LLC ran apart from the smallest size past it: the middle
 * halves of their calls (clb_sweep_spread) do not overlap. Where they
 * overlap the difference is within noise: a worker that joins late or a busy
 * neighbour spreads a size's calls and moves its median, not its cache.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/results/resultfile.h"

/* One size of a sweep as the verdict weighs it: its triad row. */
struct clb_sweep_size {
    uint64_t array_bytes; /* bytes of each of the three arrays (> 0) */
    double value;         /* the row's headline figure, GB/s */
    double lo, hi;        /* GB/s of the middle half of its calls (clb_sweep_spread); 0: no
                             spread (under 2 calls) */
};

/*
 * The middle half of n calls (seconds, any order) that each moved work bytes,
 * as GB/s: *lo from the 75th-percentile time, *hi from the 25th (linear
 * between the sorted calls, numpy's default). A quarter of the calls either
 * side (a preempted call, a late worker's) moves neither, half of them
 * moves both. false, with both 0, when n < 2 (one call shows no spread),
 * work is not > 0, a call took no time or memory ran out.
 */
bool clb_sweep_spread(const double *times_s, size_t n, double work, double *lo, double *hi);

enum clb_sweep_verdict {
    CLB_SWEEP_NONE,        /* no sizes */
    CLB_SWEEP_EDGE,        /* caches help up to `cached` and stop by `past` */
    CLB_SWEEP_NOISE,       /* no size inside the LLC ran apart from `past`: within noise */
    CLB_SWEEP_NO_GAIN,     /* every size inside the LLC ran apart, slower, from `past` */
    CLB_SWEEP_NO_LLC,      /* not judged: the LLC's size is not known */
    CLB_SWEEP_NONE_PAST,   /* not judged: every size's arrays fit the LLC */
    CLB_SWEEP_NONE_INSIDE, /* not judged: no size's arrays fit the LLC */
    CLB_SWEEP_NO_CALLS,    /* not judged: a size to weigh (`past`) has under 2 calls */
};

struct clb_sweep_finding {
    enum clb_sweep_verdict verdict;
    /* EDGE, NOISE, NO_GAIN: the smallest size past the LLC (the first of equals);
     * NO_CALLS: the size without a spread */
    size_t past;
    /*
     * EDGE: the largest size inside the LLC whose calls ran apart, faster, from past's;
     * NOISE, NO_GAIN: the fastest size inside by headline (the first of equals), the one
     * a reader of the table would take for the caches' help. Indices into the sizes judged.
     */
    size_t cached;
    /* The finding in `bandwidth`'s words, after "DEVICE PRECISION triad: "; "" for NONE. */
    char text[384];
};

/*
 * Judges one device and precision's n triad sizes (any order) against its
 * LLC (llc_bytes, 0: not known) by the rule above. A pure function of its
 * input, so every writer that states the finding states the same one.
 */
void clb_sweep_judge(const struct clb_sweep_size *size, size_t n, uint64_t llc_bytes,
                     struct clb_sweep_finding *f);

enum { CLB_SWEEP_MAX_TRIADS = 64 };

/*
 * One device and precision of a file (dev's device, its rank's rows): its
 * verified triad rows of a --sizes sweep (clb_sweep_row) in row order, at
 * most CLB_SWEEP_MAX_TRIADS, each as a size to judge, and the verdict
 * against the first one's llc_bytes.
 */
struct clb_sweep {
    const struct clb_row *triad[CLB_SWEEP_MAX_TRIADS];
    struct clb_sweep_size size[CLB_SWEEP_MAX_TRIADS];
    size_t n_triad, n_sizes; /* rows; distinct sizes among them */
    struct clb_sweep_finding finding;
};

/* A verified GB/s bandwidth row of one array size of a sweep (clb_row.sized). */
bool clb_sweep_row(const struct clb_row *r);
/* A sweep row of the triad (clb_result_row_is_sized_triad) with its bytes per call. */
bool clb_sweep_triad(const struct clb_row *r);

/* Fills s for dev's device and precision in f. */
void clb_sweep_of(const struct clb_result_file *f, const struct clb_row *dev,
                  struct clb_sweep *s);

/*
 * Every device and precision's sweep of f (in a fleet file, of the first rank
 * that has it), in the order their first triad rows (clb_sweep_triad) appear:
 * s[k] is clb_sweep_of that row, s[k].triad[0] the row. What `report` draws.
 */
struct clb_sweeps {
    struct clb_sweep *s; /* owned */
    size_t n;
};

/* 0, or -1 out of memory (out is then empty). */
int clb_sweeps_of(const struct clb_result_file *f, struct clb_sweeps *out);
/* Frees what s owns; accepts an empty (zeroed or finished) one. */
void clb_sweeps_finish(struct clb_sweeps *s);

/*
 * A run's sweeps, before any file is written (`bandwidth --sizes`' table):
 * one triad row of a size as its measurement holds it. The caller picks the
 * verified triad rows; grouping and judging are here.
 */
struct clb_sweep_point {
    const void *place;      /* its device: points of one device share the pointer */
    enum clb_precision precision; /* fp32, fp64 */
    uint64_t array_bytes;   /* bytes of each of the three arrays (> 0) */
    uint64_t llc_bytes;     /* the LLC it was held against; 0: not known */
    double value;           /* its headline figure, GB/s */
    double work;            /* bytes moved per call (> 0) */
    const double *times_s;  /* n_times timed calls, s (borrowed) */
    size_t n_times;
};

/* One device and precision's points: which, the first of them, and the finding. */
struct clb_sweep_group {
    const void *place;     /* its points' */
    enum clb_precision precision; /* its points' */
    size_t first;      /* index of its first point */
    size_t n_sizes;    /* its points judged: the first CLB_SWEEP_MAX_TRIADS */
    struct clb_sweep_finding finding;
};

struct clb_sweep_groups {
    struct clb_sweep_group *g; /* owned */
    size_t n;
};

/*
 * Groups the n points by place and precision (by a sort), in the order the
 * groups first appear, and judges each group's first CLB_SWEEP_MAX_TRIADS
 * points (clb_sweep_spread of their calls) against its first point's
 * llc_bytes. 0, or -1 out of memory (out is then empty).
 */
int clb_sweep_group_points(const struct clb_sweep_point *p, size_t n,
                           struct clb_sweep_groups *out);
/* Frees what g owns; accepts an empty (zeroed or finished) one. */
void clb_sweep_groups_finish(struct clb_sweep_groups *g);

#endif
