#ifndef CLBENCH_UTIL_HOST_H
#define CLBENCH_UTIL_HOST_H

/* The host machine as the OS describes it: memory, OS, and the run record's description
 * (src/util/host.c); its CPU is clbench/util/cpu.h's. */
#include <stdint.h>

/* A /proc/meminfo figure ("MemTotal", "MemAvailable") in bytes; 0 when absent. */
uint64_t clb_host_meminfo_bytes(const char *key);

/* Host memory available for new allocations, in bytes (MemAvailable, else sysconf). */
uint64_t clb_host_available_bytes(void);

/* The machine, for the run record (clbench/util/record.h). */
struct clb_host_info {
    char hostname[256];
    char os[256];             /* PRETTY_NAME of /etc/os-release, or "unknown" */
    char kernel[64], kernel_release[128], arch[64]; /* uname */
    char cpu[256];            /* model name, or "unknown CPU" (clb_cpu_name) */
    unsigned logical_cpus;    /* online (clb_cpu_count_online) */
    uint64_t memory_bytes;    /* MemTotal; 0 when unknown */
};

/* Reads the host's description. */
void clb_host_info_read(struct clb_host_info *out);

#endif
