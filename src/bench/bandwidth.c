#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/cl/fault.h"
#include "clbench/cl/kernels.h"
#include "clbench/util/units.h"
#include "bandwidth_parts.h"

/* Rounds between re-initialisations (untimed): a shrinks by 0.96 a round, so that after
 * 200 the smallest element, 2^-30 x 0.96^200, and its products stay far from underflow. */
enum { REINIT_ROUNDS = 200 };

static const char *const names[N_KERNELS] = { "copy", "mul", "add", "triad",
                                              "dot",  "read", "dot chunked" };
/* Their test-hook names (CLBENCH_FAULT_STREAM_INDEX, _STREAM_ENQUEUE; clbench/cl/fault.h). */
static const char *const fault_names[N_KERNELS] = { "copy", "mul", "add", "triad",
                                                    "dot",  "read", "chunked" };
static const char *const symbols[N_KERNELS] = {
    "clb_stream_copy", "clb_stream_mul",  "clb_stream_add",        "clb_stream_triad",
    "clb_stream_dot",  "clb_stream_read", "clb_stream_dot_chunked"
};

struct stream {
    const struct clb_cl_env *env; /* its queue has profiling (clb_bandwidth_run) */
    bool fp64, cpu;          /* double arrays; the cpu code path (chunked read and dot) */
    size_t elem;             /* bytes of one element */
    cl_program prog;
    cl_kernel init, k[N_KERNELS];
    cl_mem a, b, c, partial[N_KERNELS]; /* partial sums of dot, read, dot chunked */
    size_t n;
    size_t global[N_KERNELS], local[N_KERNELS], n_partial[N_KERNELS];
    /* Each kernel's own fault (creating it, its arguments, its grid, an enqueue or wait):
     * "" while it stands; a kernel with one runs no more and fails only its own row. */
    char fault[N_KERNELS][256];
    cl_int profiling[N_KERNELS]; /* the first error a call's profiling info gave; else 0 */
};

/* Whether the stream's code path runs kernel i (the chunked dot: the cpu path only). */
static bool used(const struct stream *s, int i)
{
    return s->cpu || i != K_DOT_CHUNKED;
}

static void stream_release(struct stream *s)
{
    for (int i = 0; i < N_KERNELS; i++) {
        if (s->k[i])
            clReleaseKernel(s->k[i]);
        if (s->partial[i])
            clReleaseMemObject(s->partial[i]);
    }
    if (s->init)
        clReleaseKernel(s->init);
    cl_mem *mems[] = { &s->a, &s->b, &s->c };
    for (size_t i = 0; i < 3; i++)
        if (*mems[i])
            clReleaseMemObject(*mems[i]);
    if (s->prog)
        clReleaseProgram(s->prog);
}

/* Resets a, b, c to their starting values (untimed). */
static int stream_init(struct stream *s, struct clb_error *e)
{
    return CLB_CL(e, clEnqueueNDRangeKernel, s->env->queue, s->init, 1, NULL, &s->n, NULL, 0,
                  NULL, NULL) ||
                   clb_cl_check(e, "clFinish", clb_cl_finish(s->env->queue))
               ? -1
               : 0;
}

/* Sets argument `index` of k to the scalar v in the stream's precision. */
static int set_real(struct stream *s, cl_kernel k, cl_uint index, double v, struct clb_error *e)
{
    const float f = (float)v;

    return s->fp64 ? CLB_CL(e, clSetKernelArg, k, index, sizeof(double), &v)
                   : CLB_CL(e, clSetKernelArg, k, index, sizeof(float), &f);
}

static int set_mem(cl_kernel k, cl_uint index, cl_mem m, struct clb_error *e)
{
    return CLB_CL(e, clSetKernelArg, k, index, sizeof(cl_mem), &m);
}

/* The largest power of two <= x (1 for 0). */
static size_t floor_pow2(size_t x)
{
    size_t p = 1;
    while (p <= x / 2)
        p *= 2;
    return p;
}

/*
 * The dot kernel's work-group: BabelStream's (on the cpu path twice the native double
 * vector width, else the largest work-group the device allows) within the largest the
 * kernel itself allows (CL_KERNEL_WORK_GROUP_SIZE: its registers and local memory), a power
 * of two for its tree. 0 with e set when the kernel cannot say.
 */
