#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/cli/args.h"
#include "clbench/fit/fit.h"
#include "clbench/fit/models.h"
#include "clbench/output/fit.h"
#include "clbench/results/compare.h"
#include "clbench/results/resultfile.h"
#include "clbench/results/speed.h"
#include "clbench/util/parse.h"
#include "common.h"
#include "prices.h"

struct fit_config {
    struct clb_common common;
    const char *model;
    struct weights_dtype {
        bool given;         /* --dtype; not given: fp16 for inference, an error with train */
        enum clb_dtype v;
    } dtype;
    enum clb_dtype kv_dtype;
    uint64_t context, batch, layers, hidden, heads, kv_heads, head_dim;
    double overhead;
    enum clb_fit_mode mode;
    bool list_models;
    const char *from;       /* --from: a result file whose figures the estimates use */
    uint64_t file_context, file_batch; /* its options.context, .batch (0: absent) */
    uint64_t train_tokens;  /* --train-tokens */
    struct clb_prices prices; /* --price, then --prices FILE's (load_speeds) */
    const char *prices_file;
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

static int opt_weights_dtype(const char *arg, void *field, struct clb_error *e)
{
    struct weights_dtype *d = field;

    if (clb_opt_dtype(arg, &d->v, e))
        return -1;
    d->given = true;
    return 0;
}

static int opt_tokens(const char *arg, void *field, struct clb_error *e)
{
    return clb_parse_params(arg, field, e);
}

/*
 * --from: loads the file and takes the context and batch its --shapes rows
 * ran at, so that the estimates are the ones `run --shapes` and the report
 * give for it (--context, --batch override them, with a note).
 */
static int open_from(struct fit_config *cfg, struct clb_result_file **file)
{
    struct clb_error e;

    if (!(*file = clb_result_file_load(cfg->from, &e))) {
        fprintf(stderr, "clbench fit: option --from: %s\n", e.msg);
        return CLB_EXIT_USAGE;
    }
    json_t *opt = json_object_get((*file)->root, "options");
    const char *const key[2] = { "context", "batch" };
    uint64_t *const given[2] = { &cfg->context, &cfg->batch };
    uint64_t *const from[2] = { &cfg->file_context, &cfg->file_batch };
    for (int i = 0; i < 2; i++) {
        json_t *v = json_object_get(opt, key[i]);
        if (!json_is_integer(v) || json_integer_value(v) < 1 ||
            json_integer_value(v) > UINT32_MAX)
            continue;
        *from[i] = (uint64_t)json_integer_value(v);
        if (*given[i] && *given[i] != *from[i])
            fprintf(stderr, "clbench: note: %s measured at %s %" PRIu64 "; the estimates are "
                            "at --%s %" PRIu64 "\n", cfg->from, key[i], *from[i], key[i],
                    *given[i]);
    }
    return CLB_EXIT_OK;
}

/* --from: each device's measured figures in the file and the speeds they give; their costs. */
static int load_speeds(struct fit_config *cfg, struct clb_fit_report *rep,
                       struct clb_result_file *file, struct clb_fit_speed **speeds,
                       struct clb_speed_cost **costs)
{
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
    int rc = clb_cmd_prices_load("fit", &cfg->prices, cfg->prices_file);
    if (rc != CLB_EXIT_OK)
        return rc;
    if (clb_cmd_prices_given(&cfg->prices, cfg->prices_file) &&
        (rc = clb_cmd_prices_hold_files("fit", &cfg->prices, &file, 1)) != CLB_EXIT_OK)
        return rc;
    json_t *shapes = json_object_get(json_object_get(file->root, "options"), "shapes");
    rep->measured_shapes = json_is_string(shapes) ? json_string_value(shapes) : NULL;
    const long n = clb_file_speed_estimates(file, rep->request, &rep->estimate,
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
    if (clb_cmd_prices_given(&cfg->prices, cfg->prices_file)) {
        rc = clb_cmd_file_costs(&cfg->prices, file, *speeds, (size_t)n, costs);
        rep->costs = *costs;
    }
    return rc;
}

static const struct clb_option fit_options[] = {
    CLB_COMMON_OPTIONS(struct fit_config),
    { .name = "model", .short_name = 'm', .metavar = "MODEL",
      .help = "A parameter count (7B, 125M, 1.5T) or a preset name (see --list-models); "
              "without it, the largest model each device holds",
      .parse = clb_opt_string, .offset = offsetof(struct fit_config, model),
      .words_hook = clb_model_words },
    /* Only for inference: build_request() applies it. */
    { .name = "dtype", .metavar = "DTYPE", .help = "Weights: fp32, fp16, bf16, int8 or int4",
      .parse = opt_weights_dtype, .offset = offsetof(struct fit_config, dtype),
      .def_help = "fp16", .words_hook = clb_dtype_words },
    { .name = "kv-dtype", .metavar = "DTYPE", .help = "KV cache elements",
      .parse = clb_opt_dtype, .offset = offsetof(struct fit_config, kv_dtype), .def = "fp16",
      .words_hook = clb_dtype_words },
    /* --context, --kv-heads and --head-dim stay 0 ("not given"): build_request() fills them. */
    { .name = "context", .metavar = "TOKENS", .help = "Context length", .parse = opt_dim,
      .offset = offsetof(struct fit_config, context),
      .def_help = "with --from, the file's; else the preset's, else 4096" },
    /* --batch stays 0 ("not given") too. */
    { .name = "batch", .metavar = "N", .help = "Sequences held at once", .parse = opt_dim,
      .offset = offsetof(struct fit_config, batch), .def_help = "with --from, the file's; else 1" },
    { .name = "layers", .metavar = "N",
      .help = "Transformer layers (with --hidden and --heads: counts the KV cache)",
      .parse = opt_dim, .offset = offsetof(struct fit_config, layers) },
    { .name = "hidden", .metavar = "N", .help = "Hidden size", .parse = opt_dim,
      .offset = offsetof(struct fit_config, hidden) },
    { .name = "heads", .metavar = "N", .help = "Attention heads", .parse = opt_dim,
      .offset = offsetof(struct fit_config, heads) },
    { .name = "kv-heads", .metavar = "N",
      .help = "Key/value heads, fewer with grouped-query attention", .parse = opt_dim,
      .offset = offsetof(struct fit_config, kv_heads), .def_help = "heads" },
    { .name = "head-dim", .metavar = "N", .help = "Size of one head", .parse = opt_dim,
      .offset = offsetof(struct fit_config, head_dim), .def_help = "hidden / heads" },
    { .name = "overhead", .metavar = "PERCENT",
      .help = "Allowance for runtime buffers, workspace and fragmentation",
      .parse = clb_opt_percent, .offset = offsetof(struct fit_config, overhead), .def = "20%" },
    { .name = "mode", .metavar = "MODE", .help = "infer, or train (mixed precision with Adam)",
      .parse = opt_mode, .offset = offsetof(struct fit_config, mode), .def = "infer",
      .words = "infer train" },
    { .name = "list-models", .help = "List the model presets and exit",
      .offset = offsetof(struct fit_config, list_models) },
    { .name = "from", .metavar = "FILE",
      .help = "Also estimate prefill and decode tokens/s (and training time) per device from "
              "the figures measured in FILE: 'clbench run --shapes MODEL -o FILE' measures "
              "them (and prints the same estimates for its own run)",
      .parse = clb_opt_string, .offset = offsetof(struct fit_config, from), .file = true },
    { .name = "train-tokens", .metavar = "N",
      .help = "With --from: the training time on N tokens (300B, 2T)", .parse = opt_tokens,
      .offset = offsetof(struct fit_config, train_tokens) },
    CLB_PRICE_OPTIONS(struct fit_config, prices, prices_file),
    { 0 },
};

/* Fills req from the options; prints a usage error and returns 2 when they do not add up. */
static int build_request(const struct fit_config *c, struct clb_fit_request *req,
                         const struct clb_model **preset)
{
    struct clb_error e;
    const bool shape_given = c->layers || c->hidden || c->heads || c->kv_heads || c->head_dim;

    memset(req, 0, sizeof(*req));
    if (c->mode == CLB_FIT_TRAIN && c->dtype.given) {
        fprintf(stderr, "clbench fit: --dtype is for inference; --mode train is mixed precision "
                        "(fp16 weights and gradients, fp32 master weights and Adam moments)\n");
        return CLB_EXIT_USAGE;
    }
    req->dtype = c->dtype.given ? c->dtype.v : CLB_DT_FP16;
    req->kv_dtype = c->kv_dtype;
    req->overhead = c->overhead;
    req->mode = c->mode;
    req->batch = c->batch ? c->batch : c->file_batch ? c->file_batch : 1;
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
    if (c->context || c->file_context)
        req->context = c->context ? c->context : c->file_context;
    return CLB_EXIT_OK;
}

/* Each selected device's memory figures, and with a model whether it fits. */
static void fill_devices(struct clb_fit_report *rep, const struct clb_selection *sel)
{
    const struct clb_fit_request *req = rep->request;

    for (size_t i = 0; i < sel->n_devices; i++) {
        struct clb_fit_device *d = &rep->devices[i];
        d->device = sel->devices[i];
        d->memory_bytes = clb_device_u64(d->device, CLB_PROP_GLOBAL_MEM_BYTES);
        d->max_alloc_bytes = clb_device_u64(d->device, CLB_PROP_MAX_ALLOC_BYTES);
        for (int t = 0; t < CLB_DT_COUNT; t++)
            d->max_params[t] = clb_fit_max_params(d->memory_bytes, (enum clb_dtype)t,
                                                  req->overhead, CLB_FIT_INFER);
        d->max_params_train = clb_fit_max_params(d->memory_bytes, CLB_DT_FP16, req->overhead,
                                                 CLB_FIT_TRAIN);
        if (rep->has_model) {
            d->tensor_too_big = rep->largest_tensor_bytes > d->max_alloc_bytes;
            d->fits = rep->estimate.total_bytes <= d->memory_bytes && !d->tensor_too_big;
            d->headroom_bytes = (int64_t)d->memory_bytes - (int64_t)rep->estimate.total_bytes;
        }
    }
}

static int fit_run(void *config, int n_operands, char **operands)
{
    struct fit_config *cfg = config;
    struct clb_fit_request req;
    struct clb_fit_report rep = { .request = &req };
    struct clb_selection sel = { 0 };
    struct clb_result_file *from = NULL;
    struct clb_fit_speed *speeds = NULL;
    struct clb_speed_cost *costs = NULL;
    struct clb_error e;
    int rc;

    (void)n_operands;
    (void)operands;
    if (cfg->list_models) {
        rc = clb_fit_write_models(stdout, cfg->common.format) ? CLB_EXIT_FAILURE : CLB_EXIT_OK;
        return rc ? rc : clb_finish_stdout();
    }
    if (clb_cmd_prices_given(&cfg->prices, cfg->prices_file) && !cfg->from) {
        fprintf(stderr, "clbench fit: --price and --prices cost a measured run: give --model "
                        "and --from\n");
        return CLB_EXIT_USAGE;
    }
    if ((cfg->from || cfg->train_tokens) && !(cfg->from && cfg->model)) {
        fprintf(stderr, "clbench fit: --from (and --train-tokens) estimate a model's speed: "
                        "give --model and --from\n");
        return CLB_EXIT_USAGE;
    }
    if ((cfg->from && (rc = open_from(cfg, &from)) != CLB_EXIT_OK) ||
        (rc = build_request(cfg, &req, &rep.preset)) != CLB_EXIT_OK)
        goto out;
    rep.has_model = cfg->model != NULL;
    if (rep.has_model && clb_fit_estimate(&req, &rep.estimate, &e) != 0) {
        fprintf(stderr, "clbench fit: %s\n", e.msg);
        rc = CLB_EXIT_USAGE;
        goto out;
    }
    if (rep.preset) {
        /* The token embedding is the largest single tensor of these models. */
        unsigned bits = req.mode == CLB_FIT_TRAIN ? 32 : clb_dtype_bits(req.dtype);
        rep.largest_tensor_bytes = rep.preset->vocab * req.shape.hidden * bits / 8;
        rep.largest_tensor = "token embedding (vocab x hidden)";
    }
    if ((cfg->from && (rc = load_speeds(cfg, &rep, from, &speeds, &costs)) != CLB_EXIT_OK) ||
        (rc = clb_selection_open(&cfg->common, &sel)) != CLB_EXIT_OK)
        goto out;
    if (!(rep.devices = calloc(sel.n_devices, sizeof(*rep.devices)))) {
        fprintf(stderr, "clbench: out of host memory\n");
        rc = CLB_EXIT_FAILURE;
        goto out;
    }
    rep.n_devices = sel.n_devices;
    fill_devices(&rep, &sel);
    rc = clb_fit_write(stdout, cfg->common.format, &rep) ? CLB_EXIT_FAILURE : clb_finish_stdout();
out:
    clb_result_file_destroy(from);
    free(speeds);
    free(costs);
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
    .run = fit_run,
};
