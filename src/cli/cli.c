#include <stdlib.h>
#include <string.h>

#include "clbench/cli/cli.h"

static const struct clb_option *find_long(const struct clb_option *opts, const char *name,
                                          size_t len)
{
    for (const struct clb_option *o = opts; o->name; o++)
        if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
            return o;
    return NULL;
}

static const struct clb_option *find_short(const struct clb_option *opts, char c)
{
    for (const struct clb_option *o = opts; o->name; o++)
        if (o->short_name && o->short_name == c)
            return o;
    return NULL;
}

static int apply(const struct clb_option *o, const char *value, void *config, bool *seen,
                 const struct clb_option *opts, struct clb_error *e)
{
    void *field = (char *)config + o->offset;
    size_t idx = (size_t)(o - opts);

    if (seen[idx] && !o->repeat) {
        clb_error_set(e, "option --%s given more than once", o->name);
        return -1;
    }
    seen[idx] = true;
    if (!o->metavar) {
        if (value) {
            clb_error_set(e, "option --%s takes no value", o->name);
            return -1;
        }
        if (!o->parse) {
            *(bool *)field = true;
            return 0;
        }
    }
    if (o->parse(value, field, e) != 0) {
        clb_error_prefix(e, "option --%s", o->name);
        return -1;
    }
    return 0;
}

/* A def that does not parse is clbench's bug; test_defaults.c holds every table to it. */
static int apply_defaults(const struct clb_option *opts, void *config, struct clb_error *e)
{
    for (const struct clb_option *o = opts; o->name; o++) {
        if (o->def && o->parse(o->def, (char *)config + o->offset, e) != 0) {
            clb_error_prefix(e, "option --%s: default '%s'", o->name, o->def);
            return -1;
        }
    }
    return 0;
}

int clb_options_parse(const struct clb_command *cmd, int argc, char **argv, void *config,
                      char **operands, int *n_operands, struct clb_error *e)
{
    const struct clb_option *opts = cmd->options;
    size_t n_opts = 0;
    bool only_operands = false;
    int rc = -1;

    if (apply_defaults(opts, config, e) != 0)
        return -1;
    while (opts[n_opts].name)
        n_opts++;
    bool *seen = calloc(n_opts + 1, sizeof(*seen));
    if (!seen) {
        clb_error_set(e, "out of host memory");
        return -1;
    }
    *n_operands = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const struct clb_option *o;
        const char *value = NULL;

        if (only_operands || a[0] != '-' || a[1] == '\0') {
            operands[(*n_operands)++] = argv[i];
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_operands = true;
            continue;
        }
        if (a[1] == '-') {
            const char *name = a + 2;
            const char *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            if (!(o = find_long(opts, name, len))) {
                clb_error_set(e, "unknown option '--%.*s' (see 'clbench %s --help')", (int)len,
                              name, cmd->name);
                goto out;
            }
            if (eq)
                value = eq + 1;
        } else {
            if (!(o = find_short(opts, a[1]))) {
                clb_error_set(e, "unknown option '-%c' (see 'clbench %s --help')", a[1],
                              cmd->name);
                goto out;
            }
            if (a[2] != '\0') {
                if (!o->metavar) {
                    clb_error_set(e, "unknown option '%s' (see 'clbench %s --help')", a,
                                  cmd->name);
                    goto out;
                }
                value = a + 2;
            }
        }
        if (o->metavar && !value) {
            if (i + 1 >= argc) {
                clb_error_set(e, "option --%s needs a value (%s)", o->name, o->metavar);
                goto out;
            }
            value = argv[++i];
        }
        if (apply(o, value, config, seen, opts, e) != 0)
            goto out;
    }
    if (cmd->max_operands >= 0 && *n_operands > cmd->max_operands) {
        clb_error_set(e, "unexpected argument '%s' (see 'clbench %s --help')",
                      operands[cmd->max_operands], cmd->name);
        goto out;
    }
    rc = 0;
out:
    free(seen);
    return rc;
}

/* Writes text wrapped at 100 columns, each line after the first indented to col. */
static void write_wrapped(FILE *out, const char *h, int col)
{
    const int width = 100 - col;

    while (*h) {
        int n = (int)strlen(h);
        if (n > width) {
            n = width;
            /* "(default: X)" stays on one line. */
            while (n > 0 && (h[n] != ' ' || (n >= 9 && !strncmp(h + n - 9, "(default:", 9))))
                n--;
            if (n == 0)
                n = width;
        }
        fprintf(out, "%.*s\n", n, h);
        h += n;
        while (*h == ' ')
            h++;
        if (*h)
            fprintf(out, "%*s", col, "");
    }
}

char *clb_option_text(const struct clb_option *o)
{
    const char *def = o->def ? o->def : o->def_help;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    if (!f)
        return NULL;
    fputs(o->help, f);
    if (o->help_hook)
        o->help_hook(f);
    if (def)
        fprintf(f, " (default: %s)", def);
    if (fclose(f)) {
        free(text);
        return NULL;
    }
    return text;
}

void clb_options_help(const struct clb_command *cmd, FILE *out)
{
    const int col = 26;

    fprintf(out, "Usage: clbench %s [OPTIONS]%s%s\n%s\n\nOptions:\n", cmd->name,
            cmd->usage[0] ? " " : "", cmd->usage, cmd->summary);
    for (const struct clb_option *o = cmd->options; o->name; o++) {
        char head[64];
        snprintf(head, sizeof(head), "%c%c%s --%s%s%s", o->short_name ? '-' : ' ',
                 o->short_name ? o->short_name : ' ', o->short_name ? "," : " ", o->name,
                 o->metavar ? " " : "", o->metavar ? o->metavar : "");
        fprintf(out, "  %-*s", col - 2, head);
        if ((int)strlen(head) > col - 3)
            fprintf(out, "\n%*s", col, "");
        char *text = clb_option_text(o);
        /* Out of memory: the sentence alone rather than nothing. */
        write_wrapped(out, text ? text : o->help, col);
        free(text);
    }
}

char *clb_option_words(const struct clb_option *o)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    if (!f)
        return NULL;
    if (o->words)
        fprintf(f, "%s ", o->words);
    if (o->words_hook)
        o->words_hook(f);
    if (fclose(f)) {
        free(text);
        return NULL;
    }
    return text;
}

int clb_opt_string(const char *arg, void *field, struct clb_error *e)
{
    if (!*arg) {
        clb_error_set(e, "empty value");
        return -1;
    }
    *(const char **)field = arg;
    return 0;
}

int clb_opt_format(const char *arg, void *field, struct clb_error *e)
{
    static const char *const names[] = { [CLB_FORMAT_TABLE] = "table",
                                         [CLB_FORMAT_JSON] = "json",
                                         [CLB_FORMAT_CSV] = "csv" };

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (strcmp(arg, names[i]) == 0) {
            *(enum clb_format *)field = (enum clb_format)i;
            return 0;
        }
    }
    clb_error_set(e, "unknown format '%s', expected table, json or csv", arg);
    return -1;
}

int clb_opt_json(const char *arg, void *field, struct clb_error *e)
{
    (void)arg;
    (void)e;
    *(enum clb_format *)field = CLB_FORMAT_JSON;
    return 0;
}

int clb_format_from_path(const char *path)
{
    const char *dot = strrchr(path, '.');

    if (dot && strcmp(dot, ".json") == 0)
        return CLB_FORMAT_JSON;
    if (dot && strcmp(dot, ".csv") == 0)
        return CLB_FORMAT_CSV;
    return -1;
}
