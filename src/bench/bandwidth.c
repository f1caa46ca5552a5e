#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/bench/bandwidth.h"
#include "clbench/bench/micro.h"
#include "clbench/cl/env.h"
#include "clbench/cl/fault.h"
#include "clbench/cl/kernels.h"
#include "clbench/util/csum.h"
#include "clbench/util/timer.h"
#include "clbench/util/units.h"

#define SCALAR 0.4
/* The start pattern (clbench/bench/bandwidth.h, stream_start in stream.cl): mantissas from a
 * multiplier modulo a prime, exponents modulo another prime. */
enum { MANTISSAS = 16381, MULTIPLIER = 10123, EXPONENTS = 61, LOWEST_EXPONENT = -30 };
/* Rounds between re-initialisations (untimed): a shrinks by 0.96 a round, so that after
 * 200 the smallest element, 2^-30 x 0.96^200, and its products stay far from underflow. */
enum { REINIT_ROUNDS = 200 };
/* Default bytes per array: far beyond the caches of CPUs and GPUs alike; on a device
 * (not a CPU) of 16 GB or more, 1 GiB (clb_stream_default_bytes). */
#define DEFAULT_BYTES (UINT64_C(256) << 20)
#define BIG_BYTES (UINT64_C(1) << 30)

enum { K_COPY, K_MUL, K_ADD, K_TRIAD, K_DOT, K_READ, K_DOT_CHUNKED, N_KERNELS };
static const char *const names[N_KERNELS] = { "copy", "mul", "add", "triad",
                                              "dot",  "read", "dot chunked" };
/* Their test-hook names (CLBENCH_FAULT_STREAM_INDEX, _STREAM_ENQUEUE; clbench/cl/fault.h). */
static const char *const fault_names[N_KERNELS] = { "copy", "mul", "add", "triad",
                                                    "dot",  "read", "chunked" };
static const char *const symbols[N_KERNELS] = {
    "clb_stream_copy", "clb_stream_mul",  "clb_stream_add",        "clb_stream_triad",
    "clb_stream_dot",  "clb_stream_read", "clb_stream_dot_chunked"
};
/* Elements per work-item of clb_stream_dot_chunked and clb_stream_read_chunked (DOT_CHUNK,
 * READ_CHUNK in stream.cl); the gpu path's read adds 16 a work-item. */
enum { DOT_CHUNK = 1024, READ_CHUNK = 1024, READ_STRIDED = 16 };
/* Arrays each kernel reads plus writes (read: one store per 16 loads, or per chunk). */
static const double arrays_moved[N_KERNELS] = { 2, 2, 3, 3, 2, 1 + 1.0 / READ_STRIDED, 2 };

uint64_t clb_stream_default_bytes(uint64_t global_bytes, uint64_t max_alloc_bytes, bool cpu)
{
    uint64_t bytes = !cpu && global_bytes >= UINT64_C(16000000000) ? BIG_BYTES : DEFAULT_BYTES;

    if (bytes > max_alloc_bytes)
        bytes = max_alloc_bytes;
    if (bytes > global_bytes / 4)
        bytes = global_bytes / 4;
    return bytes;
}

double clb_stream_start(uint64_t j)
{
    const unsigned g = (unsigned)(j % MANTISSAS) * MULTIPLIER % MANTISSAS;
    const int e = (int)(j % EXPONENTS) + LOWEST_EXPONENT;
    return ldexp(1 + g * 0x1p-14, e);
}

/*
 * acc + a * b in the device's precision: the product rounded then added, or
 * fused into the add (OpenCL C may contract either way). The product is its
 * own statement so that the host's compiler does not contract it either (in
 * C11 mode GCC contracts nothing, clang only within one expression).
 */
static double add_product(double acc, double a, double b, bool fp64, bool fused)
{
    if (fp64) {
        if (fused)
            return fma(a, b, acc);
        const double p = a * b;
        return acc + p;
    }
    const float fa = (float)a, fb = (float)b, facc = (float)acc;
    if (fused)
        return fmaf(fa, fb, facc);
    const float p = fa * fb;
    return facc + p;
}

