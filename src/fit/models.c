/*
 * Presets: the published configurations (config.json of each release) of
 * well-known open models, with the parameter count their model cards give
 * (3 significant figures). clb_model_params_from_shape() recomputes each
 * count from the shape, and a unit test holds the two within 1 %.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "clbench/fit/models.h"

#define M(name_, disp_, params_, layers_, hidden_, heads_, kv_, hd_, ctx_, ffn_, vocab_, exp_, \
          tied_, bias_)                                                                    \
    { .name = name_, .display = disp_, .params = params_,                                  \
      .shape = { layers_, hidden_, heads_, kv_, hd_ }, .context = ctx_, .ffn = ffn_,         \
      .vocab = vocab_, .experts = exp_, .tied_embeddings = tied_, .qkv_bias = bias_ }

const struct clb_model clb_models[] = {
    M("llama-2-7b", "Llama 2 7B", 6740000000ull, 32, 4096, 32, 32, 128, 4096, 11008, 32000, 1,
      false, false),
    M("llama-2-13b", "Llama 2 13B", 13000000000ull, 40, 5120, 40, 40, 128, 4096, 13824, 32000,
      1, false, false),
    M("llama-2-70b", "Llama 2 70B", 69000000000ull, 80, 8192, 64, 8, 128, 4096, 28672, 32000, 1,
      false, false),
    M("llama-3-8b", "Llama 3 8B", 8030000000ull, 32, 4096, 32, 8, 128, 8192, 14336, 128256, 1,
      false, false),
    M("llama-3-70b", "Llama 3 70B", 70600000000ull, 80, 8192, 64, 8, 128, 8192, 28672, 128256,
      1, false, false),
    M("llama-3.1-405b", "Llama 3.1 405B", 405000000000ull, 126, 16384, 128, 8, 128, 131072,
      53248, 128256, 1, false, false),
    M("mistral-7b", "Mistral 7B v0.1", 7240000000ull, 32, 4096, 32, 8, 128, 32768, 14336, 32000,
      1, false, false),
    M("mixtral-8x7b", "Mixtral 8x7B", 46700000000ull, 32, 4096, 32, 8, 128, 32768, 14336, 32000,
      8, false, false),
    M("qwen2-7b", "Qwen2 7B", 7620000000ull, 28, 3584, 28, 4, 128, 32768, 18944, 152064, 1,
      false, true),
    M("gemma-7b", "Gemma 7B", 8540000000ull, 28, 3072, 16, 16, 256, 8192, 24576, 256000, 1, true,
      false),
    M("phi-3-mini", "Phi-3 mini (4k)", 3820000000ull, 32, 3072, 32, 32, 96, 4096, 8192, 32064, 1,
      false, false),
};
#undef M

const size_t clb_n_models = sizeof(clb_models) / sizeof(clb_models[0]);

const struct clb_model *clb_model_find(const char *name)
{
    for (size_t i = 0; i < clb_n_models; i++)
        if (strcasecmp(clb_models[i].name, name) == 0)
            return &clb_models[i];
    return NULL;
}

uint64_t clb_model_params_from_shape(const struct clb_model *m)
{
    const struct clb_model_shape *s = &m->shape;
    const uint64_t q = s->heads * s->head_dim, kv = s->kv_heads * s->head_dim;
    uint64_t attn = s->hidden * q + 2 * s->hidden * kv + q * s->hidden;
    uint64_t mlp = m->experts * 3 * s->hidden * m->ffn;

    if (m->qkv_bias)
        attn += q + 2 * kv;
    if (m->experts > 1)
        mlp += s->hidden * m->experts; /* the router */
    /* Two norms per layer, one at the end; embeddings (and an untied output head). */
    return s->layers * (attn + mlp + 2 * s->hidden) + s->hidden +
           m->vocab * s->hidden * (m->tied_embeddings ? 1 : 2);
}
