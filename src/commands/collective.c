/* collective: MPI collectives across the ranks of mpirun/srun, verified. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clbench/cl/env.h"
#include "clbench/cli/args.h"
#include "clbench/cli/gemm_args.h"
#include "clbench/mpi/collective.h"
#include "clbench/output/micro.h"
#include "clbench/util/interrupt.h"
#include "clbench/util/parse.h"
#include "common.h"
#include "runner.h"

enum { MAX_OPS = 8 };

struct op_list {
    size_t n;
    const char *v[MAX_OPS]; /* from clb_collective_ops */
};

struct collective_config {
    struct clb_common common;
    const char *output;
    unsigned runs, warmup;
    bool host_buffers;
    struct op_list ops;
    struct clb_byte_list sizes;
};

static int opt_ops(const char *arg, void *field, struct clb_error *e)
{
    struct op_list *c = field;

    c->n = 0;
    if (!strcmp(arg, "all")) {
        for (size_t i = 0; clb_collective_ops[i]; i++)
            c->v[c->n++] = clb_collective_ops[i];
        return 0;
    }
    for (const char *s = arg;;) {
        size_t len = strcspn(s, ",");
        bool found = false;
        for (size_t i = 0; clb_collective_ops[i]; i++) {
            if (strlen(clb_collective_ops[i]) == len && !strncmp(s, clb_collective_ops[i], len)) {
                for (size_t j = 0; j < c->n; j++)
                    if (c->v[j] == clb_collective_ops[i]) {
                        clb_error_set(e, "'%s' is listed twice", clb_collective_ops[i]);
                        return -1;
                    }
                c->v[c->n++] = clb_collective_ops[i];
                found = true;
            }
        }
        if (!found) {
            clb_error_set(e, "unknown operation '%.*s' (allreduce, allgather, reduce-scatter, "
                             "broadcast, sendrecv, or all alone)", (int)len, s);
            return -1;
        }
        if (!s[len])
            return 0;
        s += len + 1;
    }
}

static int opt_sizes(const char *arg, void *field, struct clb_error *e)
{
    const struct clb_byte_list *l = field;

    if (clb_opt_byte_list(arg, field, e))
        return -1;
    for (size_t i = 0; i < l->n; i++) {
        if (l->v[i] < 4 || l->v[i] > (1ull << 30)) {
            clb_error_set(e, "size %" PRIu64 " bytes is outside 4 bytes..1 GiB", l->v[i]);
            return -1;
        }
    }
    return 0;
}

static const struct clb_option collective_options[] = {
    CLB_COMMON_OPTIONS(struct collective_config),
    { .name = "op", .metavar = "LIST",
      .help = "Operations: allreduce, allgather, reduce-scatter, broadcast, sendrecv, or all",
      .parse = opt_ops, .offset = offsetof(struct collective_config, ops), .def = "all",
      .words = "allreduce allgather reduce-scatter broadcast sendrecv all" },
    { .name = "sizes", .metavar = "LIST",
      .help = "Bytes each operation moves (nccl-tests' size), 4 B to 1 GiB",
      .parse = opt_sizes, .offset = offsetof(struct collective_config, sizes),
      .def = "8,1K,64K,1M,16M,64M" },
    { .name = "runs", .metavar = "N", .help = "Timed calls per figure", .parse = clb_opt_positive,
      .offset = offsetof(struct collective_config, runs), .def = "10" },
    { .name = "warmup", .metavar = "N", .help = "Untimed calls first", .parse = clb_opt_uint,
      .offset = offsetof(struct collective_config, warmup), .def = "2" },
    { .name = "host-buffers",
      .help = "Host memory only; by default each rank's buffers live on its device (the "
              "selected device at its local rank) and each call reads them to the host, runs "
              "MPI and writes the result back",
      .offset = offsetof(struct collective_config, host_buffers) },
    { .name = "output", .short_name = 'o', .metavar = "FILE",
      .help = "Also write the results to FILE.json or FILE.csv (rank 0)",
      .parse = clb_opt_string, .offset = offsetof(struct collective_config, output),
      .file = true },
    { 0 },
};

