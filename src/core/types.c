#include "clbench/core/types.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const precision_names[CLB_PRECISION_COUNT] = {
    [CLB_FP32] = "fp32", [CLB_FP64] = "fp64",   [CLB_FP16] = "fp16", [CLB_BF16] = "bf16",
    [CLB_INT32] = "int32", [CLB_INT16] = "int16", [CLB_INT8] = "int8", [CLB_INT8DOT] = "int8dot",
};

const char *clb_precision_name(enum clb_precision p)
{
    return (unsigned)p < CLB_PRECISION_COUNT ? precision_names[p] : NULL;
}

enum clb_precision clb_precision_from_name(const char *name)
{
    for (unsigned p = 0; name && p < CLB_PRECISION_COUNT; p++)
        if (!strcmp(precision_names[p], name))
            return (enum clb_precision)p;
    return CLB_PRECISION_NONE;
}

const char *clb_code_path_name(enum clb_code_path c)
{
    static const char *const names[] = { [CLB_CODE_PATH_AUTO] = "auto",
                                         [CLB_CODE_PATH_CPU] = "cpu",
                                         [CLB_CODE_PATH_GPU] = "gpu" };
    return (unsigned)c <= CLB_CODE_PATH_GPU ? names[c] : "?";
}

bool clb_code_path_gpu(enum clb_code_path c, bool device_is_cpu)
{
    return c == CLB_CODE_PATH_AUTO ? !device_is_cpu : c == CLB_CODE_PATH_GPU;
}

size_t clb_precision_bytes(enum clb_precision p)
{
    return p == CLB_FP64 ? 8 : p == CLB_FP16 ? 2 : 4;
}

double clb_precision_unit_roundoff(enum clb_precision p)
{
    return p == CLB_FP64 ? 0x1p-53 : p == CLB_FP16 ? 0x1p-11 : 0x1p-24;
}

size_t clb_tune_get(const struct clb_tune_params *p, const char *name, size_t fallback)
{
    for (size_t i = 0; i < p->n; i++)
        if (!strcmp(p->name[i], name))
            return p->value[i];
    return fallback;
}

void clb_tune_set(struct clb_tune_params *p, const char *name, size_t value)
{
    for (size_t i = 0; i < p->n; i++) {
        if (!strcmp(p->name[i], name)) {
            p->value[i] = value;
            return;
        }
    }
    if (p->n < CLB_TUNE_MAX_PARAMS) {
        snprintf(p->name[p->n], sizeof(p->name[0]), "%s", name);
        p->value[p->n++] = value;
    }
}

double clb_gemm_flops(struct clb_gemm_shape s)
{
    return 2.0 * (double)s.m * (double)s.n * (double)s.k;
}

double clb_half_to_double(uint16_t bits)
{
    const int e = (bits >> 10) & 0x1f, mant = bits & 0x3ff;
    const double v = e == 0    ? ldexp(mant, -24)
                     : e == 31 ? (mant ? NAN : INFINITY)
                               : ldexp(mant | 0x400, e - 25);
    return bits & 0x8000 ? -v : v;
}

static const char *const status_names[] = {
    [CLB_ROW_OK] = "ok",           [CLB_ROW_FAILED] = "failed",
    [CLB_ROW_ERROR] = "error",     [CLB_ROW_SKIPPED] = "skipped",
    [CLB_ROW_UNAVAILABLE] = "unavailable",
};

const char *clb_row_status_name(enum clb_row_status s)
{
    return status_names[s];
}

enum clb_row_status clb_row_status_from_name(const char *name)
{
    for (unsigned s = 0; s < sizeof(status_names) / sizeof(status_names[0]); s++)
        if (!strcmp(status_names[s], name))
            return (enum clb_row_status)s;
    return CLB_ROW_ERROR;
}
