#ifndef CLBENCH_UTIL_RECORD_H
#define CLBENCH_UTIL_RECORD_H

/*
 * The run record: the machine, the OpenCL loader and drivers, and the
 * library behind each backend, captured once when a command starts
 * (clb_run_record_capture in src/commands/). Writers read it; they never
 * ask the system themselves. Plain data, no allocation.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/util/host.h"

enum clb_field_type { CLB_FIELD_NULL, CLB_FIELD_STRING, CLB_FIELD_INT, CLB_FIELD_BOOL };

/* One fact about a library, for the record. */
struct clb_field {
    char key[48];             /* a "." nests: "core_check.cpu_isa" */
    enum clb_field_type type;
    char str[512];
    long long i;
    bool b;
};

enum { CLB_LIBRARY_MAX_FIELDS = 24 };

/* A library as the result file's "libraries" object holds it. */
struct clb_library_info {
    char id[32];              /* its key there: the backend's name, "icd_loader" */
    char library[64];         /* "OpenBLAS" */
    char version[64];         /* "0.3.21", or "unknown" */
    struct clb_field fields[CLB_LIBRARY_MAX_FIELDS]; /* in order; further ones are dropped */
    size_t n_fields;
};

/* Appends a field (a NULL string is a null). */
void clb_library_str(struct clb_library_info *l, const char *key, const char *value);
void clb_library_int(struct clb_library_info *l, const char *key, long long value);
void clb_library_bool(struct clb_library_info *l, const char *key, bool value);
/* The field called key, or NULL. */
const struct clb_field *clb_library_field(const struct clb_library_info *l, const char *key);

enum { CLB_RECORD_MAX_LIBS = 8, CLB_RECORD_MAX_ICDS = 32 };

struct clb_run_record {
    struct clb_host_info host;
    struct clb_library_info libs[CLB_RECORD_MAX_LIBS]; /* the ICD loader first, then backends */
    size_t n_libs;
    char vendors_dir[512];                     /* where the loader finds ICDs */
    struct clb_record_icd {
        char file[256];                        /* the .icd file */
        char library[512];                     /* the library it names */
    } icds[CLB_RECORD_MAX_ICDS];               /* the .icd entries there */
    size_t n_icds;
};

/* The library with this id ("openblas"), or NULL. */
const struct clb_library_info *clb_run_record_library(const struct clb_run_record *r,
                                                      const char *id);

#endif