static size_t dot_local(const struct stream *s, const struct clb_device *dev,
                        struct clb_error *e)
{
    size_t want = s->cpu ? 2 * clb_device_u64(dev, CLB_PROP_NATIVE_VEC_DOUBLE)
                         : clb_device_u64(dev, CLB_PROP_MAX_WORK_GROUP_SIZE);
    size_t most = 0;

    if (clb_bw_kernel_wg_size(s->k[K_DOT], s->env->device, &most, e))
        return 0;
    if (want > most)
        want = most;
    /* A device without doubles reports a native width of 0. */
    return floor_pow2(want);
}

/* Each kernel's grid but the dot's local size: one work-item per element, or the
 * reductions' own. */
static void stream_grid(struct stream *s, const struct clb_device *dev)
{
    /* BabelStream's grid: on a CPU one work-group per compute unit, elsewhere 4. */
    const size_t units = clb_device_u64(dev, CLB_PROP_COMPUTE_UNITS);
    const size_t groups = units ? units * (s->cpu ? 1 : 4) : 4;

    for (int i = 0; i < N_KERNELS; i++)
        s->global[i] = s->n;
    s->n_partial[K_DOT] = groups;
    s->global[K_READ] = s->n_partial[K_READ] = s->n / (s->cpu ? READ_CHUNK : READ_STRIDED);
    s->global[K_DOT_CHUNKED] = s->n_partial[K_DOT_CHUNKED] = s->n / DOT_CHUNK;
}

/* Kernel i's arguments, after its kernel and partial buffer exist. */
static int stream_args(struct stream *s, int i, struct clb_error *e)
{
    cl_kernel k = s->k[i];
    const cl_uint n32 = (cl_uint)s->n;

    switch (i) {
    case K_COPY:
        return set_mem(k, 0, s->a, e) || set_mem(k, 1, s->c, e) ? -1 : 0;
    case K_MUL:
        return set_mem(k, 0, s->b, e) || set_mem(k, 1, s->c, e) || set_real(s, k, 2, SCALAR, e)
                   ? -1 : 0;
    case K_ADD:
        return set_mem(k, 0, s->a, e) || set_mem(k, 1, s->b, e) || set_mem(k, 2, s->c, e)
                   ? -1 : 0;
    case K_TRIAD:
        return set_mem(k, 0, s->a, e) || set_mem(k, 1, s->b, e) || set_mem(k, 2, s->c, e) ||
                       set_real(s, k, 3, SCALAR, e)
                   ? -1 : 0;
    case K_DOT:
        return set_mem(k, 0, s->a, e) || set_mem(k, 1, s->b, e) ||
                       set_mem(k, 2, s->partial[i], e) ||
                       CLB_CL(e, clSetKernelArg, k, 3, s->local[i] * s->elem, NULL) ||
                       CLB_CL(e, clSetKernelArg, k, 4, sizeof(cl_uint), &n32)
                   ? -1 : 0;
    case K_READ:
        return set_mem(k, 0, s->a, e) || set_mem(k, 1, s->partial[i], e) ? -1 : 0;
    default:
        return set_mem(k, 0, s->a, e) || set_mem(k, 1, s->b, e) ||
                       set_mem(k, 2, s->partial[i], e)
                   ? -1 : 0;
    }
}

/* Kernel i, its partial buffer, its arguments; -1 with e set (its own fault). */
static int stream_kernel(struct stream *s, const struct clb_device *dev, int i,
                         struct clb_error *e)
{
    const char *symbol = i == K_READ && s->cpu ? "clb_stream_read_chunked" : symbols[i];
    cl_int err;

    s->k[i] = clCreateKernel(s->prog, symbol, &err);
    if (clb_cl_check(e, "clCreateKernel", err))
        return -1;
    if (i == K_DOT) {
        if (!(s->local[i] = dot_local(s, dev, e)))
            return -1;
        s->global[i] = s->n_partial[i] * s->local[i];
    }
    if (s->n_partial[i]) {
        s->partial[i] = clb_cl_buffer(s->env->ctx, CL_MEM_READ_WRITE,
                                      s->n_partial[i] * s->elem, NULL, &err);
        if (clb_cl_check(e, "clCreateBuffer", err))
            return -1;
    }
    return stream_args(s, i, e);
}

