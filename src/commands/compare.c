#include <stdlib.h>
#include <string.h>

#include "clbench/cli/args.h"
#include "clbench/output/compare.h"
#include "clbench/results/compare.h"
#include "common.h"
#include "prices.h"

struct compare_config {
    struct clb_common common;
    struct clb_pair_list pairs;
    double threshold;
    struct clb_prices prices; /* --price, then --prices FILE's */
    const char *prices_file;
};

static const struct clb_option compare_options[] = {
    { .name = "pair", .metavar = "A=B[,C=D]",
      .help = "Match devices of different names: a device of the first file whose name "
              "contains A with one of the others whose name contains B",
      .parse = clb_opt_pairs, .offset = offsetof(struct compare_config, pairs) },
    { .name = "threshold", .metavar = "PERCENT",
      .help = "Exit 1 when any figure is this much worse than the first file's (e.g. 5%) and "
              "beyond its calls' noise",
      .parse = clb_opt_percent, .offset = offsetof(struct compare_config, threshold) },
    CLB_PRICE_OPTIONS(struct compare_config, prices, prices_file),
    { .name = "format", .metavar = "FMT", .help = "Output format on stdout: table, json or csv",
      .parse = clb_opt_format, .offset = offsetof(struct compare_config, common.format),
      .def = "table" },
    { .name = "help", .short_name = 'h', .help = "Show this help and exit",
      .offset = offsetof(struct compare_config, common.help) },
    { 0 },
};

static int compare_run(void *config, int n_files, char **paths)
{
    struct compare_config *cfg = config;
    struct clb_result_file *files[CLB_COMPARE_MAX_FILES] = { 0 };
    struct clb_comparison cmp;
    struct clb_error e;
    int rc = CLB_EXIT_USAGE;

    if (n_files < 2 || n_files > CLB_COMPARE_MAX_FILES) {
        fprintf(stderr, "clbench compare: give 2 to %d result files (see 'clbench compare "
                        "--help')\n", CLB_COMPARE_MAX_FILES);
        return CLB_EXIT_USAGE;
    }
    for (int i = 0; i < n_files; i++) {
        if (!(files[i] = clb_result_file_load(paths[i], &e))) {
            fprintf(stderr, "clbench compare: %s\n", e.msg);
            goto out;
        }
    }
    const bool priced = clb_cmd_prices_given(&cfg->prices, cfg->prices_file);
    if (priced && ((rc = clb_cmd_prices_load("compare", &cfg->prices, cfg->prices_file)) ||
                   (rc = clb_cmd_prices_hold_files("compare", &cfg->prices, files,
                                                   (size_t)n_files))))
        goto out;
    rc = CLB_EXIT_USAGE;
    for (int i = 0; i < n_files; i++)
        if (!files[i]->complete)
            fprintf(stderr, "clbench compare: note: %s is incomplete (its run was interrupted)\n",
                    paths[i]);
    if (clb_compare(files, (size_t)n_files, &cfg->pairs, cfg->threshold, &cmp, &e)) {
        fprintf(stderr, "clbench compare: %s\n", e.msg);
        rc = CLB_EXIT_FAILURE;
        goto out;
    }
    rc = clb_compare_write(stdout, stderr, cfg->common.format, &cmp,
                           priced ? &cfg->prices : NULL) ? CLB_EXIT_FAILURE
                                                                       : clb_finish_stdout();
    if (rc == CLB_EXIT_OK && cmp.n_regressions > 0) {
        fprintf(stderr, "clbench compare: %zu figure%s regressed by more than %.3g%%\n",
                cmp.n_regressions, cmp.n_regressions == 1 ? "" : "s", cfg->threshold * 100.0);
        rc = CLB_EXIT_FAILURE;
    }
    clb_comparison_finish(&cmp);
out:
    for (int i = 0; i < n_files; i++)
        clb_result_file_destroy(files[i]);
    return rc;
}

const struct clb_command clb_cmd_compare = {
    .name = "compare",
    .summary = "Line up result files (runs, machines, fleets rank by rank): each figure "
               "measured the same way, its ratio to the first file's, and geometric means per "
               "benchmark and device.",
    .usage = "FIRST.json OTHER.json...",
    .options = compare_options,
    .config_size = sizeof(struct compare_config),
    .run = compare_run,
    .max_operands = CLB_COMPARE_MAX_FILES,
};
