/* The one lifecycle of a measuring command (runner.h): the hooks' order and the fleet's part. */
#include "runner.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clbench/bench/gemm_run.h"
#include "clbench/bench/micro.h"
#include "clbench/core/types.h"
#include "clbench/util/interrupt.h"

bool clb_row_failed(int status)
{
    return status == CLB_ROW_FAILED || status == CLB_ROW_ERROR;
}

int clb_measure_check(const struct clb_measure *m, struct clb_error *e)
{
    const char *missing = !m->name       ? "name"
                          : !m->validate ? "validate hook"
                          : !m->report   ? "report hook"
                          : !m->write    ? "write hook"
                                         : NULL;

    if (!missing)
        return 0;
    clb_error_set(e, "the measure '%s' lacks its %s, which the runner requires",
                  m->name ? m->name : "(no name)", missing);
    return -1;
}

/* validate's checks, then --output's name whatever they found: 0, or the worst status. */
static int validate(const struct clb_measure *m, struct clb_run *run)
{
    int rc = m->validate(run);

    if (run->output && clb_format_from_path(run->output) < 0) {
        fprintf(stderr, "clbench %s: option --output: '%s' must end in .json or .csv\n",
                m->name, run->output);
        if (rc == CLB_EXIT_OK)
            rc = CLB_EXIT_USAGE;
    }
    return rc;
}

/* Whether a row the run's status is judged on failed or erred. */
static bool rows_failed(const struct clb_run *run)
{
    bool failed = false;

    for (size_t i = 0; run->gemm_rows && i < run->gemm_rows->n_rows; i++)
        failed |= clb_row_failed(run->gemm_rows->rows[i].status);
    for (size_t i = 0; run->micro_rows && i < run->micro_rows->n_rows; i++)
        failed |= clb_row_failed(run->micro_rows->rows[i].status);
    return failed;
}

/* validate, agreed; the devices; the plan, the same on every rank. 0 or the exit status. */
static int prepare(const struct clb_measure *m, struct clb_run *run)
{
    int rc;

    /* Every rank of a fleet goes on, or none (the output folder is checked on each). */
    if ((rc = clb_fleet_agree(validate(m, run))) != CLB_EXIT_OK)
        return rc;
    /* OpenBLAS alone needs no OpenCL: -b openblas works on a machine without a driver. */
    if ((!m->devices_needed || m->devices_needed(run)) &&
        (rc = clb_fleet_selection(&run->sel, clb_selection_open(run->common, &run->sel))) !=
            CLB_EXIT_OK)
        return rc;
    /* A fleet's ranks must take the same steps: the same plan on every rank. */
    const unsigned long plan =
        clb_plan_add(clb_plan_add(14695981039346656037ul, run->sel.n_slots), run->schedule);
    if ((rc = clb_fleet_plan(m->name, plan)) != CLB_EXIT_OK)
        clb_selection_close(&run->sel);
    return rc;
}

/* The steps, each behind the fleet's barrier. 0, or 1 when measure failed (e set). */
static int steps(const struct clb_measure *m, struct clb_run *run, struct clb_error *e)
{
    clb_interrupt_install();
    if (m->host_step && clb_fleet_step(NULL))
        m->host_step(run);
    /* In a fleet every rank takes its d-th device step together, device or not. */
    for (size_t d = 0; m->device_step && d < run->sel.n_slots && clb_fleet_step(NULL); d++)
        m->device_step(run, d);
    return m->measure && m->measure(run, e) ? CLB_EXIT_FAILURE : CLB_EXIT_OK;
}

