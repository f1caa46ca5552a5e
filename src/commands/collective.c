/* collective: MPI collectives across the ranks of mpirun/srun, verified. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clbench/cli/args.h"
#include "clbench/cli/gemm_args.h"
#include "clbench/mpi/collective.h"
#include "clbench/output/micro.h"
#include "clbench/util/interrupt.h"
#include "clbench/util/parse.h"
#include "common.h"

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
      .parse = opt_ops, .offset = offsetof(struct collective_config, ops), .def = "all" },
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
      .parse = clb_opt_string, .offset = offsetof(struct collective_config, output) },
    { 0 },
};

static int collective_main(void *config, int n_operands, char **operands)
{
    struct collective_config *cfg = config;
    struct clb_selection sel = { 0 };
    struct clb_micro_results res = { 0 };
    struct clb_mpi_world w;
    struct clb_cl_env env = { 0 };
    struct clb_run_meta meta = { .argc = cfg->common.argc, .argv = cfg->common.argv,
                                 .started = time(NULL) };
    struct clb_error e = { "" };
    const struct clb_device *dev = NULL; /* this rank's, holding its buffers */
    int rc = CLB_EXIT_OK;

    (void)n_operands;
    (void)operands;
    if (!clb_mpi_built()) {
        clb_mpi_start(&w, &e); /* says why */
        fprintf(stderr, "clbench collective: %s\n", e.msg);
        return CLB_EXIT_USAGE;
    }
    if (cfg->output && clb_format_from_path(cfg->output) < 0) {
        fprintf(stderr, "clbench collective: option --output: '%s' must end in .json or .csv\n",
                cfg->output);
        return CLB_EXIT_USAGE;
    }
    if (clb_mpi_start(&w, &e)) {
        clb_report_error(&e);
        return CLB_EXIT_FAILURE;
    }
    if (!cfg->host_buffers) {
        /* Each rank its own device: the first of its share of the node's (common.h). */
        rc = clb_selection_open(&cfg->common, &sel);
        if (rc == CLB_EXIT_OK && sel.n_devices) {
            dev = sel.devices[0];
            if (clb_cl_env_init(&env, dev->id, false, &e)) {
                clb_report_error(&e);
                dev = NULL;
            }
        }
    }
    if (!clb_mpi_all(rc == CLB_EXIT_OK && (cfg->host_buffers || dev))) {
        if (w.rank == 0 && rc == CLB_EXIT_OK)
            fprintf(stderr, "clbench collective: a rank has no device to hold its buffers "
                            "(use --host-buffers)\n");
        rc = rc == CLB_EXIT_OK ? CLB_EXIT_FAILURE : rc;
        goto done;
    }
    clb_interrupt_install();
    struct clb_collective_options opt = {
        .ops = cfg->ops.v, .n_ops = cfg->ops.n, .bytes = cfg->sizes.v, .n_sizes = cfg->sizes.n,
        .runs = cfg->runs, .warmup = cfg->warmup,
        .device = dev,
        .env = dev ? &env : NULL,
    };
    if (w.rank == 0 && isatty(STDERR_FILENO))
        fprintf(stderr, "collective: %d rank%s, %s buffers ...\n", w.size, w.size == 1 ? "" : "s",
                dev ? "device" : "host");
    clb_collective_run(&w, &opt, &res);
    /* A signal on any rank stopped every rank: rank 0 reports it. */
    const int signal = clb_mpi_max(clb_interrupt_signal());
    struct clb_micro_report report = { .meta = &meta, .results = &res,
                                       .devices = dev ? sel.devices : NULL,
                                       .n_devices = dev ? sel.n_devices : 0, .runs = cfg->runs,
                                       .collective = true };
    if (w.rank == 0) {
        /* Every rank holds the same agreed rows: rank 0 writes them, nothing to gather. */
        rc = clb_micro_emit(&cfg->common, cfg->output, false, &meta, signal, &report);
    } else {
        for (size_t i = 0; i < res.n_rows; i++) /* the same rows, agreed on: the same status */
            if (res.rows[i].status == CLB_ROW_FAILED || res.rows[i].status == CLB_ROW_ERROR)
                rc = CLB_EXIT_FAILURE;
    }
done:
    clb_micro_results_finish(&res);
    if (dev)
        clb_cl_env_finish(&env);
    if (sel.inv)
        clb_selection_close(&sel);
    clb_mpi_stop();
    return rc;
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
