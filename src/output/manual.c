#include "clbench/output/manual.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/cli/docs.h"

struct common_ref {
    struct clb_common common;
};
static const struct clb_option common_options[] = { CLB_COMMON_OPTIONS(struct common_ref),
                                                    { 0 } };

bool clb_manual_common_option(const struct clb_option *o)
{
    for (const struct clb_option *c = common_options; c->name; c++)
        if (!strcmp(c->name, o->name) && !strcmp(c->help, o->help))
            return true;
    return false;
}

/*
 * Text for roff: a backslash is \e and a minus \- (so option names copy and
 * search as typed), and a line may not start with a control character.
 */
static void roff(FILE *out, const char *s)
{
    bool line_start = true;

    for (; *s; s++) {
        if (line_start && (*s == '.' || *s == '\''))
            fputs("\\&", out);
        line_start = *s == '\n';
        if (*s == '\\')
            fputs("\\e", out);
        else if (*s == '-')
            fputs("\\-", out);
        else
            fputc(*s, out);
    }
}

/* "\fB\-d\fR, \fB\-\-device\fR \fISEL\fR", a .TP's tag. */
static void option_tag(FILE *out, const struct clb_option *o)
{
    fputs(".TP\n", out);
    if (o->short_name)
        fprintf(out, "\\fB\\-%c\\fR, ", o->short_name);
    fputs("\\fB\\-\\-", out);
    roff(out, o->name);
    fputs("\\fR", out);
    if (o->metavar) {
        fputs(" \\fI", out);
        roff(out, o->metavar);
        fputs("\\fR", out);
    }
    fputc('\n', out);
}

static int option_entry(FILE *out, const struct clb_option *o)
{
    char *text = clb_option_text(o);

    if (!text)
        return -1;
    option_tag(out, o);
    roff(out, text);
    fputc('\n', out);
    free(text);
    return 0;
}

/* Paragraphs separated by blank lines, each its own .PP. */
static void paragraphs(FILE *out, const char *text)
{
    for (const char *p = text; *p;) {
        const char *end = strstr(p, "\n\n");
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char *para = strndup(p, n);
        fputs(".PP\n", out);
        roff(out, para ? para : "");
        fputc('\n', out);
        free(para);
        p += n;
        while (*p == '\n')
            p++;
    }
}

static void items(FILE *out, const char *section, const struct clb_doc_item *list)
{
    fprintf(out, ".SH %s\n", section);
    for (const struct clb_doc_item *i = list; i->name; i++) {
        fputs(".TP\n.B ", out);
        roff(out, i->name);
        fputc('\n', out);
        roff(out, i->text);
        fputc('\n', out);
    }
}

static int command_section(FILE *out, const struct clb_command *cmd)
{
    bool any_common = false;

    fputs(".SS \"clbench ", out);
    roff(out, cmd->name);
    fputs(" [OPTIONS]", out);
    if (cmd->usage[0]) {
        fputc(' ', out);
        roff(out, cmd->usage);
    }
    fputs("\"\n", out);
    roff(out, cmd->summary);
    fputc('\n', out);
    for (const struct clb_option *o = cmd->options; o->name; o++) {
        if (clb_manual_common_option(o))
            any_common = true;
        else if (option_entry(out, o))
            return -1;
    }
    if (any_common) {
        fputs(".PP\nAnd the common options:", out);
        for (const struct clb_option *o = cmd->options; o->name; o++) {
            if (clb_manual_common_option(o)) {
                fputs(" \\fB\\-\\-", out);
                roff(out, o->name);
                fputs("\\fR", out);
            }
        }
        fputs(".\n", out);
    }
    return 0;
}

int clb_manual_write(FILE *out, const struct clb_command *const *commands,
                     const char *default_command, const char *version)
{
    fputs(".\\\" Generated from clbench's option tables by src/manual.c; do not edit.\n", out);
    fputs(".TH CLBENCH 1 \"\" \"clbench ", out);
    roff(out, version);
    fputs("\" \"User Commands\"\n"
          ".SH NAME\n"
          "clbench \\- vendor\\-neutral OpenCL benchmark: what each device is and how fast it "
          "really is\n"
          ".SH SYNOPSIS\n"
          ".B clbench\n"
          ".RI [ COMMAND ]\n"
          ".RI [ OPTIONS ]\n"
          ".RI [ OPERANDS ]\n"
          ".br\n"
          ".B clbench\n"
          ".BR \\-h \" | \" \\-\\-help \" | \" \\-V \" | \" \\-\\-version\n"
          ".SH DESCRIPTION\n",
          out);
    paragraphs(out, clb_description);
    fputs(".PP\nWithout a command, clbench runs \\fB", out);
    roff(out, default_command);
    fputs("\\fR with the options given. \\fBclbench \\-\\-version\\fR names the version, the "
          "commit and the libraries clbench was built with and runs with.\n"
          ".SH COMMANDS\n",
          out);
    for (size_t i = 0; commands[i]; i++) {
        fprintf(out, ".TP\n.B ");
        roff(out, commands[i]->name);
        fputc('\n', out);
        roff(out, commands[i]->summary);
        fputc('\n', out);
    }
    fputs(".SH \"COMMON OPTIONS\"\n"
          "The commands that use devices or print results take these; each command's section "
          "below names the ones it has.\n",
          out);
    for (const struct clb_option *o = common_options; o->name; o++)
        if (option_entry(out, o))
            return -1;
    fputs(".SH \"COMMAND OPTIONS\"\n"
          "An option that takes a value takes it as the next argument or after \\fB=\\fR "
          "(\\fB\\-\\-format=json\\fR); a short one also attached (\\fB\\-n64\\fR). "
          "Each default is the one \\fBclbench \\fICOMMAND\\fB \\-\\-help\\fR shows.\n",
          out);
    for (size_t i = 0; commands[i]; i++)
        if (command_section(out, commands[i]))
            return -1;
    fputs(".SH \"EXIT STATUS\"\n"
          ".TP\n.B 0\nSuccess.\n"
          ".TP\n.B 1\nA runtime failure: no OpenCL platform, a device fault, a result that "
          "failed its check, a file that could not be written, a regression past "
          "\\fB\\-\\-threshold\\fR (compare), a straggler with \\fB\\-\\-fail\\-on\\-straggler\\fR.\n"
          ".TP\n.B 2\nA usage error: an unknown command or option, a bad value; one line on "
          "standard error, nothing measured.\n"
          ".TP\n.B 128 + N\nSignal N (Ctrl-C: 130) cut the run short; what was measured before "
          "it is still written.\n",
          out);
    items(out, "ENVIRONMENT", clb_environment);
    items(out, "FILES", clb_files);
    items(out, "EXAMPLES", clb_examples);
    fputs(".SH \"SEE ALSO\"\n"
          ".BR clinfo (1),\n.BR clpeak (1),\n.BR mpirun (1),\n.BR srun (1)\n"
          ".PP\nThe README and docs installed with clbench (share/doc/clbench under its "
          "prefix; /usr/share/doc/clbench from the Debian package) say how each figure is "
          "measured and what it is held against.\n",
          out);
    return ferror(out) ? -1 : 0;
}