/* After the steps: the record, the report, emitted; the exit status. */
static int emit(const struct clb_measure *m, struct clb_run *run, char **text, size_t *len)
{
    /* After the run: the libraries as they ran (OpenBLAS's threads are set by then). */
    struct clb_run_record *record = clb_run_record_capture(run->backends, run->n_backends);

    if (!record) {
        clb_fleet_abort("out of host memory");
        return CLB_EXIT_FAILURE;
    }
    run->meta.record = record;
    const void *report = m->report(run);
    if (rows_failed(run))
        run->rc = CLB_EXIT_FAILURE;
    int rc = run->rc;
    if (run->merge) {
        if (m->write(run->out, run->common->format, report))
            rc = CLB_EXIT_FAILURE;
        /* open_memstream sets *text and *len at fclose: read them after it. */
        if (run->out != stdout && fclose(run->out))
            *len = 0;
        run->out = NULL;
        if (clb_fleet_active())
            rc = clb_fleet_gather_text(run->common->format, *text, *len, run->merge, rc);
        if (clb_finish_stdout())
            rc = CLB_EXIT_FAILURE;
        rc = clb_fleet_agree(rc);
    } else if (!run->world || clb_fleet_lead()) {
        /* One way: the fleet's merged document, or (alone, a collective's rank 0) this one. */
        rc = !run->world && clb_fleet_active()
                 ? clb_fleet_emit(run->common, run->output, m->write, report, rc)
                 : clb_emit_result(run->common, run->output, m->write, report, rc);
    }
    run->meta.record = NULL;
    free(record);
    const int sig = run->meta.signal;
    if (sig && clb_fleet_lead())
        fprintf(stderr, "clbench: interrupted by %s; %s\n", strsignal(sig),
                run->kept ? run->kept : "the results measured so far were kept");
    return sig ? 128 + sig : rc;
}

static int lifecycle(const struct clb_measure *m, struct clb_run *run)
{
    struct clb_error e;
    char *text = NULL;
    size_t len = 0;
    int rc = prepare(m, run);

    if (rc != CLB_EXIT_OK)
        return rc;
    run->step = clb_fleet_active() ? clb_fleet_step : NULL;
    /* A streaming command's text: in a fleet each rank's to memory, for rank 0 to merge. */
    run->out = run->merge && clb_fleet_active() ? open_memstream(&text, &len) : stdout;
    if (!run->out) {
        fprintf(stderr, "clbench: out of host memory\n");
        run->out = stdout;
        run->rc = CLB_EXIT_FAILURE;
    }
    const int own = m->begin ? m->begin(run) : CLB_EXIT_OK;
    if ((rc = clb_fleet_agree(own)) != CLB_EXIT_OK) {
        if (run->refused && clb_fleet_lead())
            fprintf(stderr, "clbench %s: %s\n", m->name, run->refused);
    } else if ((rc = steps(m, run, &e)) != CLB_EXIT_OK) {
        clb_fleet_abort(e.msg);
        clb_report_error(&e);
    } else {
        /* First (asleep), the end of every rank's steps. */
        run->meta.signal = clb_fleet_signal();
        run->meta.complete = !run->interrupted && !clb_interrupted() && !run->meta.signal;
        rc = emit(m, run, &text, &len);
    }
    if (run->out && run->out != stdout)
        fclose(run->out);
    free(text);
    if (m->finish)
        m->finish(run);
    clb_selection_close(&run->sel);
    return rc;
}

static int run_measure(const struct clb_measure *m, void *cmd, const struct clb_common *common,
                       bool world)
{
    struct clb_run run = { .cmd = cmd, .common = common,
                           .meta = { .argc = common->argc, .argv = common->argv,
                                     .started = time(NULL) } };
    struct clb_error e;
    int rc;

    /* A hook left out is the command's bug: say which, rather than call NULL. */
    if (clb_measure_check(m, &e)) {
        clb_report_error(&e);
        return CLB_EXIT_FAILURE;
    }
    rc = world ? clb_fleet_enter_world(m->name, &run.world) : clb_fleet_enter(m->name);
    if (rc == CLB_EXIT_OK)
        rc = lifecycle(m, &run);
    clb_fleet_leave();
    return rc;
}

int clb_measure_run(const struct clb_measure *m, void *cmd, const struct clb_common *common)
{
    return run_measure(m, cmd, common, false);
}

int clb_measure_run_world(const struct clb_measure *m, void *cmd,
                          const struct clb_common *common)
{
    return run_measure(m, cmd, common, true);
}