/* One run of collective: its config, this rank's device and what was measured. */
struct collective_run {
    struct collective_config *cfg;
    const struct clb_device *dev; /* this rank's, holding its buffers */
    struct clb_cl_env env;
    struct clb_micro_results res;
    struct clb_micro_report report;
};

static int collective_validate(struct clb_run *run)
{
    run->output = ((struct collective_run *)run->cmd)->cfg->output;
    return CLB_EXIT_OK;
}

static bool collective_devices(const struct clb_run *run)
{
    return !((struct collective_run *)run->cmd)->cfg->host_buffers;
}

/* Each rank its own device: the first of its share of the node's (selection.h). */
static int collective_begin(struct clb_run *run)
{
    struct collective_run *c = run->cmd;
    struct clb_error e;

    run->refused = "a rank has no device to hold its buffers (use --host-buffers)";
    if (c->cfg->host_buffers)
        return CLB_EXIT_OK;
    if (run->sel.n_devices) {
        c->dev = run->sel.devices[0];
        if (clb_cl_env_init(&c->env, c->dev->id, false, &e)) {
            clb_report_error(&e);
            c->dev = NULL;
        }
    }
    return c->dev ? CLB_EXIT_OK : CLB_EXIT_FAILURE;
}

static int collective_measure(struct clb_run *run, struct clb_error *e)
{
    struct collective_run *c = run->cmd;
    const struct collective_config *cfg = c->cfg;
    const struct clb_mpi_world *w = run->world;
    struct clb_collective_options opt = {
        .ops = cfg->ops.v, .n_ops = cfg->ops.n, .bytes = cfg->sizes.v, .n_sizes = cfg->sizes.n,
        .runs = cfg->runs, .warmup = cfg->warmup,
        .device = c->dev,
        .env = c->dev ? &c->env : NULL,
    };

    (void)e;
    if (w->rank == 0 && isatty(STDERR_FILENO))
        fprintf(stderr, "collective: %d rank%s, %s buffers ...\n", w->size, w->size == 1 ? "" : "s",
                c->dev ? "device" : "host");
    clb_collective_run(w, &opt, &c->res);
    return 0;
}

/* Every rank holds the same agreed rows, so the same status; rank 0 writes them. */
static const void *collective_report(struct clb_run *run)
{
    struct collective_run *c = run->cmd;

    run->micro_rows = &c->res;
    c->report = (struct clb_micro_report){ .meta = &run->meta, .results = &c->res,
                                           .devices = c->dev ? run->sel.devices : NULL,
                                           .n_devices = c->dev ? run->sel.n_devices : 0,
                                           .runs = c->cfg->runs, .collective = true };
    return &c->report;
}

static int write_report(FILE *out, enum clb_format fmt, const void *report)
{
    return clb_micro_write(out, fmt, report);
}

static void collective_finish(struct clb_run *run)
{
    struct collective_run *c = run->cmd;

    clb_micro_results_finish(&c->res);
    if (c->dev)
        clb_cl_env_finish(&c->env);
}

const struct clb_measure clb_cmd_collective_measure = {
    .name = "collective",
    .validate = collective_validate,
    .devices_needed = collective_devices,
    .begin = collective_begin,
    .measure = collective_measure,
    .report = collective_report,
    .write = write_report,
    .finish = collective_finish,
};

static int collective_main(void *config, int n_operands, char **operands)
{
    struct collective_run c = { .cfg = config };

    (void)n_operands;
    (void)operands;
    return clb_measure_run_world(&clb_cmd_collective_measure, &c, &c.cfg->common);
}

const struct clb_command clb_cmd_collective = {
    .name = "collective",
    .summary = "MPI collectives across the ranks of mpirun or srun (allreduce, allgather, "
               "reduce-scatter, broadcast, sendrecv): algbw and busbw as nccl-tests, verified.",
    .usage = "",
    .options = collective_options,
    .config_size = sizeof(struct collective_config),
    .run = collective_main,
};
