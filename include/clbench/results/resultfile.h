#ifndef CLBENCH_RESULTS_RESULTFILE_H
#define CLBENCH_RESULTS_RESULTFILE_H

/*
 * Reading result documents back (clbench-result/1, docs/result-schema.md)
 * for `compare` and `report`. Everything read from outside is checked:
 * a file that is not such a document is refused with a reason that names it.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "clbench/core/row.h"
#include "clbench/util/error.h"

/* Result files larger than this are refused rather than parsed. */
#define CLB_RESULT_FILE_MAX_BYTES (256u << 20)

/* A document's "host" object, as far as the report shows it ("" when absent). */
struct clb_result_host {
    const char *hostname, *cpu, *os;
};

/*
 * One entry of a document's "devices" array (strings borrowed, "" when
 * absent; numbers -1 when absent; fp64/fp16 -1 when absent, else 0 or 1).
 */
struct clb_result_device {
    const char *id, *name, *type, *vendor, *driver_version, *opencl_version;
    int64_t compute_units, max_clock_mhz, global_mem_bytes, max_alloc_bytes;
    int fp64, fp16;
};

struct clb_result_file {
    char *path;
    json_t *root;
    const char *version;  /* clbench_version */
    const char *created;
    bool complete;
    struct clb_row *rows;           /* owned; each with its file part (clbench/core/row.h) */
    size_t n_rows;
    json_t *devices;      /* borrowed: the "devices" array */
    json_t *host;         /* borrowed: the "host" object */
    json_t *derived;      /* owned: the configs derived for rows without one */
    json_t *fleet;        /* borrowed: the "fleet" object of a fleet run's file, else NULL */
    struct clb_result_host host_info;
    struct clb_result_device *device_list; /* owned: "devices"' objects, in order */
    size_t n_devices;
    double fleet_threshold; /* fleet.threshold (0 < t < 1), 0 when absent */
};

/* NULL with e set to "PATH: why" (one line) when the file is unusable. */
struct clb_result_file *clb_result_file_load(const char *path, struct clb_error *e);
/* The same from text in memory (len bytes, need not be NUL-terminated); name is for messages. */
struct clb_result_file *clb_result_file_parse(const char *name, const char *text, size_t len,
                                              struct clb_error *e);
void clb_result_file_destroy(struct clb_result_file *f);

/* A GEMM row's size as one number, (m n k)^(1/3): its n for an n x n x n problem. */
double clb_result_row_cube_size(const struct clb_row *r);

/*
 * The triad rows, written here once: a bandwidth row of the triad ("fp32
 * triad", "fp64 triad"), BabelStream's headline at its default size; and
 * one size of a `bandwidth --sizes` sweep of it (sized, kernel "triad"),
 * which is no headline and never an is_triad row.
 */
bool clb_result_row_is_triad(const struct clb_row *r);
bool clb_result_row_is_sized_triad(const struct clb_row *r);

/*
 * The same benchmark, the same precision: as the files name them, so names
 * this build does not know match by name too (two rows without a precision
 * have the same).
 */
bool clb_result_row_same_benchmark(const struct clb_row *a, const struct clb_row *b);
bool clb_result_row_same_precision(const struct clb_row *a, const struct clb_row *b);
/* An order of precisions for sorting (<0, 0, >0), 0 exactly when clb_result_row_same_precision. */
int clb_result_row_cmp_precision(const struct clb_row *a, const struct clb_row *b);

/* The same device name and id (ranks aside): one place of a file. */
bool clb_result_row_same_place(const struct clb_row *a, const struct clb_row *b);
/* The same place measured by the same rank. */
bool clb_result_row_same_device(const struct clb_row *a, const struct clb_row *b);

/* 100 x the row's figure / its datasheet value; 0 unless it has both (a verified figure). */
double clb_result_row_datasheet_percent(const struct clb_row *r);

#endif
