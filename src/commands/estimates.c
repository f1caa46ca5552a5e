#include "estimates.h"

#include <stdlib.h>
#include <string.h>

#include "clbench/bench/gemm_run.h"
#include "clbench/bench/micro.h"
#include "clbench/cl/device.h"
#include "clbench/output/devices.h"

/* What the result document calls a row's device: its name, or "host CPU" for the host. */
static const char *device_name(const struct clb_device *dev)
{
    return dev ? clb_device_str(dev, CLB_PROP_NAME) : "host CPU";
}

/* A bandwidth triad that measured and verified (what the reader calls has_value). */
static bool triad_row(const struct clb_micro_row *r)
{
    return r->benchmark == CLB_BENCH_BANDWIDTH &&
           (!strcmp(r->case_, "fp32 triad") || !strcmp(r->case_, "fp64 triad")) &&
           r->n_times && r->status == CLB_ROW_OK;
}

static bool prefill_row(const struct clb_gemm_row *r)
{
    return r->role.role && r->role.phase && !strcmp(r->role.phase, "prefill") &&
           r->status == CLB_ROW_OK && clb_gemm_row_measured(r) && r->time_s.median > 0;
}

int clb_run_speeds_init(struct clb_run_speeds *s, const struct clb_micro_results *micro,
                        const struct clb_gemm_results *gemm)
{
    const size_t n_micro = micro ? micro->n_rows : 0, cap = n_micro + gemm->n_rows + 1;

    memset(s, 0, sizeof(*s));
    s->rows = calloc(cap, sizeof(*s->rows));
    s->ids = calloc(cap, sizeof(*s->ids));
    if (!s->rows || !s->ids) {
        clb_run_speeds_finish(s);
        return -1;
    }
    for (size_t i = 0; i < n_micro; i++) {
        const struct clb_micro_row *r = &micro->rows[i];
        if (!triad_row(r))
            continue;
        clb_device_id(r->device, s->ids[s->n_rows], sizeof(s->ids[0]));
        s->rows[s->n_rows] = (struct clb_speed_row){ .device = device_name(r->device),
                                                     .device_id = s->ids[s->n_rows],
                                                     .rank = -1,
                                                     .backend = r->backend ? r->backend : "clbench",
                                                     .precision = clb_precision_name(r->precision), .triad = true,
                                                     .bandwidth_gbps = r->value };
        s->n_rows++;
    }
    for (size_t i = 0; i < gemm->n_rows; i++) {
        const struct clb_gemm_row *r = &gemm->rows[i];
        if (!prefill_row(r))
            continue;
        clb_device_id(r->device, s->ids[s->n_rows], sizeof(s->ids[0]));
        s->rows[s->n_rows] = (struct clb_speed_row){
            .device = device_name(r->device), .device_id = s->ids[s->n_rows], .rank = -1,
            .backend = r->backend_name, .precision = clb_precision_name(r->precision),
            .prefill = true, .per_layer = r->role.per_layer, .m = r->shape.m, .n = r->shape.n,
            .k = r->shape.k, .median_s = r->time_s.median
        };
        s->n_rows++;
    }
    return 0;
}

/* Whether dev is the device called name with id. */
static bool is_device(const struct clb_device *dev, const char *name, const char *id)
{
    char dev_id[32];

    clb_device_id(dev, dev_id, sizeof(dev_id));
    return !strcmp(device_name(dev), name) && !strcmp(dev_id, id);
}

double clb_run_device_timed_s(const struct clb_micro_results *micro,
                              const struct clb_gemm_results *gemm, const char *name,
                              const char *id)
{
    double s = 0;

    for (size_t i = 0; micro && i < micro->n_rows; i++)
        if (is_device(micro->rows[i].device, name, id))
            for (size_t k = 0; k < micro->rows[i].n_times; k++)
                s += micro->rows[i].times_s[k];
    for (size_t i = 0; i < gemm->n_rows; i++)
        if (is_device(gemm->rows[i].device, name, id))
            for (size_t k = 0; k < gemm->rows[i].n_times; k++)
                s += gemm->rows[i].times_s[k];
    return s;
}

void clb_run_speeds_finish(struct clb_run_speeds *s)
{
    free(s->rows);
    free(s->ids);
    memset(s, 0, sizeof(*s));
}
