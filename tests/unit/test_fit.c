/* Model memory arithmetic against hand-computed cases, and the presets against their
 * published parameter counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <math.h>
#include <cmocka.h>

#include "clbench/cli/args.h"
#include "clbench/fit/fit.h"
#include "clbench/fit/models.h"

static struct clb_fit_request infer(uint64_t params, enum clb_dtype d, double overhead)
{
    struct clb_fit_request r = { .params = params, .dtype = d, .kv_dtype = CLB_DT_FP16,
                                 .overhead = overhead, .mode = CLB_FIT_INFER, .batch = 1 };
    return r;
}

static void seven_b_fp16_is_14_gb(void **state)
{
    struct clb_fit_request r = infer(7000000000ull, CLB_DT_FP16, 0.20);
    struct clb_fit_estimate e;
    struct clb_error err;
    char buf[64];

    (void)state;
    assert_int_equal(clb_fit_estimate(&r, &e, &err), 0);
    assert_true(e.weights_bytes == 14000000000ull);
    assert_false(e.kv_counted);
    assert_true(e.overhead_bytes == 2800000000ull);
    assert_true(e.total_bytes == 16800000000ull);
    clb_format_gb_gib(e.weights_bytes, buf, sizeof(buf));
    assert_string_equal(buf, "14.0 GB (13.0 GiB)");
}

static void llama2_7b_kv_cache_is_2_gib(void **state)
{
    const struct clb_model *m = clb_model_find("Llama-2-7B");
    struct clb_fit_request r = infer(m->params, CLB_DT_FP16, 0.0);
    struct clb_fit_estimate e;
    struct clb_error err;

    (void)state;
    assert_non_null(m);
    r.has_shape = true;
    r.shape = m->shape;
    r.context = 4096;
    assert_int_equal(clb_fit_estimate(&r, &e, &err), 0);
    assert_true(e.kv_counted);
    assert_true(e.kv_cache_bytes == 2ull << 30);
    /* int8 KV halves it; a batch of 4 quadruples it. */
    r.kv_dtype = CLB_DT_INT8;
    r.batch = 4;
    assert_int_equal(clb_fit_estimate(&r, &e, &err), 0);
    assert_true(e.kv_cache_bytes == 4ull << 30);
}

static void eighty_gib_int4_holds_172_b(void **state)
{
    uint64_t p = clb_fit_max_params(80ull << 30, CLB_DT_INT4, 0.0, CLB_FIT_INFER);

    (void)state;
    assert_true(p == 171798691840ull); /* 80 * 2^30 / 0.5 */
    assert_true(fabs((double)p / 1e9 - 172) < 0.5);
    /* The allowance shrinks it; fp32 holds an eighth as many. */
    assert_true(clb_fit_max_params(80ull << 30, CLB_DT_INT4, 0.2, CLB_FIT_INFER) ==
                (uint64_t)floor(171798691840.0 / 1.2));
    assert_true(clb_fit_max_params(80ull << 30, CLB_DT_FP32, 0.0, CLB_FIT_INFER) ==
                171798691840ull / 8);
}

static void training_is_16_bytes_per_param(void **state)
{
    struct clb_fit_request r = infer(7000000000ull, CLB_DT_FP16, 0.0);
    struct clb_fit_estimate e;
    struct clb_error err;

    (void)state;
    r.mode = CLB_FIT_TRAIN;
    assert_int_equal(clb_fit_estimate(&r, &e, &err), 0);
    assert_true(e.weights_bytes == 14000000000ull && e.gradients_bytes == 14000000000ull);
    assert_true(e.master_bytes == 28000000000ull && e.optimizer_bytes == 56000000000ull);
    assert_true(e.total_bytes == 112000000000ull);
    assert_true(clb_fit_max_params(160000000000ull, CLB_DT_FP16, 0.0, CLB_FIT_TRAIN) ==
                10000000000ull);
}

static void int4_rounds_up(void **state)
{
    struct clb_fit_request r = infer(3, CLB_DT_INT4, 0.0);
    struct clb_fit_estimate e;
    struct clb_error err;

    (void)state;
    assert_int_equal(clb_fit_estimate(&r, &e, &err), 0);
    assert_true(e.weights_bytes == 2);
}

static void overflow_is_an_error(void **state)
{
    struct clb_fit_request r = infer(9000000000000000ull, CLB_DT_FP32, 0.2);
    struct clb_fit_estimate e;
    struct clb_error err;

    (void)state;
    r.has_shape = true;
    r.shape = (struct clb_model_shape){ 4000000000ull, 4000000000ull, 4000000000ull,
                                        4000000000ull, 4000000000ull };
    r.context = 4000000000ull;
    assert_int_equal(clb_fit_estimate(&r, &e, &err), -1);
    assert_non_null(strstr(err.msg, "overflows"));
}

