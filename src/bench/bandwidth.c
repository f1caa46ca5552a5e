#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/bench/micro.h"
#include "clbench/cl/kernels.h"
#include "clbench/util/csum.h"
#include "clbench/util/timer.h"
#include "clbench/util/units.h"

#define SCALAR 0.4
/* The start pattern (clbench/bench/micro.h, stream_start in stream.cl): mantissas from a
 * multiplier modulo a prime, exponents modulo another prime. */
enum { MANTISSAS = 16381, MULTIPLIER = 10123, EXPONENTS = 61, LOWEST_EXPONENT = -30 };
/* Rounds between re-initialisations (untimed): a shrinks by 0.96 a round, so that after
 * 200 the smallest element, 2^-30 x 0.96^200, and its products stay far from underflow. */
enum { REINIT_ROUNDS = 200 };
/* Default bytes per array: far beyond the caches of CPUs and GPUs alike. */
#define DEFAULT_BYTES (UINT64_C(256) << 20)

enum { K_COPY, K_MUL, K_ADD, K_TRIAD, K_DOT, K_READ, K_DOT_CHUNKED, N_KERNELS };
static const char *const names[N_KERNELS] = { "copy", "mul", "add", "triad",
                                              "dot",  "read", "dot chunked" };
static const char *const symbols[N_KERNELS] = {
    "clb_stream_copy", "clb_stream_mul",  "clb_stream_add",        "clb_stream_triad",
    "clb_stream_dot",  "clb_stream_read", "clb_stream_dot_chunked"
};
/* Elements per work-item of clb_stream_dot_chunked (DOT_CHUNK in stream.cl). */
enum { DOT_CHUNK = 1024 };
/* Arrays each kernel reads plus writes (read: one store per 16 loads). */
static const double arrays_moved[N_KERNELS] = { 2, 2, 3, 3, 2, 1 + 1.0 / 16, 2 };

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
    /* Exact: a power of two scales every rounding alike (clbench/bench/micro.h). */
    const unsigned g = (unsigned)(j % MANTISSAS) * MULTIPLIER % MANTISSAS;
    const int e = (int)(j % EXPONENTS) + LOWEST_EXPONENT;
    *lo = ldexp(x->lo[3 * g + (unsigned)array], e);
    *hi = ldexp(x->hi[3 * g + (unsigned)array], e);
}

struct stream {
    const struct clb_cl_env *env;
    bool fp64, chunked;      /* double arrays; the CPU's chunked dot as well */
    size_t elem;             /* bytes of one element */
    cl_program prog;
    cl_kernel init, k[N_KERNELS];
    cl_mem a, b, c, partial[N_KERNELS]; /* partial sums of dot, read, dot chunked */
    size_t n;
    size_t global[N_KERNELS], local[N_KERNELS], n_partial[N_KERNELS];
};

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

/* Each kernel's grid: one work-item per element, or the reductions' own. */
static void stream_grid(struct stream *s, const struct clb_device *dev)
{
    /* BabelStream's grid: on a CPU one work-group per compute unit of twice the native
     * double vector width, elsewhere 4 per compute unit of the largest work-group. */
    const bool cpu = clb_device_is_cpu(dev);
    const size_t units = clb_device_u64(dev, CLB_PROP_COMPUTE_UNITS);
    size_t groups = units ? units * (cpu ? 1 : 4) : 4;
    size_t local = cpu ? 2 * clb_device_u64(dev, CLB_PROP_NATIVE_VEC_DOUBLE)
                       : clb_device_u64(dev, CLB_PROP_MAX_WORK_GROUP_SIZE);
    /* Its tree halves the work-group: a power of two (a device without doubles reports 0). */
    size_t pow2 = 1;
    while (pow2 * 2 <= local)
        pow2 *= 2;
    local = local ? pow2 : 1;
    for (int i = 0; i < N_KERNELS; i++)
        s->global[i] = s->n;
    s->global[K_DOT] = groups * local;
    s->local[K_DOT] = local;
    s->n_partial[K_DOT] = groups;
    s->global[K_READ] = s->n_partial[K_READ] = s->n / 16;
    s->global[K_DOT_CHUNKED] = s->n_partial[K_DOT_CHUNKED] = s->n / DOT_CHUNK;
}

