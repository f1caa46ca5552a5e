#ifndef CLBENCH_COMMANDS_VERSION_H
#define CLBENCH_COMMANDS_VERSION_H

/*
 * `clbench --version` (src/commands/version.c): clbench's version and commit,
 * then each library it was built with, the version built against beside the
 * one this process runs (the ICD loader's and OpenBLAS's own queries, jansson's,
 * MPI's; CLBlast has no run-time query). Touches no device.
 */
#include <stdio.h>

/* Writes the text to out; 0, or -1 when writing failed. */
int clb_version_write(FILE *out);

#endif