/* The program, the arrays and the init kernel (every row's), then each kernel (its own). */
static int stream_setup(struct stream *s, const struct clb_device *dev, struct clb_error *e)
{
    const struct clb_cl_env *env = s->env;
    char options[64];
    cl_int err;

    if (!(s->prog = clb_cl_build(env->ctx, dev->id, clb_kernel_source("stream"),
                                 clb_bw_build_options(s->fp64, options, sizeof(options)), e)))
        return -1;
    s->init = clCreateKernel(s->prog, "clb_stream_init", &err);
    if (clb_cl_check(e, "clCreateKernel", err))
        return -1;
    cl_mem *arrays[] = { &s->a, &s->b, &s->c };
    for (int i = 0; i < 3; i++) {
        *arrays[i] = clb_cl_buffer(env->ctx, CL_MEM_READ_WRITE, s->n * s->elem, NULL, &err);
        if (clb_cl_check(e, "clCreateBuffer", err))
            return -1;
    }
    if (set_mem(s->init, 0, s->a, e) || set_mem(s->init, 1, s->b, e) ||
        set_mem(s->init, 2, s->c, e))
        return -1;
    stream_grid(s, dev);
    for (int i = 0; i < N_KERNELS; i++) {
        struct clb_error own = { "" };
        if (used(s, i) && stream_kernel(s, dev, i, &own))
            snprintf(s->fault[i], sizeof(s->fault[i]), "%s", own.msg);
    }
    return stream_init(s, e);
}

/* One kernel's timed call into its row; -1 with s->fault[which] set. */
static int stream_step(struct stream *s, int which, struct clb_row *row, bool timed)
{
    struct clb_error e = { "" };
    double device_s = 0, host_s = 0;
    cl_int profiling = 0;

    if (clb_bw_timed_launch(s->env->queue, s->k[which], fault_names[which], s->global[which],
                            s->local[which] ? &s->local[which] : NULL, &device_s, &host_s,
                            &profiling, &e))
        goto fault;
    if (!timed)
        return 0;
    if (profiling && !s->profiling[which])
        s->profiling[which] = profiling;
    if (clb_bw_timed_push(row, device_s, host_s, profiling)) {
        clb_error_set(&e, "out of host memory");
        goto fault;
    }
    return 0;
fault:
    snprintf(s->fault[which], sizeof(s->fault[which]), "%s", e.msg);
    return -1;
}

/* The sum of kernel `which`'s partial sums (read into scratch); -1 only on a device fault. */
static int partial_sum(struct stream *s, int which, void *scratch, double *sum,
                       struct clb_error *e)
{
    *sum = 0;
    if (CLB_CL(e, clEnqueueReadBuffer, s->env->queue, s->partial[which], CL_TRUE, 0,
               s->n_partial[which] * s->elem, scratch, 0, NULL, NULL))
        return -1;
    *sum = clb_bw_exact_sum(scratch, NULL, s->fp64, s->n_partial[which]);
    return 0;
}

/* Reads the arrays and partial sums back and verifies them; -1 only on a device fault. */
static int stream_check(struct stream *s, unsigned iters, struct clb_stream_verdict *v,
                        struct clb_error *e)
{
    const size_t most = s->n_partial[K_READ] > s->n_partial[K_DOT_CHUNKED]
                            ? s->n_partial[K_READ]
                            : s->n_partial[K_DOT_CHUNKED];
    void *host[3] = { malloc(s->n * s->elem), malloc(s->n * s->elem), malloc(s->n * s->elem) };
    void *partial = malloc((most + s->n_partial[K_DOT]) * s->elem);
    cl_mem arrays[3] = { s->a, s->b, s->c };
    struct clb_stream_outcome o = { .a = host[0], .b = host[1], .c = host[2], .n = s->n,
                                    .fp64 = s->fp64, .iters = iters,
                                    .read_chunked = s->cpu, .has_chunked = s->cpu,
                                    .dot_global = s->global[K_DOT],
                                    .dot_local = s->local[K_DOT] };
    int rc = -1;

