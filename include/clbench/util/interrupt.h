#ifndef CLBENCH_UTIL_INTERRUPT_H
#define CLBENCH_UTIL_INTERRUPT_H

#include <stdbool.h>

/*
 * Ctrl-C and SIGTERM do not kill a measuring command: they raise a flag
 * that the benchmark loops check between calls, so the call in flight
 * completes, what was measured is written, and the command exits 130.
 */
void clb_interrupt_install(void);
bool clb_interrupted(void);
int clb_interrupt_signal(void); /* the signal received, 0 if none */

#endif
