#ifndef CLBENCH_COMMANDS_FLEET_H
#define CLBENCH_COMMANDS_FLEET_H

/*
 * Fleet runs (src/commands/fleet.c): a measuring command as one rank of
 * mpirun/srun. Only the runner (runner.c) calls these; a command that must
 * know about the fleet asks through the small questions at the end.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "clbench/cli/cli.h"
#include "emit.h"
#include "selection.h"

/* One more value v into the plan hash (FNV-1a's step): what a plan hook adds its schedule with. */
static inline unsigned long clb_plan_add(unsigned long plan, unsigned long v)
{
    return (plan ^ v) * 1099511628211ul;
}

/*
 * The runner brackets a measuring command's work
 * with clb_fleet_enter/clb_fleet_leave: under mpirun or srun with several
 * ranks this starts MPI (returns 0) or, built without MPI, says so and
 * returns 2; alone it does nothing.
 */
int clb_fleet_enter(const char *command);
/*
 * For a command measured across the ranks themselves (collective): starts
 * MPI always, a lone process being a world of one, and returns 0 with
 * *world set (valid until clb_fleet_leave); built without MPI, says why
 * and returns 2; 1 when MPI cannot start.
 */
struct clb_mpi_world;
int clb_fleet_enter_world(const char *command, const struct clb_mpi_world **world);
void clb_fleet_leave(void);
/* The worst (largest) exit status over the ranks; rc itself in a single run. */
int clb_fleet_agree(int rc);
/*
 * Whether every rank plans the same measurement steps (a mismatch would leave
 * ranks waiting at different barriers): `plan` is a hash of the schedule
 * built with clb_plan_add (start from any constant); 0, or 2 on every
 * rank with a line from rank 0 (`what` names the command). 0 in a single run.
 */
int clb_fleet_plan(const char *what, unsigned long plan);
/*
 * Before each measurement step: every rank waits for the others, so they
 * measure together; false when a signal stopped any rank (they all stop).
 * Alone: !clb_interrupted(). The signature of clb_gemm_options.step.
 */
bool clb_fleet_step(void *unused);
/* The signal that stopped any rank, or 0 (this process's alone in a single run). */
int clb_fleet_signal(void);

/* Whether this process runs as one rank of a fleet (clbench/mpi/mpi.h: clb_mpi_fleet). */
bool clb_fleet_active(void);
/* Whether this process writes the fleet's files and notes: alone, or rank 0 of a fleet. */
bool clb_fleet_lead(void);
/* This fleet's ranks on this node (1 alone). */
int clb_fleet_local_ranks(void);
/*
 * Where a rank cannot go on with the others (out of memory before a call they
 * wait in): ends every rank through the launcher with `why`; alone, returns.
 */
void clb_fleet_abort(const char *why);

/*
 * After this rank opened its devices with status rc: in a fleet, keeps
 * this rank's share of them (clb_mpi_pick_devices), sets sel->n_slots to the
 * most any rank has, and returns the worst rc over the ranks (a rank that
 * opened fine but stops for another's says so and closes sel). Alone: sets
 * n_slots = n_devices and returns rc.
 */
int clb_fleet_selection(struct clb_selection *sel, int rc);

/* clb_emit_result's fleet form (see there). */
int clb_fleet_emit(const struct clb_common *common, const char *output,
                   clb_report_writer write, const void *report, int rc);

/* One rank's text of a command that prints as it goes, at rank 0. */
struct clb_fleet_text {
    int rank, local_rank;
    const char *host;
    const char *text; /* NUL-terminated; NULL when that rank sent nothing */
    size_t len;
};
/*
 * A streaming command's fleet output: every rank's `len` bytes of `text`
 * and its node's name gathered at rank 0, which hands all `n` to merge
 * (writing to stdout in fmt). Every rank calls it; returns rc, or 1 when a
 * gather failed or merge did (on rank 0).
 */
typedef int (*clb_fleet_merge_fn)(FILE *out, enum clb_format fmt,
                                  const struct clb_fleet_text *parts, int n);
int clb_fleet_gather_text(enum clb_format fmt, const char *text, size_t len,
                          clb_fleet_merge_fn merge, int rc);

#endif