    if (!host[0] || !host[1] || !host[2] || !partial) {
        clb_error_set(e, "out of host memory");
        goto out;
    }
    for (int i = 0; i < 3; i++)
        if (CLB_CL(e, clEnqueueReadBuffer, s->env->queue, arrays[i], CL_TRUE, 0,
                   s->n * s->elem, host[i], 0, NULL, NULL))
            goto out;
    /* A kernel with a fault of its own left no sum to read; its row says why. */
    double *sums[N_KERNELS] = { [K_DOT] = &o.dot, [K_READ] = &o.read,
                                [K_DOT_CHUNKED] = &o.dot_chunked };
    for (int i = K_DOT; i < N_KERNELS; i++)
        if (used(s, i) && !s->fault[i][0] && partial_sum(s, i, partial, sums[i], e))
            goto out;
    clb_stream_verify(&o, v);
    rc = 0;
out:
    for (int i = 0; i < 3; i++)
        free(host[i]);
    free(partial);
    return rc;
}

/* Whether any of the n rows whose kernel stands wants another timed round. */
static bool more(const struct stream *s, struct clb_row *const *rows, int n,
                 const struct clb_micro_options *opt)
{
    bool want = false;

    for (int i = 0; i < n; i++)
        want |= !s->fault[i][0] && clb_micro_want(rows[i], opt->runs, opt->min_time_s);
    return want;
}

/*
 * Rounds in BabelStream's order until every row has its calls; the first is not timed. A
 * kernel's own fault stops that kernel alone; -1 (with why) when the arrays' reset fails,
 * which every row shares.
 */
static int stream_rounds(struct stream *s, struct clb_row *const *rows, int n,
                         const struct clb_micro_options *opt, unsigned *since_init,
                         char *why, size_t len)
{
    struct clb_error e = { "" };

    *since_init = 0;
    for (unsigned r = 0; r == 0 || more(s, rows, n, opt); r++) {
        if (*since_init == REINIT_ROUNDS) {
            if (stream_init(s, &e)) {
                snprintf(why, len, "%s", e.msg);
                return -1;
            }
            *since_init = 0;
        }
        (*since_init)++;
        for (int i = 0; i < n; i++)
            if (!s->fault[i][0])
                stream_step(s, i, rows[i], r > 0);
    }
    return 0;
}

/* The row's "check": what was verified, and for read which variant ran. */
static void stream_check_text(const struct stream *s, int i, char *buf, size_t len)
{
    char a[32];

    clb_format_bytes((uint64_t)s->n * s->elem, a, sizeof(a));
    if (i <= K_TRIAD)
        snprintf(buf, len, "every element of 3 arrays of %s against its own start's rounds", a);
    else if (i == K_DOT)
        snprintf(buf, len, "the dot (work-groups of %zu) against its replay over the arrays "
                 "(%s each), which were checked element by element", s->local[K_DOT], a);
    else if (i == K_READ)
        snprintf(buf, len, "the read sum against array a (%s), checked element by element; "
                 "%s path: %s", a, s->cpu ? "cpu" : "gpu",
                 s->cpu ? "contiguous chunks of 1024 elements a work-item"
                        : "coalesced, 16 elements a work-item strided by the grid");
    else
        snprintf(buf, len, "the chunked dot against the sum of a x b over the arrays (%s each), "
                 "which were checked element by element", a);
}

/* Adds the n rows of one precision to out; rows: where they lie once all are added. */
static int stream_rows(const struct clb_device *dev, bool cpu, enum clb_precision prec, int n,
                       struct clb_micro_results *out, struct clb_row **rows)
{
    for (int i = 0; i < n; i++)
        if (!clb_micro_add(out, dev, CLB_BENCH_BANDWIDTH, "gbps"))
            return -1;
    /* The rows may have moved while growing: take them now. */
    for (int i = 0; i < n; i++) {
        rows[i] = &out->rows[out->n_rows - (size_t)n + (size_t)i];
        rows[i]->precision = prec;
        rows[i]->code_path = cpu ? "cpu" : "gpu";
        snprintf(rows[i]->kernel, sizeof(rows[i]->kernel), "%s", names[i]);
    }
    return 0;
}

