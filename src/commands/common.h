#ifndef CLBENCH_COMMANDS_COMMON_H
#define CLBENCH_COMMANDS_COMMON_H

/* What every command does first: find the platforms and apply -d. */
#include <stdio.h>

#include "clbench/backends/backend.h"
#include "clbench/cl/device.h"
#include "clbench/cli/cli.h"
#include "clbench/util/record.h"

struct clb_selection {
    struct clb_inventory *inv;
    struct clb_device **devices; /* borrowed from inv */
    size_t n_devices;
};

/*
 * Reads the inventory and selects common->device. On failure prints one line
 * to stderr and returns the exit code (1: no platform, 2: bad selector);
 * returns 0 with *sel filled on success.
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
int clb_micro_emit(const char *output, enum clb_format format, struct clb_run_meta *meta,
                   int signal, const struct clb_micro_report *report);

#endif
