#ifndef CLBENCH_COMMANDS_PRICES_H
#define CLBENCH_COMMANDS_PRICES_H

/*
 * The price options' end in a command (clbench/results/prices.h): the table
 * file loaded after the command line's --price entries, the prices held to
 * the devices the results name, each device's costs. Each function prints
 * its usage error on one line ("clbench CMD: ...") and returns an exit status.
 */
#include <stdbool.h>
#include <stddef.h>

#include "clbench/results/prices.h"
#include "clbench/results/resultfile.h"

/* Whether any price was given (--price or --prices). */
bool clb_cmd_prices_given(const struct clb_prices *l, const char *file);

/* Appends --prices FILE's entries (file NULL: none) to l; 0, or 2 with the error printed. */
int clb_cmd_prices_load(const char *cmd, struct clb_prices *l, const char *file);

/*
 * Holds l to the n devices d of `where` (clb_prices_check); 0, or 2. Held,
 * says on stderr which devices each entry prices and warns of a CPU priced
 * under one of its two names (clb_prices_matched).
 */
int clb_cmd_prices_hold(const char *cmd, const struct clb_prices *l,
                        const struct clb_priced_device *d, size_t n, const char *where);

/*
 * The same for the devices the rows of files name, where being their paths,
 * each with the CPU it runs on from its file's "host" and "devices"; 0, 2, or 1.
 */
int clb_cmd_prices_hold_files(const char *cmd, const struct clb_prices *l,
                              struct clb_result_file *const *files, size_t n_files);

/*
 * Each of the n speeds' costs at its price in l (none: price NULL), with
 * run_s[i] its device's timed calls (NULL: 0 each). *out is new (free() it);
 * 1 (out of memory, printed) or 0.
 */
int clb_cmd_speed_costs(const struct clb_prices *l, const struct clb_fit_speed *speeds, size_t n,
                        const double *run_s, struct clb_speed_cost **out);

/*
 * The n speeds' costs at their prices in l, of the speeds measured in f
 * (clb_file_speed_estimates): clb_cmd_speed_costs with each device's timed
 * calls in f. `fit --from` and `run --shapes` (its own document read back).
 */
int clb_cmd_file_costs(const struct clb_prices *l, const struct clb_result_file *f,
                       const struct clb_fit_speed *speeds, size_t n, struct clb_speed_cost **out);

/* run_s for speeds measured in f: each device's timed calls in f. NULL when out of memory. */
double *clb_cmd_file_run_s(const struct clb_result_file *f, const struct clb_fit_speed *speeds,
                           size_t n);

#endif
