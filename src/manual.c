/*
 * Build-time generator (not installed): the man page clbench(1) and the bash
 * and zsh completions, written to stdout from the same option tables and
 * command registry clbench's --help reads (src/meson.build runs it).
 */
#include <stdio.h>
#include <string.h>

#include "clbench/output/completion.h"
#include "clbench/output/manual.h"
#include "commands/registry.h"
#include "config.h"

int main(int argc, char **argv)
{
    int rc;

    if (argc != 2) {
        fprintf(stderr, "usage: %s man|bash|zsh\n", argv[0]);
        return 2;
    }
    if (!strcmp(argv[1], "man"))
        rc = clb_manual_write(stdout, clb_commands, CLB_DEFAULT_COMMAND, CLBENCH_VERSION);
    else if (!strcmp(argv[1], "bash"))
        rc = clb_completion_bash(stdout, clb_commands, CLB_DEFAULT_COMMAND);
    else if (!strcmp(argv[1], "zsh"))
        rc = clb_completion_zsh(stdout, clb_commands, CLB_DEFAULT_COMMAND);
    else {
        fprintf(stderr, "%s: unknown output '%s' (man, bash or zsh)\n", argv[0], argv[1]);
        return 2;
    }
    if (rc || fflush(stdout) || ferror(stdout)) {
        fprintf(stderr, "%s: writing the %s output failed\n", argv[0], argv[1]);
        return 1;
    }
    return 0;
}
