#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/fit/models.h"
#include "clbench/output/devices.h"
#include "clbench/output/fit.h"
#include "clbench/output/table.h"
#include "clbench/util/units.h"

static void signed_gb(int64_t v, char *buf, size_t len)
{
    const char *sign = v < 0 ? "-" : "";
    double b = (double)(v < 0 ? -(uint64_t)v : (uint64_t)v);

    snprintf(buf, len, "%s%.1f GB (%s%.1f GiB)", sign, b / 1e9, sign, b / 1073741824.0);
}

/* The caveats that apply, one per line, for the table and the JSON alike. */
static size_t caveats(const struct clb_fit_report *r, char lines[][256], size_t cap)
{
    size_t n = 0;
    bool cpu = false, small_alloc = false;

    for (size_t i = 0; i < r->n_devices; i++) {
        const struct clb_fit_device *d = &r->devices[i];
        cpu |= clb_device_is_cpu(d->device) ||
               clb_device_bool(d->device, CLB_PROP_HOST_UNIFIED_MEMORY);
        small_alloc |= d->max_alloc_bytes < d->memory_bytes;
    }
    snprintf(lines[n++], 256, "OpenCL has no portable free-memory query: estimates are against "
                              "total global memory, not what is free now");
    if (small_alloc && n < cap)
        snprintf(lines[n++], 256, "the largest single allocation (MAX ALLOC) limits the "
                                  "largest single tensor, and buffers larger than it must be split");
    if (cpu && n < cap)
        snprintf(lines[n++], 256, "a CPU (or unified-memory) device shares its memory with the "
                                  "host's programs");
    if (r->request->mode == CLB_FIT_TRAIN && n < cap)
        snprintf(lines[n++], 256, "training: activations are not counted; they grow with batch "
                                  "and sequence length");
    if (r->has_model && r->request->mode == CLB_FIT_INFER && !r->estimate.kv_counted && n < cap)
        snprintf(lines[n++], 256, "KV cache not counted: give the model's shape (--layers "
                                  "--hidden --heads [--kv-heads]) or a preset (--list-models)");
    if (!r->has_model && n < cap)
        snprintf(lines[n++], 256, "KV cache not counted: it depends on the model's shape, "
                                  "context and batch (use --model)");
    return n;
}

static int write_capacity_table(FILE *out, const struct clb_fit_report *r)
{
    static const char *const head[] = { "DEVICE", "MEMORY", "MAX ALLOC", "FP32", "FP16/BF16",
                                        "INT8", "INT4", "TRAIN (ADAM)" };
    struct clb_table *t = clb_table_create(head, 8);
    char pct[16];

    if (!t)
        return -1;
    for (size_t c = 1; c < 8; c++)
        clb_table_align_right(t, c);
    for (size_t i = 0; i < r->n_devices; i++) {
        const struct clb_fit_device *d = &r->devices[i];
        char dev[160], mem[64], alloc[64], p[5][32];
        static const enum clb_dtype cols[] = { CLB_DT_FP32, CLB_DT_FP16, CLB_DT_INT8,
                                               CLB_DT_INT4 };
        clb_device_label(d->device, dev, sizeof(dev));
        clb_format_gb_gib(d->memory_bytes, mem, sizeof(mem));
        clb_format_gb_gib(d->max_alloc_bytes, alloc, sizeof(alloc));
        for (int c = 0; c < 4; c++)
            clb_format_params(d->max_params[cols[c]], p[c], sizeof(p[c]));
        clb_format_params(d->max_params_train, p[4], sizeof(p[4]));
        const char *cells[] = { dev, mem, alloc, p[0], p[1], p[2], p[3], p[4] };
        if (clb_table_add(t, cells)) {
            clb_table_destroy(t);
            return -1;
        }
    }
    snprintf(pct, sizeof(pct), "%g%%", r->request->overhead * 100.0);
    fprintf(out, "Largest model (parameters) whose weights fit: inference with %s overhead "
                 "allowance; training with mixed precision and Adam at %d bytes/parameter "
                 "(fp16 weights 2 + fp16 gradients 2 + fp32 master weights 4 + Adam moments 8) "
                 "plus %s. GB = 10^9 bytes, GiB = 2^30 bytes.\n\n",
            pct, CLB_TRAIN_BYTES_PER_PARAM, pct);
    clb_table_print(t, out);
    clb_table_destroy(t);
    return 0;
}

