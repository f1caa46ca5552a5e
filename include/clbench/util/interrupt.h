#ifndef CLBENCH_UTIL_INTERRUPT_H
#define CLBENCH_UTIL_INTERRUPT_H

#include <stdbool.h>

/*
 * Ctrl-C and SIGTERM do not kill a measuring command: they raise a flag
 * that the benchmark loops check between calls, so the call in flight
 * completes, what was measured is written, and the command exits 130.
 */
void clb_interrupt_install(void);
/* A signal came, to this process or (through the link) to another of its fleet. */
bool clb_interrupted(void);
/* The signal received, else the one the link reported; 0 if none. */
int clb_interrupt_signal(void);

/*
 * The fleet's link (src/mpi/mpi.c): clb_interrupted() calls it, on its own
 * thread, with the signal this process received (0: none yet); it returns
 * one another process was stopped by, 0 if none. NULL removes it. A stop
 * heard through it is no signal here: a later one is still the first.
 */
void clb_interrupt_link(int (*link)(int received));

#endif
