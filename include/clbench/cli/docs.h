#ifndef CLBENCH_CLI_DOCS_H
#define CLBENCH_CLI_DOCS_H

/*
 * What the manual says beyond the option tables (src/cli/docs.c): the
 * environment variables clbench reads, the files it keeps, and examples.
 * The man page clbench(1) is written from these and the command registry
 * (clbench/output/manual.h); tests/source/environment.sh fails on a variable
 * the sources read that clb_environment does not name.
 */
#include <stddef.h>

/* One entry of a list: a name (a variable, a path, a command line) and what it is. */
struct clb_doc_item {
    const char *name;
    const char *text; /* sentences, plain text (the writer escapes it) */
};

/* Each list ends with an entry whose name is NULL. */
extern const struct clb_doc_item clb_environment[];
extern const struct clb_doc_item clb_files[];
extern const struct clb_doc_item clb_examples[];

/* The manual's description of clbench: paragraphs separated by "\n\n". */
extern const char clb_description[];

#endif
