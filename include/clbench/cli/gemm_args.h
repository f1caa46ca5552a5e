#ifndef CLBENCH_CLI_GEMM_ARGS_H
#define CLBENCH_CLI_GEMM_ARGS_H

/* Value parsers for the GEMM options (option-table field parsers, see cli.h). */
#include "clbench/backends/backend.h"
#include "clbench/cli/cli.h"

enum { CLB_MAX_SHAPES = 256, CLB_MAX_DIM = 2147483647 };

/* The square sizes gemm and run measure, and tune tunes, unless told others (-n text). */
#define CLB_GEMM_DEFAULT_SIZES "512,1024,2048"

struct clb_shape_list {
    size_t n;
    struct clb_gemm_shape v[CLB_MAX_SHAPES];
};

struct clb_precision_list {
    size_t n;
    enum clb_precision v[CLB_GEMM_PRECISIONS];
};

struct clb_backend_list {
    size_t n;
    const struct clb_gemm_backend *v[8];
    bool untuned[8]; /* v[i] with its built-in parameters (NAME-untuned) */
};

/*
 * -n: "512,1024,4096", ranges "256:4096:x2" (times 2) or "100:500:100" (plus
 * 100), mixed; replaces the list.
 */
int clb_opt_sizes(const char *arg, void *field, struct clb_error *e);
/* --mnk: "M,N,K", appended to the shape list. */
int clb_opt_mnk(const char *arg, void *field, struct clb_error *e);
/* -p: "fp32,fp64,fp16" (or "all"), duplicates dropped. */
int clb_opt_precisions(const char *arg, void *field, struct clb_error *e);
/*
 * -b: names from the backend registry (or "all"); NAME-untuned for a backend
 * with a tuning part: its built-in parameters.
 */
int clb_opt_backends(const char *arg, void *field, struct clb_error *e);

/*
 * Completion words (clb_opt_words_hook): the precisions and "all"; the
 * backends, their NAME-untuned twins and "all".
 */
void clb_precision_words(FILE *out);
void clb_backend_words(FILE *out);
/*
 * The GEMM mode (field: a struct clb_gemm_mode, clbench/core/gemm_data.h):
 * --trans "NN", "NT", "TN" or "TT" (A's then B's; either case) sets
 * trans_a and trans_b; --layout "row" or "col" sets col_major; --ld PAD
 * (0..CLB_GEMM_MAX_LD_PAD) sets ld_pad and --offset N (0..CLB_GEMM_MAX_OFFSET)
 * offset, each leaving the other fields as they are.
 */
int clb_opt_trans(const char *arg, void *field, struct clb_error *e);
int clb_opt_layout(const char *arg, void *field, struct clb_error *e);
int clb_opt_ld_pad(const char *arg, void *field, struct clb_error *e);
int clb_opt_offset(const char *arg, void *field, struct clb_error *e);
/*
 * --code-path (field: an enum clb_code_path, clbench/core/types.h): "auto",
 * "cpu" or "gpu".
 */
int clb_opt_code_path(const char *arg, void *field, struct clb_error *e);
/* --blas-core: "auto", "as-is" or an OpenBLAS core name (letters, digits, '_', '-'). */
int clb_opt_blas_core(const char *arg, void *field, struct clb_error *e);
/* Integers and durations for option fields of type unsigned / uint64_t / double. */
int clb_opt_uint(const char *arg, void *field, struct clb_error *e);         /* 0..1e6 */
int clb_opt_positive(const char *arg, void *field, struct clb_error *e);     /* 1..1e6 */
int clb_opt_u64(const char *arg, void *field, struct clb_error *e);          /* any */
int clb_opt_seconds(const char *arg, void *field, struct clb_error *e);      /* 0..86400 */
int clb_opt_scalar(const char *arg, void *field, struct clb_error *e);       /* finite */
/* A time that must allow something to run (--budget, --max-time): above 0, to 86400 s. */
int clb_opt_time_limit(const char *arg, void *field, struct clb_error *e);
/* --alpha: finite and not 0 (alpha = 0 leaves C = beta*C: BLAS skips A*B, no GEMM is timed). */
int clb_opt_alpha(const char *arg, void *field, struct clb_error *e);

#endif
