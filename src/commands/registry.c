#include <string.h>

#include "clbench/cli/cli.h"

extern const struct clb_command clb_cmd_run;
extern const struct clb_command clb_cmd_devices;
extern const struct clb_command clb_cmd_gemm;
extern const struct clb_command clb_cmd_compare;
extern const struct clb_command clb_cmd_report;
extern const struct clb_command clb_cmd_fit;
extern const struct clb_command clb_cmd_datasheet;
extern const struct clb_command clb_cmd_peak;
extern const struct clb_command clb_cmd_bandwidth;
extern const struct clb_command clb_cmd_transfer;
extern const struct clb_command clb_cmd_latency;
extern const struct clb_command clb_cmd_tune;
extern const struct clb_command clb_cmd_collective;

const struct clb_command *const clb_commands[] = {
    &clb_cmd_run,
    &clb_cmd_devices,
    &clb_cmd_gemm,
    &clb_cmd_peak,
    &clb_cmd_bandwidth,
    &clb_cmd_transfer,
    &clb_cmd_latency,
    &clb_cmd_tune,
    &clb_cmd_collective,
    &clb_cmd_compare,
    &clb_cmd_report,
    &clb_cmd_fit,
    &clb_cmd_datasheet,
    NULL,
};

const struct clb_command *clb_command_find(const char *name)
{
    for (size_t i = 0; clb_commands[i]; i++)
        if (strcmp(clb_commands[i]->name, name) == 0)
            return clb_commands[i];
    return NULL;
}