static void line(FILE *out, const char *label, uint64_t bytes)
{
    char b[64];
    clb_format_gb_gib(bytes, b, sizeof(b));
    fprintf(out, "  %-24s %24s\n", label, b);
}

static int write_model_table(FILE *out, const struct clb_fit_report *r)
{
    const struct clb_fit_request *q = r->request;
    const struct clb_fit_estimate *est = &r->estimate;
    char params[32], pct[32], b[64];
    static const char *const head[] = { "DEVICE", "MEMORY", "TOTAL NEEDED", "FITS", "HEADROOM" };
    struct clb_table *t;

    clb_format_params(q->params, params, sizeof(params));
    fprintf(out, "Model: ");
    if (r->preset)
        fprintf(out, "%s (%s), ", r->preset->display, r->preset->name);
    fprintf(out, "%s parameters", params);
    if (q->has_shape)
        fprintf(out, "; %" PRIu64 " layers, hidden %" PRIu64 ", %" PRIu64 " heads, %" PRIu64
                     " KV heads, head dim %" PRIu64, q->shape.layers, q->shape.hidden,
                q->shape.heads, q->shape.kv_heads, q->shape.head_dim);
    fputc('\n', out);
    snprintf(pct, sizeof(pct), "overhead (%g%%)", q->overhead * 100.0);
    if (q->mode == CLB_FIT_TRAIN) {
        fprintf(out, "Training, mixed precision with Adam (%d bytes/parameter):\n",
                CLB_TRAIN_BYTES_PER_PARAM);
        line(out, "fp16 weights", est->weights_bytes);
        line(out, "fp16 gradients", est->gradients_bytes);
        line(out, "fp32 master weights", est->master_bytes);
        line(out, "Adam moments (fp32 x2)", est->optimizer_bytes);
    } else {
        fprintf(out, "Inference, weights %s", clb_dtype_name(q->dtype));
        if (est->kv_counted)
            fprintf(out, ", KV cache %s, context %" PRIu64 ", batch %" PRIu64,
                    clb_dtype_name(q->kv_dtype), q->context, q->batch);
        fputs(":\n", out);
        snprintf(b, sizeof(b), "weights (%s)", clb_dtype_name(q->dtype));
        line(out, b, est->weights_bytes);
        if (est->kv_counted)
            line(out, "KV cache", est->kv_cache_bytes);
        else
            fprintf(out, "  %-24s %24s\n", "KV cache", "not counted");
    }
    line(out, pct, est->overhead_bytes);
    line(out, "total", est->total_bytes);
    if (r->largest_tensor_bytes) {
        clb_format_gb_gib(r->largest_tensor_bytes, b, sizeof(b));
        fprintf(out, "  largest tensor: %s, %s\n", r->largest_tensor, b);
    }
    fputc('\n', out);

    if (!(t = clb_table_create(head, 5)))
        return -1;
    clb_table_align_right(t, 1);
    clb_table_align_right(t, 2);
    clb_table_align_right(t, 4);
    for (size_t i = 0; i < r->n_devices; i++) {
        const struct clb_fit_device *d = &r->devices[i];
        char dev[160], mem[64], total[64], head_s[64], fits[64];
        clb_device_label(d->device, dev, sizeof(dev));
        clb_format_gb_gib(d->memory_bytes, mem, sizeof(mem));
        clb_format_gb_gib(est->total_bytes, total, sizeof(total));
        signed_gb(d->headroom_bytes, head_s, sizeof(head_s));
        snprintf(fits, sizeof(fits), "%s%s", d->fits ? "yes" : "no",
                 d->tensor_too_big ? " (largest tensor > max alloc)" : "");
        const char *cells[] = { dev, mem, total, fits, head_s };
        if (clb_table_add(t, cells)) {
            clb_table_destroy(t);
            return -1;
        }
    }
    clb_table_print(t, out);
    clb_table_destroy(t);
    return 0;
}

