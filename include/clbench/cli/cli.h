#ifndef CLBENCH_CLI_CLI_H
#define CLBENCH_CLI_CLI_H

/*
 * Commands and their options as tables. Each command owns a config struct;
 * its option table says where each option's value lands (offsetof) and how it
 * is parsed. Parsing, --help and usage errors are generated from the table.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "clbench/util/error.h"

/*
 * Parses arg into *field. arg is NULL for options without a value (metavar
 * NULL). Returns 0, or -1 with e set to why (without the option's name).
 */
typedef int (*clb_opt_parser)(const char *arg, void *field, struct clb_error *e);

struct clb_option {
    const char *name;      /* long name without "--"; NULL ends a table */
    char short_name;       /* 0 when there is none */
    const char *metavar;   /* the value's name in --help; NULL: takes no value */
    const char *help;      /* one sentence; the default, if any, at its end */
    clb_opt_parser parse;  /* NULL with no metavar: *(bool *)field = true */
    size_t offset;         /* offsetof the field in the command's config */
};

enum clb_format { CLB_FORMAT_TABLE, CLB_FORMAT_JSON, CLB_FORMAT_CSV };

/* Options every command has; each config struct starts with this. */
struct clb_common {
    const char *device; /* -d/--device selector text, "all" by default */
    const char *icd;    /* --icd: extra OpenCL driver libraries, ':'-separated, or NULL */
    enum clb_format format;
    bool help;
    int argc;           /* the whole command line, for the record (set by main) */
    char **argv;
    /* Fleet runs (CLB_FLEET_OPTIONS, clbench/cli/args.h): */
    double straggler;   /* --straggler: fraction off the fleet median that flags a row (0.10) */
    bool fail_on_straggler; /* --fail-on-straggler: exit 1 when a row is flagged */
};

#define CLB_COMMON_OPTIONS(type)                                                              \
    { "device", 'd', "SEL",                                                                   \
      "Devices to use: all, cpu, gpu, accelerator, P:D, or a name substring; comma lists "     \
      "allowed (default: all)", clb_opt_string, offsetof(type, common.device) },               \
    { "format", 0, "FMT", "Output format on stdout: table, json or csv (default: table)",      \
      clb_opt_format, offsetof(type, common.format) },                                          \
    { "icd", 0, "LIB[:LIB]",                                                                  \
      "Also load these OpenCL driver libraries, e.g. /usr/local/nvidia/lib64/"                 \
      "libnvidia-opencl.so.1 when no .icd file registers them (or set CLBENCH_ICD)",           \
      clb_opt_string, offsetof(type, common.icd) },                                             \
    { "help", 'h', NULL, "Show this help and exit", NULL, offsetof(type, common.help) }

struct clb_command {
    const char *name;
    const char *summary;  /* one line for `clbench --help` */
    const char *usage;    /* operands after [OPTIONS], or "" */
    const struct clb_option *options;
    size_t config_size;
    void (*defaults)(void *config); /* may be NULL: zeroed, then common defaults */
    /* Runs with the parsed config; returns an enum clb_exit value. */
    int (*run)(void *config, int n_operands, char **operands);
    int max_operands;     /* -1: any number */
    /*
     * Commands that run the OpenBLAS baseline: the --blas-core choice, or NULL
     * when this run does not use OpenBLAS. main() applies it before run(),
     * restarting the process when OpenBLAS must load other kernels
     * (clbench/blascore.h). NULL hook: never.
     */
    const char *(*blas_core)(const void *config);
};

/* The registry, NULL-terminated (src/commands/registry.c). */
extern const struct clb_command *const clb_commands[];
const struct clb_command *clb_command_find(const char *name);

/*
 * Parses argv (argv[0] is the command name) into config, collecting operands
 * into operands[] (capacity argc). Returns 0, or -1 with e set to a one-line
 * usage error naming the option.
 */
int clb_options_parse(const struct clb_command *cmd, int argc, char **argv, void *config,
                      char **operands, int *n_operands, struct clb_error *e);

void clb_options_help(const struct clb_command *cmd, FILE *out);

/* Field parsers for option tables. */
int clb_opt_string(const char *arg, void *field, struct clb_error *e);   /* const char * */
int clb_opt_format(const char *arg, void *field, struct clb_error *e);   /* enum clb_format */
int clb_opt_json(const char *arg, void *field, struct clb_error *e);     /* format = json */

/* The format a file name asks for: ".json" or ".csv"; -1 for anything else. */
int clb_format_from_path(const char *path);

#endif
