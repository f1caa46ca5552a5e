#include <stdlib.h>
#include <string.h>

#include "clbench/cli/args.h"
#include "clbench/fit/fit.h"
#include "clbench/output/html.h"
#include "clbench/util/file.h"

#include "clbench/fit/models.h"
#include "common.h"
#include "prices.h"

enum { REPORT_MAX_FILES = 16 };

struct report_config {
    struct clb_common common;
    const char *output;
    struct clb_prices prices; /* --price, then --prices FILE's */
    const char *prices_file;
};

static const struct clb_option report_options[] = {
    { .name = "output", .short_name = 'o', .metavar = "FILE", .help = "Write the page to FILE",
      .parse = clb_opt_string, .offset = offsetof(struct report_config, output),
      .def_help = "stdout", .file = true },
    CLB_PRICE_OPTIONS(struct report_config, prices, prices_file),
    { .name = "help", .short_name = 'h', .help = "Show this help and exit",
      .offset = offsetof(struct report_config, common.help) },
    { 0 },
};

struct page {
    struct clb_result_file **files;
    size_t n;
    struct clb_html_estimates *estimates; /* n of them */
};

static int write_page(FILE *out, const void *ctx)
{
    const struct page *p = ctx;
    return clb_html_report(out, p->files, p->n, p->estimates);
}

/* True, with why in none, when a --shapes file of model `name` (m; NULL: unknown) gets none. */
static bool no_estimates(const char *name, const struct clb_model *m, json_t *context,
                         json_t *batch, char *none, size_t len)
{
    if (!m)
        snprintf(none, len, "%s is not a model preset of this clbench (see 'clbench fit "
                            "--list-models')", name);
    else if (m->experts > 1)
        snprintf(none, len, "%s is a mixture of experts: the FLOPs and bytes of a token depend "
                            "on the experts it takes, which is not modelled", name);
    else if (!json_is_integer(context) || json_integer_value(context) < 1 ||
             !json_is_integer(batch) || json_integer_value(batch) < 1)
        snprintf(none, len, "the file does not say the context and batch it ran (options.context, "
                            "options.batch)");
    else
        return false;
    return true;
}

/*
 * A `gemm`/`run --shapes MODEL` file's speed estimates for MODEL at the
 * file's context and batch, as `fit --model MODEL --context C --batch B
 * --from FILE` gives them; *speeds is new (free() it). Nothing for other
 * files. -1 when out of memory.
 */
static int file_estimates(const struct clb_result_file *f, struct clb_html_estimates *est,
                          struct clb_fit_speed **speeds)
{
    json_t *opt = json_object_get(f->root, "options");
    json_t *shapes = json_object_get(opt, "shapes");
    json_t *context = json_object_get(opt, "context"), *batch = json_object_get(opt, "batch");
    struct clb_error e;

    *speeds = NULL;
    if (!json_is_string(shapes))
        return 0;
    const struct clb_model *m = clb_model_find(json_string_value(shapes));
    est->fit = (struct clb_fit_report){ .request = &est->request, .preset = m,
                                        .has_model = true, .from = f->path,
                                        .measured_shapes = json_string_value(shapes) };
    if (no_estimates(est->fit.measured_shapes, m, context, batch, est->none, sizeof(est->none)))
        return 0;
    clb_fit_request_preset(&est->request, m, (uint64_t)json_integer_value(context),
                           (uint64_t)json_integer_value(batch));
    if (clb_fit_estimate(&est->request, &est->fit.estimate, &e)) {
        snprintf(est->none, sizeof(est->none), "%s", e.msg);
        return 0;
    }
    const long n = clb_file_speed_estimates(f, &est->request, &est->fit.estimate, 0, speeds);
    if (n < 0)
        return -1;
    if (n == 0)
        snprintf(est->none, sizeof(est->none), "the file has no verified GEMM rows of --shapes "
                 "at prefill and no bandwidth");
    est->fit.speeds = *speeds;
    est->fit.n_speeds = (size_t)n;
    return 0;
}

static int report_run(void *config, int n_files, char **paths)
{
    struct report_config *cfg = config;
    struct clb_result_file *files[REPORT_MAX_FILES] = { 0 };
    struct clb_html_estimates estimates[REPORT_MAX_FILES] = { 0 };
    struct clb_fit_speed *speeds[REPORT_MAX_FILES] = { 0 };
    struct clb_speed_cost *costs[REPORT_MAX_FILES] = { 0 };
    const bool priced = clb_cmd_prices_given(&cfg->prices, cfg->prices_file);
    struct clb_error e;
    int rc = CLB_EXIT_USAGE;

    if (n_files < 1) {
        fprintf(stderr, "clbench report: give at least one result file (see 'clbench report "
                        "--help')\n");
        return CLB_EXIT_USAGE;
    }
    for (int i = 0; i < n_files; i++) {
        if (!(files[i] = clb_result_file_load(paths[i], &e))) {
            fprintf(stderr, "clbench report: %s\n", e.msg);
            goto out;
        }
        if (file_estimates(files[i], &estimates[i], &speeds[i])) {
            fprintf(stderr, "clbench: out of host memory\n");
            rc = CLB_EXIT_FAILURE;
            goto out;
        }
    }
    if (priced && ((rc = clb_cmd_prices_load("report", &cfg->prices, cfg->prices_file)) ||
                   (rc = clb_cmd_prices_hold_files("report", &cfg->prices, files,
                                                   (size_t)n_files))))
        goto out;
    for (int i = 0; priced && i < n_files; i++) {
        struct clb_fit_report *fit = &estimates[i].fit;
        if (!fit->n_speeds)
            continue;
        double *run_s = clb_cmd_file_run_s(files[i], fit->speeds, fit->n_speeds);
        rc = run_s ? clb_cmd_speed_costs(&cfg->prices, fit->speeds, fit->n_speeds, run_s,
                                         &costs[i])
                   : CLB_EXIT_FAILURE;
        free(run_s);
        if (rc != CLB_EXIT_OK) {
            if (!run_s)
                fprintf(stderr, "clbench: out of host memory\n");
            goto out;
        }
        fit->costs = costs[i];
    }
    struct page page = { files, (size_t)n_files, estimates };
    if (cfg->output) {
        if (clb_write_file_atomic(cfg->output, write_page, &page, &e)) {
            fprintf(stderr, "clbench report: %s\n", e.msg);
            rc = CLB_EXIT_FAILURE;
            goto out;
        }
        rc = CLB_EXIT_OK;
    } else {
        rc = write_page(stdout, &page) ? CLB_EXIT_FAILURE : clb_finish_stdout();
    }
out:
    for (int i = 0; i < n_files; i++) {
        clb_result_file_destroy(files[i]);
        free(speeds[i]);
        free(costs[i]);
    }
    return rc;
}

const struct clb_command clb_cmd_report = {
    .name = "report",
    .summary = "One self-contained HTML page with charts from result files.",
    .usage = "FILE.json...",
    .options = report_options,
    .config_size = sizeof(struct report_config),
    .run = report_run,
    .max_operands = REPORT_MAX_FILES,
};
