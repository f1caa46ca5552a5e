#ifndef CLBENCH_UTIL_CPU_SYSFS_H
#define CLBENCH_UTIL_CPU_SYSFS_H

/* Private to src/util/cpu*.c (clbench/util/cpu.h): reading Linux's sysfs. */
#include <stdbool.h>
#include <stddef.h>

/* The first line of the file at path (a sysfs file), without its newline, into buf (len
 * bytes); false when it cannot be read. */
bool clb_cpu_read_line(const char *path, char *buf, size_t len);

#endif
