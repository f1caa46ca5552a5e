#include "clbench/output/completion.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Operands that are result files ("FILE.json...", "FIRST.json OTHER.json..."). */
static bool file_operands(const struct clb_command *cmd)
{
    return strstr(cmd->usage, ".json") != NULL;
}

/* s inside single quotes: each ' closes, is escaped, and reopens. */
static void single_quoted(FILE *out, const char *s)
{
    fputc('\'', out);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", out);
        else
            fputc(*s, out);
    }
    fputc('\'', out);
}

/* One command's case arm: its options, and what follows each that takes a value. */
static int bash_command(FILE *out, const struct clb_command *cmd)
{
    fprintf(out, "    %s)\n        opts='", cmd->name);
    for (const struct clb_option *o = cmd->options; o->name; o++) {
        fprintf(out, "%s--%s", o == cmd->options ? "" : " ", o->name);
        if (o->short_name)
            fprintf(out, " -%c", o->short_name);
    }
    fprintf(out, "'\n        operands=%s\n        case $prev in\n",
            file_operands(cmd) ? "file" : "none");
    for (const struct clb_option *o = cmd->options; o->name; o++) {
        if (!o->metavar)
            continue;
        char *words = clb_option_words(o);
        if (!words)
            return -1;
        fprintf(out, "        --%s", o->name);
        if (o->short_name)
            fprintf(out, "|-%c", o->short_name);
        if (words[0]) {
            words[strlen(words) - 1] = '\0';
            fputs(") value=words words=", out);
            single_quoted(out, words);
            fputs(" ;;\n", out);
        } else {
            fprintf(out, ") value=%s ;;\n", o->file ? "file" : "any");
        }
        free(words);
    }
    fputs("        esac ;;\n", out);
    return 0;
}

int clb_completion_bash(FILE *out, const struct clb_command *const *commands,
                        const char *default_command)
{
    fputs("# bash completion for clbench(1), generated from clbench's option tables by\n"
          "# src/manual.c: do not edit.\n"
          "_clbench()\n{\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev= cmd=",
          out);
    fputs(default_command, out);
    fputs(" opts= operands=none value=none words= pre=\n"
          "    (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    # --option=value: bash breaks words at '=' (COMP_WORDBREAKS).\n"
          "    if [[ $cur == = ]]; then\n"
          "        cur=\n"
          "    elif [[ $prev == = ]] && (( COMP_CWORD > 1 )); then\n"
          "        prev=${COMP_WORDS[COMP_CWORD-2]}\n"
          "    fi\n"
          "    if (( COMP_CWORD == 1 )) && [[ $cur != -* ]]; then\n"
          "        COMPREPLY=($(compgen -W '",
          out);
    for (size_t i = 0; commands[i]; i++)
        fprintf(out, "%s%s", i ? " " : "", commands[i]->name);
    fputs("' -- \"$cur\"))\n"
          "        return\n"
          "    fi\n"
          "    (( COMP_CWORD > 1 )) && [[ ${COMP_WORDS[1]} != -* ]] && cmd=${COMP_WORDS[1]}\n"
          "    case $cmd in\n",
          out);
    for (size_t i = 0; commands[i]; i++)
        if (bash_command(out, commands[i]))
            return -1;
    fputs("    esac\n"
          "    case $value in\n"
          "    words)\n"
          "        # A comma list: complete its last item.\n"
          "        [[ $cur == *,* ]] && pre=${cur%,*},\n"
          "        COMPREPLY=($(compgen -P \"$pre\" -W \"$words\" -- \"${cur##*,}\"))\n"
          "        return ;;\n"
          "    file)\n"
          "        compopt -o filenames 2>/dev/null\n"
          "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
          "        return ;;\n"
          "    any)\n"
          "        return ;;\n"
          "    esac\n"
          "    if [[ $cur == -* ]]; then\n"
          "        COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
          "    elif [[ $operands == file ]]; then\n"
          "        compopt -o filenames 2>/dev/null\n"
          "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
          "    fi\n"
          "}\n"
          "complete -F _clbench clbench\n",
          out);
    return ferror(out) ? -1 : 0;
}

/* len bytes of s with what _arguments reads in a description or message escaped. */
static void zsh_escaped(FILE *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (strchr("[]\\:$`", s[i]))
            fputc('\\', out);
        fputc(s[i], out);
    }
}

