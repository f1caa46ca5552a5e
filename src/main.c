#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/backends/blascore.h"
#include "clbench/cli/cli.h"
#include "commands/registry.h"
#include "commands/version.h"
#include "config.h"

static void print_help(FILE *out)
{
    fputs("Usage: clbench [COMMAND] [OPTIONS]\n"
          "Vendor-neutral OpenCL benchmark: what each device is and how fast it really is.\n\n"
          "Commands:\n",
          out);
    for (size_t i = 0; clb_commands[i]; i++)
        fprintf(out, "  %-12s%s\n", clb_commands[i]->name, clb_commands[i]->summary);
    fputs("\nWithout a command, clbench runs '" CLB_DEFAULT_COMMAND "'.\n"
          "'clbench COMMAND --help' lists a command's options.\n"
          "Options: -h, --help  this help;  -V, --version  print the version.\n"
          "Exit status: 0 success, 1 a runtime failure or failed check, 2 a usage error.\n",
          out);
}

static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), prev[32], cur[32];

    if (la >= 31 || lb >= 31)
        return 99;
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        memcpy(prev, cur, sizeof(cur));
    }
    return prev[lb];
}

static void unknown_command(const char *name)
{
    const char *best = NULL;
    size_t best_d = 3;

    for (size_t i = 0; clb_commands[i]; i++) {
        size_t d = edit_distance(name, clb_commands[i]->name);
        if (d < best_d || strncmp(name, clb_commands[i]->name, strlen(name)) == 0) {
            best_d = d;
            best = clb_commands[i]->name;
        }
    }
    if (best)
        fprintf(stderr, "clbench: unknown command '%s' (did you mean '%s'?)\n", name, best);
    else
        fprintf(stderr, "clbench: unknown command '%s' (see 'clbench --help')\n", name);
}

int main(int argc, char **argv)
{
    const struct clb_command *cmd;
    struct clb_error e;
    char *default_argv0 = CLB_DEFAULT_COMMAND;
    const int full_argc = argc;
    char **const full_argv = argv;

    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        print_help(stdout);
        return 0;
    }
    if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
        if (clb_version_write(stdout) || fflush(stdout)) {
            fprintf(stderr, "clbench: writing the version failed\n");
            return 1;
        }
        return 0;
    }
    if (argc < 2 || argv[1][0] == '-') {
        /* No command: the default one, with these options. */
        cmd = clb_command_find(CLB_DEFAULT_COMMAND);
        argv = calloc((size_t)argc + 1, sizeof(*argv));
        if (!argv) {
            fprintf(stderr, "clbench: out of host memory\n");
            return 1;
        }
        memcpy(argv, full_argv, (size_t)argc * sizeof(*argv));
        argv[0] = default_argv0;
    } else {
        if (!(cmd = clb_command_find(argv[1]))) {
            unknown_command(argv[1]);
            return 2;
        }
        argv++;
        argc--;
    }

    void *config = calloc(1, cmd->config_size);
    char **operands = calloc((size_t)argc + 1, sizeof(*operands));
    int n_operands = 0, rc;
    if (!config || !operands) {
        fprintf(stderr, "clbench: out of host memory\n");
        free(config);
        free(operands);
        return 1;
    }
    ((struct clb_common *)config)->argc = full_argc;
    ((struct clb_common *)config)->argv = full_argv;
    if (clb_options_parse(cmd, argc, argv, config, operands, &n_operands, &e) != 0) {
        fprintf(stderr, "clbench %s: %s\n", cmd->name, e.msg);
        rc = 2;
    } else if (((struct clb_common *)config)->help) {
        clb_options_help(cmd, stdout);
        rc = 0;
    } else {
        const char *blas_core = cmd->blas_core ? cmd->blas_core(config) : NULL;
        char why[1024];
        /*
         * May replace this process with one whose OpenBLAS loads other kernels.
         * Its note is the command's to print, once its arguments are accepted and
         * the baseline is about to run (clb_blas_core_note).
         */
        if (blas_core && clb_blas_core_apply(blas_core, full_argv, why, sizeof(why))) {
            fprintf(stderr, "clbench %s: option --blas-core: %s\n", cmd->name, why);
            rc = 2;
        } else {
            rc = cmd->run(config, n_operands, operands);
        }
    }
    free(operands);
    free(config);
    if (argv != full_argv && argv != full_argv + 1)
        free(argv);
    return rc;
}
