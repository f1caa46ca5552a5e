#ifndef CLBENCH_COMMANDS_REGISTRY_H
#define CLBENCH_COMMANDS_REGISTRY_H

/* Every command clbench has (src/commands/registry.c), for main() and the tests. */
#include "clbench/cli/cli.h"

/* What `clbench` alone, or `clbench -OPTION ...`, runs. */
#define CLB_DEFAULT_COMMAND "run"

/* NULL-terminated, in the order `clbench --help` lists them. */
extern const struct clb_command *const clb_commands[];
/*
 * NULL-terminated: the runner's hooks of each measuring command, in the
 * same order, each named as its command (the checks, tests/unit/test_runner.c).
 */
struct clb_measure;
extern const struct clb_measure *const clb_measures[];
/* The command called name (exactly), or NULL. */
const struct clb_command *clb_command_find(const char *name);

#endif