/*
 * A description for zsh's [...]: the help's first sentence, at most 72
 * characters cut at a word, escaped (the whole spec is single-quoted after this).
 */
static void zsh_description(FILE *out, const char *help)
{
    size_t n = strcspn(help, ";("), cut = n;

    if (n > 72) {
        for (cut = 72; cut > 0 && help[cut] != ' '; cut--)
            ;
        if (!cut)
            cut = 72;
    }
    while (cut > 0 && (help[cut - 1] == ' ' || help[cut - 1] == ','))
        cut--;
    zsh_escaped(out, help, cut);
    if (cut < n)
        fputs("...", out);
}

/* "[description]:METAVAR:action", what an option's _arguments spec ends with. */
static char *zsh_option_tail(const struct clb_option *o)
{
    char *tail = NULL, *words = clb_option_words(o);
    size_t len = 0;
    FILE *f = words ? open_memstream(&tail, &len) : NULL;

    if (!f) {
        free(words);
        return NULL;
    }
    fputc('[', f);
    zsh_description(f, o->help);
    fputc(']', f);
    if (o->metavar) {
        fputc(':', f);
        zsh_escaped(f, o->metavar, strlen(o->metavar));
        fputc(':', f);
        if (words[0] && !strcmp(o->metavar, "LIST"))
            fprintf(f, "_values -s , %s %s", o->metavar, words);
        else if (words[0])
            fprintf(f, "(%.*s)", (int)strlen(words) - 1, words);
        else
            fputs(o->file ? "_files" : " ", f);
    }
    free(words);
    if (fclose(f)) {
        free(tail);
        return NULL;
    }
    return tail;
}

/*
 * One option's specs for _arguments: --name= (value after '=' or next), and
 * -c+ (value attached or next) for a short name, each excluding the other.
 */
static int zsh_option(FILE *out, const struct clb_option *o)
{
    char *tail = zsh_option_tail(o), spec[1024];

    if (!tail)
        return -1;
    const int ex = o->short_name ? snprintf(spec, sizeof(spec), "(-%c --%s)", o->short_name,
                                            o->name)
                                 : 0;
    snprintf(spec + ex, sizeof(spec) - (size_t)ex, "--%s%s%s", o->name, o->metavar ? "=" : "",
             tail);
    fputs("      ", out);
    single_quoted(out, spec);
    fputs(" \\\n", out);
    if (o->short_name) {
        snprintf(spec + ex, sizeof(spec) - (size_t)ex, "-%c%s%s", o->short_name,
                 o->metavar ? "+" : "", tail);
        fputs("      ", out);
        single_quoted(out, spec);
        fputs(" \\\n", out);
    }
    free(tail);
    return 0;
}

int clb_completion_zsh(FILE *out, const struct clb_command *const *commands,
                       const char *default_command)
{
    fputs("#compdef clbench\n"
          "# zsh completion for clbench(1), generated from clbench's option tables by\n"
          "# src/manual.c: do not edit.\n"
          "_clbench() {\n"
          "  local cmd=",
          out);
    fputs(default_command, out);
    fputs("\n  local -a cmds\n  cmds=(\n", out);
    for (size_t i = 0; commands[i]; i++) {
        char *entry = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&entry, &len);
        if (!f)
            return -1;
        fprintf(f, "%s:", commands[i]->name);
        zsh_description(f, commands[i]->summary);
        if (fclose(f)) {
            free(entry);
            return -1;
        }
        fputs("    ", out);
        single_quoted(out, entry);
        fputc('\n', out);
        free(entry);
    }
    fputs("  )\n"
          "  if (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then\n"
          "    _describe -t commands 'clbench command' cmds\n"
          "    return\n"
          "  fi\n"
          "  if [[ $words[2] != -* ]]; then\n"
          "    cmd=$words[2]\n"
          "    shift words\n"
          "    (( CURRENT-- ))\n"
          "  fi\n"
          "  case $cmd in\n",
          out);
    for (size_t i = 0; commands[i]; i++) {
        const struct clb_command *cmd = commands[i];
        fprintf(out, "  (%s)\n    _arguments -s -S \\\n", cmd->name);
        for (const struct clb_option *o = cmd->options; o->name; o++)
            if (zsh_option(out, o))
                return -1;
        fprintf(out, "      %s ;;\n", file_operands(cmd) ? "'*:result file:_files'" : "");
    }
    fputs("  esac\n}\n_clbench \"$@\"\n", out);
    return ferror(out) ? -1 : 0;
}
