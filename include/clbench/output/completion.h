#ifndef CLBENCH_OUTPUT_COMPLETION_H
#define CLBENCH_OUTPUT_COMPLETION_H

/*
 * Shell completion for clbench, written from the command registry's option
 * tables: the commands, each command's options, and the values an option's
 * table entry names (its words, file paths; clbench/cli/cli.h). Generated at
 * build time by src/manual.c, beside the man page, from the same tables.
 */
#include <stdio.h>

#include "clbench/cli/cli.h"

/*
 * A bash completion script (for bash-completion's completions folder, as
 * "clbench") and a zsh one (for fpath, as "_clbench") for commands
 * (NULL-terminated; default_command is the one clbench runs without a
 * command). Each returns 0, or -1 when writing failed or memory ran out.
 */
int clb_completion_bash(FILE *out, const struct clb_command *const *commands,
                        const char *default_command);
int clb_completion_zsh(FILE *out, const struct clb_command *const *commands,
                       const char *default_command);

#endif
