#ifndef CLBENCH_OUTPUT_REPORT_SECTIONS_H
#define CLBENCH_OUTPUT_REPORT_SECTIONS_H

/*
 * The sections of `clbench report`'s page (clbench/output/html.h says what
 * each shows), one file each under src/output/report/. clb_html_report walks
 * the table of sections (html.c) in order; a section with nothing to show
 * writes nothing. Writers only read the documents and what results/ computed.
 */
#include <stdio.h>

#include "clbench/output/html.h"

struct report {
    struct clb_result_file *const *files;
    size_t n_files;
    const struct clb_html_estimates *estimates; /* n_files entries, or NULL */
};

struct report_section {
    const char *id;    /* "gemm", "fleet", ... */
    const char *title; /* its heading (a section with one heading per chart: their stem) */
    void (*write)(FILE *out, const struct report *rep, const struct report_section *s);
};

/* Each section's writer (its file's name). */
void report_fleet(FILE *out, const struct report *rep, const struct report_section *s);
void report_gemm(FILE *out, const struct report *rep, const struct report_section *s);
void report_speedup(FILE *out, const struct report *rep, const struct report_section *s);
void report_roofline(FILE *out, const struct report *rep, const struct report_section *s);
void report_sweep(FILE *out, const struct report *rep, const struct report_section *s);
void report_datasheet(FILE *out, const struct report *rep, const struct report_section *s);
void report_estimates(FILE *out, const struct report *rep, const struct report_section *s);
void report_runs(FILE *out, const struct report *rep, const struct report_section *s);
void report_devices(FILE *out, const struct report *rep, const struct report_section *s);
void report_results(FILE *out, const struct report *rep, const struct report_section *s);
/* Under a chart or table whose speedups carry "*": each handicapped baseline's reason once. */
void report_handicap_notes(FILE *out, const struct report *rep);

/*
 * "DEVICE · host r1 · file.json": a device's chart title (host and rank of
 * of_rank in a fleet file, the file's name when there are several).
 */
void report_device_title(FILE *out, const struct clb_result_file *f, const char *device,
                         const struct clb_row *of_rank, size_t n_files);

#endif
