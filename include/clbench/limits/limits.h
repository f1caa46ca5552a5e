#ifndef CLBENCH_LIMITS_LIMITS_H
#define CLBENCH_LIMITS_LIMITS_H

/*
 * What a measured row is held against: the vendor's datasheet figure of its
 * device, the host CPU's derived peak (and a CPU device's or a host
 * backend's share of it), and the last-level cache a bandwidth row's arrays
 * must exceed to measure memory. The rows are measurement structs
 * (clbench/bench/); the figures come from the built-in datasheet table.
 */
#include <stdint.h>

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

#endif
