#ifndef CLBENCH_UTIL_HOST_H
#define CLBENCH_UTIL_HOST_H

#include <stddef.h>
#include <stdint.h>

/* The host CPU's model name ("AMD EPYC 7B13"), or "unknown CPU", into buf. */
void clb_host_cpu_name(char *buf, size_t len);

/* Logical CPUs online (>= 1). */
unsigned clb_host_cpus(void);

/* A /proc/meminfo figure ("MemTotal", "MemAvailable") in bytes; 0 when absent. */
uint64_t clb_host_meminfo_bytes(const char *key);

/* Host memory available for new allocations, in bytes (MemAvailable, else sysconf). */
uint64_t clb_host_available_bytes(void);

/* The machine for the record: clb_host_info_read in clbench/record.h. */

#endif
