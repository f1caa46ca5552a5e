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
    /* Rank r's pattern is rank 0's rotated by 7 r: no rank's block is another's, shifted. */
    return (float)(r + 1) + (float)((i + 7 * (uint64_t)r) % 1021) * 0.25f;
}

#if HAVE_MPI
#include <mpi.h>

enum op { ALLREDUCE, ALLGATHER, REDUCE_SCATTER, BROADCAST, SENDRECV };

static enum op op_of(const char *name)
{
    return !strcmp(name, "allreduce")        ? ALLREDUCE
           : !strcmp(name, "allgather")      ? ALLGATHER
           : !strcmp(name, "reduce-scatter") ? REDUCE_SCATTER
           : !strcmp(name, "broadcast")      ? BROADCAST
                                             : SENDRECV;
}

/*
 * sums[k]: the fp32 sum over n ranks of clb_collective_value(., i) for
 * i mod 1021 = k, exact while it stays below 2^22 (multiples of 1/4):
 * up to CLB_COLLECTIVE_MAX_RANKS ranks.
 */
static void sums_init(float sums[1021], int n)
{
    for (int k = 0; k < 1021; k++) {
        float s = 0.0f;
        for (int r = 0; r < n; r++)
            s += clb_collective_value(r, (uint64_t)k);
        sums[k] = s;
    }
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

static int buffers_alloc(struct buffers *b, enum op op, uint64_t count, int n,
                         const struct clb_collective_options *opt, char *why, size_t len)
{
    struct clb_error e = { "" };
    cl_int err = CL_SUCCESS;

    b->send_n = op == REDUCE_SCATTER ? count * (uint64_t)n : count;
    b->recv_n = op == ALLGATHER ? count * (uint64_t)n : op == BROADCAST ? 0 : count;
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
        if (clb_cl_check(&e, "clCreateBuffer", err)) {
            snprintf(why, len, "%s", e.msg);
            return -1;
        }
    }
    return 0;
}

/*
 * This rank's input (host, then device) and its output marked unwritten
 * (NaN, which equals nothing): called before the first call and again
 * before the call that is checked, so a call that writes nothing shows.
 * -1 with why when the device does not take it.
 */
static int fill(struct buffers *b, enum op op, int rank, const struct clb_collective_options *opt,
                char *why, size_t len)
{
    struct clb_error e = { "" };

    for (uint64_t i = 0; i < b->send_n; i++)
        b->send[i] = op == BROADCAST && rank != 0 ? NAN : clb_collective_value(rank, i);
    for (uint64_t i = 0; i < b->recv_n; i++)
        b->recv[i] = NAN;
    if (!opt->env)
        return 0;
    if (CLB_CL(&e, clEnqueueWriteBuffer, opt->env->queue, b->dsend, CL_TRUE, 0,
               b->send_n * sizeof(float), b->send, 0, NULL, NULL) ||
        (b->recv_n && CLB_CL(&e, clEnqueueWriteBuffer, opt->env->queue, b->drecv, CL_TRUE, 0,
                             b->recv_n * sizeof(float), b->recv, 0, NULL, NULL))) {
        snprintf(why, len, "writing the input to the device failed: %s", e.msg);
        return -1;
    }
    return 0;
}