/* x * y and x + y, each rounded once in the device's precision. */
static double mul_in(double x, double y, bool fp64)
{
    const float p = (float)x * (float)y;
    return fp64 ? x * y : p;
}

static double add_in(double x, double y, bool fp64)
{
    const float t = (float)x + (float)y;
    return fp64 ? x + y : t;
}

int clb_stream_expect_init(struct clb_stream_expect *x, unsigned iters, bool fp64)
{
    const double s = fp64 ? SCALAR : (float)SCALAR;

    *x = (struct clb_stream_expect){ .iters = iters, .fp64 = fp64,
                                     .lo = malloc(3 * MANTISSAS * sizeof(double)),
                                     .hi = malloc(3 * MANTISSAS * sizeof(double)) };
    if (!x->lo || !x->hi) {
        clb_stream_expect_free(x);
        return -1;
    }
    for (unsigned g = 0; g < MANTISSAS; g++) {
        double *lo = x->lo + 3 * g, *hi = x->hi + 3 * g;
        lo[0] = hi[0] = 1 + g * 0x1p-14;
        lo[1] = hi[1] = lo[2] = hi[2] = 0; /* b and c: replaced in the first round */
        for (unsigned r = 0; r < iters; r++)
            for (int side = 0; side < 2; side++) {
                double *v = side ? hi : lo;
                /* copy c = a; mul b = 0.4 c; add c = a + b; triad a = b + 0.4 c, both ways. */
                v[1] = mul_in(s, v[0], fp64);
                v[2] = add_in(v[0], v[1], fp64);
                const double plain = add_product(v[1], s, v[2], fp64, false);
                const double fused = add_product(v[1], s, v[2], fp64, true);
                v[0] = side ? fmax(plain, fused) : fmin(plain, fused);
            }
    }
    return 0;
}

void clb_stream_expect_free(struct clb_stream_expect *x)
{
    free(x->lo);
    free(x->hi);
    x->lo = x->hi = NULL;
}

void clb_stream_expected(const struct clb_stream_expect *x, uint64_t j, int array, double *lo,
                         double *hi)
{
    if (x->iters == 0) {
        *lo = *hi = clb_stream_start(j + (uint64_t)array);
        return;
    }
    /* Exact: a power of two scales every rounding alike (clbench/bench/bandwidth.h). */
    const unsigned g = (unsigned)(j % MANTISSAS) * MULTIPLIER % MANTISSAS;
    const int e = (int)(j % EXPONENTS) + LOWEST_EXPONENT;
    *lo = ldexp(x->lo[3 * g + (unsigned)array], e);
    *hi = ldexp(x->hi[3 * g + (unsigned)array], e);
}

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
 * The largest work-group kernel k allows on the device (CL_KERNEL_WORK_GROUP_SIZE), at most
 * CLBENCH_FAULT_KERNEL_WG_SIZE where that test hook is set (clbench/cl/fault.h).
 */
static int kernel_wg_size(cl_kernel k, cl_device_id dev, size_t *most, struct clb_error *e)
{
    const char *cap = clb_fault_str("KERNEL_WG_SIZE");

    if (CLB_CL(e, clGetKernelWorkGroupInfo, k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof(*most),
               most, NULL))
        return -1;
    if (cap && strtoul(cap, NULL, 10) < *most)
        *most = strtoul(cap, NULL, 10);
    return 0;
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

    if (kernel_wg_size(s->k[K_DOT], s->env->device, &most, e))
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

/*
 * stream.cl's build options: the precision, and the test hook's -DCLB_WRAP=K for the kernel
 * CLBENCH_FAULT_STREAM_INDEX names (clbench/cl/fault.h; K as stream.cl numbers them). NULL: none.
 */
static const char *build_options(bool fp64, char *buf, size_t len)
{
    static const char *const faults[] = { "copy", "mul",     "add",  "triad",
                                          "dot",  "read", "chunked", "local" };
    const char *want = clb_fault_str("STREAM_INDEX");
    int wrap = 0;

    for (int i = 0; want && i < (int)(sizeof(faults) / sizeof(*faults)); i++)
        if (!strcmp(want, faults[i]))
            wrap = i + 1;
    snprintf(buf, len, "%s", fp64 ? "-DREAL=double -DCLB_FP64" : "");
    if (wrap)
        snprintf(buf + strlen(buf), len - strlen(buf), " -DCLB_WRAP=%d", wrap);
    return buf[0] ? buf : NULL;
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
                                 build_options(s->fp64, options, sizeof(options)), e)))
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