static void presets_match_published_counts(void **state)
{
    (void)state;
    assert_true(clb_n_models >= 8);
    for (size_t i = 0; i < clb_n_models; i++) {
        const struct clb_model *m = &clb_models[i];
        double from_shape = (double)clb_model_params_from_shape(m);
        double rel = fabs(from_shape / (double)m->params - 1.0);
        if (rel > 0.01)
            fail_msg("%s: shape gives %.4g parameters, published %.4g", m->name, from_shape,
                     (double)m->params);
        assert_true(m->shape.kv_heads <= m->shape.heads && m->shape.heads % m->shape.kv_heads == 0);
        assert_ptr_equal(clb_model_find(m->name), m);
    }
    assert_null(clb_model_find("gpt-5"));
}

/*
 * A layer's GEMMs hold its weights: for every dense preset, their n x k (times
 * per_layer) over the layers, plus norms and embeddings, is the parameter
 * count of its shape exactly; M is the tokens given.
 */
static void layer_gemms_are_the_weights(void **state)
{
    struct clb_layer_gemm g[CLB_LAYER_GEMMS];
    size_t checked = 0;
    (void)state;
    for (size_t i = 0; i < clb_n_models; i++) {
        const struct clb_model *m = &clb_models[i];
        const struct clb_model_shape *s = &m->shape;
        if (m->experts > 1 || m->qkv_bias)
            continue;
        clb_model_layer_gemms(m, 77, g);
        uint64_t w = 0;
        for (int j = 0; j < CLB_LAYER_GEMMS; j++) {
            assert_int_equal(g[j].m, 77);
            w += g[j].n * g[j].k * g[j].per_layer;
        }
        const uint64_t total = s->layers * (w + 2 * s->hidden) + s->hidden +
                               m->vocab * s->hidden * (m->tied_embeddings ? 1 : 2);
        assert_int_equal(total, clb_model_params_from_shape(m));
        checked++;
    }
    assert_true(checked >= 4);
    /* Llama 2 7B by hand: QKV 4096 -> 3 x 4096, MLP 4096 -> 11008 (up and gate), down back. */
    clb_model_layer_gemms(clb_model_find("llama-2-7b"), 512, g);
    assert_string_equal(g[0].role, "qkv");
    assert_true(g[0].m == 512 && g[0].n == 12288 && g[0].k == 4096 && g[0].per_layer == 1);
    assert_true(g[1].n == 4096 && g[1].k == 4096);
    assert_true(g[2].n == 11008 && g[2].k == 4096 && g[2].per_layer == 2);
    assert_true(g[3].n == 4096 && g[3].k == 11008);
    /* Grouped-query attention: Mistral 7B's 8 KV heads make QKV 4096 + 2 x 1024 wide. */
    clb_model_layer_gemms(clb_model_find("mistral-7b"), 1, g);
    assert_true(g[0].n == 4096 + 2 * 1024 && g[2].n == 14336);
}

