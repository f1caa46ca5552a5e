#include <stdlib.h>
#include <string.h>

#include "clbench/cli/args.h"
#include "clbench/fit/fit.h"
#include "clbench/output/fit.h"
#include "clbench/results/compare.h"
#include "clbench/results/resultfile.h"
#include "clbench/results/speed.h"
#include "clbench/util/parse.h"
#include "common.h"

struct fit_config {
    struct clb_common common;
    const char *model;
    enum clb_dtype dtype, kv_dtype;
    uint64_t context, batch, layers, hidden, heads, kv_heads, head_dim;
    double overhead;
    enum clb_fit_mode mode;
    bool list_models;
    const char *from;       /* --from: a result file whose figures the estimates use */
    uint64_t train_tokens;  /* --train-tokens */
};

static int opt_dim(const char *arg, void *field, struct clb_error *e)
{
    return clb_parse_u64(arg, 1, UINT32_MAX, field, e);
}

static int opt_mode(const char *arg, void *field, struct clb_error *e)
{
    if (!strcmp(arg, "infer") || !strcmp(arg, "inference"))
        *(enum clb_fit_mode *)field = CLB_FIT_INFER;
    else if (!strcmp(arg, "train") || !strcmp(arg, "training"))
        *(enum clb_fit_mode *)field = CLB_FIT_TRAIN;
    else {
        clb_error_set(e, "unknown mode '%s', expected infer or train", arg);
        return -1;
    }
    return 0;
}

static int opt_tokens(const char *arg, void *field, struct clb_error *e)
{
    return clb_parse_params(arg, field, e);
}

/* --from: each device's measured figures in the file and the speeds they give. */
static int load_speeds(const struct fit_config *cfg, struct clb_fit_report *rep,
                       struct clb_result_file **file, struct clb_fit_speed **speeds)
{
    struct clb_error e;

    if (rep->preset && rep->preset->experts > 1) {
        fprintf(stderr, "clbench fit: option --from: %s is a mixture of experts: the FLOPs and "
                        "bytes of a token depend on the experts it takes, which is not modelled\n",
                rep->preset->name);
        return CLB_EXIT_USAGE;
    }
    if (cfg->common.format == CLB_FORMAT_CSV) {
        fprintf(stderr, "clbench fit: option --from: the estimates come as a table or JSON, "
                        "not CSV\n");
        return CLB_EXIT_USAGE;
    }
    if (!(*file = clb_result_file_load(cfg->from, &e))) {
        fprintf(stderr, "clbench fit: option --from: %s\n", e.msg);
        return CLB_EXIT_USAGE;
    }
    json_t *shapes = json_object_get(json_object_get((*file)->root, "options"), "shapes");
    rep->measured_shapes = json_is_string(shapes) ? json_string_value(shapes) : NULL;
    const long n = clb_file_speed_estimates(*file, rep->request, &rep->estimate,
                                            (double)cfg->train_tokens, speeds);
    if (n < 0) {
        fprintf(stderr, "clbench: out of host memory\n");
        return CLB_EXIT_FAILURE;
    }
    if (!n) {
        fprintf(stderr, "clbench fit: option --from: %s has no GEMM rows of --shapes at prefill "
                        "and no bandwidth: measure with 'clbench run --shapes MODEL -o FILE'\n",
                cfg->from);
        return CLB_EXIT_USAGE;
    }
    if (rep->preset && rep->measured_shapes && strcmp(rep->measured_shapes, rep->preset->name))
        fprintf(stderr, "clbench: note: %s measured %s's shapes, not %s's: the prefill rate "
                        "is theirs\n", cfg->from, rep->measured_shapes, rep->preset->name);
    rep->from = cfg->from;
    rep->train_tokens = (double)cfg->train_tokens;
    rep->speeds = *speeds;
    rep->n_speeds = (size_t)n;
    return CLB_EXIT_OK;
}