/*
 * stream.cl's build options: the precision, and the test hook's -DCLB_WRAP=K for the kernel
 * CLBENCH_FAULT_STREAM_INDEX names (clbench/cl/cl.h; K as stream.cl numbers them). NULL: none.
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

static int stream_setup(struct stream *s, const struct clb_device *dev, struct clb_error *e)
{
    const struct clb_cl_env *env = s->env;
    const cl_uint n32 = (cl_uint)s->n;
    char options[64];
    cl_int err;

    if (!(s->prog = clb_cl_build(env->ctx, dev->id, clb_kernel_source("stream"),
                                 build_options(s->fp64, options, sizeof(options)), e)))
        return -1;
    s->init = clCreateKernel(s->prog, "clb_stream_init", &err);
    if (clb_cl_check(e, "clCreateKernel", err))
        return -1;
    stream_grid(s, dev);
    for (int i = 0; i < N_KERNELS; i++) {
        if (i == K_DOT_CHUNKED && !s->chunked)
            continue;
        s->k[i] = clCreateKernel(s->prog, symbols[i], &err);
        if (clb_cl_check(e, "clCreateKernel", err))
            return -1;
        if (!s->n_partial[i])
            continue;
        s->partial[i] = clb_cl_buffer(env->ctx, CL_MEM_READ_WRITE, s->n_partial[i] * s->elem,
                                      NULL, &err);
        if (clb_cl_check(e, "clCreateBuffer", err))
            return -1;
    }
    cl_mem *arrays[] = { &s->a, &s->b, &s->c };
    for (int i = 0; i < 3; i++) {
        *arrays[i] = clb_cl_buffer(env->ctx, CL_MEM_READ_WRITE, s->n * s->elem, NULL, &err);
        if (clb_cl_check(e, "clCreateBuffer", err))
            return -1;
    }
    if (set_mem(s->init, 0, s->a, e) || set_mem(s->init, 1, s->b, e) ||
        set_mem(s->init, 2, s->c, e) ||
        set_mem(s->k[K_COPY], 0, s->a, e) || set_mem(s->k[K_COPY], 1, s->c, e) ||
        set_mem(s->k[K_MUL], 0, s->b, e) || set_mem(s->k[K_MUL], 1, s->c, e) ||
        set_real(s, s->k[K_MUL], 2, SCALAR, e) || set_mem(s->k[K_ADD], 0, s->a, e) ||
        set_mem(s->k[K_ADD], 1, s->b, e) || set_mem(s->k[K_ADD], 2, s->c, e) ||
        set_mem(s->k[K_TRIAD], 0, s->a, e) || set_mem(s->k[K_TRIAD], 1, s->b, e) ||
        set_mem(s->k[K_TRIAD], 2, s->c, e) || set_real(s, s->k[K_TRIAD], 3, SCALAR, e) ||
        set_mem(s->k[K_DOT], 0, s->a, e) || set_mem(s->k[K_DOT], 1, s->b, e) ||
        set_mem(s->k[K_DOT], 2, s->partial[K_DOT], e) ||
        CLB_CL(e, clSetKernelArg, s->k[K_DOT], 3, s->local[K_DOT] * s->elem, NULL) ||
        CLB_CL(e, clSetKernelArg, s->k[K_DOT], 4, sizeof(cl_uint), &n32) ||
        set_mem(s->k[K_READ], 0, s->a, e) || set_mem(s->k[K_READ], 1, s->partial[K_READ], e))
        return -1;
    if (s->chunked &&
        (set_mem(s->k[K_DOT_CHUNKED], 0, s->a, e) || set_mem(s->k[K_DOT_CHUNKED], 1, s->b, e) ||
         set_mem(s->k[K_DOT_CHUNKED], 2, s->partial[K_DOT_CHUNKED], e)))
        return -1;
    return stream_init(s, e);
}

/* One kernel, timed on the host clock around its completion. */
static int stream_step(struct stream *s, int which, double *seconds, struct clb_error *e)
{
    const size_t *local = s->local[which] ? &s->local[which] : NULL;
    double t0 = clb_now_s();

    if (CLB_CL(e, clEnqueueNDRangeKernel, s->env->queue, s->k[which], 1, NULL, &s->global[which],
               local, 0, NULL, NULL) ||
        clb_cl_check(e, "clFinish", clb_cl_finish(s->env->queue)))
        return -1;
    *seconds = clb_now_s() - t0;
    return 0;
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
     * differ by far less than the 4 ulps allowed). The read pass adds 16 elements a
     * work-item in a tree of depth 4: each partial within (1 + u)^4 - 1 of its exact sum,
     * so the total within about 4u of the exact sum (16 ulps allowed). The chunked dot
     * rounds a product and adds 32 of them a lane, then adds s0 + s1 and 16 lanes in a
     * tree of depth 4: within (1 + u)^38 - 1, about 38u (64 ulps allowed). The read pass
     * and the chunked dot cover whole work-items (n is whole chunks).
     */
    const double plain = clb_stream_dot_replay(o, false), fused = clb_stream_dot_replay(o, true);
    const double dot = fabs(o->dot - fused) < fabs(o->dot - plain) ? fused : plain;
    if (!(fabs(o->dot - dot) <= 4 * u * fabs(dot)))
        snprintf(v->dot, sizeof(v->dot), "wrong result: dot %.*g, expected %.*g", digits,
                 o->dot, digits, dot);
    const double read = exact_sum(o->a, NULL, o->fp64, o->n / 16 * 16);
    if (!(fabs(o->read - read) <= 16 * u * fabs(read)))
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
                                    .fp64 = s->fp64, .iters = iters, .has_chunked = s->chunked,
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
    if (partial_sum(s, K_DOT, partial, &o.dot, e) || partial_sum(s, K_READ, partial, &o.read, e) ||
        (s->chunked && partial_sum(s, K_DOT_CHUNKED, partial, &o.dot_chunked, e)))
        goto out;
    clb_stream_verify(&o, v);
    rc = 0;
