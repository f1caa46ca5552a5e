#ifndef CLBENCH_COMMANDS_COMMON_H
#define CLBENCH_COMMANDS_COMMON_H

/* What every command does first: find the platforms and apply -d. */
#include <stdio.h>

#include "clbench/backends/backend.h"
#include "clbench/cl/device.h"
#include "clbench/cli/cli.h"
#include "clbench/limits/limits.h"
#include "clbench/util/record.h"

struct clb_selection {
    struct clb_inventory *inv;
    struct clb_device **devices; /* borrowed from inv */
    size_t n_devices;
    /*
     * Device steps every rank of a fleet takes together: the most devices
     * any rank has (>= n_devices); n_devices in a single run.
     */
    size_t n_slots;
};

/*
 * Reads the inventory and selects common->device. On failure prints one line
 * to stderr and returns the exit code (1: no platform, 2: bad selector);
 * returns 0 with *sel filled on success. In a fleet run this rank keeps its
 * share of the selected devices (clb_mpi_pick_devices) and the ranks agree:
 * when one fails, every one returns the worst exit code.
 */
int clb_selection_open(const struct clb_common *common, struct clb_selection *sel);
void clb_selection_close(struct clb_selection *sel);

/*
 * Captures the run record once: the host, the ICD loader and drivers, and
 * the library of each of the n backends (their info hook). New, free()d by
 * the caller; NULL when out of memory (with a line on stderr).
 */
struct clb_run_record *clb_run_record_capture(const struct clb_gemm_backend *const *backends,
                                              size_t n_backends);

/* Prints "clbench: MSG" to stderr. */
void clb_report_error(const struct clb_error *e);

/* 0 if stdout was written and flushed fine, else prints why and returns 1. */
int clb_finish_stdout(void);

/* Writes one report in one format (wraps clb_gemm_write, clb_micro_write). */
typedef int (*clb_report_writer)(FILE *out, enum clb_format fmt, const void *report);

/*
 * The end of every measuring command: the report to `output` (if not NULL;
 * written atomically, its format from its name) and to stdout in `format`.
 * Returns `rc`, 1 if writing failed, or 128 + signal (with a note on stderr)
 * when a signal cut the run short.
 */
int clb_emit_report(const char *output, enum clb_format format, clb_report_writer write,
                    const void *report, int rc, int signal);

/*
 * The end of a command that measured micro rows (peak, bandwidth, transfer,
 * latency, collective): captures the run record, fills meta's record,
 * completeness and signal (the signal that cut the run short, or 0), and
 * emits `report` (whose meta is `meta`) as clb_emit_report does. Returns the
 * exit status: 1 when a row failed or erred, else as clb_emit_report.
 */
struct clb_micro_report;
struct clb_run_meta;
int clb_micro_emit(const struct clb_common *common, const char *output, bool gather,
                   struct clb_run_meta *meta, int signal, const struct clb_micro_report *report);

/*
 * clb_emit_report, or in a fleet run (clbench/mpi/mpi.h: clb_mpi_fleet) its
 * fleet form: every rank sends its report as a result document to rank 0,
 * which merges them (clbench/results/fleet.h, common->straggler), writes
 * `output` atomically and prints the fleet's table in common->format; the
 * others print nothing. Every rank returns the fleet's exit status: 1 when a
 * rank's row failed, a rank sent no results, or (fail_on_straggler) a row
 * was flagged; 128 + signal when a signal cut any rank short.
 */
int clb_emit_result(const struct clb_common *common, const char *output,
                    clb_report_writer write, const void *report, int rc, int signal);

/*
 * Fleet runs (src/commands/fleet.c). A measuring command brackets its work
 * with clb_fleet_enter/clb_fleet_leave: under mpirun or srun with several
 * ranks this starts MPI (returns 0) or, built without MPI, says so and
 * returns 2; alone it does nothing.
 */
int clb_fleet_enter(const char *command);
void clb_fleet_leave(void);
/* The worst (largest) exit status over the ranks; rc itself in a single run. */
int clb_fleet_agree(int rc);
/*
 * Whether every rank plans the same measurement steps (a mismatch would leave
 * ranks waiting at different barriers): `plan` is a hash of the schedule
 * built with clb_fleet_plan_add (start from any constant); 0, or 2 on every
 * rank with a line from rank 0 (`what` names the command). 0 in a single run.
 */
unsigned long clb_fleet_plan_add(unsigned long plan, unsigned long v);
int clb_fleet_plan(const char *what, unsigned long plan);
/*
 * Before each measurement step: every rank waits for the others, so they
 * measure together; false when a signal stopped any rank (they all stop).
 * Alone: !clb_interrupted(). The signature of clb_gemm_options.step.
 */
bool clb_fleet_step(void *unused);
/* The signal that stopped any rank, or 0 (this process's alone in a single run). */
int clb_fleet_signal(void);

#endif
