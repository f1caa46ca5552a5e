#ifndef CLBENCH_HOST_H
#define CLBENCH_HOST_H

#include <stddef.h>

/* The host CPU's model name ("AMD EPYC 7B13"), or "unknown CPU", into buf. */
void clb_host_cpu_name(char *buf, size_t len);

/* Logical CPUs online (>= 1). */
unsigned clb_host_cpus(void);

#endif
