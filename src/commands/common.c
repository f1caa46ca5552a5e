#include "common.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clbench/bench/gemm_run.h"
#include "clbench/bench/micro.h"
#include "clbench/cl/icd.h"
#include "clbench/mpi/mpi.h"
#include "clbench/util/file.h"
#include "clbench/util/parse.h"

#include "clbench/cl/select.h"

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

static int open_local(const struct clb_common *common, struct clb_selection *sel)
{
    struct clb_error e;
    struct clb_selector *s;

    memset(sel, 0, sizeof(*sel));
    const char *icd = common->icd ? common->icd : getenv("CLBENCH_ICD");
    if (icd && *icd && clb_icd_add(icd, &e)) {
        clb_report_error(&e);
        return CLB_EXIT_USAGE;
    }
    char note[600];
    /* When it fails, the device check below reports the missing device and the fix. */
    if (clb_pocl_cache_prepare(note, sizeof(note)) > 0)
        fprintf(stderr, "clbench: %s\n", note);
    /* A malformed selector is a usage error even on a machine without OpenCL. */
    if (!(s = clb_selector_parse(common->device, &e))) {
        clb_error_prefix(&e, "option --device");
        clb_report_error(&e);
        return CLB_EXIT_USAGE;
    }
    if (!(sel->inv = clb_inventory_create(&e))) {
        clb_selector_destroy(s);
        clb_report_error(&e);
        return CLB_EXIT_FAILURE;
    }
    /* A platform without devices is a broken driver setup, not a bad selector. */
    struct clb_error broken;
    const bool some_broken = clb_inventory_empty_platforms(sel->inv, &broken);
    if (sel->inv->n_devices == 0) {
        clb_selector_destroy(s);
        fprintf(stderr, "clbench: no usable OpenCL device: %s\n", broken.msg);
        clb_selection_close(sel);
        return CLB_EXIT_FAILURE;
    }
    int rc = clb_inventory_select(sel->inv, s, common->device, &sel->devices, &sel->n_devices,
                                  &e);
    clb_selector_destroy(s);
    if (rc != 0 && some_broken) {
        /* What was asked for may be on the platform that lists nothing. */
        fprintf(stderr, "clbench: %s; and %s\n", e.msg, broken.msg);
        clb_selection_close(sel);
        return CLB_EXIT_FAILURE;
    }
    if (rc != 0) {
        clb_report_error(&e);
        clb_selection_close(sel);
        return CLB_EXIT_USAGE;
    }
    if (some_broken)
        fprintf(stderr, "clbench: note: %s\n", broken.msg);
    return CLB_EXIT_OK;
}

int clb_selection_open(const struct clb_common *common, struct clb_selection *sel)
{
    const struct clb_mpi_world *w = clb_mpi_fleet();
    int rc = open_local(common, sel);

    if (rc == CLB_EXIT_OK && w) {
        size_t idx[64], n = sel->n_devices < 64 ? sel->n_devices : 64;
        n = clb_mpi_pick_devices(n, w->local_size, w->local_rank, idx);
        for (size_t i = 0; i < n; i++)
            sel->devices[i] = sel->devices[idx[i]];
        sel->n_devices = n;
    }
    sel->n_slots = sel->n_devices;
    if (!w)
        return rc;
    /* Every rank goes on, or none: a rank left out would leave the others waiting. */
    const int all = clb_mpi_max(rc);
    if (all != CLB_EXIT_OK && rc == CLB_EXIT_OK) {
        fprintf(stderr, "clbench: rank %d on %s stops: another rank could not open its "
                        "devices\n", w->rank, w->host);
        clb_selection_close(sel);
    }
    if (all == CLB_EXIT_OK)
        sel->n_slots = (size_t)clb_mpi_max((int)sel->n_devices);
    return all;
}

void clb_selection_close(struct clb_selection *sel)
{
    free(sel->devices);
    clb_inventory_destroy(sel->inv);
    memset(sel, 0, sizeof(*sel));
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

int clb_emit_report(const char *output, enum clb_format format, clb_report_writer write,
                    const void *report, int rc, int signal)
{
    struct clb_error e;

    if (output) {
        struct emit_ctx c = { write, (enum clb_format)clb_format_from_path(output), report };
        if (clb_write_file_atomic(output, write_emit, &c, &e)) {
            clb_report_error(&e);
            rc = CLB_EXIT_FAILURE;
        }
    }
    if (write(stdout, format, report)) {
        fprintf(stderr, "clbench: could not write the results\n");
        rc = CLB_EXIT_FAILURE;
    }
    if (clb_finish_stdout() != CLB_EXIT_OK)
        rc = CLB_EXIT_FAILURE;
    if (signal) {
        fprintf(stderr, "clbench: interrupted by %s; the results measured so far were kept\n",
                strsignal(signal));
        return 128 + signal;
    }
    return rc;
}
