#include <stdlib.h>

#include "clbench/bench/check.h"
#include "clbench/output/devices.h"
#include "common.h"

struct devices_config {
    struct clb_common common;
    bool verbose;
    bool check;
};

static const struct clb_option devices_options[] = {
    CLB_COMMON_OPTIONS(struct devices_config),
    { .name = "json", .help = "Same as --format json", .parse = clb_opt_json,
      .offset = offsetof(struct devices_config, common.format) },
    { .name = "verbose", .short_name = 'v',
      .help = "Show every property: work-group and vector sizes, caches, timer resolution, "
              "extensions, vendor extras",
      .offset = offsetof(struct devices_config, verbose) },
    { .name = "check",
      .help = "Also build and run a small kernel on each device and verify its result",
      .offset = offsetof(struct devices_config, check) },
    { 0 },
};

/* Elements the --check kernel runs on: several work-groups on any device. */
enum { CHECK_ELEMENTS = 4096 };

static int devices_run(void *config, int n_operands, char **operands)
{
    struct devices_config *cfg = config;
    struct clb_selection sel;
    struct clb_check_result *checks = NULL;
    struct clb_run_record *record = NULL;
    const struct clb_ds_row **datasheet = NULL;
    int rc;

    (void)n_operands;
    (void)operands;
    if ((rc = clb_selection_open(&cfg->common, &sel)) != CLB_EXIT_OK)
        return rc;
    if (cfg->check) {
        checks = calloc(sel.n_devices, sizeof(*checks));
        if (!checks) {
            fprintf(stderr, "clbench: out of host memory\n");
            rc = CLB_EXIT_FAILURE;
            goto out;
        }
        for (size_t i = 0; i < sel.n_devices; i++) {
            clb_device_check(sel.devices[i], CHECK_ELEMENTS, &checks[i]);
            if (!checks[i].ok)
                rc = CLB_EXIT_FAILURE;
        }
    }
    record = clb_run_record_capture(NULL, 0);
    datasheet = calloc(sel.n_devices + 1, sizeof(*datasheet));
    for (size_t i = 0; datasheet && i < sel.n_devices; i++)
        datasheet[i] = clb_device_datasheet(sel.devices[i]);
    struct clb_devices_report report = {
        .inv = sel.inv,
        .devices = sel.devices,
        .n_devices = sel.n_devices,
        .checks = checks,
        .verbose = cfg->verbose,
        .record = record,
        .datasheet = datasheet,
        .host_core = clb_host_core(),
    };
    if (!record || clb_devices_write(stdout, cfg->common.format, &report) != 0) {
        fprintf(stderr, "clbench: could not write the device list\n");
        rc = CLB_EXIT_FAILURE;
    }
    if (clb_finish_stdout() != CLB_EXIT_OK)
        rc = CLB_EXIT_FAILURE;
out:
    free(record);
    free(datasheet);
    free(checks);
    clb_selection_close(&sel);
    return rc;
}

const struct clb_command clb_cmd_devices = {
    .name = "devices",
    .summary = "List the OpenCL platforms and devices and what matters about each.",
    .usage = "",
    .options = devices_options,
    .config_size = sizeof(struct devices_config),
    .run = devices_run,
};
