/* Fleet runs: a measuring command as one rank of mpirun/srun, its results merged at rank 0. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clbench/limits/limits.h"
#include "clbench/mpi/mpi.h"
#include "clbench/output/fleet.h"
#include "clbench/results/fleet.h"
#include "clbench/util/cpu.h"
#include "clbench/util/file.h"
#include "clbench/util/interrupt.h"
#include "fleet.h"

int clb_fleet_enter(const char *command)
{
    struct clb_mpi_world w;
    struct clb_error e;
    const int launched = clb_mpi_launched();

    if (!launched)
        return CLB_EXIT_OK;
    if (!clb_mpi_built()) {
        /* N copies of a single run would each measure and write the same file. */
        clb_mpi_start(&w, &e);
        fprintf(stderr, "clbench %s: started as one of %d ranks, but %s\n", command, launched,
                e.msg);
        return CLB_EXIT_USAGE;
    }
    if (clb_mpi_start(&w, &e)) {
        clb_report_error(&e);
        return CLB_EXIT_FAILURE;
    }
    if (w.size != launched) {
        /* MPI did not join them (a PMI this MPI does not speak): N single runs, one file. */
        fprintf(stderr, "clbench %s: the launcher started %d ranks, but MPI sees a world of %d "
                        "(with srun, try --mpi=pmix)\n", command, launched, w.size);
        return CLB_EXIT_USAGE;
    }
    /*
     * pocl's CPU device starts a thread per CPU in every process: ranks that
     * share a node's CPUs would each take all of them, and their figures be
     * whichever rank the scheduler favoured. Each takes its share instead, as
     * OpenBLAS does (gemm_fleet_main), unless the user set the count. Before
     * any OpenCL call: pocl reads it once.
     */
    bool shared;
    const unsigned share = (unsigned)clb_host_share(clb_cpu_count_available(), &shared);
    if (shared && !getenv("POCL_MAX_PTHREAD_COUNT")) {
        char n[16];
        snprintf(n, sizeof(n), "%u", share ? share : 1);
        setenv("POCL_MAX_PTHREAD_COUNT", n, 0);
    }
    /* Every rank runs the same command, or the ranks would wait in different places. */
    unsigned long plan = 14695981039346656037ul;
    for (const char *c = command; *c; c++)
        plan = clb_plan_add(plan, (unsigned char)*c);
    return clb_fleet_plan(command, plan);
}

int clb_fleet_enter_world(const char *command, const struct clb_mpi_world **world)
{
    static struct clb_mpi_world w;
    struct clb_error e;

    if (!clb_mpi_built()) {
        clb_mpi_start(&w, &e); /* says why */
        fprintf(stderr, "clbench %s: %s\n", command, e.msg);
        return CLB_EXIT_USAGE;
    }
    if (clb_mpi_start(&w, &e)) {
        clb_report_error(&e);
        return CLB_EXIT_FAILURE;
    }
    *world = &w;
    return CLB_EXIT_OK;
}

void clb_fleet_leave(void)
{
    clb_mpi_stop();
}

int clb_fleet_agree(int rc)
{
    return clb_mpi_fleet() ? clb_mpi_max(rc) : rc;
}

bool clb_fleet_step(void *unused)
{
    (void)unused;
    /* The allreduce is the barrier: no rank starts before every rank got here. */
    return clb_fleet_signal() == 0;
}

int clb_fleet_plan(const char *what, unsigned long plan)
{
    const struct clb_mpi_world *w = clb_mpi_fleet();
    const int mine = (int)(plan % 2147483647ul);
    /* Two maxima make a minimum too: every rank planned the same when both agree. */
    const int most = w ? clb_mpi_max(mine) : 0;
    const int least = w ? -clb_mpi_max(-mine) : 0;

    if (most == least)
        return CLB_EXIT_OK;
    if (w->rank == 0)
        fprintf(stderr, "clbench %s: the ranks plan different measurements: start every rank "
                        "with the same command and options\n", what);
    return CLB_EXIT_USAGE;
}

int clb_fleet_signal(void)
{
    /* Asleep: a rank that is done must not take CPU from one still measuring on its node. */
    return clb_mpi_fleet() ? clb_mpi_max_idle(clb_interrupt_signal()) : clb_interrupt_signal();
}

struct merged {
    const struct clb_fleet_figures *figs;
    enum clb_format format;
};

static int write_merged(FILE *out, const void *ctx)
{
    const struct merged *m = ctx;
    return clb_fleet_write(out, m->format, m->figs);
}

