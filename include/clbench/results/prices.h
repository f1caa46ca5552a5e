#ifndef CLBENCH_RESULTS_PRICES_H
#define CLBENCH_RESULTS_PRICES_H

/*
 * What a run, a token or a training run costs (issue 31): prices the user
 * gives (`--price DEVICE=USD_PER_HOUR`, `--prices FILE`), the devices of
 * result files they name, and the arithmetic from figures that exist
 * already (clbench/results/estimates.h). No price is built in and none is
 * measured: every figure here is a user's price times a measured or
 * estimated time.
 *
 * Units: prices USD per hour (usd_per_hour), times seconds (_s), costs USD
 * (_usd), token rates tokens per second.
 */
#include <stdbool.h>
#include <stddef.h>

#include "clbench/results/estimates.h"
#include "clbench/results/resultfile.h"
#include "clbench/util/error.h"

enum { CLB_PRICES_MAX = 128 };

/*
 * One price. DEVICE names devices as the -d selector's name substring does:
 * a device whose name (as the result files name it; "host CPU" for the host
 * rows) contains it, ignoring ASCII case. DEVICE of the form "P:D" (digits)
 * or "host" is a device id instead, matching that id exactly.
 */
struct clb_price {
    char device[96];      /* DEVICE, trimmed */
    double usd_per_hour;  /* finite, >= 0; 0: free (a device owned), no per-dollar figures */
    char text[192];       /* the entry as given, trimmed: "H100=2" */
    char source[160];     /* "--price", or "FILE:LINE" for a table file's line */
    bool catalogue;       /* from a --prices table file: may match no device */
};

/* Prices in the order given (--price first as parsed, then the table file's lines). */
struct clb_prices {
    size_t n;
    struct clb_price v[CLB_PRICES_MAX];
};

/*
 * Parses "DEVICE=USD_PER_HOUR" (spaces around either part ignored) into
 * *out (text and device filled; source and catalogue left to the caller).
 * -1 with e set (naming the entry) when there is no '=', no DEVICE, or the
 * price is empty, not a finite number (nan, inf, "abc") or negative.
 */
int clb_price_parse(const char *text, struct clb_price *out, struct clb_error *e);

/* Appends a --price entry (source "--price"); -1 with e set when it does not parse or l is full. */
int clb_prices_add(struct clb_prices *l, const char *text, struct clb_error *e);

/*
 * Appends the entries of the table file at path (source "PATH:LINE",
 * catalogue): one DEVICE=USD_PER_HOUR per line; blank lines and lines whose
 * first non-blank character is '#' are ignored. -1 with e set to one line
 * ("PATH:LINE: ..." for a bad line) when the file cannot be read, a line does
 * not parse, or l is full.
 */
int clb_prices_load(struct clb_prices *l, const char *path, struct clb_error *e);

/* Whether p names the device called name (id "P:D" or "host"; NULL: none). */
bool clb_price_matches(const struct clb_price *p, const char *name, const char *id);

/*
 * The price of the device (name, id): *out the first entry of l that
 * matches, NULL when none does. -1 with e set when two entries that match
 * differ in price ("DEVICE: --price 'A=1' and prices.txt:3 'B=2' both name
 * it"); the same price twice is no conflict.
 */
int clb_price_find(const struct clb_prices *l, const char *name, const char *id,
                   const struct clb_price **out, struct clb_error *e);

/*
 * A device prices are held to: its name and id as the results name it
 * ("host CPU", "host" for the host's rows), and cpu, the host CPU model it
 * runs on (clb_price_device_cpu; NULL: not known to be the host's CPU).
 */
struct clb_priced_device {
    const char *name, *id, *cpu;
};

/*
 * The host CPU a device runs on, for telling one CPU under two names: the
 * host's CPU model host_cpu ("AMD EPYC 7763"; NULL, "" or "unknown CPU":
 * unknown) for the host's rows (id "host"), and for an OpenCL CPU device
 * (is_cpu) whose name contains it, as pocl's "pthread-znver3-AMD EPYC 7763"
 * does; NULL otherwise. Borrows host_cpu.
 */
const char *clb_price_device_cpu(const char *id, const char *name, bool is_cpu,
                                 const char *host_cpu);

/*
 * Holds l to the n devices d of the result files named `where` (for the
 * message: "FILE", "a.json, b.json", "this run"): each --price entry (not a
 * catalogue's) must match one of them ("--price 'H100=2': no device in FILE
 * is named like 'H100'"), and none may be matched by two different prices
 * (clb_price_find). 0, or -1 with e set.
 */
int clb_prices_check(const struct clb_prices *l, const struct clb_priced_device *d, size_t n,
                     const char *where, struct clb_error *e);

enum { CLB_PRICES_LINE = 512 };
/*
 * What l matched among the n devices d, as lines for the user (at most cap):
 * a note for each entry that matched any ("note: --price 'cpu=1.5' prices
 * host CPU (host)"), then a warning for each device without a price that
 * runs on the same CPU as a priced one (cpu equal): the same hardware
 * costed under one of its names only. Returns how many lines.
 */
size_t clb_prices_matched(const struct clb_prices *l, const struct clb_priced_device *d, size_t n,
                          char lines[][CLB_PRICES_LINE], size_t cap);

/* The cost of `seconds` on a device at usd_per_hour: seconds / 3600 x usd_per_hour, USD. */
double clb_cost_usd(double usd_per_hour, double seconds);
/*
 * USD per million tokens at tokens_per_s: usd_per_hour / 3600 / tokens_per_s
 * x 1e6; 0 when tokens_per_s <= 0 (no figure).
 */
double clb_cost_usd_per_mtokens(double usd_per_hour, double tokens_per_s);
/*
 * A figure per dollar-hour (GFLOP/s per USD/h, tokens/s per USD/h): figure /
 * usd_per_hour; 0 when the price is 0 (free: undefined) or figure <= 0.
 */
double clb_per_usd_hour(double figure, double usd_per_hour);

/*
 * One device's costs at a price from its speed estimates (s; NULL: none)
 * and the seconds its timed calls took (run_s). Each figure is 0 where its
 * input is (no prefill figure, no bandwidth, no training estimate), and the
 * per-dollar ones also where the price is 0.
 */
struct clb_speed_cost {
    const struct clb_price *price; /* NULL: no price given (nothing else is set) */
    double run_s;                  /* the device's timed calls added up, s */
    double run_usd;                /* clb_cost_usd(price, run_s) */
    double prefill_usd_per_mtokens, decode_usd_per_mtokens;
    double train_usd;              /* clb_cost_usd(price, train_s) */
    double prefill_gflops_per_usd_hour;
    double prefill_tokens_s_per_usd_hour, decode_tokens_s_per_usd_hour;
};
void clb_speed_cost(const struct clb_price *price, const struct clb_fit_speed *s, double run_s,
                    struct clb_speed_cost *out);

/*
 * The seconds the timed calls of f's rows on one device took (rows of that
 * name and id and, in a fleet file, rank; -1: a single run's), added up:
 * what a run's cost is of. Warm-up, verification, compiling and the time
 * between calls are not in it: a lower bound of what the run held the
 * device for.
 */
double clb_file_device_timed_s(const struct clb_result_file *f, const char *name, const char *id,
                               int rank);

/* The line every priced output carries: where the prices are from. */
#define CLB_PRICES_NOTE "prices: given by the user (--price/--prices), USD per hour; not measured"
/* What a run's cost is of, in words for the outputs. */
#define CLB_PRICES_RUN_CLOCK                                                                  \
    "run cost: price x the device's timed calls added up (no warm-up, verification or "       \
    "compile time: a lower bound)"

#endif