out:
    for (int i = 0; i < 3; i++)
        free(host[i]);
    free(partial);
    return rc;
}

/* Whether any of the n rows wants another timed round. */
static bool more(struct clb_micro_row *const *rows, int n, const struct clb_micro_options *opt)
{
    bool want = false;

    for (int i = 0; i < n; i++)
        want |= clb_micro_want(rows[i], opt->runs, opt->min_time_s);
    return want;
}

/* Rounds in BabelStream's order until every row has its calls; the first is not timed. */
static int stream_rounds(struct stream *s, struct clb_micro_row *const *rows, int n,
                         const struct clb_micro_options *opt, unsigned *since_init,
                         char *why, size_t len)
{
    struct clb_error e = { "" };

    *since_init = 0;
    for (unsigned r = 0; r == 0 || more(rows, n, opt); r++) {
        if (*since_init == REINIT_ROUNDS) {
            if (stream_init(s, &e))
                goto fault;
            *since_init = 0;
        }
        (*since_init)++;
        for (int i = 0; i < n; i++) {
            double t;
            if (stream_step(s, i, &t, &e))
                goto fault;
            if (r > 0 && clb_micro_push(rows[i], t)) {
                clb_error_set(&e, "out of host memory");
                goto fault;
            }
        }
    }
    return 0;
fault:
    snprintf(why, len, "%s", e.msg);
    return -1;
}

/*
 * One precision's rows on dev at `bytes` per array (0: the default): every
 * kernel timed, then the outcome checked. In a sweep the case names the size.
 */
