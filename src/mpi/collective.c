#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/mpi/collective.h"
#include "clbench/util/interrupt.h"
#include "clbench/util/units.h"
#include "config.h"

const char *const clb_collective_ops[] = { "allreduce", "allgather", "reduce-scatter",
                                           "broadcast", "sendrecv",  NULL };

double clb_collective_bus_factor(const char *op, int n)
{
    if (n < 1)
        return 0.0;
    if (!strcmp(op, "allreduce"))
        return 2.0 * (n - 1) / n;
    if (!strcmp(op, "allgather") || !strcmp(op, "reduce-scatter"))
        return (double)(n - 1) / n;
    if (!strcmp(op, "broadcast") || !strcmp(op, "sendrecv"))
        return 1.0;
    return 0.0;
}

/* Ops whose S is split into n equal parts, one per rank. */
static bool split(const char *op)
{
    return !strcmp(op, "allgather") || !strcmp(op, "reduce-scatter");
}

void clb_collective_shape(const char *op, uint64_t bytes, int n, uint64_t *count,
                          uint64_t *moved)
{
    const uint64_t parts = split(op) && n > 0 ? (uint64_t)n : 1;
    uint64_t c = bytes / sizeof(float) / parts;

    if (c == 0)
        c = 1;
    *count = c;
    *moved = c * parts * sizeof(float);
}

float clb_collective_value(int r, uint64_t i)
{
    return (float)(r + 1) + (float)(i % 1021) * 0.25f;
}

#if HAVE_MPI
#include <mpi.h>

/* The fp32 sum over n ranks of clb_collective_value(., i): exact (multiples of 1/4 below 2^22). */
static float sum_of(int n, uint64_t i)
{
    return (float)n * (float)(n + 1) / 2.0f + (float)n * (float)(i % 1021) * 0.25f;
}

struct buffers {
    float *send, *recv;          /* host; broadcast works in place in send */
    uint64_t send_n, recv_n;     /* elements */
    cl_mem dsend, drecv;         /* device buffers (NULL with host buffers) */
};

static void buffers_free(struct buffers *b)
{
    free(b->send);
    free(b->recv);
    if (b->dsend)
        clReleaseMemObject(b->dsend);
    if (b->drecv)
        clReleaseMemObject(b->drecv);
    memset(b, 0, sizeof(*b));
}

static int buffers_alloc(struct buffers *b, const char *op, uint64_t count, int n,
                         const struct clb_collective_options *opt, char *why, size_t len)
{
    cl_int err = CL_SUCCESS;

    memset(b, 0, sizeof(*b));
    b->send_n = !strcmp(op, "reduce-scatter") ? count * (uint64_t)n : count;
    b->recv_n = !strcmp(op, "allgather") ? count * (uint64_t)n
                : !strcmp(op, "broadcast") ? 0 : count;
    b->send = malloc(b->send_n * sizeof(float));
    b->recv = b->recv_n ? malloc(b->recv_n * sizeof(float)) : NULL;
    if (!b->send || (b->recv_n && !b->recv)) {
        snprintf(why, len, "out of host memory");
        return -1;
    }
    if (opt->env) {
        b->dsend = clCreateBuffer(opt->env->ctx, CL_MEM_READ_WRITE, b->send_n * sizeof(float),
                                  NULL, &err);
        if (err == CL_SUCCESS && b->recv_n)
            b->drecv = clCreateBuffer(opt->env->ctx, CL_MEM_READ_WRITE,
                                      b->recv_n * sizeof(float), NULL, &err);
        if (err != CL_SUCCESS) {
            snprintf(why, len, "clCreateBuffer: error %d", (int)err);
            return -1;
        }
    }
    return 0;
}

/* Fills this rank's input (host, then device) and marks the output unwritten. */
static int fill(struct buffers *b, const char *op, int rank,
                const struct clb_collective_options *opt)
{
    const bool bcast = !strcmp(op, "broadcast");

    for (uint64_t i = 0; i < b->send_n; i++)
        b->send[i] = bcast && rank != 0 ? NAN : clb_collective_value(rank, i);
    for (uint64_t i = 0; i < b->recv_n; i++)
        b->recv[i] = NAN;
    if (!opt->env)
        return 0;
    cl_int err = clEnqueueWriteBuffer(opt->env->queue, b->dsend, CL_TRUE, 0,
                                      b->send_n * sizeof(float), b->send, 0, NULL, NULL);
    if (err == CL_SUCCESS && b->recv_n)
        err = clEnqueueWriteBuffer(opt->env->queue, b->drecv, CL_TRUE, 0,
                                   b->recv_n * sizeof(float), b->recv, 0, NULL, NULL);
    return err == CL_SUCCESS ? 0 : -1;
}

