/* CPU_SETSIZE is a GNU extension. */
#define _GNU_SOURCE
#include "clbench/util/cpu.h"
#include "cpu_sysfs.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* "32K", "2048K", "32M" in bytes. */
static uint64_t cache_size_bytes(const char *buf)
{
    char *end;
    const uint64_t v = strtoull(buf, &end, 10);
    return *end == 'K' ? v << 10 : *end == 'M' ? v << 20 : *end == 'G' ? v << 30 : v;
}

static unsigned long read_cache_bytes(unsigned level)
{
    char path[128], buf[64];

    for (unsigned i = 0; i < 16; i++) {
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%u/level", i);
        if (!clb_cpu_read_line(path, buf, sizeof(buf)))
            break;
        if (strtoul(buf, NULL, 10) != level)
            continue;
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%u/type", i);
        if (!clb_cpu_read_line(path, buf, sizeof(buf)) || !strcmp(buf, "Instruction"))
            continue;
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%u/size", i);
        if (!clb_cpu_read_line(path, buf, sizeof(buf)))
            continue;
        return (unsigned long)cache_size_bytes(buf);
    }
    return 0;
}

static uint64_t read_llc_total(void)
{
    char path[128], buf[256];
    uint64_t total = 0;

    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        unsigned top = 0, top_index = 0;
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index0/level", cpu);
        if (!clb_cpu_read_line(path, buf, sizeof(buf))) {
            /* Offline CPUs have no cache folder; the numbering goes on past them. */
            snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
            if (access(path, F_OK) != 0)
                break;
            continue;
        }
        for (unsigned i = 0; i < 16; i++) {
            snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%u/level",
                     cpu, i);
            if (!clb_cpu_read_line(path, buf, sizeof(buf)))
                break;
            const unsigned level = (unsigned)strtoul(buf, NULL, 10);
            snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%u/type",
                     cpu, i);
            if (level > top && clb_cpu_read_line(path, buf, sizeof(buf)) && strcmp(buf, "Instruction")) {
                top = level;
                top_index = i;
            }
        }
        if (!top)
            continue;
        /* Each instance once: at the lowest CPU that shares it ("0-7,64-71", "3"). */
        snprintf(path, sizeof(path),
                 "/sys/devices/system/cpu/cpu%d/cache/index%u/shared_cpu_list", cpu, top_index);
        if (clb_cpu_read_line(path, buf, sizeof(buf)) && strtol(buf, NULL, 10) != cpu)
            continue;
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%u/size", cpu,
                 top_index);
        if (clb_cpu_read_line(path, buf, sizeof(buf)))
            total += cache_size_bytes(buf);
    }
    return total;
}

uint64_t clb_cpu_llc_total_bytes(void)
{
    /* sysfs does not change while we run: walk the CPUs once (0 is a valid answer). */
    static uint64_t total;
    static bool read;

    if (!read) {
        total = read_llc_total();
        read = true;
    }
    return total;
}

unsigned long clb_cpu_cache_bytes(unsigned level)
{
    /* sysfs does not change while we run: read each level once (0 is a valid answer). */
    static unsigned long bytes[4];
    static bool read[4];

    if (level >= 4)
        return read_cache_bytes(level);
    if (!read[level]) {
        bytes[level] = read_cache_bytes(level);
        read[level] = true;
    }
    return bytes[level];
}
