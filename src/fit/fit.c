#include "clbench/fit/fit.h"
#include "clbench/util/parse.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>


static const struct {
    const char *name;
    unsigned bits;
} dtypes[] = {
    [CLB_DT_FP32] = { "fp32", 32 }, [CLB_DT_FP16] = { "fp16", 16 },
    [CLB_DT_BF16] = { "bf16", 16 }, [CLB_DT_INT8] = { "int8", 8 },
    [CLB_DT_INT4] = { "int4", 4 },
};

const char *clb_dtype_name(enum clb_dtype d)
{
    return d < CLB_DT_COUNT ? dtypes[d].name : "?";
}

unsigned clb_dtype_bits(enum clb_dtype d)
{
    return d < CLB_DT_COUNT ? dtypes[d].bits : 0;
}

bool clb_dtype_parse(const char *name, enum clb_dtype *out)
{
    for (int d = 0; d < CLB_DT_COUNT; d++) {
        if (strcmp(name, dtypes[d].name) == 0) {
            *out = (enum clb_dtype)d;
            return true;
        }
    }
    return false;
}

int clb_parse_params(const char *s, uint64_t *out, struct clb_error *e)
{
    static const struct {
        char suffix;
        double scale;
    } suffixes[] = { { 'K', 1e3 }, { 'M', 1e6 }, { 'B', 1e9 }, { 'T', 1e12 } };
    char num[64];
    size_t n = strlen(s);
    double scale = 1.0, v;

    if (n == 0 || n >= sizeof(num)) {
        clb_error_set(e, "expected a parameter count like 7B, 125M or 1.5T");
        return -1;
    }
    memcpy(num, s, n + 1);
    for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
        if (toupper((unsigned char)num[n - 1]) == suffixes[i].suffix) {
            scale = suffixes[i].scale;
            num[--n] = '\0';
            break;
        }
    }
    if (!isdigit((unsigned char)num[0]) ||
        clb_parse_double(num, 0.0, 1e300, &v, e) != 0) {
        clb_error_set(e, "'%s' is not a parameter count like 7B, 125M or 1.5T", s);
        return -1;
    }
    v *= scale;
    /* Counts beyond 2^53 lose integer precision in a double and exceed any device. */
    if (!(v >= 1.0) || v >= 9007199254740992.0) {
        clb_error_set(e, "'%s' is out of range (1 to 9e15 parameters)", s);
        return -1;
    }
    *out = (uint64_t)llround(v);
    return 0;
}

/* a * b, or -1 on overflow. */
static int mul(uint64_t a, uint64_t b, uint64_t *out)
{
    return __builtin_mul_overflow(a, b, out) ? -1 : 0;
}

static int add(uint64_t a, uint64_t b, uint64_t *out)
{
    return __builtin_add_overflow(a, b, out) ? -1 : 0;
}

/* bytes = count * bits / 8, rounded up (int4 packs two per byte). */
static int bits_to_bytes(uint64_t count, unsigned bits, uint64_t *out)
{
    uint64_t b;
    if (mul(count, bits, &b))
        return -1;
    *out = b / 8 + (b % 8 != 0);
    return 0;
}

static int fraction(uint64_t v, double f, uint64_t *out)
{
    double r = ceil((double)v * f);
    if (r >= 18446744073709551615.0)
        return -1;
    *out = (uint64_t)r;
    return 0;
}

int clb_fit_estimate(const struct clb_fit_request *r, struct clb_fit_estimate *o,
                     struct clb_error *e)
{
    const struct clb_model_shape *s = &r->shape;
    uint64_t kv = 0, base;