/* The estimate formulas against figures worked by hand. */
static void speed_estimates(void **state)
{
    struct clb_fit_request r = { .params = 6740000000ull, .batch = 1, .dtype = CLB_DT_FP16,
                                 .kv_dtype = CLB_DT_FP16 };
    struct clb_fit_estimate mem;
    struct clb_speed_estimate s;
    struct clb_error e;
    (void)state;

    /* Llama 2 7B, fp16, context 0 (no KV cache), batch 1, at 100 GB/s: 13.48 GB a token. */
    assert_int_equal(clb_fit_estimate(&r, &mem, &e), 0);
    clb_speed_estimate(&r, &mem, &(struct clb_speed_inputs){ .bandwidth_gbps = 100 }, &s);
    assert_true(s.bytes_per_step == 13.48e9);
    assert_true(fabs(s.decode_tokens_s - 100e9 / 13.48e9) < 1e-9);
    assert_true(s.decode_tokens_s <= 7.42 && s.decode_tokens_s >= 7.41);
    assert_true(s.prefill_tokens_s == 0 && s.train_s == 0); /* no rate measured */
    /* With its KV cache at context 4096: 2 x 32 x 32 x 128 x 4096 x 2 B = 2 GiB more a step. */
    r.has_shape = true;
    r.shape = clb_model_find("llama-2-7b")->shape;
    r.context = 4096;
    assert_int_equal(clb_fit_estimate(&r, &mem, &e), 0);
    clb_speed_estimate(&r, &mem, &(struct clb_speed_inputs){ .bandwidth_gbps = 100 }, &s);
    assert_true(s.bytes_per_step == 13.48e9 + 2147483648.0);
    /* Batch 8 reads the weights once for 8 tokens, and 8 caches. */
    r.batch = 8;
    assert_int_equal(clb_fit_estimate(&r, &mem, &e), 0);
    clb_speed_estimate(&r, &mem, &(struct clb_speed_inputs){ .bandwidth_gbps = 100 }, &s);
    assert_true(fabs(s.decode_tokens_s - 8 * 100e9 / (13.48e9 + 8 * 2147483648.0)) < 1e-9);
    /* Prefill at 1 TFLOP/s: 1e12 / (2 x 6.74e9) = 74.18 tokens/s. */
    clb_speed_estimate(&r, &mem, &(struct clb_speed_inputs){ .prefill_gflops = 1000 }, &s);
    assert_true(s.flops_per_token == 13.48e9);
    assert_true(fabs(s.prefill_tokens_s - 1e12 / 13.48e9) < 1e-9);
    /* GPT-3: 6 x 175e9 x 300e9 = 3.15e23 FLOPs; at 312 TFLOP/s, 1.0096e11 s (32 years). */
    r.params = 175000000000ull;
    clb_speed_estimate(&r, &mem,
                       &(struct clb_speed_inputs){ .prefill_gflops = 312000, .train_tokens = 300e9 },
                       &s);
    assert_true(fabs(s.train_flops - 3.15e23) < 1e9);
    assert_true(fabs(s.train_s - 3.15e23 / 312e12) < 1e-3);
}

static void presets_kv_per_token(void **state)
{
    /* Widely quoted fp16 KV cache per token: 2 * layers * kv_heads * head_dim * 2 bytes. */
    static const struct {
        const char *name;
        uint64_t bytes;
    } want[] = { { "llama-2-7b", 512 << 10 }, { "llama-2-70b", 320 << 10 },
                 { "llama-3-8b", 128 << 10 }, { "mistral-7b", 128 << 10 } };
    (void)state;
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        const struct clb_model *m = clb_model_find(want[i].name);
        assert_non_null(m);
        assert_true(2 * m->shape.layers * m->shape.kv_heads * m->shape.head_dim * 2 ==
                    want[i].bytes);
    }
}

static void parse_params(void **state)
{
    static const struct {
        const char *s;
        uint64_t v;
    } good[] = { { "7B", 7000000000ull }, { "6.7b", 6700000000ull }, { "125M", 125000000 },
                 { "1.5T", 1500000000000ull }, { "350K", 350000 }, { "7000000000", 7000000000ull } };
    static const char *const bad[] = { "-3B", "", "B", "7X", "0", "0.0000001", "1e400",
                                       "99999999999T", "nanB", " 7B", "7B " };
    struct clb_error e;
    uint64_t v;

    (void)state;
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        assert_int_equal(clb_parse_params(good[i].s, &v, &e), 0);
        assert_true(v == good[i].v);
    }
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        if (clb_parse_params(bad[i], &v, &e) != -1)
            fail_msg("'%s' accepted", bad[i]);
}

static void formatting(void **state)
{
    char b[32];
    enum clb_dtype d;
    struct clb_error e;

    (void)state;
    clb_format_params(6740000000ull, b, sizeof(b));
    assert_string_equal(b, "6.74 B");
    clb_format_params(124000000ull, b, sizeof(b));
    assert_string_equal(b, "124 M");
    clb_format_params(1500000000000ull, b, sizeof(b));
    assert_string_equal(b, "1.50 T");
    assert_int_equal(clb_opt_dtype("bf16", &d, &e), 0);
    assert_int_equal(d, CLB_DT_BF16);
    assert_int_equal(clb_dtype_bits(CLB_DT_INT4), 4);
    assert_int_equal(clb_opt_dtype("fp7", &d, &e), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seven_b_fp16_is_14_gb),
        cmocka_unit_test(llama2_7b_kv_cache_is_2_gib),
        cmocka_unit_test(eighty_gib_int4_holds_172_b),
        cmocka_unit_test(training_is_16_bytes_per_param),
        cmocka_unit_test(int4_rounds_up),
        cmocka_unit_test(overflow_is_an_error),
        cmocka_unit_test(presets_match_published_counts),
        cmocka_unit_test(presets_kv_per_token),
        cmocka_unit_test(layer_gemms_are_the_weights),
        cmocka_unit_test(speed_estimates),
        cmocka_unit_test(parse_params),
        cmocka_unit_test(formatting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
