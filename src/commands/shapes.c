#include "shapes.h"

#include <stdlib.h>

#include "clbench/output/devices.h"
#include "clbench/output/fit.h"
#include "clbench/results/estimates.h"
#include "clbench/results/resultfile.h"
#include "clbench/util/host.h"
#include "emit.h"
#include "prices.h"

int clb_shapes_opt_model(const char *arg, void *field, struct clb_error *e)
{
    if (!(*(const struct clb_model **)field = clb_model_find(arg))) {
        clb_error_set(e, "unknown model '%s' (clbench fit --list-models lists them)", arg);
        return -1;
    }
    return 0;
}

/* --shapes: the layer's GEMMs at prefill, then at decode, each with its role. */
static int model_shapes(struct clb_shapes *s, struct clb_shape_list *sizes)
{
    static const char *const phase[2] = { "prefill", "decode" };
    struct clb_layer_gemm g[CLB_LAYER_GEMMS];

    if (s->model->experts > 1) {
        fprintf(stderr, "clbench gemm: option --shapes: %s is a mixture of experts: which "
                        "tokens each expert's GEMMs see is not modelled\n", s->model->name);
        return CLB_EXIT_USAGE;
    }
    s->context = s->context ? s->context : 512;
    s->batch = s->batch ? s->batch : 1;
    if ((uint64_t)s->context * s->batch > CLB_MAX_DIM) {
        fprintf(stderr, "clbench gemm: options --context and --batch: need at most %d tokens at "
                        "prefill\n", CLB_MAX_DIM);
        return CLB_EXIT_USAGE;
    }
    const uint64_t tokens[2] = { (uint64_t)s->context * s->batch, s->batch };
    sizes->n = 0;
    for (int p = 0; p < 2; p++) {
        clb_model_layer_gemms(s->model, tokens[p], g);
        for (int i = 0; i < CLB_LAYER_GEMMS; i++) {
            s->roles[sizes->n] = (struct clb_shape_role){ g[i].role, phase[p], g[i].per_layer };
            sizes->v[sizes->n++] = (struct clb_gemm_shape){ g[i].m, g[i].n, g[i].k };
        }
    }
    return CLB_EXIT_OK;
}

bool clb_shapes_priced(const struct clb_shapes *s)
{
    return clb_cmd_prices_given(&s->prices, s->prices_file);
}

int clb_shapes_validate(struct clb_shapes *s, enum clb_format fmt, struct clb_shape_list *sizes)
{
    if (!s->model && (s->context || s->batch)) {
        fprintf(stderr, "clbench gemm: options --context and --batch go with --shapes\n");
        return CLB_EXIT_USAGE;
    }
    if (s->model && model_shapes(s, sizes) != CLB_EXIT_OK)
        return CLB_EXIT_USAGE;
    if (clb_shapes_priced(s)) {
        if (!s->model || fmt != CLB_FORMAT_TABLE) {
            fprintf(stderr, "clbench gemm: options --price and --prices cost the estimates "
                            "table of --shapes MODEL (table output; for a result file, give "
                            "them to 'clbench fit --from')\n");
            return CLB_EXIT_USAGE;
        }
        if (clb_cmd_prices_load("gemm", &s->prices, s->prices_file) != CLB_EXIT_OK)
            return CLB_EXIT_USAGE;
    }
    return CLB_EXIT_OK;
}

int clb_shapes_hold_prices(const struct clb_shapes *s, const char *cmd,
                           const struct clb_selection *sel, bool host)
{
    struct clb_priced_device *d = calloc(sel->n_devices + 1, sizeof(*d));
    char (*id_buf)[32] = calloc(sel->n_devices + 1, sizeof(*id_buf)), cpu[256];
    size_t n = 0;
    int rc = CLB_EXIT_FAILURE;

    clb_cpu_name(cpu, sizeof(cpu));
    if (!d || !id_buf) {
        fprintf(stderr, "clbench: out of host memory\n");
        goto out;
    }
    for (; n < sel->n_devices; n++) {
        clb_device_id(sel->devices[n], id_buf[n], sizeof(id_buf[n]));
        d[n].name = clb_device_str(sel->devices[n], CLB_PROP_NAME);
        d[n].id = id_buf[n];
        d[n].cpu = clb_price_device_cpu(d[n].id, d[n].name, clb_device_is_cpu(sel->devices[n]),
                                        cpu);
    }
    if (host)
        d[n++] = (struct clb_priced_device){ "host CPU", "host", cpu };
    rc = clb_cmd_prices_hold(cmd, &s->prices, d, n, "this run");
out:
    free(d);
    free(id_buf);
    return rc;
}

/* r's result document, as it would be written, read back as a result file; NULL: not read. */
static struct clb_result_file *read_back(const struct clb_gemm_report *r)
{
    struct clb_result_file *f = NULL;
    struct clb_error e;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);

    if (!mem)
        return NULL;
    const int written = clb_gemm_write(mem, CLB_FORMAT_JSON, r);
    /* open_memstream sets text and len at fclose: read them after it. */
    if (!fclose(mem) && !written && text && !(f = clb_result_file_parse("this run", text, len, &e)))
        clb_report_error(&e);
    free(text);
    return f;
}

int clb_shapes_write_estimates(FILE *out, const struct clb_gemm_report *r)
{
    const struct clb_model *m = r->shapes ? clb_model_find(r->shapes) : NULL;
    struct clb_error e;
    struct clb_fit_request req;
    struct clb_fit_report rep = { .request = &req, .preset = m, .has_model = true,
                                  .from = "this run", .measured_shapes = r->shapes };
    struct clb_fit_speed *speeds = NULL;
    struct clb_speed_cost *costs = NULL;
    struct clb_result_file *f = NULL;
    int rc = -1;

    if (!m) /* --shapes takes presets only */
        return 0;
    if (!(f = read_back(r)))
        goto out;
    clb_fit_request_preset(&req, m, r->context, r->batch);
    if (clb_fit_estimate(&req, &rep.estimate, &e))
        goto out;
    const long n = clb_file_speed_estimates(f, &req, &rep.estimate, 0, &speeds);
    if (n < 0 || (n > 0 && r->prices && clb_cmd_file_costs(r->prices, f, speeds, (size_t)n,
                                                           &costs)))
        goto out;
    rc = 0;
    if (n > 0) {
        rep.speeds = speeds;
        rep.n_speeds = (size_t)n;
        rep.costs = costs;
        rc = clb_fit_write_speeds(out, &rep);
    }
out:
    clb_result_file_destroy(f);
    free(costs);
    free(speeds);
    return rc;
}
