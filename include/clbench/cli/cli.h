#ifndef CLBENCH_CLI_CLI_H
#define CLBENCH_CLI_CLI_H

/*
 * Commands and their options as tables. Each command owns a config struct;
 * its option table says where each option's value lands (offsetof) and how it
 * is parsed. Parsing, --help and usage errors are generated from the table
 * (src/cli/cli.c), as are the field parsers every command shares.
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

/*
 * Writes the part of an option's help that is known only at run time (the
 * names in a registry) to out: --help prints help, then these words, then the
 * default. It writes its own leading space.
 */
typedef void (*clb_opt_help_hook)(FILE *out);

/*
 * Writes the words an option's value may be, known only at run time (the
 * names in a registry), each followed by one space: what the generated shell
 * completions offer (clbench/output/completion.h).
 */
typedef void (*clb_opt_words_hook)(FILE *out);

/*
 * One option, written with designated initializers. Its default lives here and
 * nowhere else (fio's .def):
 *
 * - def: the value the option has when not given, as text for its own parser,
 *   applied to the zeroed config before argv is parsed (clb_options_parse)
 *   and shown at the end of its help as "(default: DEF)". A parser given a
 *   value replaces the whole field (a list starts empty), so a value on the
 *   command line replaces the default. Only options that take a value.
 * - def_help: where def is NULL, what --help shows as "(default: DEF_HELP)"
 *   for a default the command works out itself, because it is no value of the
 *   option ("no limit", "every CPU this process may use", "the preset's, else
 *   4096") or depends on other options (gemm --size only without --mnk and
 *   --shapes, --context only with --shapes). The field stays zero, "not
 *   given", until the command (its validate) fills it, and the comment at the
 *   option says where.
 *
 * tests/unit/test_defaults.c holds every registered command to this: each def
 * parses, each default shows in the help, and no help text writes its own.
 */
struct clb_option {
    const char *name;      /* long name without "--"; NULL ends a table */
    char short_name;       /* 0 when there is none */
    const char *metavar;   /* the value's name in --help; NULL: takes no value */
    const char *help;      /* one sentence, without the default */
    clb_opt_parser parse;  /* NULL with no metavar: *(bool *)field = true */
    size_t offset;         /* offsetof the field in the command's config */
    const char *def;       /* the default, for parse; NULL: none or def_help */
    const char *def_help;  /* a default the command applies, in words, or NULL */
    clb_opt_help_hook help_hook; /* the help's run-time words, or NULL */
    /*
     * What a shell completes for the value (tests/unit/test_defaults.c parses
     * every word with the option's parser): words, space-separated, or the
     * hook's; for a comma list, one item. file: the value is a path.
     */
    const char *words;
    clb_opt_words_hook words_hook;
    bool file;
    /*
     * The option may be given more than once (--price A=1 --price B=2): each
     * value goes to parse in turn, which appends it to a list field instead
     * of replacing the field. Without it a second time is a usage error
     * ("given more than once"). A repeatable option has no def.
     */
    bool repeat;
};

enum clb_format { CLB_FORMAT_TABLE, CLB_FORMAT_JSON, CLB_FORMAT_CSV };

/* Options every command has; each config struct starts with this. */
struct clb_common {
    const char *device; /* -d/--device selector text */
    const char *icd;    /* --icd: extra OpenCL driver libraries, ':'-separated, or NULL */
    enum clb_format format;
    bool help;
    int argc;           /* the whole command line, for the record (set by main) */
    char **argv;
    /* Fleet runs (CLB_FLEET_OPTIONS, clbench/cli/args.h): */
    double straggler;   /* --straggler: fraction off the fleet median that flags a row; 0
                         * in a command without CLB_FLEET_OPTIONS */
    bool fail_on_straggler; /* --fail-on-straggler: exit 1 when a row is flagged */
};

#define CLB_COMMON_OPTIONS(type)                                                              \
    { .name = "device", .short_name = 'd', .metavar = "SEL",                                  \
      .help = "Devices to use: all, cpu, gpu, accelerator, P:D, or a name substring; comma "   \
              "lists allowed",                                                                \
      .parse = clb_opt_string, .offset = offsetof(type, common.device), .def = "all",         \
      .words = "all cpu gpu accelerator" },                                                   \
    { .name = "format", .metavar = "FMT", .help = "Output format on stdout: table, json or csv", \
      .parse = clb_opt_format, .offset = offsetof(type, common.format), .def = "table",       \
      .words = "table json csv" },                                                            \
    { .name = "icd", .metavar = "LIB[:LIB]",                                                  \
      .help = "Also load these OpenCL driver libraries, e.g. /usr/local/nvidia/lib64/"         \
              "libnvidia-opencl.so.1 when no .icd file registers them (or set CLBENCH_ICD)",  \
      .parse = clb_opt_string, .offset = offsetof(type, common.icd), .file = true },          \
    { .name = "help", .short_name = 'h', .help = "Show this help and exit",                   \
      .offset = offsetof(type, common.help) }

struct clb_command {
    const char *name;
    const char *summary;  /* one line for `clbench --help` */
    const char *usage;    /* operands after [OPTIONS], or "" */
    const struct clb_option *options;
    size_t config_size;   /* zeroed, then each option's def applied */
    /* Runs with the parsed config; returns an enum clb_exit value. */
    int (*run)(void *config, int n_operands, char **operands);
    int max_operands;     /* -1: any number */
    /*
     * Commands that run the OpenBLAS baseline: the --blas-core choice, or NULL
     * when this run does not use OpenBLAS. main() applies it before run(),
     * restarting the process when OpenBLAS must load other kernels
     * (clbench/backends/blascore.h). NULL hook: never.
     */
    const char *(*blas_core)(const void *config);
};

/* The commands themselves are listed in src/commands/registry.h. */

/*
 * Applies every option's def to config (cmd->config_size bytes, zeroed by the
 * caller), then parses argv (argv[0] is the command name) into it, collecting
 * operands into operands[] (capacity argc). Returns 0, or -1 with e set to a
 * one-line usage error naming the option.
 */
int clb_options_parse(const struct clb_command *cmd, int argc, char **argv, void *config,
                      char **operands, int *n_operands, struct clb_error *e);

/* Writes the command's --help: usage, summary, then each option with its default. */
void clb_options_help(const struct clb_command *cmd, FILE *out);

/*
 * An option's help as --help and the manual show it: its sentence, the help
 * hook's words, "(default: ...)". New text (free() it), or NULL when out of memory.
 */
char *clb_option_text(const struct clb_option *o);

/*
 * The words a shell completes for an option's value: its words, then its words
 * hook's, each followed by one space ("" for none). New text (free() it), or
 * NULL when out of memory.
 */
char *clb_option_words(const struct clb_option *o);

/* Field parsers for option tables. */
int clb_opt_string(const char *arg, void *field, struct clb_error *e);   /* const char * */
int clb_opt_format(const char *arg, void *field, struct clb_error *e);   /* enum clb_format */
int clb_opt_json(const char *arg, void *field, struct clb_error *e);     /* format = json */

/* The format a file name asks for: ".json" or ".csv"; -1 for anything else. */
int clb_format_from_path(const char *path);

#endif
