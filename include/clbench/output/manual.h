#ifndef CLBENCH_OUTPUT_MANUAL_H
#define CLBENCH_OUTPUT_MANUAL_H

/*
 * The manual page clbench(1), in man(7) roff, written from the command
 * registry's option tables (each option's help and default, as --help shows
 * them) and the lists of clbench/cli/docs.h. Generated at build time by
 * src/manual.c, so the page and --help come from one source.
 */
#include <stdio.h>

#include "clbench/cli/cli.h"

/*
 * Writes the page for commands (NULL-terminated; default_command is the one
 * clbench runs without a command) and version ("0.1.0"). Returns 0, or -1
 * when writing failed or memory ran out.
 */
int clb_manual_write(FILE *out, const struct clb_command *const *commands,
                     const char *default_command, const char *version);

/*
 * Whether o is one of the options CLB_COMMON_OPTIONS gives a command (its
 * name and sentence): the manual and the completions list those once.
 */
bool clb_manual_common_option(const struct clb_option *o);

#endif