/* A long duration for people: "3.2 h", "12.5 days", "32.1 years". */
static void duration(double s, char *buf, size_t len)
{
    if (s < 2 * 3600.0)
        clb_format_seconds(s, buf, len);
    else if (s < 2 * 86400.0)
        snprintf(buf, len, "%.1f h", s / 3600.0);
    else if (s < 2 * 365.25 * 86400.0)
        snprintf(buf, len, "%.1f days", s / 86400.0);
    else
        snprintf(buf, len, "%.3g years", s / (365.25 * 86400.0));
}

void clb_fit_speed_formulas(const struct clb_fit_report *r, char lines[3][320])
{
    const struct clb_fit_request *q = r->request;
    char params[32], w[64], kv[64];

    clb_format_params(q->params, params, sizeof(params));
    clb_format_gb_gib(r->estimate.weights_bytes, w, sizeof(w));
    clb_format_gb_gib(r->estimate.kv_cache_bytes, kv, sizeof(kv));
    snprintf(lines[0], sizeof(lines[0]),
             "prefill tokens/s = measured GEMM rate at %s's prefill shapes / (2 x %s) FLOPs per "
             "token", r->measured_shapes ? r->measured_shapes : "the model", params);
    snprintf(lines[1], sizeof(lines[1]),
             "decode tokens/s <= batch %" PRIu64 " x measured bandwidth (triad) / (weights %s + "
             "KV cache %s) read per step", q->batch, w, r->estimate.kv_counted ? kv : "not counted");
    snprintf(lines[2], sizeof(lines[2]),
             "training time >= 6 x %s x tokens / measured GEMM rate", params);
}

void clb_fit_speed_cells(const struct clb_fit_speed *s, struct clb_fit_speed_cells *c)
{
    *c = (struct clb_fit_speed_cells){ "-", "-", "-", "-", "-" };
    if (s->measured.prefill_gflops > 0) {
        clb_format_flops(s->measured.prefill_gflops, c->rate, sizeof(c->rate));
        snprintf(c->prefill, sizeof(c->prefill), "%.3g", s->estimate.prefill_tokens_s);
        snprintf(c->backend, sizeof(c->backend), "%s %s%s", s->measured.backend,
                 s->measured.precision != CLB_PRECISION_NONE
                     ? clb_precision_name(s->measured.precision)
                     : "",
                 s->measured.prefill_roles < CLB_LAYER_GEMMS ? " (part of a layer)" : "");
    }
    if (s->measured.bandwidth_gbps > 0) {
        snprintf(c->bandwidth, sizeof(c->bandwidth), "%.4g GB/s", s->measured.bandwidth_gbps);
        snprintf(c->decode, sizeof(c->decode), "<= %.3g", s->estimate.decode_tokens_s);
    }
}

bool clb_fit_speed_note(const struct clb_fit_report *r, size_t i, char *buf, size_t len)
{
    /* The weights' precision is the GEMMs' where they ran (clb_file_speed_estimates). */
    const char *weights = r->request->mode == CLB_FIT_TRAIN ? "fp16"
                                                            : clb_dtype_name(r->request->dtype);
    const enum clb_precision ran = r->speeds[i].measured.precision,
                             as = clb_precision_from_name(weights);

    /* bf16 weights' GEMMs run as fp16 where there is no bf16 arithmetic. */
    if (ran == CLB_PRECISION_NONE || !(r->speeds[i].measured.prefill_gflops > 0) || ran == as ||
        (as == CLB_BF16 && ran == CLB_FP16))
        return false;
    snprintf(buf, len, "%s's prefill rate is of %s GEMMs, not of the %s weights' precision "
                       "(none ran there)", r->speeds[i].measured.device, clb_precision_name(ran), weights);
    return true;
}

