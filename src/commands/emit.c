/* The end of a command: the run record, errors, stdout, and the one way of emitting results. */
#include "emit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/cl/icd.h"
#include "clbench/util/file.h"
#include "clbench/util/host.h"

struct clb_run_record *clb_run_record_capture(const struct clb_gemm_backend *const *backends,
                                              size_t n_backends)
{
    struct clb_run_record *r = calloc(1, sizeof(*r));

    if (!r) {
        fprintf(stderr, "clbench: out of host memory\n");
        return NULL;
    }
    clb_host_info_read(&r->host);
    struct clb_library_info *loader = &r->libs[r->n_libs++];
    snprintf(loader->id, sizeof(loader->id), "icd_loader");
    clb_icd_loader_info(loader->library, sizeof(loader->library), loader->version,
                        sizeof(loader->version));
    for (size_t b = 0; b < n_backends && r->n_libs < CLB_RECORD_MAX_LIBS; b++) {
        bool seen = false; /* a backend may run tuned and untuned: one library */
        for (size_t i = 0; i < b; i++)
            seen |= backends[i] == backends[b];
        if (seen)
            continue;
        struct clb_library_info *lib = &r->libs[r->n_libs++];
        snprintf(lib->id, sizeof(lib->id), "%s", backends[b]->name);
        backends[b]->info(lib);
    }
    snprintf(r->vendors_dir, sizeof(r->vendors_dir), "%s", clb_icd_vendors_dir());
    struct clb_icd icds[CLB_RECORD_MAX_ICDS];
    r->n_icds = clb_icd_list(icds, CLB_RECORD_MAX_ICDS);
    for (size_t i = 0; i < r->n_icds; i++) {
        snprintf(r->icds[i].file, sizeof(r->icds[i].file), "%.255s", icds[i].file);
        snprintf(r->icds[i].library, sizeof(r->icds[i].library), "%.511s", icds[i].library);
    }
    return r;
}

void clb_report_error(const struct clb_error *e)
{
    fprintf(stderr, "clbench: %s\n", e->msg);
}

int clb_finish_stdout(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "clbench: writing the output failed: %s\n", strerror(errno));
        return CLB_EXIT_FAILURE;
    }
    return CLB_EXIT_OK;
}

struct emit_ctx {
    clb_report_writer write;
    enum clb_format format;
    const void *report;
};

static int write_emit(FILE *out, const void *ctx)
{
    const struct emit_ctx *c = ctx;
    return c->write(out, c->format, c->report);
}

int clb_emit_result(const struct clb_common *common, const char *output,
                    clb_report_writer write, const void *report, int rc)
{
    struct clb_error e;

    if (output) {
        struct emit_ctx c = { write, (enum clb_format)clb_format_from_path(output), report };
        if (clb_write_file_atomic(output, write_emit, &c, &e)) {
            clb_report_error(&e);
            rc = CLB_EXIT_FAILURE;
        }
    }
    if (write(stdout, common->format, report)) {
        fprintf(stderr, "clbench: could not write the results\n");
        rc = CLB_EXIT_FAILURE;
    }
    if (clb_finish_stdout() != CLB_EXIT_OK)
        rc = CLB_EXIT_FAILURE;
    return rc;
}
