#ifndef CLBENCH_UTIL_TIMER_H
#define CLBENCH_UTIL_TIMER_H

/* Seconds on CLOCK_MONOTONIC, for intervals only. */
double clb_now_s(void);

#endif
