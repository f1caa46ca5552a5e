/*
 * Every registered command's option table holds its defaults (clbench/cli/cli.h):
 * each def parses through its option's own parser, each default shows in the
 * generated --help as "(default: ...)", and no help sentence writes one by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "clbench/cli/cli.h"
#include "src/commands/registry.h"

/* The --help of cmd reduced to the one option o, its lines joined into one. */
static char *option_help(const struct clb_command *cmd, const struct clb_option *o)
{
    const struct clb_option one[2] = { *o, { 0 } };
    struct clb_command c = *cmd;
    char *text = NULL, *w = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    assert_non_null(f);
    c.options = one;
    clb_options_help(&c, f);
    assert_int_equal(fclose(f), 0);
    /* The wrapped lines back into one: each newline and the indent after it, one space. */
    w = text;
    for (const char *r = strstr(text, "\nOptions:\n") + 10; *r; r++) {
        if (*r == '\n') {
            while (r[1] == ' ')
                r++;
            *w++ = ' ';
        } else {
            *w++ = *r;
        }
    }
    *w = '\0';
    return text;
}

static void check_option(const struct clb_command *cmd, const struct clb_option *o)
{
    const char *def = o->def ? o->def : o->def_help;
    struct clb_error e = { 0 };

    if (o->def && o->def_help)
        fail_msg("%s --%s: both def and def_help", cmd->name, o->name);
    if (def && !o->metavar)
        fail_msg("%s --%s: a default on an option that takes no value", cmd->name, o->name);
    if (strstr(o->help, "(default:"))
        fail_msg("%s --%s: the help writes its own default: '%s'", cmd->name, o->name, o->help);
    if (o->def) {
        char *config = calloc(1, cmd->config_size);
        assert_non_null(config);
        if (o->parse(o->def, config + o->offset, &e) != 0)
            fail_msg("%s --%s: default '%s' does not parse: %s", cmd->name, o->name, o->def,
                     e.msg);
        free(config);
    }
    if (def) {
        char *help = option_help(cmd, o), want[256];
        snprintf(want, sizeof(want), "(default: %s)", def);
        if (!strstr(help, want))
            fail_msg("%s --%s: '%s' not in its help: %s", cmd->name, o->name, want, help);
        free(help);
    }
}

static void every_default_parses_and_shows(void **state)
{
    size_t n_defaults = 0;

    (void)state;
    for (size_t c = 0; clb_commands[c]; c++) {
        for (const struct clb_option *o = clb_commands[c]->options; o->name; o++) {
            check_option(clb_commands[c], o);
            n_defaults += o->def || o->def_help;
        }
    }
    /* The tables hold them: about 45 "(default: ...)" were written into help texts. */
    assert_true(n_defaults >= 45);
}

/* The defaults together, as main applies them: a command line with no options parses. */
static void every_command_parses_with_defaults_alone(void **state)
{
    (void)state;
    for (size_t c = 0; clb_commands[c]; c++) {
        const struct clb_command *cmd = clb_commands[c];
        char *argv[] = { (char *)cmd->name, NULL }, *operands[2];
        void *config = calloc(1, cmd->config_size);
        struct clb_error e = { 0 };
        int n_operands;

        assert_non_null(config);
        if (clb_options_parse(cmd, 1, argv, config, operands, &n_operands, &e))
            fail_msg("%s: %s", cmd->name, e.msg);
        free(config);
    }
}

/*
 * Every word a shell completion offers is one the option accepts: each parses
 * alone through the option's parser (a comma list's item is a list of one).
 * Options with words take a value and are no paths.
 */
static void every_completion_word_parses(void **state)
{
    size_t n_words = 0, n_options = 0;

    (void)state;
    for (size_t c = 0; clb_commands[c]; c++) {
        const struct clb_command *cmd = clb_commands[c];
        for (const struct clb_option *o = cmd->options; o->name; o++) {
            char *words = clb_option_words(o), *save = NULL;
            assert_non_null(words);
            if ((o->words || o->words_hook || o->file) && !o->metavar)
                fail_msg("%s --%s: completion words on an option that takes no value",
                         cmd->name, o->name);
            if ((o->words || o->words_hook) && o->file)
                fail_msg("%s --%s: both words and a path", cmd->name, o->name);
            n_options += words[0] != '\0';
            for (char *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
                char *config = calloc(1, cmd->config_size);
                struct clb_error e = { 0 };
                assert_non_null(config);
                if (o->parse(w, config + o->offset, &e) != 0)
                    fail_msg("%s --%s: completion word '%s' does not parse: %s", cmd->name,
                             o->name, w, e.msg);
                n_words++;
                free(config);
            }
            free(words);
        }
    }
    /* format and device in every command with devices, precisions, backends, presets, ... */
    assert_true(n_options >= 30);
    assert_true(n_words >= 150);
}

struct cfg {
    struct clb_common common;
    const char *name;
};

static int opt_name(const char *arg, void *field, struct clb_error *e)
{
    if (strcmp(arg, "ok") && strcmp(arg, "given")) {
        clb_error_set(e, "unknown name '%s'", arg);
        return -1;
    }
    *(const char **)field = arg;
    return 0;
}

/* A value given replaces the default; a def that does not parse fails the whole parse. */
static void given_value_replaces_default(void **state)
{
    struct clb_option opts[] = {
        { .name = "name", .metavar = "NAME", .help = "A name", .parse = opt_name,
          .offset = offsetof(struct cfg, name), .def = "ok" },
        { 0 },
    };
    const struct clb_command cmd = { .name = "t", .summary = "", .usage = "", .options = opts,
                                     .config_size = sizeof(struct cfg), .max_operands = 0 };
    char *argv[] = { "t", "--name", "given" }, *operands[3];
    struct clb_error e = { 0 };
    struct cfg c = { 0 };
    int n;

    (void)state;
    assert_int_equal(clb_options_parse(&cmd, 1, argv, &c, operands, &n, &e), 0);
    assert_string_equal(c.name, "ok");
    assert_int_equal(clb_options_parse(&cmd, 3, argv, &c, operands, &n, &e), 0);
    assert_string_equal(c.name, "given");
    opts[0].def = "bad";
    assert_int_equal(clb_options_parse(&cmd, 1, argv, &c, operands, &n, &e), -1);
    assert_non_null(strstr(e.msg, "option --name: default 'bad'"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_default_parses_and_shows),
        cmocka_unit_test(every_command_parses_with_defaults_alone),
        cmocka_unit_test(every_completion_word_parses),
        cmocka_unit_test(given_value_replaces_default),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