/* Why arrays of `bytes` (s->n elements) cannot run on dev, in why; CLB_ROW_OK when they can. */
static enum clb_row_status stream_fits(const struct clb_device *dev, const struct stream *s,
                                       uint64_t bytes, char *why, size_t len)
{
    const uint64_t max_alloc = clb_device_u64(dev, CLB_PROP_MAX_ALLOC_BYTES);
    const uint64_t global = clb_device_u64(dev, CLB_PROP_GLOBAL_MEM_BYTES);
    const char *prec = s->fp64 ? "fp64" : "fp32";
    char a[32], b[32];

    if (s->fp64 && !clb_device_bool(dev, CLB_PROP_FP64)) {
        snprintf(why, len, "device has no fp64 (cl_khr_fp64)");
        return CLB_ROW_UNAVAILABLE;
    }
    if (s->n == 0 || s->n > UINT32_MAX) {
        snprintf(why, len, "arrays of %" PRIu64 " bytes hold no %zu elements of %s, or "
                 "more than 2^32", bytes, (size_t)DOT_CHUNK, prec);
        return CLB_ROW_SKIPPED;
    }
    if (bytes > max_alloc || 3 * bytes > global) {
        clb_format_bytes(bytes, a, sizeof(a));
        clb_format_bytes(max_alloc, b, sizeof(b));
        snprintf(why, len, "three arrays of %s do not fit (largest allocation %s)", a, b);
        return CLB_ROW_SKIPPED;
    }
    return CLB_ROW_OK;
}

/* Sets up the arrays, times every kernel and checks the outcome; why says what failed. */
static enum clb_row_status stream_run(struct stream *s, const struct clb_device *dev,
                                      struct clb_row *const *rows, int n,
                                      const struct clb_micro_options *opt, unsigned *since_init,
                                      struct clb_stream_verdict *verdict, char *why, size_t len)
{
    struct clb_error e = { "" };

    if (stream_setup(s, dev, &e)) {
        snprintf(why, len, "%s", e.msg);
        return CLB_ROW_ERROR;
    }
    for (int i = 0; i < n; i++) {
        rows[i]->work = clb_bw_bytes_per_call(i, s->cpu, s->n, s->elem);
        rows[i]->launch.elements = s->n;
        rows[i]->launch.global_size = s->global[i];
        rows[i]->launch.local_size = s->local[i];
    }
    if (stream_rounds(s, rows, n, opt, since_init, why, len))
        return CLB_ROW_ERROR;
    if (stream_check(s, *since_init, verdict, &e)) {
        snprintf(why, len, "%s", e.msg);
        return CLB_ROW_ERROR;
    }
    return CLB_ROW_OK;
}

/*
 * Row i's verdict: status and why where the run as a whole did not stand, else its
 * kernel's own fault or check. Each row fails on its own kernel's check: copy, mul, add
 * and triad wrote the arrays; the sums were held against the arrays the device left.
 */
static void stream_verdict(const struct stream *s, int i, enum clb_row_status status,
                           const char *why, const struct clb_stream_verdict *verdict,
                           struct clb_row *row)
{
    const char *wrong = i <= K_TRIAD ? verdict->arrays
                        : i == K_DOT ? verdict->dot
                        : i == K_READ ? verdict->read
                                      : verdict->chunked;

    row->array_bytes = (uint64_t)s->n * s->elem;
    if (status != CLB_ROW_OK) {
        row->status = status;
        snprintf(row->reason, sizeof(row->reason), "%s", why);
    } else if (s->fault[i][0]) {
        row->status = CLB_ROW_ERROR;
        snprintf(row->reason, sizeof(row->reason), "%s", s->fault[i]);
    } else {
        row->status = wrong[0] ? CLB_ROW_FAILED : CLB_ROW_OK;
        snprintf(row->reason, sizeof(row->reason), "%s", wrong);
    }
    stream_check_text(s, i, row->check, sizeof(row->check));
    clb_bw_timer_finish(row, s->profiling[i]);
}

/*
 * One precision's rows on dev at `bytes` per array (0: the default): every
 * kernel timed, then the outcome checked. In a sweep the case names the size.
 */
