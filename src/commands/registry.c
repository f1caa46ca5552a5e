#include <string.h>

#include "clbench/cli/cli.h"
#include "registry.h"

/*
 * Every command, in the order `clbench --help` lists them: COMMAND(NAME) is
 * clb_cmd_NAME; MEASURING(NAME) also has the runner's hooks,
 * clb_cmd_NAME_measure (runner.h).
 */
#define CLB_COMMANDS(COMMAND, MEASURING)                                                   \
    MEASURING(run)                                                                         \
    COMMAND(devices)                                                                       \
    MEASURING(gemm)                                                                        \
    MEASURING(peak)                                                                        \
    MEASURING(bandwidth)                                                                   \
    MEASURING(transfer)                                                                    \
    MEASURING(latency)                                                                     \
    MEASURING(tune)                                                                        \
    MEASURING(collective)                                                                  \
    COMMAND(compare)                                                                       \
    COMMAND(report)                                                                        \
    COMMAND(fit)                                                                           \
    COMMAND(datasheet)

#define DECLARE(name) extern const struct clb_command clb_cmd_##name;
#define DECLARE_MEASURING(name)                                                            \
    DECLARE(name)                                                                          \
    extern const struct clb_measure clb_cmd_##name##_measure;
CLB_COMMANDS(DECLARE, DECLARE_MEASURING)

#define COMMAND_ENTRY(name) &clb_cmd_##name,
#define MEASURE_ENTRY(name) &clb_cmd_##name##_measure,
#define NONE(name)

const struct clb_command *const clb_commands[] = {
    CLB_COMMANDS(COMMAND_ENTRY, COMMAND_ENTRY) NULL,
};

const struct clb_measure *const clb_measures[] = {
    CLB_COMMANDS(NONE, MEASURE_ENTRY) NULL,
};

const struct clb_command *clb_command_find(const char *name)
{
    for (size_t i = 0; clb_commands[i]; i++)
        if (strcmp(clb_commands[i]->name, name) == 0)
            return clb_commands[i];
    return NULL;
}
