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

/*
 * Holds each device row of res against the vendor's figure of its device in
 * the built-in datasheet table: peak fp64/fp32/fp16 against the vector
 * (shader) peak, bandwidth against the memory bandwidth. Test hook:
 * CLBENCH_FAKE_DEVICE_NAME stands for every device's name in the lookup.
 * The host's fp32/fp64 peak rows, and those of OpenCL CPU devices (their
 * compute units' share of the host), are held against the host's derived
 * peak instead: physical cores x the core design's FMA flops per cycle
 * (the table's cpu_cores; test hook CLBENCH_FAKE_CPU_ID; a hybrid part's P- and
 * E-cores each at their own, summed: CLBENCH_FAKE_CPU_TYPES) x the clock
 * measured with the host peak (its rows in res). No host peak, no derived.
 *
 * A bandwidth row of the stream arrays is held against the memory figure
 * only when its three arrays exceed the device's last-level cache
 * (clb_device_llc_bytes): smaller ones ran from the cache, and get
 * cache_resident and datasheet_withheld instead (clbench/bench/micro.h).
 * Where the cache size is not known, every row is held against it.
 */
struct clb_micro_results;
struct clb_gemm_results;
struct clb_ds_row;
/* dev's row of the built-in datasheet table (test hook: CLBENCH_FAKE_DEVICE_NAME), or NULL. */
const struct clb_ds_row *clb_device_datasheet(const struct clb_device *dev);
void clb_datasheet_attach(struct clb_micro_results *res);
/*
 * The last-level cache dev's memory traffic passes (bytes; 0 when not
 * known): CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, for a CPU device (and the host,
 * dev NULL) the CPUs' last-level caches from sysfs (clb_cpu_llc_total_bytes)
 * where larger. Test hook: CLBENCH_FAKE_LLC_BYTES=SIZE ("1M"; 0: not known)
 * stands for it on every device.
 */
uint64_t clb_device_llc_bytes(const struct clb_device *dev);
/* This host's CPU core design in the built-in table (test hook: CLBENCH_FAKE_CPU_ID), or NULL. */
struct clb_ds_core;
const struct clb_ds_core *clb_host_core(void);
/*
 * The same for GEMM rows on a device: the vector peak of their precision
 * (OpenCL's reach); host rows against host_share of the derived peak, CPU
 * devices' against their share, with micro's host peak clock (or none).
 */
void clb_datasheet_attach_gemm(struct clb_gemm_results *res,
                               const struct clb_micro_results *micro, double host_share);

/*
 * The speed estimates of req's model (memory: its clb_fit_estimate) from the
 * figures measured in f (clb_result_speeds: prefill GEMM rate, triad
 * bandwidth), with the training time on train_tokens (0: none). The GEMM
 * rows preferred are those of the weights' precision (fp32; fp16 for fp16
 * and bf16, and for training's mixed precision); the table names the one
 * taken. *out is new,
 * one entry per device that has either figure (free() it; NULL when none),
 * borrowing strings from f. Returns how many, or -1 when out of memory.
 */
struct clb_result_file;
struct clb_fit_request;
struct clb_fit_estimate;
struct clb_fit_speed;
long clb_file_speed_estimates(const struct clb_result_file *f, const struct clb_fit_request *req,
                              const struct clb_fit_estimate *memory, double train_tokens,
                              struct clb_fit_speed **out);

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
