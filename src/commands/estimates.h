#ifndef CLBENCH_COMMANDS_ESTIMATES_H
#define CLBENCH_COMMANDS_ESTIMATES_H

/*
 * The speed rows (clbench/results/speed.h) of what this run measured, taken
 * from its measurement structs as its result document would list them:
 * micro's triads, then the GEMM rows. What `run`/`gemm --shapes` estimate
 * from, the same figures `fit --from` reads back from that document.
 */
#include <stddef.h>

#include "clbench/results/speed.h"

struct clb_micro_results;
struct clb_gemm_results;

struct clb_run_speeds {
    struct clb_speed_row *rows; /* owned; strings borrowed from the results and from ids */
    size_t n_rows;
    char (*ids)[32];            /* owned: the rows' device ids ("P:D", "host") */
};

/* Fills s from micro (may be NULL) and gemm; 0, or -1 when out of memory (s zeroed). */
int clb_run_speeds_init(struct clb_run_speeds *s, const struct clb_micro_results *micro,
                        const struct clb_gemm_results *gemm);
/*
 * The seconds the timed calls of this run's rows (micro's and gemm's) on the
 * device called name with id ("P:D", "host") took, added up: what
 * clb_file_device_timed_s reads back from its result file.
 */
double clb_run_device_timed_s(const struct clb_micro_results *micro,
                              const struct clb_gemm_results *gemm, const char *name,
                              const char *id);
/* Frees what init allocated; safe on a zeroed s. */
void clb_run_speeds_finish(struct clb_run_speeds *s);

#endif