static const struct clb_option fit_options[] = {
    CLB_COMMON_OPTIONS(struct fit_config),
    { "model", 'm', "MODEL",
      "A parameter count (7B, 125M, 1.5T) or a preset name (see --list-models); without it, "
      "the largest model each device holds", clb_opt_string, offsetof(struct fit_config, model) },
    { "dtype", 0, "DTYPE", "Weights: fp32, fp16, bf16, int8 or int4 (default: fp16)",
      clb_opt_dtype, offsetof(struct fit_config, dtype) },
    { "kv-dtype", 0, "DTYPE", "KV cache elements (default: fp16)", clb_opt_dtype,
      offsetof(struct fit_config, kv_dtype) },
    { "context", 0, "TOKENS", "Context length (default: the preset's, else 4096)", opt_dim,
      offsetof(struct fit_config, context) },
    { "batch", 0, "N", "Sequences held at once (default: 1)", opt_dim,
      offsetof(struct fit_config, batch) },
    { "layers", 0, "N", "Transformer layers (with --hidden and --heads: counts the KV cache)",
      opt_dim, offsetof(struct fit_config, layers) },
    { "hidden", 0, "N", "Hidden size", opt_dim, offsetof(struct fit_config, hidden) },
    { "heads", 0, "N", "Attention heads", opt_dim, offsetof(struct fit_config, heads) },
    { "kv-heads", 0, "N", "Key/value heads, fewer with grouped-query attention (default: heads)",
      opt_dim, offsetof(struct fit_config, kv_heads) },
    { "head-dim", 0, "N", "Size of one head (default: hidden / heads)", opt_dim,
      offsetof(struct fit_config, head_dim) },
    { "overhead", 0, "PERCENT",
      "Allowance for runtime buffers, workspace and fragmentation (default: 20%)",
      clb_opt_percent, offsetof(struct fit_config, overhead) },
    { "mode", 0, "MODE", "infer, or train (mixed precision with Adam) (default: infer)",
      opt_mode, offsetof(struct fit_config, mode) },
    { "list-models", 0, NULL, "List the model presets and exit", NULL,
      offsetof(struct fit_config, list_models) },
    { "from", 0, "FILE",
      "Also estimate prefill and decode tokens/s (and training time) per device from the "
      "figures measured in FILE: 'clbench run --shapes MODEL -o FILE' measures them (and "
      "prints the same estimates for its own run)",
      clb_opt_string, offsetof(struct fit_config, from) },
    { "train-tokens", 0, "N", "With --from: the training time on N tokens (300B, 2T)",
      opt_tokens, offsetof(struct fit_config, train_tokens) },
    { 0 },
};

static void fit_defaults(void *config)
{
    struct fit_config *c = config;

    c->dtype = CLB_DT_COUNT; /* unset: fp16 for inference; training has its own */
    c->kv_dtype = CLB_DT_FP16;
    c->overhead = 0.20;
    c->batch = 1;
}

/* Fills req from the options; prints a usage error and returns 2 when they do not add up. */
static int build_request(const struct fit_config *c, struct clb_fit_request *req,
                         const struct clb_model **preset)
{
    struct clb_error e;
    const bool shape_given = c->layers || c->hidden || c->heads || c->kv_heads || c->head_dim;

    memset(req, 0, sizeof(*req));
    if (c->mode == CLB_FIT_TRAIN && c->dtype != CLB_DT_COUNT) {
        fprintf(stderr, "clbench fit: --dtype is for inference; --mode train is mixed precision "
                        "(fp16 weights and gradients, fp32 master weights and Adam moments)\n");
        return CLB_EXIT_USAGE;
    }
    req->dtype = c->dtype == CLB_DT_COUNT ? CLB_DT_FP16 : c->dtype;
    req->kv_dtype = c->kv_dtype;
    req->overhead = c->overhead;
    req->mode = c->mode;
    req->batch = c->batch;
    *preset = NULL;
    if (!c->model) {
        if (shape_given || c->context) {
            fprintf(stderr, "clbench fit: --layers, --hidden, --heads and --context describe a "
                            "model: give --model too\n");
            return CLB_EXIT_USAGE;
        }
        return CLB_EXIT_OK;
    }
    if ((*preset = clb_model_find(c->model))) {
        req->params = (*preset)->params;
        req->shape = (*preset)->shape;
        req->has_shape = true;
        req->context = (*preset)->context;
    } else if (clb_parse_params(c->model, &req->params, &e) != 0) {
        fprintf(stderr, "clbench fit: option --model: %s, nor a preset (see --list-models)\n",
                e.msg);
        return CLB_EXIT_USAGE;
    }
    if (shape_given) {
        struct clb_model_shape *s = &req->shape;
        s->layers = c->layers ? c->layers : s->layers;
        s->hidden = c->hidden ? c->hidden : s->hidden;
        s->heads = c->heads ? c->heads : s->heads;
        if (!s->layers || !s->hidden || !s->heads) {
            fprintf(stderr, "clbench fit: --layers, --hidden and --heads go together (or name "
                            "a preset)\n");
            return CLB_EXIT_USAGE;
        }
        s->kv_heads = c->kv_heads ? c->kv_heads : *preset ? s->kv_heads : s->heads;
        if (c->head_dim)
            s->head_dim = c->head_dim;
        else if (!*preset || c->hidden || c->heads) {
            if (s->hidden % s->heads) {
                fprintf(stderr, "clbench fit: --hidden %llu is not a multiple of --heads %llu: "
                                "give --head-dim\n",
                        (unsigned long long)s->hidden, (unsigned long long)s->heads);
                return CLB_EXIT_USAGE;
            }
            s->head_dim = s->hidden / s->heads;
        }
        if (s->kv_heads > s->heads) {
            fprintf(stderr, "clbench fit: --kv-heads is more than --heads\n");
            return CLB_EXIT_USAGE;
        }
        req->has_shape = true;
        if (!req->context)
            req->context = 4096;
    }
    if (c->context)
        req->context = c->context;
    return CLB_EXIT_OK;
}

