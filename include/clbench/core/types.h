#ifndef CLBENCH_CORE_TYPES_H
#define CLBENCH_CORE_TYPES_H

/*
 * The small vocabulary every room shares: GEMM precisions and shapes, the
 * status of a measured row, the parameters of a tunable kernel. No
 * dependencies beyond the C library.
 *
 * GEMM is C = alpha * A * B + beta * C; by default all matrices are
 * row-major and dense: A is m x k, B is k x n, C is m x n, stored in the
 * precision's own type (float, double, or cl_half bits); struct clb_gemm_mode
 * (transposes, column-major storage, padding, offsets) says otherwise, and
 * clbench/core/gemm_data.h lays the matrices out by it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The number types figures are measured in. GEMM runs the first
 * CLB_GEMM_PRECISIONS (floats stored as such); peak runs them all (int8dot:
 * four int8 products summed into an int32, one packed dot); bandwidth fp32
 * and fp64. NONE: a figure without one (transfer, latency, collective).
 */
enum clb_precision {
    CLB_FP32, CLB_FP64, CLB_FP16,
    CLB_BF16, CLB_INT32, CLB_INT16, CLB_INT8, CLB_INT8DOT,
    CLB_PRECISION_NONE,
    CLB_GEMM_PRECISIONS = CLB_BF16,
    CLB_PRECISION_COUNT = CLB_PRECISION_NONE
};

/* "fp32", ..., "int8dot"; NULL for NONE (and anything out of range). */
const char *clb_precision_name(enum clb_precision p);
/* The precision called name; CLB_PRECISION_NONE for NULL or a name not in the table. */
enum clb_precision clb_precision_from_name(const char *name);
/* Bytes of one element: fp32 4, fp64 8, fp16 2 (GEMM's precisions). */
size_t clb_precision_bytes(enum clb_precision p);
/* Unit roundoff u = 2^-p: 2^-24, 2^-53, 2^-11 (GEMM's precisions). */
double clb_precision_unit_roundoff(enum clb_precision p);

struct clb_gemm_shape {
    uint64_t m, n, k;
};

/*
 * C = alpha op(A) op(B) + beta C with op(A) m x k, op(B) k x n and C m x n,
 * as BLAS's xGEMM. All zero is the default: no transposes, row-major, dense,
 * each matrix at the start of its buffer.
 */
struct clb_gemm_mode {
    bool trans_a, trans_b; /* op(A) = A^T: A is stored k x m (B likewise, n x k) */
    bool col_major;        /* column-major (BLAS's own) storage; false: row-major */
    uint64_t ld_pad;       /* elements each leading dimension has beyond its minimum */
    uint64_t offset;       /* elements before each matrix's first, in its buffer */
};

/* Floating-point operations of one GEMM: 2*m*n*k (multiply and add). */
double clb_gemm_flops(struct clb_gemm_shape s);

/*
 * An IEEE half (its bits) as a double, exactly. cl_half.h's cl_half_to_float
 * shifts a promoted int by 31 for negative values, which UBSan rightly flags.
 */
double clb_half_to_double(uint16_t bits);

/*
 * Which family of kernels a backend or benchmark with one for CPUs and one
 * for GPUs runs (clbench's GEMM: packed panels or local-memory tiles).
 * AUTO: by the device's type, CPU's where it includes CL_DEVICE_TYPE_CPU
 * (a device reporting CPU|GPU too), else GPU's. Zero is AUTO.
 */
enum clb_code_path { CLB_CODE_PATH_AUTO, CLB_CODE_PATH_CPU, CLB_CODE_PATH_GPU };

const char *clb_code_path_name(enum clb_code_path c); /* "auto", "cpu", "gpu" */
/* Whether c runs the GPU family on a device that is (device_is_cpu) or is not a CPU. */
bool clb_code_path_gpu(enum clb_code_path c, bool device_is_cpu);

enum clb_row_status {
    CLB_ROW_OK,          /* measured and verified */
    CLB_ROW_FAILED,      /* measured, but the result is wrong: figures are unverified */
    CLB_ROW_ERROR,       /* a fault stopped it (reason says which call and error) */
    CLB_ROW_SKIPPED,     /* the size does not fit (reason says where) */
    CLB_ROW_UNAVAILABLE, /* the backend cannot do this precision here (reason says why) */
};

const char *clb_row_status_name(enum clb_row_status s); /* "ok", "failed", ... */
/* The status called name; CLB_ROW_ERROR for a name not in the table. */
enum clb_row_status clb_row_status_from_name(const char *name);

/*
 * Parameters of a tunable kernel as name/value pairs ("KWG" = 32), in the
 * order the backend sets them: what the tuning cache stores and `clbench
 * tune` prints. n == 0: the library's built-in choice.
 */
enum { CLB_TUNE_MAX_PARAMS = 20 };

struct clb_tune_params {
    size_t n;
    char name[CLB_TUNE_MAX_PARAMS][32];
    size_t value[CLB_TUNE_MAX_PARAMS];
    uint64_t size; /* from the tuning cache: the size class they won at; else 0 */
};

/*
 * Which stored parameters a problem gets: the tuning cache's entry for the
 * size class nearest the problem's size (the geometric mean cbrt(m*n*k)),
 * when it lies within a factor of 2 of it.
 */
struct clb_tune_match {
    uint64_t size;  /* the size the applied entry was tuned at; 0: none applied */
    char note[256]; /* why none applies although entries exist, else "" */
};

/* The value of parameter `name`, or `fallback`. */
size_t clb_tune_get(const struct clb_tune_params *p, const char *name, size_t fallback);
/* Sets `name` (replacing its value, or appended; ignored beyond CLB_TUNE_MAX_PARAMS). */
void clb_tune_set(struct clb_tune_params *p, const char *name, size_t value);

/* The result document's schema (docs/result-schema.md), written and read back. */
#define CLB_RESULT_SCHEMA "clbench-result/1"

/*
 * The vendor's published figure a measured one is held against (a row of
 * the datasheet table, clbench/datasheet/datasheet.h), or a CPU's derived
 * peak; value 0: none.
 * Strings are static (the built-in table's).
 */
struct clb_datasheet_ref {
    double value;       /* in the measured figure's unit: GFLOP/s, GB/s */
    const char *name;   /* the table's row: "NVIDIA H100 PCIe 80GB" */
    const char *figure; /* "fp32_vector", "memory" */
    const char *source;
    unsigned parts;     /* the package shows as this many devices: value is 1/parts of its figure */
    /*
     * A CPU's peak derived, not published: value = cores x flops_per_cycle
     * x clock_ghz, name the core design ("AMD Zen 4"), source the reference
     * for its FMA units (clbench/datasheet/datasheet.h, cpu_cores).
     */
    bool derived;
    double cores;           /* physical cores it stands for (a device's share: may be fractional) */
    double flops_per_cycle; /* per core, in the figure's precision */
    double clock_ghz;       /* measured: the host peak's clock_ghz */
};

#endif