/* Whether CLBENCH_FAULT_STREAM_ENQUEUE names this kernel (clbench/cl/fault.h). */
static bool enqueue_fault(const char *name)
{
    const char *want = clb_fault_str("STREAM_ENQUEUE");
    return want && !strcmp(want, name);
}

/*
 * One launch of k on `global` (and `local`, or the runtime's choice), timed twice: on the
 * device's clock (its event's START to END: the kernel alone) and on the host's around the
 * enqueue and clFinish (what BabelStream times: the driver's round trip too). *profiling
 * gets the profiling info's error (0 when device_s holds the kernel's time).
 */
static int timed_launch(cl_command_queue q, cl_kernel k, const char *name, size_t global,
                        const size_t *local, double *device_s, double *host_s,
                        cl_int *profiling, struct clb_error *e)
{
    cl_event ev = NULL;

    if (enqueue_fault(name))
        return clb_cl_check(e, "clEnqueueNDRangeKernel", CL_OUT_OF_RESOURCES) ? -1 : 0;
    const double t0 = clb_now_s();
    if (CLB_CL(e, clEnqueueNDRangeKernel, q, k, 1, NULL, &global, local, 0, NULL, &ev) ||
        clb_cl_check(e, "clFinish", clb_cl_finish(q))) {
        if (ev)
            clReleaseEvent(ev);
        return -1;
    }
    *host_s = clb_now_s() - t0;
    *profiling = clb_cl_event_seconds(ev, device_s);
    clReleaseEvent(ev);
    return 0;
}

/* Appends one call to row: the device's time as its time, the host's beside it; a call
 * without profiling info is timed on the host (timer_finish makes the row all host). */
static int timed_push(struct clb_micro_row *row, double device_s, double host_s,
                      cl_int profiling)
{
    if (clb_micro_push(row, profiling ? host_s : device_s))
        return -1;
    if (clb_micro_push_alt(row, host_s)) {
        /* The two clocks keep one call each: undo the first. */
        row->measured_s -= row->times_s[--row->n_times];
        return -1;
    }
    return 0;
}

bool clb_bandwidth_host_clock(bool cpu, double device_gbps, double host_gbps)
{
    return cpu && host_gbps > 0 && device_gbps > host_gbps * (1.0 + CLB_CLOCK_AGREE);
}

/* Swaps the row's two clocks: the other one's calls become the headline's. */
static void swap_clocks(struct clb_micro_row *row, const char *timer, const char *alt)
{
    double *t = row->times_s;
    size_t cap = row->times_cap;

    row->times_s = row->alt_times_s;
    row->times_cap = row->alt_times_cap;
    row->alt_times_s = t;
    row->alt_times_cap = cap;
    /* timed_push appends to both for every call: the counts are the same. */
    row->n_alt_times = alt ? row->n_times : 0;
    row->timer = timer;
    row->alt_timer = alt;
    row->measured_s = 0;
    for (size_t i = 0; i < row->n_times; i++)
        row->measured_s += row->times_s[i];
}

/*
 * Names the row's clock and summarizes it: the device's where every call had profiling info
 * and the device is not a CPU whose clock leaves out its own work (clb_bandwidth_host_clock),
 * else the host's for every call, with why.
 */
