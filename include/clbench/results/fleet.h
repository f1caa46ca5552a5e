#ifndef CLBENCH_RESULTS_FLEET_H
#define CLBENCH_RESULTS_FLEET_H

/*
 * One result document from the documents of every rank of a fleet run
 * (docs/result-schema.md, "Fleet runs"): what rank 0 writes after gathering
 * them. Pure JSON work, no MPI: unit tests call it with hand-made parts.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "clbench/results/resultfile.h"
#include "clbench/util/error.h"

/*
 * Whether two rows of a fleet file are one figure measured by different
 * ranks in one step: the same benchmark, case, backend, precision, device
 * name, metric and config (clb_config_equal), device slot, and host CPU.
 */
bool clb_fleet_same_figure(const struct clb_row *a, const struct clb_row *b);

/*
 * What a rank's row needs to be judged a straggler or not: this many timed
 * calls ("times_s") adding up to this many seconds. Fewer or shorter ones
 * are a moment, not a rank: a neighbour's burst, a core's clock step or a
 * scheduler slice (a few ms) can cover all of them.
 */
#define CLB_FLEET_JUDGE_MIN_CALLS 3
#define CLB_FLEET_JUDGE_MIN_S 0.01

/* One rank's clbench-result/1 document as it sent it. */
struct clb_fleet_part {
    const char *text; /* borrowed; NULL: the rank sent nothing */
    size_t len;
    int local_rank;   /* its rank on its node */
};

/*
 * parts[r] is rank r's document. The result is rank 0's document (options,
 * libraries, host) with:
 * - every rank's rows and devices, each stamped "host" (that rank's
 *   host.hostname), "rank" and "local_rank"; rows also "slot" (their
 *   device's place among the rank's devices: the step they ran in) or, for
 *   host rows, "host_cpu" (that host's CPU model);
 * - "complete" true only when every rank's document is complete and present;
 * - "fleet": {ranks, threshold, judged_when {calls, seconds}, hosts
 *   [{hostname, ranks, host}], figures [{benchmark, case, backend,
 *   precision, device_name, metric, headline, lower_is_better, ranks, sum,
 *   min, median, max, stragglers, not_judged}], stragglers, not_judged,
 *   missing [{rank, why}]}.
 * A figure is the rows of every rank that clb_fleet_same_figure groups; its
 * statistics are over the ranks' verified values (status ok). Each such row
 * gets "fleet_median", "straggler" and "judged". A verified headline row
 * (every row but a peak width that is not its rank's best) beyond the
 * threshold (below (1 - threshold) x median; above (1 + threshold) x median
 * for lower-is-better metrics) is a straggler when its calls are enough
 * (CLB_FLEET_JUDGE_MIN_*) and even its fastest call is worse than the median
 * of the slowest calls of the other ranks with CLB_FLEET_JUDGE_MIN_CALLS or
 * more (each call taken as the row's
 * figure scaled by that call's time over the median call's). Beyond the
 * threshold but not that: judged false, never a straggler. "stragglers" and
 * "not_judged" list such ranks per figure and count them for the fleet.
 * New reference; NULL with e set when rank 0's document is not usable or
 * memory ran out. Another rank's document that the reader refuses
 * (clb_result_file_parse) is listed in "missing".
 */
json_t *clb_fleet_merge(const struct clb_fleet_part *parts, size_t n, double threshold,
                        struct clb_error *e);

/*
 * A fleet file read once for its writers (output/fleet.h, the report): its
 * figures as the merged document holds them in "fleet.figures", each with
 * its rows (every rank's, in rank order) and its statistics over the
 * verified ones, and the rest of the "fleet" object typed. A file whose
 * fleet.figures does not match its rows (hand-made, older) gets them computed
 * from the rows' figures and fleet_median, as the merge computes them.
 * Figures are grouped in one pass (clb_fleet_same_figure), in the order
 * their first rows appear.
 */
struct clb_fleet_figure {
    const struct clb_row *first;       /* its identity (the first row seen) */
    const struct clb_row *const *rows; /* n_rows, in rank order (borrowed) */
    size_t n_rows, n_values, n_stragglers, n_unmeasured;
    double sum, min, median, max;             /* over the n_values verified rows */
    bool headline; /* a row of it is a headline (not a peak width below its rank's best), as
                      fleet.figures[].headline says */
    /*
     * What the report charts after the flagged figures: a GEMM figure when no
     * fleet row of its backend, precision and device is larger
     * (clb_result_row_cube_size); a peak figure at its best width; any other
     * benchmark's (its first row's headline).
     */
    bool lead;
};

/* A node of the run (fleet.hosts): its name and its ranks, in the order the file lists. */
struct clb_fleet_host {
    const char *hostname;   /* borrowed from the file; NULL when not a string */
    const long long *ranks; /* n_ranks (owned by the figures) */
    size_t n_ranks;
};

/* A rank that sent no usable document (fleet.missing). */
struct clb_fleet_missing {
    long long rank;
    const char *why; /* borrowed from the file; NULL when not a string */
};

struct clb_fleet_figures {
    const struct clb_result_file *file; /* borrowed: what was read */
    struct clb_fleet_figure *figs; /* owned */
    size_t n;
    const struct clb_row **ranks; /* one row per rank, in rank order */
    size_t n_ranks;
    const struct clb_row **rows_; /* owned storage behind figs[].rows and ranks */
    /* The rest of "fleet", as written (0 or none where absent): */
    long long world_ranks;         /* fleet.ranks: the run's ranks, those that sent nothing too */
    double threshold;              /* fleet.threshold, a fraction (f->fleet_threshold: checked) */
    long long judge_min_calls;     /* fleet.judged_when.calls (CLB_FLEET_JUDGE_MIN_CALLS) */
    double judge_min_s;            /* fleet.judged_when.seconds (CLB_FLEET_JUDGE_MIN_S), s */
    long long n_stragglers, n_unjudged; /* fleet.stragglers, fleet.not_judged: rows */
    struct clb_fleet_host *hosts;  /* owned; n_hosts */
    size_t n_hosts;
    struct clb_fleet_missing *missing; /* owned; n_missing */
    size_t n_missing;
    /* The hosts of `ranks` (the rows' own), each once in the order of its lowest rank,
     * its ranks ascending; owned, n_rank_hosts */
    struct clb_fleet_host *rank_hosts;
    size_t n_rank_hosts;
    long long *ranks_; /* owned storage behind hosts[].ranks and rank_hosts[].ranks */
};

/*
 * 0, or -1 out of memory (out is then empty). A file without fleet rows has
 * n 0. out borrows from f: finish it before destroying f.
 */
int clb_fleet_figures_read(const struct clb_result_file *f, struct clb_fleet_figures *out);
/* Frees what out owns; accepts an empty (zeroed or finished) one. */
void clb_fleet_figures_finish(struct clb_fleet_figures *figs);

#endif