int clb_fit_write_speeds(FILE *out, const struct clb_fit_report *r)
{
    static const char *const head[] = { "DEVICE",     "BACKEND",   "PREFILL RATE",
                                        "PREFILL TOK/S", "BANDWIDTH", "DECODE TOK/S",
                                        "TRAIN" };
    struct clb_table *t = clb_table_create(head, 7);
    char lines[3][320], tokens[32], note[320];

    if (!t)
        return -1;
    for (size_t c = 2; c < 7; c++)
        clb_table_align_right(t, c);
    clb_format_params((uint64_t)r->train_tokens, tokens, sizeof(tokens));
    fprintf(out, "\nEstimates at context %" PRIu64 ", batch %" PRIu64 ", from the figures "
                 "measured in %s (%s: no attention FLOPs, no overlap loss, every GEMM at the "
                 "measured rate)", r->request->context, r->request->batch, r->from,
            r->train_tokens > 0 ? "tokens/s are upper bounds and TRAIN, the time to train, a "
                                  "lower bound" : "upper bounds");
    if (r->train_tokens > 0)
        fprintf(out, "; TRAIN: on %s tokens", tokens);
    fputs(":\n", out);
    for (size_t i = 0; i < r->n_speeds; i++) {
        const struct clb_fit_speed *s = &r->speeds[i];
        struct clb_fit_speed_cells c;
        char train[48] = "-", days[40];
        clb_fit_speed_cells(s, &c);
        if (r->train_tokens > 0 && s->estimate.train_s > 0) {
            duration(s->estimate.train_s, days, sizeof(days));
            snprintf(train, sizeof(train), ">= %s", days);
        }
        const char *cells[] = { s->measured.device, c.backend, c.rate, c.prefill, c.bandwidth,
                                c.decode, train };
        if (clb_table_add(t, cells)) {
            clb_table_destroy(t);
            return -1;
        }
    }
    clb_table_print(t, out);
    clb_table_destroy(t);
    clb_fit_speed_formulas(r, lines);
    for (int i = 0; i < 3; i++)
        fprintf(out, "%s\n", lines[i]);
    if (r->train_tokens > 0)
        fprintf(out, "training FLOPs: 6 x parameters x tokens = %.3g\n",
                r->n_speeds ? r->speeds[0].estimate.train_flops : 0.0);
    for (size_t i = 0; i < r->n_speeds; i++)
        if (clb_fit_speed_note(r, i, note, sizeof(note)))
            fprintf(out, "note: %s\n", note);
    return r->costs ? clb_fit_write_costs(out, r) : 0;
}


static json_t *speed_json(const struct clb_fit_report *r)
{
    char lines[3][320];
    json_t *devs = json_array();

    clb_fit_speed_formulas(r, lines);
    for (size_t i = 0; i < r->n_speeds; i++) {
        const struct clb_fit_speed *s = &r->speeds[i];
        const struct clb_speed_estimate *e = &s->estimate;
        json_array_append_new(
            devs, json_pack("{s:s, s:s, s:s?, s:s?, s:{s:f, s:i, s:f}, s:o?, s:o?, s:o?, s:b}",
                            "device_name", s->measured.device, "device", s->measured.device_id,
                            "backend", s->measured.backend, "precision",
                            clb_precision_name(s->measured.precision),
                            "inputs", "prefill_gflops", s->measured.prefill_gflops,
                            "prefill_roles", (int)s->measured.prefill_roles, "bandwidth_gbps",
                            s->measured.bandwidth_gbps, "prefill_tokens_per_s",
                            e->prefill_tokens_s > 0 ? json_real(e->prefill_tokens_s) : NULL,
                            "decode_tokens_per_s",
                            e->decode_tokens_s > 0 ? json_real(e->decode_tokens_s) : NULL,
                            "train_seconds", e->train_s > 0 ? json_real(e->train_s) : NULL,
                            "upper_bound", 1));
    }
    json_t *o = json_pack("{s:s, s:s?, s:I, s:I, s:f, s:f, s:f, s:f, s:{s:s, s:s, s:s}, s:o}",
                     "from", r->from, "measured_shapes", r->measured_shapes, "context",
                     (json_int_t)r->request->context, "batch", (json_int_t)r->request->batch,
                     "flops_per_token",
                     r->n_speeds ? r->speeds[0].estimate.flops_per_token : 0.0,
                     "bytes_per_decode_step",
                     r->n_speeds ? r->speeds[0].estimate.bytes_per_step : 0.0, "train_tokens",
                     r->train_tokens,
                     "train_flops", r->n_speeds ? r->speeds[0].estimate.train_flops : 0.0,
                     "formulas", "prefill", lines[0], "decode", lines[1], "train", lines[2],
                     "devices", devs);
    if (o && r->costs)
        clb_fit_costs_json(r, o);
    return o;
}

