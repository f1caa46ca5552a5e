#ifndef CLBENCH_COMMANDS_RUNNER_H
#define CLBENCH_COMMANDS_RUNNER_H

/*
 * One lifecycle for every measuring command (fio's backend.c): a command is
 * a `struct clb_measure` of hooks, and clb_measure_run drives them:
 *
 *   check the hooks -> fleet entry -> validate and --output (agreed across
 *   ranks) -> select devices -> plan hash (the same on every rank) -> begin ->
 *   interrupt handler -> host step -> device step per slot -> measure ->
 *   run record -> report -> the rows' status -> emit (clb_emit_result, or a
 *   streaming command's merge) -> finish -> fleet exit
 *
 * Each step runs behind the fleet's barrier (every rank takes it together;
 * a signal on any rank stops every rank). Hooks see the run through
 * `struct clb_run`; none of them calls the fleet.
 */
#include <stdbool.h>
#include <stdio.h>

#include "clbench/output/result.h"
#include "emit.h"
#include "fleet.h"
#include "selection.h"

struct clb_gemm_results;
struct clb_micro_results;

struct clb_run {
    void *cmd;                        /* the command's own state (borrowed) */
    const struct clb_common *common;  /* its common options (borrowed) */
    struct clb_selection sel;         /* the devices (empty when devices_needed says no) */
    /*
     * argc/argv/started filled before validate; signal, complete and record
     * (the run record, the runner's) before report.
     */
    struct clb_run_meta meta;
    /* A step's barrier, for steps a hook takes itself (clb_gemm_options.step); NULL alone. */
    bool (*step)(void *unused);
    /* Where a streaming command (merge set) prints: stdout alone, memory in a fleet. */
    FILE *out;
    /* With clb_measure_run_world: MPI's world (valid until the run ends); else NULL. */
    const struct clb_mpi_world *world;
    int rc;           /* the steps' status: a hook sets CLB_EXIT_FAILURE where one failed */
    bool interrupted; /* a hook saw the run cut short (the meta is not complete) */

    /*
     * What a command tells the runner about itself, set by its hooks (all
     * borrowed; zero: none). validate sets the first four.
     *
     * output: --output FILE, or NULL. The runner refuses a name that is not
     * FILE.json or FILE.csv, after validate's own checks and whatever they
     * found (one line naming the command, exit 2), and emits there.
     */
    const char *output;
    /* The command's schedule hashed with clb_plan_add (fleet.h): the plan every rank must share. */
    unsigned long schedule;
    /*
     * A command that prints as it goes (run->out) and whose fleet output is
     * every rank's text gathered at rank 0: merge writes it there. NULL: the
     * report is a result document, emitted by clb_emit_result.
     */
    clb_fleet_merge_fn merge;
    /* After "interrupted by SIGNAL; ": what of the run was kept (NULL: the results so far). */
    const char *kept;
    /* Set by begin: why, when the ranks' begin refused the run (rank 0 prints "clbench NAME: "). */
    const char *refused;
    /* Set before the record (gemm's): the backends whose libraries the run record names. */
    const struct clb_gemm_backend *const *backends;
    size_t n_backends;
    /*
     * Set by report at the latest: the rows the exit status is judged on, 1
     * when any failed or erred (clb_row_failed).
     */
    const struct clb_gemm_results *gemm_rows;
    const struct clb_micro_results *micro_rows;
};

/*
 * A measuring command's hooks: only what the runner calls for every command
 * that has it. What is one command's alone is its own state, told to the
 * runner through `struct clb_run`'s last fields.
 */
struct clb_measure {
    const char *name; /* the command, in messages and the fleet's plan. Required. */
    /* Usage checks without a device: 0, or a line on stderr and 2. Required. */
    int (*validate)(struct clb_run *run);
    /* Whether the run opens devices (-d); NULL: it does. */
    bool (*devices_needed)(const struct clb_run *run);
    /*
     * Once the plan holds, before the interrupt handler: notes, tables,
     * setup. 0, or an exit status that ends the run (the worst over the
     * ranks; then run->refused, when set, says why on rank 0). Optional.
     */
    int (*begin)(struct clb_run *run);
    /* The host's step, behind one barrier. Optional. */
    void (*host_step)(struct clb_run *run);
    /*
     * Device slot d's step, for d < sel.n_slots, each behind a barrier: in a
     * fleet every rank calls it for slot d together, with a device of its
     * own (d < sel.n_devices) or not. Optional.
     */
    void (*device_step)(struct clb_run *run, size_t d);
    /* Steps the command takes itself through run->step; nonzero ends the run (e set). Optional. */
    int (*measure)(struct clb_run *run, struct clb_error *e);
    /* What is emitted, after the record (meta complete); borrowed until finish. Required. */
    const void *(*report)(struct clb_run *run);
    clb_report_writer write; /* writes report; required */
    /* Frees what the hooks hold. Optional. */
    void (*finish)(struct clb_run *run);
};

/*
 * Whether m fills what the runner calls unchecked: its name, validate,
 * report and write (fio's check of an engine's hooks at load). 0, or -1 with
 * e naming the measure and the first hook it lacks.
 */
int clb_measure_check(const struct clb_measure *m, struct clb_error *e);

/*
 * Runs `m` with the command state `cmd` and its common options. Returns
 * the exit status, the same on every rank of a fleet: 1 when m fails
 * clb_measure_check (said on stderr, nothing run); validate's or the
 * selection's; 1 when a row failed or erred (clb_run.gemm_rows,
 * micro_rows), a hook set run->rc or emitting failed; 128 + signal when a
 * signal cut any rank short.
 */
int clb_measure_run(const struct clb_measure *m, void *cmd, const struct clb_common *common);
/*
 * The same lifecycle measured across the ranks themselves (collective): MPI
 * starts always (a lone process is a world of one: run->world), every rank
 * holds the same rows, and rank 0 alone emits them, nothing gathered.
 */
int clb_measure_run_world(const struct clb_measure *m, void *cmd,
                          const struct clb_common *common);

/* Whether status is CLB_ROW_FAILED or CLB_ROW_ERROR: what makes the run's status 1. */
bool clb_row_failed(int status);

#endif
