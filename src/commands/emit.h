#ifndef CLBENCH_COMMANDS_EMIT_H
#define CLBENCH_COMMANDS_EMIT_H

/* The end of a command: its run record, its errors, and its one way of emitting results. */
#include <stdio.h>

#include "clbench/backends/backend.h"
#include "clbench/cli/cli.h"
#include "clbench/util/record.h"

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
 * A run's results as one process emits them: the report to `output` (if not
 * NULL; written atomically, its format from its name) and to stdout in
 * common->format. Returns `rc`, or 1 if writing failed. The runner
 * (runner.c) is the one caller for measuring commands: in a fleet it emits
 * through clb_fleet_emit instead (fleet.h), and it reports a signal.
 */
int clb_emit_result(const struct clb_common *common, const char *output,
                    clb_report_writer write, const void *report, int rc);

#endif
