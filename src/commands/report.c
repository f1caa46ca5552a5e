#include <stdlib.h>
#include <string.h>

#include "clbench/output/html.h"
#include "clbench/util/file.h"

#include "common.h"

enum { REPORT_MAX_FILES = 16 };

struct report_config {
    struct clb_common common;
    const char *output;
};

static const struct clb_option report_options[] = {
    { "output", 'o', "FILE", "Write the page to FILE (default: stdout)", clb_opt_string,
      offsetof(struct report_config, output) },
    { "help", 'h', NULL, "Show this help and exit", NULL,
      offsetof(struct report_config, common.help) },
    { 0 },
};

struct page {
    struct clb_result_file **files;
    size_t n;
};

static int write_page(FILE *out, const void *ctx)
{
    const struct page *p = ctx;
    return clb_html_report(out, p->files, p->n);
}

static int report_run(void *config, int n_files, char **paths)
{
    struct report_config *cfg = config;
    struct clb_result_file *files[REPORT_MAX_FILES] = { 0 };
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
    }
    struct page page = { files, (size_t)n_files };
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
    for (int i = 0; i < n_files; i++)
        clb_result_file_destroy(files[i]);
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
