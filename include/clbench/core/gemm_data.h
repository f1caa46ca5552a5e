#ifndef CLBENCH_CORE_GEMM_DATA_H
#define CLBENCH_CORE_GEMM_DATA_H

/*
 * The inputs of one GEMM problem, made once on the host and shared by every
 * backend, and how its matrices lie in memory (the mode: transposes,
 * row- or column-major storage, leading-dimension padding, offsets), as BLAS
 * and CLBlast take them.
 */
#include <CL/cl_half.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/core/types.h"
#include "clbench/util/error.h"

/* Limits the option parsers hold --ld and --offset to. */
#define CLB_GEMM_MAX_LD_PAD UINT64_C(1000000)
#define CLB_GEMM_MAX_OFFSET UINT64_C(1000000000)

/* Whether the mode is the default (all zero). */
bool clb_gemm_mode_is_default(const struct clb_gemm_mode *mode);
/* "NN", "NT", "TN" or "TT": A's then B's transpose. */
const char *clb_gemm_mode_trans(const struct clb_gemm_mode *mode);
/* "row" or "col". */
const char *clb_gemm_mode_layout(const struct clb_gemm_mode *mode);
/*
 * What differs from the default, for a result's case: "TN col ld+3 off16"
 * (each part only when not default: the transposes unless NN, "col", the
 * padding, the offset); "" for the default.
 */
void clb_gemm_mode_label(const struct clb_gemm_mode *mode, char *buf, size_t len);

/*
 * Where one matrix lies in its buffer: entry (i, j) of op(X) (A: m x k,
 * B: k x n, C: m x n) is element offset + i * row_stride + j * col_stride.
 * Its stored form has `lines` rows (row-major) or columns (column-major) of
 * `ld` elements, the first `line_len` of each the matrix's, the rest
 * padding; the buffer holds offset + lines * ld elements, the offset and
 * each line's padding included.
 */
struct clb_gemm_matrix_layout {
    uint64_t ld;                     /* the leading dimension, as BLAS takes it */
    uint64_t offset;
    uint64_t row_stride, col_stride; /* one of them is ld, the other 1 */
    uint64_t lines, line_len;
    uint64_t elems;                  /* of the buffer */
};

enum clb_gemm_matrix { CLB_GEMM_A, CLB_GEMM_B, CLB_GEMM_C };

/*
 * The layout of matrix `which` of shape s in `mode`. Sizes are computed
 * without overflow checks: clb_gemm_layout_sane() says whether they hold.
 */
void clb_gemm_layout(const struct clb_gemm_mode *mode, struct clb_gemm_shape s,
                     enum clb_gemm_matrix which, struct clb_gemm_matrix_layout *out);
/*
 * Whether every leading dimension fits BLAS's 32-bit indices and every buffer
 * holds at most `max_elems` elements; false with `why` filled when not.
 */
bool clb_gemm_layout_sane(const struct clb_gemm_mode *mode, struct clb_gemm_shape s,
                          uint64_t max_elems, char *why, size_t len);
/* The element of op(X)'s entry (i, j) in its buffer. */
static inline uint64_t clb_gemm_at(const struct clb_gemm_matrix_layout *l, uint64_t i,
                                   uint64_t j)
{
    return l->offset + i * l->row_stride + j * l->col_stride;
}

/*
 * What every element outside the matrices holds (each buffer's offset and
 * its lines' padding): a value no input takes (they are in [-1, 1]), exact
 * in every precision. A GEMM must leave C's unchanged and never read A's or
 * B's into the result.
 */
#define CLB_GEMM_PAD_VALUE (-999.0)

/* Host copies of one problem's inputs, made once and shared by every backend. */
struct clb_gemm_data {
    struct clb_gemm_shape shape;
    enum clb_precision precision;
    double alpha, beta;
    struct clb_gemm_mode mode;
    struct clb_gemm_matrix_layout la, lb, lc; /* where A, B and C lie in their buffers */
    /* Which kernels a backend with CPU and GPU ones runs (the creators set AUTO). */
    enum clb_code_path code_path;
    /* owned, as stored: la.elems, lb.elems and lc.elems elements, the padding and
     * offsets holding CLB_GEMM_PAD_VALUE; c0 is C before the call */
    void *a, *b, *c0;
};

/*
 * Fills A, B and C0 with values uniform in [-1, 1] from `seed` (never zeros),
 * rounded to the precision, in the default mode. NULL with e set when host
 * memory runs out.
 */
struct clb_gemm_data *clb_gemm_data_create(struct clb_gemm_shape shape, enum clb_precision p,
                                           double alpha, double beta, uint64_t seed,
                                           struct clb_error *e);
/*
 * The same in `mode` (NULL: the default): the same values for the same seed
 * whatever the mode (op(A), op(B) and C drawn in row-major order), each
 * placed where the mode puts it; every other element CLB_GEMM_PAD_VALUE.
 */
struct clb_gemm_data *clb_gemm_data_create_mode(struct clb_gemm_shape shape,
                                                enum clb_precision p, double alpha,
                                                double beta, const struct clb_gemm_mode *mode,
                                                uint64_t seed, struct clb_error *e);
void clb_gemm_data_destroy(struct clb_gemm_data *d);

/* Element i of a matrix in precision p, as a double (exact). Inline: the reference and the
 * checks call it for every k-term of every entry. */
static inline double clb_gemm_load(enum clb_precision p, const void *m, size_t i)
{
    switch (p) {
    case CLB_FP64:
        return ((const double *)m)[i];
    case CLB_FP16:
        return clb_half_to_double(((const cl_half *)m)[i]);
    default:
        return ((const float *)m)[i];
    }
}

/* Stores v, rounded to nearest in precision p, as element i. */
static inline void clb_gemm_store(enum clb_precision p, void *m, size_t i, double v)
{
    switch (p) {
    case CLB_FP64:
        ((double *)m)[i] = v;
        break;
    case CLB_FP16:
        ((cl_half *)m)[i] = cl_half_from_float((float)v, CL_HALF_RTE);
        break;
    default:
        ((float *)m)[i] = (float)v;
        break;
    }
}

#endif