static void timer_finish(struct clb_micro_row *row, cl_int profiling)
{
    if (!row->n_times) {
        clb_micro_row_summarize(row);
        return;
    }
    if (profiling) {
        snprintf(row->timer_why, sizeof(row->timer_why),
                 "no profiling info from the device (clGetEventProfilingInfo: %s): host clock "
                 "around enqueue + clFinish", clb_cl_errname(profiling));
        swap_clocks(row, "host", NULL);
        free(row->alt_times_s);
        row->alt_times_s = NULL;
        row->alt_times_cap = 0;
        clb_micro_row_summarize(row);
        return;
    }
    row->timer = "device";
    row->alt_timer = "host";
    clb_micro_row_summarize(row);
    /* The medians (stat_best is set later, by the command): the rule's, whatever --stat. */
    const double device_gbps = row->median, host_gbps = row->alt_value;
    if (!clb_bandwidth_host_clock(row->device && clb_device_is_cpu(row->device), device_gbps,
                                  host_gbps))
        return;
    snprintf(row->timer_why, sizeof(row->timer_why),
             "a CPU device, whose own clock (START to END) reads over %.0f%% faster: it leaves "
             "out its threads starting, which a program waits for; host clock around enqueue "
             "+ clFinish",
             CLB_CLOCK_AGREE * 100.0);
    swap_clocks(row, "host", "device");
    clb_micro_row_summarize(row);
}

/* One kernel's timed call into its row; -1 with s->fault[which] set. */
static int stream_step(struct stream *s, int which, struct clb_micro_row *row, bool timed)
{
    struct clb_error e = { "" };
    double device_s = 0, host_s = 0;
    cl_int profiling = 0;

    if (timed_launch(s->env->queue, s->k[which], fault_names[which], s->global[which],
                     s->local[which] ? &s->local[which] : NULL, &device_s, &host_s,
                     &profiling, &e))
        goto fault;
    if (!timed)
        return 0;
    if (profiling && !s->profiling[which])
        s->profiling[which] = profiling;
    if (timed_push(row, device_s, host_s, profiling)) {
        clb_error_set(&e, "out of host memory");
        goto fault;
    }
    return 0;
fault:
    snprintf(s->fault[which], sizeof(s->fault[which]), "%s", e.msg);
    return -1;
}

/* Element j of an array of float or double. */
static double at(const void *x, bool fp64, size_t j)
{
    return fp64 ? ((const double *)x)[j] : ((const float *)x)[j];
}

double clb_stream_dot_replay(const struct clb_stream_outcome *o, bool fused)
{
    const size_t G = o->dot_global, L = o->dot_local;
    if (!G || !L || G % L || !o->a || !o->b)
        return NAN;
    double *slot = calloc(G, sizeof(*slot));
    if (!slot)
        return NAN;
    /* Work-item g adds the elements g, g + G, ... in order into its slot. */
    for (size_t i = 0, g = 0; i < o->n; i++, g = g + 1 == G ? 0 : g + 1)
        slot[g] = add_product(slot[g], at(o->a, o->fp64, i), at(o->b, o->fp64, i), o->fp64,
                              fused);
    struct clb_csum sum = { 0, 0 };
    for (double *v = slot; v < slot + G; v += L) {
        /* The work-group's tree, in the device's precision. */
        for (size_t step = L / 2; step > 0; step /= 2)
            for (size_t l = 0; l < step; l++)
                v[l] = o->fp64 ? v[l] + v[l + step] : (double)((float)v[l] + (float)v[l + step]);
        /* The host's compensated sum of the partials, as partial_sum does. */
        clb_csum_add(&sum, v[0]);
    }
    free(slot);
    return (double)clb_csum_value(&sum);
}

/* The sum of a[j] (or a[j] * b[j]) over the first n elements, compensated: exact to
 * the last bit or two (millions of terms would otherwise add the host's own rounding,
 * as large as the device's in double). */
static double exact_sum(const void *a, const void *b, bool fp64, size_t n)
{
    struct clb_csum sum = { 0, 0 };
    for (size_t j = 0; j < n; j++)
        clb_csum_add(&sum, b ? at(a, fp64, j) * at(b, fp64, j) : at(a, fp64, j));
    return (double)clb_csum_value(&sum);
}