static int op_call(const char *op, struct buffers *b, uint64_t count, const struct clb_mpi_world *w)
{
    const int c = (int)count;

    if (!strcmp(op, "allreduce"))
        return MPI_Allreduce(b->send, b->recv, c, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    if (!strcmp(op, "allgather"))
        return MPI_Allgather(b->send, c, MPI_FLOAT, b->recv, c, MPI_FLOAT, MPI_COMM_WORLD);
    if (!strcmp(op, "reduce-scatter"))
        return MPI_Reduce_scatter_block(b->send, b->recv, c, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    if (!strcmp(op, "broadcast"))
        return MPI_Bcast(b->send, c, MPI_FLOAT, 0, MPI_COMM_WORLD);
    /* sendrecv: a ring, each rank to the next and from the previous. */
    return MPI_Sendrecv(b->send, c, MPI_FLOAT, (w->rank + 1) % w->size, 7, b->recv, c, MPI_FLOAT,
                        (w->rank + w->size - 1) % w->size, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/*
 * One call: device buffers to host, the operation, the result back to the
 * device. *mpi_s and *path_s: the MPI part and the whole path, this rank.
 */
static int call(const char *op, struct buffers *b, uint64_t count, const struct clb_mpi_world *w,
                const struct clb_collective_options *opt, double *mpi_s, double *path_s,
                char *why, size_t len)
{
    const double t0 = MPI_Wtime();
    cl_int err = CL_SUCCESS;

    if (opt->env)
        err = clEnqueueReadBuffer(opt->env->queue, b->dsend, CL_TRUE, 0,
                                  b->send_n * sizeof(float), b->send, 0, NULL, NULL);
    const double t1 = MPI_Wtime();
    int rc = err == CL_SUCCESS ? op_call(op, b, count, w) : MPI_SUCCESS;
    const double t2 = MPI_Wtime();
    if (opt->env && err == CL_SUCCESS && rc == MPI_SUCCESS) {
        /* broadcast works in place: its result is the send buffer. */
        err = b->recv_n ? clEnqueueWriteBuffer(opt->env->queue, b->drecv, CL_TRUE, 0,
                                               b->recv_n * sizeof(float), b->recv, 0, NULL,
                                               NULL)
                        : clEnqueueWriteBuffer(opt->env->queue, b->dsend, CL_TRUE, 0,
                                               b->send_n * sizeof(float), b->send, 0, NULL,
                                               NULL);
        if (err == CL_SUCCESS)
            err = clFinish(opt->env->queue);
    }
    *mpi_s = t2 - t1;
    *path_s = MPI_Wtime() - t0;
    if (err != CL_SUCCESS) {
        snprintf(why, len, "OpenCL error %d moving the buffers", (int)err);
        return -1;
    }
    if (rc != MPI_SUCCESS) {
        char msg[MPI_MAX_ERROR_STRING];
        int n = 0;
        MPI_Error_string(rc, msg, &n);
        snprintf(why, len, "%s: %.*s", op, n, msg);
        return -1;
    }
    return 0;
}

/* This rank's result, read back from the device when it is there; -1 with why when wrong. */
static int verify(const char *op, struct buffers *b, uint64_t count, const struct clb_mpi_world *w,
                  const struct clb_collective_options *opt, char *why, size_t len)
{
    const bool bcast = !strcmp(op, "broadcast");
    float *out = bcast ? b->send : b->recv;
    const uint64_t n_out = bcast ? b->send_n : b->recv_n;

    if (opt->env && clEnqueueReadBuffer(opt->env->queue, bcast ? b->dsend : b->drecv, CL_TRUE, 0,
                                        n_out * sizeof(float), out, 0, NULL, NULL) != CL_SUCCESS) {
        snprintf(why, len, "reading the result back from the device failed");
        return -1;
    }
    const char *fail = getenv("CLBENCH_TEST_FAIL_RANK"); /* test hook: a wrong result */
    if (fail && atoi(fail) == w->rank)
        out[n_out / 2] += 1.0f;
    for (uint64_t i = 0; i < n_out; i++) {
        float want;
        if (!strcmp(op, "allreduce"))
            want = sum_of(w->size, i);
        else if (!strcmp(op, "allgather"))
            want = clb_collective_value((int)(i / count), i % count);
        else if (!strcmp(op, "reduce-scatter"))
            want = sum_of(w->size, (uint64_t)w->rank * count + i);
        else if (bcast)
            want = clb_collective_value(0, i);
        else
            want = clb_collective_value((w->rank + w->size - 1) % w->size, i);
        if (!(out[i] == want)) {
            snprintf(why, len, "element %llu is %g, expected %g", (unsigned long long)i,
                     (double)out[i], (double)want);
            return -1;
        }
    }
    return 0;
}

/* Every rank learns the first (lowest) rank's message when any failed. */
static bool agree(const struct clb_mpi_world *w, bool ok, const char *why, char *out, size_t len)
{
    int mine = ok ? w->size : w->rank, first = w->size;
    char msg[256] = "";

    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == w->size)
        return true;
    if (w->rank == first)
        snprintf(msg, sizeof(msg), "%.64s: %.180s", w->host, why);
    MPI_Bcast(msg, sizeof(msg), MPI_CHAR, first, MPI_COMM_WORLD);
    snprintf(out, len, "rank %d on %s", first, msg);
    return false;
}

static void one(const struct clb_mpi_world *w, const struct clb_collective_options *opt,
                const char *op, uint64_t bytes, struct clb_micro_results *out)
{
    struct clb_micro_row *row = clb_micro_add(out, opt->device, "collective", "gbps");
    struct buffers b = { 0 };
    uint64_t count, moved;
    char why[256] = "", size_s[32];
    double *path = NULL;

    if (!row)
        return;
    clb_collective_shape(op, bytes, w->size, &count, &moved);
    clb_format_bytes(moved, size_s, sizeof(size_s));
    snprintf(row->case_, sizeof(row->case_), "%s %s", op, size_s);
    row->backend = "mpi";
    row->ranks = w->size;
    row->work = (double)moved; /* so the summary's figure is algbw; busbw follows */
    bool ok = count <= 0x7fffffff &&
              buffers_alloc(&b, op, count, w->size, opt, why, sizeof(why)) == 0 &&
              (row->times_s = calloc(opt->runs, sizeof(double))) &&
              (path = calloc(opt->runs, sizeof(double)));
    if (ok && fill(&b, op, w->rank, opt)) {
        snprintf(why, sizeof(why), "writing the input to the device failed");
        ok = false;
    } else if (!ok && !why[0]) {
        snprintf(why, sizeof(why), count > 0x7fffffff ? "more than 2^31 elements"
                                                      : "out of host memory");
    }
    if (!agree(w, ok, why, row->reason, sizeof(row->reason))) {
        row->status = CLB_ROW_ERROR;
        goto done;
    }
    const char *kill_rank = getenv("CLBENCH_TEST_KILL_RANK"); /* test hook: a rank dies */
    for (unsigned i = 0; i < opt->warmup + opt->runs && ok; i++) {
        double t[2], slowest[2];
        MPI_Barrier(MPI_COMM_WORLD);
        if (kill_rank && atoi(kill_rank) == w->rank && i == opt->warmup)
            raise(SIGKILL);
        ok = call(op, &b, count, w, opt, &t[0], &t[1], why, sizeof(why)) == 0;
        MPI_Allreduce(t, slowest, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (!agree(w, ok, why, row->reason, sizeof(row->reason))) {
            row->status = CLB_ROW_ERROR;
            goto done;
        }
        if (i >= opt->warmup) {
            row->times_s[row->n_times++] = slowest[0];
            path[i - opt->warmup] = slowest[1];
        }
    }
    ok = verify(op, &b, count, w, opt, why, sizeof(why)) == 0;
    clb_micro_row_summarize(row);
    row->algbw = row->value;
    row->value *= clb_collective_bus_factor(op, w->size);
    row->best *= clb_collective_bus_factor(op, w->size);
    if (opt->env) {
        struct clb_stats ps;
        clb_stats_compute(path, row->n_times, &ps);
        row->path_median_s = ps.median;
    }
    if (agree(w, ok, why, row->reason, sizeof(row->reason))) {
        row->status = CLB_ROW_OK;
        snprintf(row->check, sizeof(row->check), "every element on %d rank%s", w->size,
                 w->size == 1 ? "" : "s");
    } else {
        row->status = CLB_ROW_FAILED;
    }
done:
    free(path);
    buffers_free(&b);
}

void clb_collective_run(const struct clb_mpi_world *w, const struct clb_collective_options *opt,
                        struct clb_micro_results *out)
{
    for (size_t o = 0; o < opt->n_ops; o++)
        for (size_t s = 0; s < opt->n_sizes && clb_mpi_all(!clb_interrupted()); s++)
            one(w, opt, opt->ops[o], opt->bytes[s], out);
}

#else

void clb_collective_run(const struct clb_mpi_world *w, const struct clb_collective_options *opt,
                        struct clb_micro_results *out)
{
    (void)w;
    (void)opt;
    (void)out;
}

#endif