static json_t *estimate_json(const struct clb_fit_report *r)
{
    const struct clb_fit_estimate *e = &r->estimate;
    json_t *o = json_pack("{s:I, s:o, s:I, s:I}", "weights_bytes", (json_int_t)e->weights_bytes,
                          "kv_cache_bytes",
                          e->kv_counted ? json_integer((json_int_t)e->kv_cache_bytes) : json_null(),
                          "overhead_bytes", (json_int_t)e->overhead_bytes, "total_bytes",
                          (json_int_t)e->total_bytes);
    if (o && r->request->mode == CLB_FIT_TRAIN) {
        json_object_set_new(o, "gradients_bytes", json_integer((json_int_t)e->gradients_bytes));
        json_object_set_new(o, "master_weights_bytes", json_integer((json_int_t)e->master_bytes));
        json_object_set_new(o, "optimizer_bytes", json_integer((json_int_t)e->optimizer_bytes));
    }
    return o;
}

static int write_json(FILE *out, const struct clb_fit_report *r)
{
    const struct clb_fit_request *q = r->request;
    json_t *root = json_object(), *devs = json_array(), *cav = json_array();
    char lines[8][256];
    size_t n = caveats(r, lines, 8);

    json_object_set_new(root, "mode", json_string(q->mode == CLB_FIT_TRAIN ? "train" : "infer"));
    json_object_set_new(root, "overhead", json_real(q->overhead));
    if (r->has_model) {
        json_t *m = json_pack("{s:s?, s:I, s:s, s:s}", "preset", r->preset ? r->preset->name : NULL,
                              "params", (json_int_t)q->params, "dtype", clb_dtype_name(q->dtype),
                              "kv_dtype", clb_dtype_name(q->kv_dtype));
        if (q->has_shape)
            json_object_set_new(m, "shape", json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
                                                      "layers", (json_int_t)q->shape.layers,
                                                      "hidden", (json_int_t)q->shape.hidden,
                                                      "heads", (json_int_t)q->shape.heads,
                                                      "kv_heads", (json_int_t)q->shape.kv_heads,
                                                      "head_dim", (json_int_t)q->shape.head_dim,
                                                      "context", (json_int_t)q->context, "batch",
                                                      (json_int_t)q->batch));
        json_object_set_new(root, "model", m);
        json_object_set_new(root, "estimate", estimate_json(r));
        if (r->from)
            json_object_set_new(root, "speed", speed_json(r));
    }
    for (size_t i = 0; i < r->n_devices; i++) {
        const struct clb_fit_device *d = &r->devices[i];
        char id[32];
        snprintf(id, sizeof(id), "%u:%u", d->device->platform_index, d->device->device_index);
        json_t *o = json_pack("{s:s, s:s, s:I, s:I}", "id", id, "name",
                              clb_device_str(d->device, CLB_PROP_NAME), "global_mem_bytes",
                              (json_int_t)d->memory_bytes, "max_alloc_bytes",
                              (json_int_t)d->max_alloc_bytes);
        if (r->has_model) {
            json_object_set_new(o, "fits", json_boolean(d->fits));
            json_object_set_new(o, "headroom_bytes", json_integer((json_int_t)d->headroom_bytes));
        } else {
            json_t *mp = json_object();
            for (int t = 0; t < CLB_DT_COUNT; t++)
                json_object_set_new(mp, clb_dtype_name((enum clb_dtype)t),
                                    json_integer((json_int_t)d->max_params[t]));
            json_object_set_new(mp, "train", json_integer((json_int_t)d->max_params_train));
            json_object_set_new(o, "max_params", mp);
        }
        json_array_append_new(devs, o);
    }
    for (size_t i = 0; i < n; i++)
        json_array_append_new(cav, json_string(lines[i]));
    json_object_set_new(root, "devices", devs);
    json_object_set_new(root, "caveats", cav);
    int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(root);
    return rc;
}