static int measure(const struct clb_device *dev, const struct clb_cl_env *env,
                   const struct clb_micro_options *opt, bool fp64, uint64_t bytes,
                   bool sweep, struct clb_micro_results *out)
{
    struct clb_micro_row *rows[N_KERNELS];
    struct stream s = { .env = env, .fp64 = fp64, .chunked = clb_device_is_cpu(dev),
                        .elem = fp64 ? sizeof(double) : sizeof(float) };
    struct clb_error e = { "" };
    const int n_rows = s.chunked ? N_KERNELS : K_DOT_CHUNKED;
    const char *prec = fp64 ? "fp64" : "fp32";
    char why[512] = "", a[32], b[32];
    const bool given = bytes != 0;
    const uint64_t max_alloc = clb_device_u64(dev, CLB_PROP_MAX_ALLOC_BYTES);
    const uint64_t global = clb_device_u64(dev, CLB_PROP_GLOBAL_MEM_BYTES);
    enum clb_row_status status = CLB_ROW_OK;
    struct clb_stream_verdict verdict = { "", "", "", "" };
    unsigned since_init = 0;

    for (int i = 0; i < n_rows; i++)
        if (!clb_micro_add(out, dev, "bandwidth", "gbps"))
            return -1;
    /* The rows may have moved while growing: take them now. */
    for (int i = 0; i < n_rows; i++) {
        rows[i] = &out->rows[out->n_rows - (size_t)n_rows + (size_t)i];
        rows[i]->precision = prec;
    }
    if (!given) {
        bytes = DEFAULT_BYTES;
        /* The default shrinks to what the device allows; an explicit --bytes does not. */
        if (bytes > max_alloc)
            bytes = max_alloc;
        if (bytes > global / 4)
            bytes = global / 4;
    }
    s.n = (size_t)(bytes / s.elem) / DOT_CHUNK * DOT_CHUNK;
    /* In a sweep the case names the size the arrays have (whole chunks of elements). */
    clb_format_bytes(s.n ? (uint64_t)s.n * s.elem : bytes, a, sizeof(a));
    for (int i = 0; i < n_rows; i++)
        snprintf(rows[i]->case_, sizeof(rows[i]->case_), "%s %s%s%s", prec, names[i],
                 sweep ? " " : "", sweep ? a : "");
    if (fp64 && !clb_device_bool(dev, CLB_PROP_FP64)) {
        status = CLB_ROW_UNAVAILABLE;
        snprintf(why, sizeof(why), "device has no fp64 (cl_khr_fp64)");
    } else if (s.n == 0 || s.n > UINT32_MAX) {
        status = CLB_ROW_SKIPPED;
        snprintf(why, sizeof(why), "arrays of %" PRIu64 " bytes hold no %zu elements of %s, or "
                 "more than 2^32", bytes, (size_t)DOT_CHUNK, prec);
    } else if (bytes > max_alloc || 3 * bytes > global) {
        status = CLB_ROW_SKIPPED;
        clb_format_bytes(bytes, a, sizeof(a));
        clb_format_bytes(max_alloc, b, sizeof(b));
        snprintf(why, sizeof(why), "three arrays of %s do not fit (largest allocation %s)", a, b);
    } else if (stream_setup(&s, dev, &e)) {
        status = CLB_ROW_ERROR;
        snprintf(why, sizeof(why), "%s", e.msg);
    } else {
        for (int i = 0; i < n_rows; i++) {
            rows[i]->work = arrays_moved[i] * (double)s.n * (double)s.elem;
            rows[i]->launch.elements = s.n;
            rows[i]->launch.global_size = s.global[i];
            rows[i]->launch.local_size = s.local[i];
        }
        if (stream_rounds(&s, rows, n_rows, opt, &since_init, why, sizeof(why)))
            status = CLB_ROW_ERROR;
        else if (stream_check(&s, since_init, &verdict, &e)) {
            status = CLB_ROW_ERROR;
            snprintf(why, sizeof(why), "%s", e.msg);
        }
    }
    clb_format_bytes((uint64_t)s.n * s.elem, a, sizeof(a));
    for (int i = 0; i < n_rows; i++) {
        rows[i]->array_bytes = (uint64_t)s.n * s.elem;
        /* Each row fails on its own kernel's check: copy, mul, add and triad wrote the
         * arrays; the sums were held against the arrays the device left. */
        const char *wrong = i <= K_TRIAD ? verdict.arrays
                            : i == K_DOT ? verdict.dot
                            : i == K_READ ? verdict.read
                                          : verdict.chunked;
        rows[i]->status = status == CLB_ROW_OK && wrong[0] ? CLB_ROW_FAILED : status;
        snprintf(rows[i]->reason, sizeof(rows[i]->reason), "%s",
                 status != CLB_ROW_OK ? why : wrong);
        snprintf(rows[i]->check, sizeof(rows[i]->check),
                 "every element of 3 arrays of %s against its own start's rounds; the %s "
                 "against the arrays", a, s.chunked ? "dot, read and chunked sums" : "dot and read sums");
        clb_micro_row_summarize(rows[i]);
    }
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

/* One launch of clb_stream_local on `global` work-items, timed on the host around it. */
static int local_launch(const struct clb_cl_env *env, cl_kernel k, size_t global,
                        double *seconds, struct clb_error *e)
{
    const size_t local = LOCAL_N;
    const double t0 = clb_now_s();

    if (CLB_CL(e, clEnqueueNDRangeKernel, env->queue, k, 1, NULL, &global, &local, 0, NULL,
               NULL) ||
        clb_cl_check(e, "clFinish", clb_cl_finish(env->queue)))
        return -1;
    *seconds = clb_now_s() - t0;
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
    struct clb_micro_row *row = clb_micro_add(out, dev, "bandwidth", "gbps");
    const size_t elem = fp64 ? sizeof(double) : sizeof(float);
    const cl_uint rounds = LOCAL_ROUNDS;
    struct clb_error e = { "" };
    cl_program prog = NULL;
    cl_kernel k = NULL;
    cl_mem res = NULL;
    void *host = NULL;
    size_t global = LOCAL_N;
    double seconds = 0;
    char options[64];
    cl_int err;

    if (!row)
        return -1;
    row->precision = fp64 ? "fp64" : "fp32";
    snprintf(row->case_, sizeof(row->case_), "%s local", row->precision);
    if ((fp64 && !clb_device_bool(dev, CLB_PROP_FP64)) ||
        clb_device_u64(dev, CLB_PROP_MAX_WORK_GROUP_SIZE) < LOCAL_N) {
        row->status = CLB_ROW_UNAVAILABLE;
        snprintf(row->reason, sizeof(row->reason), "%s",
                 fp64 && !clb_device_bool(dev, CLB_PROP_FP64)
                     ? "device has no fp64 (cl_khr_fp64)"
                     : "work-groups of 256 are beyond the device");
        return 0;
    }
    if (!(prog = clb_cl_build(env->ctx, dev->id, clb_kernel_source("stream"),
                              build_options(fp64, options, sizeof(options)), &e)))
        goto fault;
    k = clCreateKernel(prog, "clb_stream_local", &err);
    if (clb_cl_check(&e, "clCreateKernel", err) ||
        CLB_CL(&e, clSetKernelArg, k, 1, sizeof(cl_uint), &rounds))
        goto fault;
    /* Grow the launch (a power of two of work-groups) until it takes 2 ms; the first launch
     * may include lazy compilation (pocl's work-group function) and is run twice. */
    for (bool warm = false;; warm = true) {
        if (res)
            clReleaseMemObject(res);
        res = clb_cl_buffer(env->ctx, CL_MEM_WRITE_ONLY, global * elem, NULL, &err);
        if (clb_cl_check(&e, "clCreateBuffer", err) ||
            CLB_CL(&e, clSetKernelArg, k, 0, sizeof(cl_mem), &res) ||
            local_launch(env, k, global, &seconds, &e))
            goto fault;
        if (!warm)
            continue;
        if (seconds >= 0.002 || global >= (size_t)LOCAL_N << 14)
            break;
        global *= 2;
    }
    row->work = (double)global * 16.0 * LOCAL_ROUNDS * (double)elem;
    row->launch.global_size = global;
    row->launch.local_size = LOCAL_N;
    row->launch.rounds = rounds;
    while (clb_micro_want(row, opt->runs, opt->min_time_s)) {
        if (local_launch(env, k, global, &seconds, &e))
            goto fault;
        if (clb_micro_push(row, seconds)) {
            clb_error_set(&e, "out of host memory");
            goto fault;
        }
    }
    if (!(host = malloc(global * elem))) {
        clb_error_set(&e, "out of host memory");
        goto fault;
    }
    if (CLB_CL(&e, clEnqueueReadBuffer, env->queue, res, CL_TRUE, 0, global * elem, host, 0,
               NULL, NULL))
        goto fault;
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
    snprintf(row->check, sizeof(row->check),
             "%zu work-items x %d local reads each, every sum exact", global,
             16 * LOCAL_ROUNDS);
    goto done;
fault:
    row->status = CLB_ROW_ERROR;
    snprintf(row->reason, sizeof(row->reason), "%s", e.msg);
done:
    clb_micro_row_summarize(row);
    free(host);
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
        fp32 |= !strcmp(opt->precisions[i], "fp32");
        fp64 |= !strcmp(opt->precisions[i], "fp64");
    }
    /* None asked for (or only precisions streams have not): BabelStream's default, double
     * where the device has it. */
    if (!fp32 && !fp64) {
        fp64 = clb_device_bool(dev, CLB_PROP_FP64);
        fp32 = !fp64;
    }
    /* A sweep (--sizes): smallest first, each size in both precisions before the next. */
    const size_t n = opt->sizes ? opt->n_sizes : 1;
    for (size_t i = 0; i < n; i++) {
        const uint64_t bytes = opt->sizes ? opt->sizes[i] : opt->bytes;
        if ((fp32 && measure(dev, env, opt, false, bytes, opt->sizes != NULL, out)) ||
            (fp64 && measure(dev, env, opt, true, bytes, opt->sizes != NULL, out)))
            return -1;
    }
    /* Local memory has no array size: once per precision. */
    if ((fp32 && measure_local(dev, env, opt, false, out)) ||
        (fp64 && measure_local(dev, env, opt, true, out)))
        return -1;
    return 0;
}