/* Rank 0: one document from every rank's, written and printed; the exit status. */
static int emit_root(const struct clb_common *common, const char *output, char **parts,
                     const size_t *lens, const int *locals, int n, int rc)
{
    struct clb_fleet_part *p = calloc((size_t)n, sizeof(*p));
    struct clb_result_file *f = NULL;
    struct clb_fleet_figures figs;
    struct clb_error e;
    json_t *doc = NULL;
    char *text = NULL;

    for (int r = 0; p && r < n; r++)
        p[r] = (struct clb_fleet_part){ parts[r], lens[r], locals[r] };
    if (!p)
        clb_error_set(&e, "out of host memory merging the ranks' results");
    else if ((doc = clb_fleet_merge(p, (size_t)n, common->straggler, &e)))
        text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (doc && !text)
        clb_error_set(&e, "out of host memory merging the ranks' results");
    /* Read back as any result file is: what is printed is what compare and report see. */
    if (text)
        f = clb_result_file_parse("the fleet's results", text, strlen(text), &e);
    free(text);
    json_decref(doc);
    free(p);
    if (f && clb_fleet_figures_read(f, &figs)) {
        clb_error_set(&e, "out of host memory merging the ranks' results");
        clb_result_file_destroy(f);
        f = NULL;
    }
    if (!f) {
        clb_report_error(&e);
        return CLB_EXIT_FAILURE;
    }
    if (figs.n_missing)
        rc = CLB_EXIT_FAILURE;
    const long long stragglers = figs.n_stragglers;
    if (output) {
        struct merged m = { &figs, (enum clb_format)clb_format_from_path(output) };
        if (clb_write_file_atomic(output, write_merged, &m, &e)) {
            clb_report_error(&e);
            rc = CLB_EXIT_FAILURE;
        }
    }
    if (clb_fleet_write(stdout, common->format, &figs)) {
        fprintf(stderr, "clbench: could not write the results\n");
        rc = CLB_EXIT_FAILURE;
    }
    if (clb_finish_stdout() != CLB_EXIT_OK)
        rc = CLB_EXIT_FAILURE;
    if (stragglers && common->fail_on_straggler) {
        fprintf(stderr, "clbench: %lld straggler%s (--fail-on-straggler)\n", stragglers,
                stragglers == 1 ? "" : "s");
        rc = CLB_EXIT_FAILURE;
    }
    clb_fleet_figures_finish(&figs);
    clb_result_file_destroy(f);
    return rc;
}

int clb_fleet_emit(const struct clb_common *common, const char *output,
                   clb_report_writer write, const void *report, int rc)
{
    const struct clb_mpi_world *w = clb_mpi_fleet();
    char *text = NULL, **parts = NULL;
    size_t len = 0, *lens = NULL;
    int *locals = NULL;
    struct clb_error e;
    FILE *m = open_memstream(&text, &len);
    bool written = m && !write(m, CLB_FORMAT_JSON, report);

    if (m && fclose(m))
        written = false;
    /* A rank that cannot write its document sends nothing; rank 0 lists it as missing. */
    if (!written) {
        fprintf(stderr, "clbench: rank %d could not write its results\n", w->rank);
        len = 0;
    }
    if (clb_mpi_gather(text, len, &parts, &lens, &locals, &e)) {
        clb_report_error(&e);
        rc = CLB_EXIT_FAILURE;
    }
    free(text);
    rc = clb_mpi_max(rc);
    if (w->rank == 0 && parts)
        rc = emit_root(common, output, parts, lens, locals, w->size, rc);
    clb_mpi_gather_free(parts, lens, locals, w->rank == 0 ? w->size : 0);
    return clb_mpi_bcast_int(rc);
}

int clb_fleet_gather_text(enum clb_format fmt, const char *text, size_t len,
                          clb_fleet_merge_fn merge, int rc)
{
    const struct clb_mpi_world *w = clb_mpi_fleet();
    char **parts = NULL, **names = NULL;
    size_t *lens = NULL, *name_lens = NULL;
    int *locals = NULL, *name_locals = NULL;
    struct clb_error e;

    /* Both gathers on every rank, whatever the first gave: the ranks stay in step. */
    const int got_text = clb_mpi_gather(text, len, &parts, &lens, &locals, &e);
    if (got_text)
        clb_report_error(&e);
    if (clb_mpi_gather(w->host, strlen(w->host), &names, &name_lens, &name_locals, &e)) {
        clb_report_error(&e);
        rc = CLB_EXIT_FAILURE;
    }
    if (got_text)
        rc = CLB_EXIT_FAILURE;
    struct clb_fleet_text *all = w->rank == 0 ? calloc((size_t)w->size, sizeof(*all)) : NULL;
    if (w->rank == 0 && !all)
        rc = CLB_EXIT_FAILURE;
    for (int r = 0; all && parts && names && r < w->size; r++)
        all[r] = (struct clb_fleet_text){ r, locals[r], names[r] ? names[r] : "?", parts[r],
                                          lens[r] };
    if (all && parts && names && merge(stdout, fmt, all, w->size))
        rc = CLB_EXIT_FAILURE;
    free(all);
    clb_mpi_gather_free(parts, lens, locals, w->rank == 0 ? w->size : 0);
    clb_mpi_gather_free(names, name_lens, name_locals, w->rank == 0 ? w->size : 0);
    return rc;
}

int clb_fleet_selection(struct clb_selection *sel, int rc)
{
    const struct clb_mpi_world *w = clb_mpi_fleet();

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

bool clb_fleet_active(void)
{
    return clb_mpi_fleet() != NULL;
}

bool clb_fleet_lead(void)
{
    const struct clb_mpi_world *w = clb_mpi_fleet();
    return !w || w->rank == 0;
}

int clb_fleet_local_ranks(void)
{
    const struct clb_mpi_world *w = clb_mpi_fleet();
    return w ? w->local_size : 1;
}

void clb_fleet_abort(const char *why)
{
    clb_mpi_abort_fleet(why);
}