/* Whether every element of the arrays lies in its range; else `why` names the first that does not. */
static bool arrays_verify(const struct clb_stream_outcome *o, char *why, size_t len)
{
    const void *arrays[3] = { o->a, o->b, o->c };
    struct clb_stream_expect x;
    bool ok = true;

    if (clb_stream_expect_init(&x, o->iters, o->fp64)) {
        snprintf(why, len, "out of host memory");
        return false;
    }
    /* g and the exponent step with j (j + 1's mantissa index is g + 10123 mod 16381), as
     * clb_stream_expected computes them, without a division an element. */
    double scale[EXPONENTS];
    for (int i = 0; i < EXPONENTS; i++)
        scale[i] = ldexp(1, i + LOWEST_EXPONENT);
    for (size_t j = 0, g = 0, ei = 0; ok && j < o->n; j++) {
        for (int k = 0; k < 3; k++) {
            double lo, hi;
            if (!arrays[k])
                continue;
            if (o->iters)
                lo = x.lo[3 * g + (size_t)k] * scale[ei], hi = x.hi[3 * g + (size_t)k] * scale[ei];
            else
                clb_stream_expected(&x, j, k, &lo, &hi);
            const double v = at(arrays[k], o->fp64, j);
            if (!(v >= lo && v <= hi)) { /* NaN too */
                const int digits = o->fp64 ? 17 : 9;
                if (lo == hi)
                    snprintf(why, len, "wrong result: array %c element %zu is %.*g, expected %.*g",
                             "abc"[k], j, digits, v, digits, lo);
                else
                    snprintf(why, len, "wrong result: array %c element %zu is %.*g, expected "
                             "%.*g to %.*g", "abc"[k], j, digits, v, digits, lo, digits, hi);
                ok = false;
                break;
            }
        }
        g = g + MULTIPLIER >= MANTISSAS ? g + MULTIPLIER - MANTISSAS : g + MULTIPLIER;
        ei = ei + 1 == EXPONENTS ? 0 : ei + 1;
    }
    clb_stream_expect_free(&x);
    return ok;
}

bool clb_stream_verify(const struct clb_stream_outcome *o, struct clb_stream_verdict *v)
{
    const double u = o->fp64 ? 0x1p-53 : 0x1p-24;
    const int digits = o->fp64 ? 17 : 9;

    v->arrays[0] = v->dot[0] = v->read[0] = v->chunked[0] = '\0';
    arrays_verify(o, v->arrays, sizeof(v->arrays));
    if (!o->a || !o->b)
        return !v->arrays[0];
    /*
     * The sums are held against the arrays the device holds, not the host's recurrence:
     * an element may sit anywhere in its range (the device fuses the triad or not), and the
     * order of a long sum's roundings follows every bit of its terms. Every term is
     * positive, so a bound relative to the sum holds whatever the terms' magnitudes
     * (2^-85 to 2^62 here). BabelStream's dot is replayed exactly over the device's grid
     * (plain or fused adds; the host's compensated sums of the partials, on both sides,
     * differ by far less than the 4 ulps allowed). The gpu path's read pass adds 16 elements
     * a work-item in sequence: 15 roundings, each partial within (1 + u)^15 - 1, about 15u,
     * of its exact sum, and so the total (16 ulps allowed). The cpu path's adds 32 vectors
     * of 16 into each of two accumulators (31 roundings a lane), adds the two (1) and the
     * 16 lanes in a tree of depth 4: within (1 + u)^36 - 1, about 36u (64 ulps). The chunked dot
     * rounds a product and adds 32 of them a lane, then adds s0 + s1 and 16 lanes in a
     * tree of depth 4: within (1 + u)^38 - 1, about 38u (64 ulps allowed). The read pass
     * and the chunked dot cover whole work-items (n is whole chunks).
     */
    const double plain = clb_stream_dot_replay(o, false), fused = clb_stream_dot_replay(o, true);
    const double dot = fabs(o->dot - fused) < fabs(o->dot - plain) ? fused : plain;
    if (!(fabs(o->dot - dot) <= 4 * u * fabs(dot)))
        snprintf(v->dot, sizeof(v->dot), "wrong result: dot %.*g, expected %.*g", digits,
                 o->dot, digits, dot);
    const size_t per = o->read_chunked ? READ_CHUNK : READ_STRIDED;
    const double read = exact_sum(o->a, NULL, o->fp64, o->n / per * per);
    if (!(fabs(o->read - read) <= (o->read_chunked ? 64 : 16) * u * fabs(read)))
        snprintf(v->read, sizeof(v->read), "wrong result: read sum %.*g, expected %.*g", digits,
                 o->read, digits, read);
    if (o->has_chunked) {
        const double chunked = exact_sum(o->a, o->b, o->fp64, o->n / DOT_CHUNK * DOT_CHUNK);
        if (!(fabs(o->dot_chunked - chunked) <= 64 * u * fabs(chunked)))
            snprintf(v->chunked, sizeof(v->chunked), "wrong result: chunked dot %.*g, "
                     "expected %.*g", digits, o->dot_chunked, digits, chunked);
    }
    return !v->arrays[0] && !v->dot[0] && !v->read[0] && !v->chunked[0];
}