static int write_csv(FILE *out, const struct clb_fit_report *r)
{
    if (r->has_model) {
        fputs("device,name,global_mem_bytes,total_bytes,fits,headroom_bytes\n", out);
        for (size_t i = 0; i < r->n_devices; i++) {
            const struct clb_fit_device *d = &r->devices[i];
            fprintf(out, "%u:%u,", d->device->platform_index, d->device->device_index);
            clb_csv_field(out, clb_device_str(d->device, CLB_PROP_NAME));
            fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%s,%" PRId64 "\n", d->memory_bytes,
                    r->estimate.total_bytes, d->fits ? "true" : "false", d->headroom_bytes);
        }
        return 0;
    }
    fputs("device,name,global_mem_bytes,max_alloc_bytes", out);
    for (int t = 0; t < CLB_DT_COUNT; t++)
        fprintf(out, ",max_params_%s", clb_dtype_name((enum clb_dtype)t));
    fputs(",max_params_train\n", out);
    for (size_t i = 0; i < r->n_devices; i++) {
        const struct clb_fit_device *d = &r->devices[i];
        fprintf(out, "%u:%u,", d->device->platform_index, d->device->device_index);
        clb_csv_field(out, clb_device_str(d->device, CLB_PROP_NAME));
        fprintf(out, ",%" PRIu64 ",%" PRIu64, d->memory_bytes, d->max_alloc_bytes);
        for (int t = 0; t < CLB_DT_COUNT; t++)
            fprintf(out, ",%" PRIu64, d->max_params[t]);
        fprintf(out, ",%" PRIu64 "\n", d->max_params_train);
    }
    return 0;
}

int clb_fit_write(FILE *out, enum clb_format fmt, const struct clb_fit_report *r)
{
    char lines[8][256];

    if (fmt == CLB_FORMAT_JSON)
        return write_json(out, r);
    if (fmt == CLB_FORMAT_CSV)
        return write_csv(out, r);
    if ((r->has_model ? write_model_table : write_capacity_table)(out, r))
        return -1;
    if (r->from && clb_fit_write_speeds(out, r))
        return -1;
    size_t n = caveats(r, lines, 8);
    fputc('\n', out);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "note: %s\n", lines[i]);
    return 0;
}

int clb_fit_write_models(FILE *out, enum clb_format fmt)
{
    static const char *const head[] = { "NAME",     "MODEL",    "PARAMS",  "LAYERS",
                                        "HIDDEN",   "HEADS",    "KV HEADS", "HEAD DIM",
                                        "CONTEXT",  "KV/TOKEN (FP16)" };
    if (fmt == CLB_FORMAT_JSON) {
        json_t *a = json_array();
        for (size_t i = 0; i < clb_n_models; i++) {
            const struct clb_model *m = &clb_models[i];
            json_array_append_new(a, json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
                                               "name", m->name, "model", m->display, "params",
                                               (json_int_t)m->params, "layers",
                                               (json_int_t)m->shape.layers, "hidden",
                                               (json_int_t)m->shape.hidden, "heads",
                                               (json_int_t)m->shape.heads, "kv_heads",
                                               (json_int_t)m->shape.kv_heads, "head_dim",
                                               (json_int_t)m->shape.head_dim, "context",
                                               (json_int_t)m->context));
        }
        int rc = json_dumpf(a, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        fputc('\n', out);
        json_decref(a);
        return rc;
    }
    struct clb_table *t = clb_table_create(head, 10);
    if (!t)
        return -1;
    for (size_t c = 2; c < 10; c++)
        clb_table_align_right(t, c);
    for (size_t i = 0; i < clb_n_models; i++) {
        const struct clb_model *m = &clb_models[i];
        char v[8][32];
        clb_format_params(m->params, v[0], sizeof(v[0]));
        snprintf(v[1], 32, "%" PRIu64, m->shape.layers);
        snprintf(v[2], 32, "%" PRIu64, m->shape.hidden);
        snprintf(v[3], 32, "%" PRIu64, m->shape.heads);
        snprintf(v[4], 32, "%" PRIu64, m->shape.kv_heads);
        snprintf(v[5], 32, "%" PRIu64, m->shape.head_dim);
        snprintf(v[6], 32, "%" PRIu64, m->context);
        clb_format_bytes(2 * m->shape.layers * m->shape.kv_heads * m->shape.head_dim * 2, v[7],
                         sizeof(v[7]));
        const char *cells[] = { m->name, m->display, v[0], v[1], v[2], v[3], v[4], v[5], v[6],
                                v[7] };
        if (clb_table_add(t, cells)) {
            clb_table_destroy(t);
            return -1;
        }
    }
    clb_table_print(t, out);
    clb_table_destroy(t);
    return 0;
}
