#ifndef CLBENCH_HOST_H
#define CLBENCH_HOST_H

#include <jansson.h>
#include <stddef.h>

/* The host CPU's model name ("AMD EPYC 7B13"), or "unknown CPU", into buf. */
void clb_host_cpu_name(char *buf, size_t len);

/* Logical CPUs online (>= 1). */
unsigned clb_host_cpus(void);

/*
 * The machine for the record: hostname, os (PRETTY_NAME), kernel,
 * kernel_release, arch, cpu, logical_cpus, memory_bytes. New reference.
 */
json_t *clb_host_json(void);

#endif