static int fit_run(void *config, int n_operands, char **operands)
{
    struct fit_config *cfg = config;
    struct clb_fit_request req;
    struct clb_fit_report rep = { .request = &req };
    struct clb_selection sel;
    struct clb_error e;
    int rc;

    (void)n_operands;
    (void)operands;
    if (cfg->list_models) {
        rc = clb_fit_write_models(stdout, cfg->common.format) ? CLB_EXIT_FAILURE : CLB_EXIT_OK;
        return rc ? rc : clb_finish_stdout();
    }
    if ((rc = build_request(cfg, &req, &rep.preset)) != CLB_EXIT_OK)
        return rc;
    rep.has_model = cfg->model != NULL;
    if (rep.has_model && clb_fit_estimate(&req, &rep.estimate, &e) != 0) {
        fprintf(stderr, "clbench fit: %s\n", e.msg);
        return CLB_EXIT_USAGE;
    }
    if ((cfg->from || cfg->train_tokens) && !(cfg->from && rep.has_model)) {
        fprintf(stderr, "clbench fit: --from (and --train-tokens) estimate a model's speed: "
                        "give --model and --from\n");
        return CLB_EXIT_USAGE;
    }
    if (rep.preset) {
        /* The token embedding is the largest single tensor of these models. */
        unsigned bits = req.mode == CLB_FIT_TRAIN ? 32 : clb_dtype_bits(req.dtype);
        rep.largest_tensor_bytes = rep.preset->vocab * req.shape.hidden * bits / 8;
        rep.largest_tensor = "token embedding (vocab x hidden)";
    }
    struct clb_result_file *from = NULL;
    struct clb_fit_speed *speeds = NULL;
    if (cfg->from && (rc = load_speeds(cfg, &rep, &from, &speeds)) != CLB_EXIT_OK) {
        clb_result_file_destroy(from);
        free(speeds);
        return rc;
    }
    if ((rc = clb_selection_open(&cfg->common, &sel)) != CLB_EXIT_OK) {
        clb_result_file_destroy(from);
        free(speeds);
        return rc;
    }
    rep.devices = calloc(sel.n_devices, sizeof(*rep.devices));
    if (!rep.devices) {
        clb_result_file_destroy(from);
        free(speeds);
        clb_selection_close(&sel);
        fprintf(stderr, "clbench: out of host memory\n");
        return CLB_EXIT_FAILURE;
    }
    rep.n_devices = sel.n_devices;
    for (size_t i = 0; i < sel.n_devices; i++) {
        struct clb_fit_device *d = &rep.devices[i];
        d->device = sel.devices[i];
        d->memory_bytes = clb_device_u64(d->device, CLB_PROP_GLOBAL_MEM_BYTES);
        d->max_alloc_bytes = clb_device_u64(d->device, CLB_PROP_MAX_ALLOC_BYTES);
        for (int t = 0; t < CLB_DT_COUNT; t++)
            d->max_params[t] = clb_fit_max_params(d->memory_bytes, (enum clb_dtype)t,
                                                  req.overhead, CLB_FIT_INFER);
        d->max_params_train = clb_fit_max_params(d->memory_bytes, CLB_DT_FP16, req.overhead,
                                                 CLB_FIT_TRAIN);
        if (rep.has_model) {
            d->tensor_too_big = rep.largest_tensor_bytes > d->max_alloc_bytes;
            d->fits = rep.estimate.total_bytes <= d->memory_bytes && !d->tensor_too_big;
            d->headroom_bytes = (int64_t)d->memory_bytes - (int64_t)rep.estimate.total_bytes;
        }
    }
    rc = clb_fit_write(stdout, cfg->common.format, &rep) ? CLB_EXIT_FAILURE : clb_finish_stdout();
    clb_result_file_destroy(from);
    free(speeds);
    free(rep.devices);
    clb_selection_close(&sel);
    return rc;
}

const struct clb_command clb_cmd_fit = {
    .name = "fit",
    .summary = "Will a model fit? Memory for weights, KV cache and training state against "
               "each device's memory.",
    .usage = "",
    .options = fit_options,
    .config_size = sizeof(struct fit_config),
    .defaults = fit_defaults,
    .run = fit_run,
};