static int measure(const struct clb_device *dev, const struct clb_cl_env *env,
                   const struct clb_micro_options *opt, bool cpu, bool fp64, uint64_t bytes,
                   bool sweep, struct clb_micro_results *out)
{
    struct clb_row *rows[N_KERNELS];
    struct stream s = { .env = env, .fp64 = fp64, .cpu = cpu,
                        .elem = fp64 ? sizeof(double) : sizeof(float) };
    const int n_rows = cpu ? N_KERNELS : K_DOT_CHUNKED;
    const char *prec = fp64 ? "fp64" : "fp32";
    char why[512] = "", a[32];
    struct clb_stream_verdict verdict = { "", "", "", "" };
    unsigned since_init = 0;

    if (stream_rows(dev, cpu, fp64 ? CLB_FP64 : CLB_FP32, n_rows, out, rows))
        return -1;
    /* The default shrinks to what the device allows; an explicit --bytes does not. */
    if (!bytes)
        bytes = clb_stream_default_bytes(clb_device_u64(dev, CLB_PROP_GLOBAL_MEM_BYTES),
                                         clb_device_u64(dev, CLB_PROP_MAX_ALLOC_BYTES),
                                         clb_device_is_cpu(dev));
    s.n = clb_bw_elements(bytes, s.elem);
    /* In a sweep the case names the size the arrays have (whole chunks of elements). */
    clb_format_bytes(s.n ? (uint64_t)s.n * s.elem : bytes, a, sizeof(a));
    for (int i = 0; i < n_rows; i++)
        rows[i]->sized = sweep;
    for (int i = 0; i < n_rows; i++)
        snprintf(rows[i]->case_, sizeof(rows[i]->case_), "%s %s%s%s", prec, names[i],
                 sweep ? " " : "", sweep ? a : "");
    enum clb_row_status status = stream_fits(dev, &s, bytes, why, sizeof(why));
    if (status == CLB_ROW_OK)
        status = stream_run(&s, dev, rows, n_rows, opt, &since_init, &verdict, why,
                            sizeof(why));
    for (int i = 0; i < n_rows; i++)
        stream_verdict(&s, i, status, why, &verdict, rows[i]);
    stream_release(&s);
    return 0;
}

int clb_bandwidth_run(const struct clb_device *dev, const struct clb_cl_env *env,
                      const struct clb_micro_options *opt, struct clb_micro_results *out)
{
    bool fp32 = false, fp64 = false;

    for (size_t i = 0; opt->precisions && i < opt->n_precisions; i++) {
        fp32 |= opt->precisions[i] == CLB_FP32;
        fp64 |= opt->precisions[i] == CLB_FP64;
    }
    /* None asked for (or only precisions streams have not): BabelStream's default, double
     * where the device has it. */
    if (!fp32 && !fp64) {
        fp64 = clb_device_bool(dev, CLB_PROP_FP64);
        fp32 = !fp64;
    }
    const bool cpu = !clb_code_path_gpu(opt->code_path, clb_device_is_cpu(dev));
    /* The device's clock needs a profiling queue: the caller's, or one of our own beside it
     * (a queue that cannot be made leaves every row on the host's clock, as rows say). */
    struct clb_cl_env timed = *env;
    cl_command_queue_properties props = 0;
    cl_command_queue own = NULL;
    cl_int err = CL_SUCCESS;
    if (clGetCommandQueueInfo(env->queue, CL_QUEUE_PROPERTIES, sizeof(props), &props, NULL) !=
            CL_SUCCESS ||
        !(props & CL_QUEUE_PROFILING_ENABLE)) {
        own = clCreateCommandQueue(env->ctx, env->device, CL_QUEUE_PROFILING_ENABLE, &err);
        if (own)
            timed.queue = own;
    }
    int rc = 0;
    /* A sweep (--sizes): smallest first, each size in both precisions before the next. */
    const size_t n = opt->sizes ? opt->n_sizes : 1;
    for (size_t i = 0; i < n && !rc; i++) {
        const uint64_t bytes = opt->sizes ? opt->sizes[i] : opt->bytes;
        if ((fp32 && measure(dev, &timed, opt, cpu, false, bytes, opt->sizes != NULL, out)) ||
            (fp64 && measure(dev, &timed, opt, cpu, true, bytes, opt->sizes != NULL, out)))
            rc = -1;
    }
    /* Local memory has no array size: once per precision. */
    if (!rc && ((fp32 && clb_bw_measure_local(dev, &timed, opt, false, out)) ||
                (fp64 && clb_bw_measure_local(dev, &timed, opt, true, out))))
        rc = -1;
    if (own)
        clReleaseCommandQueue(own);
    return rc;
}