    memset(o, 0, sizeof(*o));
    if (r->mode == CLB_FIT_TRAIN) {
        if (mul(r->params, 2, &o->weights_bytes) || mul(r->params, 2, &o->gradients_bytes) ||
            mul(r->params, 4, &o->master_bytes) || mul(r->params, 8, &o->optimizer_bytes) ||
            mul(r->params, CLB_TRAIN_BYTES_PER_PARAM, &base))
            goto overflow;
    } else {
        if (bits_to_bytes(r->params, clb_dtype_bits(r->dtype), &o->weights_bytes))
            goto overflow;
        if (r->has_shape) {
            /* K and V: 2 * layers * kv_heads * head_dim * context * batch elements. */
            if (mul(2, s->layers, &kv) || mul(kv, s->kv_heads, &kv) ||
                mul(kv, s->head_dim, &kv) || mul(kv, r->context, &kv) ||
                mul(kv, r->batch, &kv) || bits_to_bytes(kv, clb_dtype_bits(r->kv_dtype), &kv))
                goto overflow;
            o->kv_cache_bytes = kv;
            o->kv_counted = true;
        }
        if (add(o->weights_bytes, kv, &base))
            goto overflow;
    }
    if (fraction(base, r->overhead, &o->overhead_bytes) ||
        add(base, o->overhead_bytes, &o->total_bytes))
        goto overflow;
    return 0;

overflow:
    clb_error_set(e, "the estimate overflows 64-bit sizes: check the model's size and shape");
    return -1;
}

uint64_t clb_fit_max_params(uint64_t bytes, enum clb_dtype d, double overhead,
                            enum clb_fit_mode mode)
{
    double per_param = mode == CLB_FIT_TRAIN ? CLB_TRAIN_BYTES_PER_PARAM
                                             : clb_dtype_bits(d) / 8.0;
    return (uint64_t)floor((double)bytes / (per_param * (1.0 + overhead)));
}

void clb_format_params(uint64_t p, char *buf, size_t len)
{
    static const struct {
        double scale;
        const char *unit;
    } units[] = { { 1e12, "T" }, { 1e9, "B" }, { 1e6, "M" }, { 1e3, "K" } };
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
        double v = (double)p / units[i].scale;
        if (v >= 1.0) {
            snprintf(buf, len, v >= 100 ? "%.0f %s" : v >= 10 ? "%.1f %s" : "%.2f %s", v,
                     units[i].unit);
            return;
        }
    }
    snprintf(buf, len, "%llu", (unsigned long long)p);
}

void clb_format_gb_gib(uint64_t bytes, char *buf, size_t len)
{
    snprintf(buf, len, "%.1f GB (%.1f GiB)", (double)bytes / 1e9,
             (double)bytes / 1073741824.0);
}

void clb_model_layer_gemms(const struct clb_model *m, uint64_t tokens,
                           struct clb_layer_gemm out[CLB_LAYER_GEMMS])
{
    const struct clb_model_shape *s = &m->shape;
    const uint64_t q = s->heads * s->head_dim, kv = s->kv_heads * s->head_dim;

    out[0] = (struct clb_layer_gemm){ "qkv", tokens, q + 2 * kv, s->hidden, 1 };
    out[1] = (struct clb_layer_gemm){ "attention out", tokens, s->hidden, q, 1 };
    out[2] = (struct clb_layer_gemm){ "mlp up/gate", tokens, m->ffn, s->hidden, 2 };
    out[3] = (struct clb_layer_gemm){ "mlp down", tokens, s->hidden, m->ffn, 1 };
}

void clb_speed_estimate(const struct clb_fit_request *r, const struct clb_fit_estimate *memory,
                        const struct clb_speed_inputs *in, struct clb_speed_estimate *out)
{
    const double params = (double)r->params;

    memset(out, 0, sizeof(*out));
    out->flops_per_token = 2.0 * params;
    out->bytes_per_step = (double)memory->weights_bytes + (double)memory->kv_cache_bytes;
    out->train_flops = 6.0 * params * in->train_tokens;
    if (in->prefill_gflops > 0 && params > 0) {
        out->prefill_tokens_s = in->prefill_gflops * 1e9 / out->flops_per_token;
        out->train_s = out->train_flops / (in->prefill_gflops * 1e9);
    }
    if (in->bandwidth_gbps > 0 && out->bytes_per_step > 0)
        out->decode_tokens_s = (double)r->batch * in->bandwidth_gbps * 1e9 / out->bytes_per_step;
}

void clb_fit_request_preset(struct clb_fit_request *r, const struct clb_model *m,
                            uint64_t context, uint64_t batch)
{
    *r = (struct clb_fit_request){ .params = m->params,
                                   .has_shape = true,
                                   .shape = m->shape,
                                   .context = context,
                                   .batch = batch,
                                   .dtype = CLB_DT_FP16,
                                   .kv_dtype = CLB_DT_FP16,
                                   .overhead = 0.20,
                                   .mode = CLB_FIT_INFER };
}