static void op_call(enum op op, struct buffers *b, uint64_t count, const struct clb_mpi_world *w)
{
    const int c = (int)count;

    /* MPI errors are fatal (MPI_ERRORS_ARE_FATAL): the launcher ends every rank. */
    switch (op) {
    case ALLREDUCE:
        MPI_Allreduce(b->send, b->recv, c, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        break;
    case ALLGATHER:
        MPI_Allgather(b->send, c, MPI_FLOAT, b->recv, c, MPI_FLOAT, MPI_COMM_WORLD);
        break;
    case REDUCE_SCATTER:
        MPI_Reduce_scatter_block(b->send, b->recv, c, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        break;
    case BROADCAST:
        MPI_Bcast(b->send, c, MPI_FLOAT, 0, MPI_COMM_WORLD);
        break;
    case SENDRECV: /* a ring, each rank to the next and from the previous */
        MPI_Sendrecv(b->send, c, MPI_FLOAT, (w->rank + 1) % w->size, 7, b->recv, c, MPI_FLOAT,
                     (w->rank + w->size - 1) % w->size, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        break;
    }
}

/*
 * One call, every rank together: the device buffer to host memory, a
 * barrier (so MPI's time holds no other rank's copy), the operation, the
 * result back to the device. *mpi_s and *path_s: the MPI part and the whole,
 * on this rank. An OpenCL error (or `fault`, the test hook's) still makes
 * every MPI call (with stale data), so the ranks stay in step, and is
 * reported after.
 */
static int call(enum op op, struct buffers *b, uint64_t count, const struct clb_mpi_world *w,
                const struct clb_collective_options *opt, bool fault, double *mpi_s,
                double *path_s, char *why, size_t len)
{
    const double t0 = MPI_Wtime();
    struct clb_error e = { "" };
    cl_int err = CL_SUCCESS;

    if (opt->env) {
        err = CLB_CL(&e, clEnqueueReadBuffer, opt->env->queue, b->dsend, CL_TRUE, 0,
                     b->send_n * sizeof(float), b->send, 0, NULL, NULL);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    const double t1 = MPI_Wtime();
    op_call(op, b, count, w);
    const double t2 = MPI_Wtime();
    if (opt->env && err == CL_SUCCESS) {
        /* broadcast works in place: its result is the send buffer. */
        err = CLB_CL(&e, clEnqueueWriteBuffer, opt->env->queue,
                     b->recv_n ? b->drecv : b->dsend, CL_TRUE, 0,
                     (b->recv_n ? b->recv_n : b->send_n) * sizeof(float),
                     b->recv_n ? b->recv : b->send, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = CLB_CL(&e, clFinish, opt->env->queue);
    }
    if (fault && err == CL_SUCCESS)
        err = clb_cl_check(&e, "clFinish (CLBENCH_TEST_ERROR_RANK)", CL_OUT_OF_RESOURCES);
    *mpi_s = t2 - t1;
    *path_s = MPI_Wtime() - t0;
    if (err != CL_SUCCESS) {
        snprintf(why, len, "OpenCL error moving the buffers: %s", e.msg);
        return -1;
    }
    return 0;
}

/* This rank's result, read back from the device when it is there; -1 with why when wrong. */
static int verify(enum op op, struct buffers *b, uint64_t count, const struct clb_mpi_world *w,
                  const struct clb_collective_options *opt, const float sums[1021], char *why,
                  size_t len)
{
    float *out = op == BROADCAST ? b->send : b->recv;
    const uint64_t n_out = op == BROADCAST ? b->send_n : b->recv_n;
    const int prev = (w->rank + w->size - 1) % w->size;
    struct clb_error e = { "" };

    if (opt->env && CLB_CL(&e, clEnqueueReadBuffer, opt->env->queue,
                           op == BROADCAST ? b->dsend : b->drecv, CL_TRUE, 0,
                           n_out * sizeof(float), out, 0, NULL, NULL)) {
        snprintf(why, len, "reading the result back from the device failed: %s", e.msg);
        return -1;
    }
    const char *fail = getenv("CLBENCH_TEST_FAIL_RANK"); /* test hook: a wrong result */
    if (fail && atoi(fail) == w->rank)
        out[n_out / 2] += 1.0f;
    for (uint64_t i = 0; i < n_out; i++) {
        float want = 0.0f;
        switch (op) {
        case ALLREDUCE:
            want = sums[i % 1021];
            break;
        case ALLGATHER:
            want = clb_collective_value((int)(i / count), i % count);
            break;
        case REDUCE_SCATTER:
            want = sums[((uint64_t)w->rank * count + i) % 1021];
            break;
        case BROADCAST:
            want = clb_collective_value(0, i);
            break;
        case SENDRECV:
            want = clb_collective_value(prev, i);
            break;
        }
        if (!(out[i] == want)) {
            snprintf(why, len, "element %llu is %g, expected %g", (unsigned long long)i,
                     (double)out[i], (double)want);
            return -1;
        }
    }
    return 0;
}

/* Every rank learns the first (lowest) failing rank's message, if any failed. */
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

/*
 * The warm-up and timed calls into row (the slowest rank's time) and path, then one more
 * on reset outputs: the one checked. false (the row an error) once the ranks agree one
 * failed; ok: whether this rank stands so far.
 */
static bool timed_rounds(enum op op, struct buffers *b, uint64_t count,
                         const struct clb_mpi_world *w, const struct clb_collective_options *opt,
                         bool ok, struct clb_row *row, double *path, char *why, size_t len)
{
    /* Test hooks: a rank dies, a rank's device fails. */
    const char *kill_rank = getenv("CLBENCH_TEST_KILL_RANK");
    const char *error_rank = getenv("CLBENCH_TEST_ERROR_RANK");
    const bool fault = error_rank && atoi(error_rank) == w->rank;
    for (unsigned i = 0; i <= opt->warmup + opt->runs; i++) {
        const bool checked = i == opt->warmup + opt->runs;
        double t[2], slowest[2];
        if (checked && fill(b, op, w->rank, opt, why, len))
            ok = false;
        MPI_Barrier(MPI_COMM_WORLD);
        if (kill_rank && atoi(kill_rank) == w->rank && i == opt->warmup)
            raise(SIGKILL);
        ok = call(op, b, count, w, opt, fault, &t[0], &t[1], why, len) == 0 && ok;
        MPI_Allreduce(t, slowest, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (!agree(w, ok, why, row->reason, sizeof(row->reason))) {
            row->status = CLB_ROW_ERROR;
            return false;
        }
        if (i >= opt->warmup && !checked) {
            row->times_s[row->n_times++] = slowest[0];
            path[i - opt->warmup] = slowest[1];
        }
    }
    return true;
}

/*
 * One (op, size) on every rank: the same sequence of MPI calls on each,
 * whatever fails where (a failure is agreed on, then every rank stops the
 * row together).
 */
static void one(const struct clb_mpi_world *w, const struct clb_collective_options *opt,
                const float sums[1021], const char *name, uint64_t count, uint64_t moved,
                struct clb_micro_results *out)
{
    const enum op op = op_of(name);
    struct clb_row scratch = { 0 };
    struct clb_row *row = clb_micro_add(out, opt->device, CLB_BENCH_COLLECTIVE, "gbps");
    const bool lost = !row; /* still takes part, so the other ranks are not left waiting */
    struct buffers b = { 0 };
    char why[256] = "", size_s[32];
    double *path = NULL;

    if (lost)
        row = &scratch;
    clb_format_bytes(moved, size_s, sizeof(size_s));
    snprintf(row->case_, sizeof(row->case_), "%s %s", name, size_s);
    snprintf(row->backend, sizeof(row->backend), "mpi");
    row->ranks = w->size;
    row->work = (double)moved; /* so the summary's figure is algbw; busbw follows */
    bool ok = !lost && w->size <= CLB_COLLECTIVE_MAX_RANKS && count <= 0x7fffffff &&
              buffers_alloc(&b, op, count, w->size, opt, why, sizeof(why)) == 0 &&
              (row->times_s = calloc(opt->runs, sizeof(double))) &&
              (path = calloc(opt->runs, sizeof(double)));
    if (!ok && !why[0])
        snprintf(why, sizeof(why), w->size > CLB_COLLECTIVE_MAX_RANKS
                                       ? "more ranks than the check's exact sums allow"
                                       : count > 0x7fffffff ? "more than 2^31 elements"
                                                            : "out of host memory");
    if (ok && fill(&b, op, w->rank, opt, why, sizeof(why)))
        ok = false;
    if (!agree(w, ok, why, row->reason, sizeof(row->reason))) {
        row->status = CLB_ROW_ERROR;
        goto done;
    }
    if (!timed_rounds(op, &b, count, w, opt, ok, row, path, why, sizeof(why)))
        goto done;
    ok = verify(op, &b, count, w, opt, sums, why, sizeof(why)) == 0;
    clb_micro_row_summarize(row);
    row->algbw = row->value;
    row->value *= clb_collective_bus_factor(name, w->size);
    row->best *= clb_collective_bus_factor(name, w->size);
    row->median *= clb_collective_bus_factor(name, w->size);
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
    if (lost)
        free(scratch.times_s);
    free(path);
    buffers_free(&b);
}

void clb_collective_run(const struct clb_mpi_world *w, const struct clb_collective_options *opt,
                        struct clb_micro_results *out)
{
    float sums[1021];

    sums_init(sums, w->size);
    for (size_t o = 0; o < opt->n_ops; o++) {
        uint64_t done[64];
        size_t n_done = 0;
        for (size_t s = 0; s < opt->n_sizes && clb_mpi_all(!clb_interrupted()); s++) {
            uint64_t count, moved;
            bool again = false;
            clb_collective_shape(opt->ops[o], opt->bytes[s], w->size, &count, &moved);
            /* Two sizes that round to the same shape are one row (the same on every rank). */
            for (size_t k = 0; k < n_done; k++)
                again |= done[k] == moved;
            if (again)
                continue;
            if (n_done < sizeof(done) / sizeof(done[0]))
                done[n_done++] = moved;
            one(w, opt, sums, opt->ops[o], count, moved, out);
        }
    }
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
