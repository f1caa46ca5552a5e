#ifndef CLBENCH_LIMITS_LIMITS_H
#define CLBENCH_LIMITS_LIMITS_H

/*
 * What a measured row is held against: the vendor's datasheet figure of its
 * device, the host CPU's derived peak (and a CPU device's or a host
 * backend's share of it), and the last-level cache a bandwidth row's arrays
 * must exceed to measure memory. The rows are measurement structs
 * (clbench/bench/); the figures come from the built-in datasheet table.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/core/types.h"
#include "clbench/util/cpu.h"

struct clb_device;

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
 * This process's share of the host's CPUs, of `whole` of them (CPUs, cores,
 * a part of the chip): whole divided among the ranks of a fleet that share
 * this node's CPUs (clb_mpi_cpu_sharers: the launcher bound none to CPUs of
 * its own, so each sees them all); whole itself alone, or bound. *shared
 * (NULL: not asked) says whether it was divided. What a rank's OpenBLAS and
 * pocl threads take and what its derived host peak counts.
 */
double clb_host_share(double whole, bool *shared);

/*
 * The limits of a GEMM run (src/limits/limits_gemm.c), measured into micro:
 * the host CPU's FMA peak in the n precisions, and with host_also the peak
 * of that instruction-set level too (a handicapped baseline's kernels';
 * NULL: none) ...
 */
void clb_limits_host_run(const enum clb_precision *precisions, size_t n,
                         const enum clb_cpu_level *host_also, struct clb_micro_results *micro);
/*
 * ... and the peak of dev, device i of n_devices, in them, with bandwidth its
 * memory bandwidth too; a device that does not open is left to its GEMM rows
 * to report. Both print a progress line on stderr when it is a terminal.
 */
void clb_limits_device_run(const struct clb_device *dev, size_t i, size_t n_devices,
                           const enum clb_precision *precisions, size_t n, bool bandwidth,
                           struct clb_micro_results *micro);
/*
 * Holds each row of res against those limits in micro: its device's
 * measured peak; on the host's silicon (host backends, OpenCL CPU devices)
 * the host peak, a host backend's at its share for the threads it ran
 * (clb_cpu_core_share) unless peak_shared (a fleet's ranks on one node
 * measured their peaks together: each already is its rank's share), and a
 * handicapped baseline's at its instruction set's; then the datasheet's
 * figures (clb_datasheet_attach_gemm).
 */
void clb_limits_hold_gemm(struct clb_gemm_results *res, const struct clb_micro_results *micro,
                          bool peak_shared);

#endif
