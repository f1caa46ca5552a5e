#ifndef CLBENCH_UTIL_UNITS_H
#define CLBENCH_UTIL_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Binary units for memory sizes: "512 B", "48 KiB", "1.5 GiB", "79.6 GiB". */
void clb_format_bytes(uint64_t bytes, char *buf, size_t len);

/* A rate in GFLOP/s for people: "812.3 GFLOP/s" or "51.20 TFLOP/s" (>= 1000). */
void clb_format_flops(double gflops, char *buf, size_t len);

/* A duration in seconds for people: "812 ns", "3.41 us", "12.5 ms", "2.31 s". */
void clb_format_seconds(double seconds, char *buf, size_t len);

/*
 * An amount of USD for people: "$559,117" (whole dollars, thousands
 * separated, from $1000), "$12.34" (cents, from $1), "$0.000667" (3
 * significant digits below $1), "$0" for 0.
 */
void clb_format_usd(double usd, char *buf, size_t len);

/* The unit of a result's headline metric for people: "gflops" -> "GFLOP/s". */
const char *clb_metric_unit(const char *metric);
/*
 * A result's headline figure in its metric for people: "812.3 GFLOP/s",
 * "12.5 us" (latency), "19.62 GB/s".
 */
void clb_format_metric(const char *metric, double v, char *buf, size_t len);
/* Whether a smaller figure is better ("us": latency). */
bool clb_metric_lower_is_better(const char *metric);

#endif