/* The sum of kernel `which`'s partial sums (read into scratch); -1 only on a device fault. */
static int partial_sum(struct stream *s, int which, void *scratch, double *sum,
                       struct clb_error *e)
{
    *sum = 0;
    if (CLB_CL(e, clEnqueueReadBuffer, s->env->queue, s->partial[which], CL_TRUE, 0,
               s->n_partial[which] * s->elem, scratch, 0, NULL, NULL))
        return -1;
    *sum = exact_sum(scratch, NULL, s->fp64, s->n_partial[which]);
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
static bool more(const struct stream *s, struct clb_micro_row *const *rows, int n,
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
static int stream_rounds(struct stream *s, struct clb_micro_row *const *rows, int n,
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
                       struct clb_micro_results *out, struct clb_micro_row **rows)
{
    for (int i = 0; i < n; i++)
        if (!clb_micro_add(out, dev, CLB_BENCH_BANDWIDTH, "gbps"))
            return -1;
    /* The rows may have moved while growing: take them now. */
    for (int i = 0; i < n; i++) {
        rows[i] = &out->rows[out->n_rows - (size_t)n + (size_t)i];
        rows[i]->precision = prec;
        rows[i]->code_path = cpu ? "cpu" : "gpu";
        rows[i]->kernel = names[i];
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
                                      struct clb_micro_row *const *rows, int n,
                                      const struct clb_micro_options *opt, unsigned *since_init,
                                      struct clb_stream_verdict *verdict, char *why, size_t len)
{
    struct clb_error e = { "" };

    if (stream_setup(s, dev, &e)) {
        snprintf(why, len, "%s", e.msg);
        return CLB_ROW_ERROR;
    }
    for (int i = 0; i < n; i++) {
        rows[i]->work = (i == K_READ && s->cpu ? 1 + 1.0 / READ_CHUNK : arrays_moved[i]) *
                        (double)s->n * (double)s->elem;
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
                           struct clb_micro_row *row)
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
    timer_finish(row, s->profiling[i]);
}

/*
 * One precision's rows on dev at `bytes` per array (0: the default): every
 * kernel timed, then the outcome checked. In a sweep the case names the size.
 */
static int measure(const struct clb_device *dev, const struct clb_cl_env *env,
                   const struct clb_micro_options *opt, bool cpu, bool fp64, uint64_t bytes,
                   bool sweep, struct clb_micro_results *out)
{
    struct clb_micro_row *rows[N_KERNELS];
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
    s.n = (size_t)(bytes / s.elem) / DOT_CHUNK * DOT_CHUNK;
    /* In a sweep the case names the size the arrays have (whole chunks of elements). */
    clb_format_bytes(s.n ? (uint64_t)s.n * s.elem : bytes, a, sizeof(a));
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

enum { LOCAL_N = 256, LOCAL_ROUNDS = 1024 }; /* LOCAL_N as in stream.cl; 16 rounds a multiple of it */

uint64_t clb_stream_local_bits(unsigned entry, bool fp64)
{
    /* TILE in stream.cl: a multiplicative hash's top bits as the mantissa of [1, 2). */
    return fp64 ? UINT64_C(0x3ff0000000000000) | (uint64_t)entry * UINT64_C(0x9e3779b97f4a7c15) >> 12
                : UINT32_C(0x3f800000) | (uint32_t)(entry * UINT32_C(2654435761)) >> 9;
}

uint64_t clb_stream_local_expected(bool fp64)
{
    /* Each work-item reads every tile entry 16 x rounds / LOCAL_N times: the sum of their
     * bit patterns that many times, wrapping as the device's integers do. */
    uint64_t tile_bits = 0;
    for (unsigned j = 0; j < LOCAL_N; j++)
        tile_bits += clb_stream_local_bits(j, fp64);
    const uint64_t want = tile_bits * (16u * LOCAL_ROUNDS / LOCAL_N);
    return fp64 ? want : (uint32_t)want;
}

/* Whether the device cannot run the local kernel in this precision; the row says why. */
static bool local_unavailable(const struct clb_device *dev, bool fp64, struct clb_micro_row *row)
{
    if ((fp64 && !clb_device_bool(dev, CLB_PROP_FP64)) ||
        clb_device_u64(dev, CLB_PROP_MAX_WORK_GROUP_SIZE) < LOCAL_N) {
        row->status = CLB_ROW_UNAVAILABLE;
        snprintf(row->reason, sizeof(row->reason), "%s",
                 fp64 && !clb_device_bool(dev, CLB_PROP_FP64)
                     ? "device has no fp64 (cl_khr_fp64)"
                     : "work-groups of 256 are beyond the device");
        return true;
    }
    return false;
}

/* Builds clb_stream_local with its rounds set; *most: the kernel's largest work-group. */
static int local_build(const struct clb_device *dev, const struct clb_cl_env *env, bool fp64,
                       cl_program *prog, cl_kernel *k, size_t *most, struct clb_error *e)
{
    const cl_uint rounds = LOCAL_ROUNDS;
    char options[64];
    cl_int err;

    if (!(*prog = clb_cl_build(env->ctx, dev->id, clb_kernel_source("stream"),
                               build_options(fp64, options, sizeof(options)), e)))
        return -1;
    *k = clCreateKernel(*prog, "clb_stream_local", &err);
    return clb_cl_check(e, "clCreateKernel", err) ||
                   CLB_CL(e, clSetKernelArg, *k, 1, sizeof(cl_uint), &rounds) ||
                   kernel_wg_size(*k, env->device, most, e)
               ? -1
               : 0;
}

/*
 * Grows the launch (a power of two of work-groups, *global) until it takes 2 ms; the first
 * launch may include lazy compilation (pocl's work-group function) and is run twice. *res:
 * the result buffer of the last size, the caller's to release.
 */
static int local_grow(const struct clb_cl_env *env, cl_kernel k, size_t elem, cl_mem *res,
                      size_t *global, struct clb_error *e)
{
    const size_t local = LOCAL_N;
    double seconds = 0, host_s = 0;
    cl_int err, profiling = 0;

    for (bool warm = false;; warm = true) {
        if (*res)
            clReleaseMemObject(*res);
        *res = clb_cl_buffer(env->ctx, CL_MEM_WRITE_ONLY, *global * elem, NULL, &err);
        if (clb_cl_check(e, "clCreateBuffer", err) ||
            CLB_CL(e, clSetKernelArg, k, 0, sizeof(cl_mem), res) ||
            timed_launch(env->queue, k, "local", *global, &local, &seconds, &host_s,
                         &profiling, e))
            return -1;
        if (profiling)
            seconds = host_s;
        if (!warm)
            continue;
        if (seconds >= 0.002 || *global >= (size_t)LOCAL_N << 14)
            return 0;
        *global *= 2;
    }
}

/* The timed launches of global work-items until the row has its calls. */
static int local_time(const struct clb_cl_env *env, cl_kernel k, size_t global,
                      const struct clb_micro_options *opt, struct clb_micro_row *row,
                      cl_int *first_profiling, struct clb_error *e)
{
    const size_t local = LOCAL_N;
    double seconds = 0, host_s = 0;
    cl_int profiling = 0;

    while (clb_micro_want(row, opt->runs, opt->min_time_s)) {
        if (timed_launch(env->queue, k, "local", global, &local, &seconds, &host_s,
                         &profiling, e))
            return -1;
        if (profiling && !*first_profiling)
            *first_profiling = profiling;
        if (timed_push(row, seconds, host_s, profiling)) {
            clb_error_set(e, "out of host memory");
            return -1;
        }
    }
    return 0;
}

/* Reads back every work-item's sum and holds it to the exact one; the row says the verdict. */
static int local_verify(const struct clb_cl_env *env, cl_mem res, bool fp64, size_t global,
                        struct clb_micro_row *row, struct clb_error *e)
{
    const size_t elem = fp64 ? sizeof(double) : sizeof(float);
    void *host = malloc(global * elem);

    if (!host) {
        clb_error_set(e, "out of host memory");
        return -1;
    }
    if (CLB_CL(e, clEnqueueReadBuffer, env->queue, res, CL_TRUE, 0, global * elem, host, 0,
               NULL, NULL)) {
        free(host);
        return -1;
    }
    const uint64_t want = clb_stream_local_expected(fp64);
    row->status = CLB_ROW_OK;
    row->reason[0] = '\0';
    for (size_t i = 0; i < global; i++) {
        uint64_t got = 0;
        uint32_t got32 = 0;
        if (fp64)
            memcpy(&got, (const char *)host + i * elem, sizeof(got));
        else
            memcpy(&got32, (const char *)host + i * elem, sizeof(got32)), got = got32;
        if (got != want) {
            row->status = CLB_ROW_FAILED;
            snprintf(row->reason, sizeof(row->reason),
                     "wrong result: work-item %zu summed 0x%" PRIx64 ", expected 0x%" PRIx64,
                     i, got, want);
            break;
        }
    }
    free(host);
    snprintf(row->check, sizeof(row->check),
             "%zu work-items x %d local reads each, every sum exact", global,
             16 * LOCAL_ROUNDS);
    return 0;
}

/*
 * Local-memory bandwidth in one precision: work-groups of LOCAL_N read a
 * tile of local memory 16 x LOCAL_ROUNDS times a work-item (summing bit
 * patterns as integers, so no FPU paces them), the launch grown
 * until it takes 2 ms; every work-item's sum checked exactly.
 */
static int measure_local(const struct clb_device *dev, const struct clb_cl_env *env,
                         const struct clb_micro_options *opt, bool fp64,
                         struct clb_micro_results *out)
{
    struct clb_micro_row *row = clb_micro_add(out, dev, CLB_BENCH_BANDWIDTH, "gbps");
    const size_t elem = fp64 ? sizeof(double) : sizeof(float);
    struct clb_error e = { "" };
    cl_program prog = NULL;
    cl_kernel k = NULL;
    cl_mem res = NULL;
    size_t global = LOCAL_N, most = 0;
    cl_int first_profiling = 0;

    if (!row)
        return -1;
    row->precision = fp64 ? CLB_FP64 : CLB_FP32;
    row->kernel = "local";
    snprintf(row->case_, sizeof(row->case_), "%s local", clb_precision_name(row->precision));
    if (local_unavailable(dev, fp64, row))
        return 0;
    if (local_build(dev, env, fp64, &prog, &k, &most, &e))
        goto fault;
    /* Its work-group is fixed (reqd_work_group_size): the kernel as built must allow it. */
    if (most < LOCAL_N) {
        row->status = CLB_ROW_UNAVAILABLE;
        snprintf(row->reason, sizeof(row->reason), "work-groups of 256 are beyond the kernel "
                 "(CL_KERNEL_WORK_GROUP_SIZE %zu)", most);
        goto done;
    }
    if (local_grow(env, k, elem, &res, &global, &e))
        goto fault;
    row->work = (double)global * 16.0 * LOCAL_ROUNDS * (double)elem;
    row->launch.global_size = global;
    row->launch.local_size = LOCAL_N;
    row->launch.rounds = LOCAL_ROUNDS;
    if (local_time(env, k, global, opt, row, &first_profiling, &e) ||
        local_verify(env, res, fp64, global, row, &e))
        goto fault;
    goto done;
fault:
    row->status = CLB_ROW_ERROR;
    snprintf(row->reason, sizeof(row->reason), "%s", e.msg);
done:
    timer_finish(row, first_profiling);
    if (res)
        clReleaseMemObject(res);
    if (k)
        clReleaseKernel(k);
    if (prog)
        clReleaseProgram(prog);
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
    if (!rc && ((fp32 && measure_local(dev, &timed, opt, false, out)) ||
                (fp64 && measure_local(dev, &timed, opt, true, out))))
        rc = -1;
    if (own)
        clReleaseCommandQueue(own);
    return rc;
}
