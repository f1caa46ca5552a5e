#ifndef CLBENCH_FIT_FIT_H
#define CLBENCH_FIT_FIT_H

/*
 * "Will my model fit?": memory arithmetic for model weights, KV cache and
 * training state. Sizes are bytes (uint64_t); every product is overflow-
 * checked. GB means 10^9 bytes and GiB 2^30 bytes, and output says which.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/util/error.h"

enum clb_dtype { CLB_DT_FP32, CLB_DT_FP16, CLB_DT_BF16, CLB_DT_INT8, CLB_DT_INT4, CLB_DT_COUNT };

const char *clb_dtype_name(enum clb_dtype d); /* "fp16" */
unsigned clb_dtype_bits(enum clb_dtype d);    /* 32, 16, 16, 8, 4 */
/* The dtype called name ("bf16"); false for none. */
bool clb_dtype_parse(const char *name, enum clb_dtype *out);

/* What the KV cache depends on. head_dim is usually hidden / heads. */
struct clb_model_shape {
    uint64_t layers, hidden, heads, kv_heads, head_dim;
};

/* A well-known open model, with its published configuration. */
struct clb_model {
    const char *name;       /* what --model takes: "llama-2-7b" */
    const char *display;    /* "Llama 2 7B" */
    uint64_t params;        /* published parameter count */
    struct clb_model_shape shape;
    uint64_t context;       /* native context length, tokens */
    uint64_t ffn, vocab, experts; /* gated-MLP width, vocabulary, MoE experts (1: dense) */
    bool tied_embeddings, qkv_bias;
};

/* The presets of well-known models: clbench/fit/models.h. */

/* "7B", "6.7b", "125M", "1.5T", "350K" or a plain count; > 0 and < 2^53. */
int clb_parse_params(const char *s, uint64_t *out, struct clb_error *e);

/* One GEMM with weights that a decoder layer does for M tokens at once. */
struct clb_layer_gemm {
    const char *role;   /* "qkv", "attention out", "mlp up/gate", "mlp down" (static) */
    uint64_t m, n, k;   /* C (m x n) = A (m x k) . B (k x n): A the activations, B the weights */
    unsigned per_layer; /* such GEMMs per layer: 2 for the gated MLP's up and gate */
};
enum { CLB_LAYER_GEMMS = 4 };

/*
 * The GEMMs of one layer of m's Llama-style decoder for `tokens` tokens
 * (prefill: context x batch; decode: batch): QKV (hidden -> (heads + 2
 * kv_heads) head_dim), attention output (heads head_dim -> hidden), the
 * gated MLP's up and gate (hidden -> ffn, each) and down (ffn -> hidden).
 * Their FLOPs are 2 x tokens x the layer's weights. Attention's score and
 * value products (no weights) are left out. For a mixture of experts the
 * MLP GEMMs are one expert's as if it took every token: callers refuse
 * such models rather than mislead.
 */
void clb_model_layer_gemms(const struct clb_model *m, uint64_t tokens,
                           struct clb_layer_gemm out[CLB_LAYER_GEMMS]);

enum clb_fit_mode { CLB_FIT_INFER, CLB_FIT_TRAIN };

struct clb_fit_request {
    uint64_t params;
    bool has_shape;              /* without it the KV cache is not counted */
    struct clb_model_shape shape;
    uint64_t context, batch;     /* tokens, sequences */
    enum clb_dtype dtype;        /* weights (inference) */
    enum clb_dtype kv_dtype;
    double overhead;             /* allowance as a fraction of the rest: 0.2 = 20 % */
    enum clb_fit_mode mode;
};

/*
 * Inference: weights = params * bits / 8; KV cache = 2 * layers * kv_heads *
 * head_dim * context * batch * kv bytes; overhead = fraction * (weights + KV).
 * Training (mixed precision, Adam), per parameter: fp16 weights 2 + fp16
 * gradients 2 + fp32 master weights 4 + Adam moments 8 = 16 bytes, plus the
 * overhead fraction; activations are not counted.
 */
struct clb_fit_estimate {
    uint64_t weights_bytes;
    uint64_t kv_cache_bytes;     /* 0 when not counted */
    bool kv_counted;
    uint64_t gradients_bytes, master_bytes, optimizer_bytes; /* training only */
    uint64_t overhead_bytes;
    uint64_t total_bytes;
};

enum { CLB_TRAIN_BYTES_PER_PARAM = 16 };

/*
 * r for preset m inferring at `context` tokens and `batch` sequences, as
 * `clbench fit --model M` defaults it: fp16 weights and KV cache, 20 %
 * overhead.
 */
void clb_fit_request_preset(struct clb_fit_request *r, const struct clb_model *m,
                            uint64_t context, uint64_t batch);

/* -1 with e set when a size overflows 64 bits. */
int clb_fit_estimate(const struct clb_fit_request *r, struct clb_fit_estimate *out,
                     struct clb_error *e);

/* A device's measured figures that a model's speed follows from. */
struct clb_speed_inputs {
    double prefill_gflops;  /* GEMM rate at the model's prefill shapes, GFLOP/s (0: unknown) */
    double bandwidth_gbps;  /* device memory bandwidth, GB/s (0: unknown) */
    double train_tokens;    /* tokens to train on (0: no training estimate) */
};

/*
 * Upper bounds from measured figures (no attention FLOPs, no overlap of
 * compute and memory, no communication, every GEMM at the measured rate):
 *   prefill tokens/s = prefill rate / (2 x params) FLOPs per token;
 *   decode tokens/s  = batch x bandwidth / (weights + KV cache) bytes read
 *                      per step (one token of each sequence: every weight
 *                      and the whole cache, at the request's context);
 *   training time    = 6 x params x tokens / prefill rate.
 * A figure whose input is 0 is 0.
 */
struct clb_speed_estimate {
    double flops_per_token;   /* 2 x params */
    double prefill_tokens_s;
    double bytes_per_step;    /* weights + KV cache */
    double decode_tokens_s;
    double train_flops;       /* 6 x params x tokens */
    double train_s;
};
void clb_speed_estimate(const struct clb_fit_request *r, const struct clb_fit_estimate *memory,
                        const struct clb_speed_inputs *in, struct clb_speed_estimate *out);

/* The largest parameter count whose estimate (without KV cache) fits in `bytes`. */
uint64_t clb_fit_max_params(uint64_t bytes, enum clb_dtype d, double overhead,
                            enum clb_fit_mode mode);

/* "6.74 B", "124 M", "1.50 T" for people. */
void clb_format_params(uint64_t params, char *buf, size_t len);
/* "14.0 GB (13.0 GiB)": both units, labelled. */
void clb_format_gb_gib(uint64_t bytes, char *buf, size_t len);

#endif
