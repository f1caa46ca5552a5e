#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/cl/icd.h"
#include "clbench/fit/fit.h"
#include "clbench/output/devices.h"
#include "clbench/output/table.h"
#include "clbench/util/units.h"

/* The compact "will it fit" figure: the largest fp16 model, inference, default allowance. */
#define FIT_OVERHEAD 0.20

static uint64_t fp16_params(const struct clb_device *d)
{
    return clb_fit_max_params(clb_device_u64(d, CLB_PROP_GLOBAL_MEM_BYTES), CLB_DT_FP16,
                              FIT_OVERHEAD, CLB_FIT_INFER);
}

static json_t *prop_json(const struct clb_prop_desc *d, const struct clb_prop *p)
{
    if (p->err != CL_SUCCESS)
        return json_null();
    switch (d->type) {
    case CLB_VAL_STRING:
        return json_string(p->str ? p->str : "");
    case CLB_VAL_BOOL:
        return json_boolean(p->num[0]);
    case CLB_VAL_UINT:
        return json_integer((json_int_t)p->num[0]);
    case CLB_VAL_UINTS: {
        json_t *a = json_array();
        for (unsigned i = 0; a && i < p->n_num; i++)
            json_array_append_new(a, json_integer((json_int_t)p->num[i]));
        return a;
    }
    }
    return json_null();
}

json_t *clb_device_json(const struct clb_device *dev)
{
    char id[32];
    json_t *o = json_object();
    json_t *unavailable = json_object();

    if (!o || !unavailable) {
        json_decref(o);
        json_decref(unavailable);
        return NULL;
    }
    snprintf(id, sizeof(id), "%u:%u", dev->platform_index, dev->device_index);
    json_object_set_new(o, "id", json_string(id));
    json_object_set_new(o, "platform", json_string(dev->platform->name));
    json_object_set_new(o, "platform_version", json_string(dev->platform->version));
    for (int i = 0; i < CLB_PROP_COUNT; i++) {
        const struct clb_prop *p = &dev->props[i];
        if (!p->applicable)
            continue;
        json_object_set_new(o, clb_prop_descs[i].key, prop_json(&clb_prop_descs[i], p));
        if (p->err != CL_SUCCESS)
            json_object_set_new(unavailable, clb_prop_descs[i].key,
                                json_string(clb_cl_errname(p->err)));
    }
    json_object_set_new(o, "unavailable", unavailable);
    return o;
}

static json_t *check_json(const struct clb_check_result *c)
{
    return json_pack("{s:b, s:f, s:s?}", "ok", c->ok, "seconds", c->seconds, "error",
                     c->ok ? NULL : c->error.msg);
}

static int write_json(FILE *out, const struct clb_devices_report *r)
{
    json_t *root = json_object();
    json_t *plats = json_array();
    json_t *devs = json_array();
    int rc = -1;

    if (!root || !plats || !devs)
        goto out;
    for (size_t i = 0; i < r->inv->n_platforms; i++) {
        const struct clb_platform *p = &r->inv->platforms[i];
        json_t *jp = json_pack("{s:i, s:s, s:s, s:s}", "index", (json_int_t)p->index, "name",
                               p->name, "vendor", p->vendor, "version", p->version);
        if (!jp)
            goto out;
        if (p->devices_err != CL_SUCCESS)
            json_object_set_new(jp, "devices_error",
                                json_string(clb_cl_errname(p->devices_err)));
        json_array_append_new(plats, jp);
    }
    for (size_t i = 0; i < r->n_devices; i++) {
        json_t *d = clb_device_json(r->devices[i]);
        if (!d)
            goto out;
        if (r->datasheet && r->datasheet[i])
            json_object_set_new(d, "datasheet", json_string(r->datasheet[i]->name));
        json_object_set_new(d, "fit", json_pack("{s:I, s:f}", "max_fp16_params",
                                                (json_int_t)fp16_params(r->devices[i]),
                                                "overhead", FIT_OVERHEAD));
        if (r->checks)
            json_object_set_new(d, "check", check_json(&r->checks[i]));
        json_array_append_new(devs, d);
    }
    json_object_set(root, "platforms", plats);
    json_object_set(root, "devices", devs);
    const struct clb_run_record *rec = r->record;
    json_t *ji = json_array();
    for (size_t i = 0; rec && i < rec->n_icds; i++)
        json_array_append_new(ji, json_pack("{s:s, s:s}", "file", rec->icds[i].file, "library",
                                            rec->icds[i].library));
    json_object_set_new(root, "icds", json_pack("{s:s, s:o}", "vendors_dir",
                                                rec ? rec->vendors_dir : "", "entries", ji));
    rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0 ? 0 : -1;
    fputc('\n', out);
out:
    json_decref(plats);
    json_decref(devs);
    json_decref(root);
    return rc;
}

static void check_text(const struct clb_check_result *c, char *buf, size_t len)
{
    if (c->ok)
        snprintf(buf, len, "OK (%.2f s)", c->seconds);
    else
        snprintf(buf, len, "FAILED: %s", c->error.msg);
}

/* "OpenCL 3.0 PoCL HSTR: ..." -> "3.0": the table has no room for the rest. */
static void short_version(const char *v, char *buf, size_t len)
{
    if (strncmp(v, "OpenCL ", 7) == 0)
        v += 7;
    snprintf(buf, len, "%.*s", (int)strcspn(v, " "), v);
}

enum { CORE_FIRST = CLB_PROP_NAME, CORE_LAST = CLB_PROP_FP16 };


static int write_table(FILE *out, const struct clb_devices_report *r)
{
    static const char *const head[] = { "ID",     "TYPE", "NAME",   "VENDOR",    "DRIVER",
                                         "OPENCL", "CU",   "REPORTED CLOCK", "GLOBAL", "MAX-ALLOC",
                                         "LOCAL",  "FP64", "FP16",   "FITS (FP16)", "CHECK" };
    size_t n_cols = sizeof(head) / sizeof(head[0]) - (r->checks ? 0 : 1);
    struct clb_table *t = clb_table_create(head, n_cols);

    if (!t)
        return -1;
    for (size_t c = 6; c <= 10; c++)
        clb_table_align_right(t, c);
    clb_table_align_right(t, 13);
    for (size_t i = 0; i < r->n_devices; i++) {
        const struct clb_device *d = r->devices[i];
        char v[CORE_LAST + 1][160], id[32], ver[32], chk[600] = "", fit[32] = "<= ";
        const char *cells[15];

        for (int p = CORE_FIRST; p <= CORE_LAST; p++)
            clb_prop_format(&clb_prop_descs[p], &d->props[p], v[p], sizeof(v[p]));
        snprintf(id, sizeof(id), "%u:%u", d->platform_index, d->device_index);
        short_version(v[CLB_PROP_VERSION], ver, sizeof(ver));
        if (r->checks)
            check_text(&r->checks[i], chk, sizeof(chk));
        cells[0] = id;
        cells[1] = v[CLB_PROP_TYPE];
        cells[2] = v[CLB_PROP_NAME];
        cells[3] = v[CLB_PROP_VENDOR];
        cells[4] = v[CLB_PROP_DRIVER_VERSION];
        cells[5] = ver;
        cells[6] = v[CLB_PROP_COMPUTE_UNITS];
        cells[7] = v[CLB_PROP_MAX_CLOCK_MHZ];
        cells[8] = v[CLB_PROP_GLOBAL_MEM_BYTES];
        cells[9] = v[CLB_PROP_MAX_ALLOC_BYTES];
        cells[10] = v[CLB_PROP_LOCAL_MEM_BYTES];
        cells[11] = v[CLB_PROP_FP64];
        cells[12] = v[CLB_PROP_FP16];
        clb_format_params(fp16_params(d), fit + 3, sizeof(fit) - 3);
        cells[13] = fit;
        cells[14] = chk;
        if (clb_table_add(t, cells) != 0) {
            clb_table_destroy(t);
            return -1;
        }
    }
    clb_table_print(t, out);
    clb_table_destroy(t);
    for (size_t i = 0; i < r->inv->n_platforms; i++) {
        const struct clb_platform *p = &r->inv->platforms[i];
        if (p->devices_err != CL_SUCCESS)
            fprintf(out, "platform %u (%s): no devices (%s)\n", p->index, p->name,
                    clb_cl_errname(p->devices_err));
    }
    return 0;
}

static void write_wrapped(FILE *out, const char *text, int indent, int width)
{
    int col = indent;

    while (*text) {
        int n = (int)strcspn(text, " ");
        if (col > indent && col + 1 + n > width) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', out);
            col++;
        }
        fprintf(out, "%.*s", n, text);
        col += n;
        text += n;
        while (*text == ' ')
            text++;
    }
    fputc('\n', out);
}

static int write_verbose(FILE *out, const struct clb_devices_report *r)
{
    const struct clb_run_record *rec = r->record;

    if (rec) {
        fprintf(out, "OpenCL drivers (ICDs) in %s:\n", rec->vendors_dir);
        for (size_t i = 0; i < rec->n_icds; i++)
            fprintf(out, "  %-34s%s\n", rec->icds[i].file, rec->icds[i].library);
    }
    fputc('\n', out);
    for (size_t i = 0; i < r->n_devices; i++) {
        const struct clb_device *d = r->devices[i];
        char v[600];

        fprintf(out, "%sDevice %u:%u  %s\n", i ? "\n" : "", d->platform_index, d->device_index,
                clb_device_str(d, CLB_PROP_NAME));
        fprintf(out, "  %-34s%s (%s; %s)\n", "Platform", d->platform->name,
                d->platform->vendor, d->platform->version);
        for (int p = 0; p < CLB_PROP_COUNT; p++) {
            const struct clb_prop_desc *desc = &clb_prop_descs[p];
            if (!d->props[p].applicable || p == CLB_PROP_NAME)
                continue;
            clb_prop_format(desc, &d->props[p], v, sizeof(v));
            fprintf(out, "  %-34s", desc->label);
            if (p == CLB_PROP_EXTENSIONS && d->props[p].err == CL_SUCCESS && d->props[p].str)
                write_wrapped(out, d->props[p].str, 36, 100);
            else
                fprintf(out, "%s\n", v);
        }
        if (r->checks) {
            check_text(&r->checks[i], v, sizeof(v));
            fprintf(out, "  %-34s%s\n", "Check", v);
        }
        const struct clb_ds_row *ds = r->datasheet ? r->datasheet[i] : NULL;
        if (ds) {
            fprintf(out, "  %-34s%s:", "Datasheet", ds->name);
            static const enum clb_ds_figure shown[] = { CLB_DS_FP64_VECTOR, CLB_DS_FP32_VECTOR,
                                                        CLB_DS_FP16_VECTOR, CLB_DS_MEMORY };
            for (size_t k = 0; k < sizeof(shown) / sizeof(shown[0]); k++)
                if (ds->fig[shown[k]].present)
                    fprintf(out, " %s %.4g %s;", clb_ds_figure_key(shown[k]),
                            shown[k] == CLB_DS_MEMORY ? ds->fig[shown[k]].value
                                                      : ds->fig[shown[k]].value / 1e3,
                            shown[k] == CLB_DS_MEMORY ? "GB/s" : "TFLOPS");
            fprintf(out, " sources: clbench datasheet '%s'\n", ds->name);
        } else if (r->host_core && clb_device_is_cpu(r->devices[i])) {
            const struct clb_ds_core *c = r->host_core;
            if (c->fma_units)
                fprintf(out, "  %-34s%s: %u FMA units of %u bits a core; its peak is derived "
                             "from the clock 'clbench peak' measures\n", "Datasheet", c->name,
                        c->fma_units, c->fma_bits);
            else
                fprintf(out, "  %-34s%s: %s\n", "Datasheet", c->name, c->note);
        }
    }
    return 0;
}

static int write_csv(FILE *out, const struct clb_devices_report *r)
{
    int last = r->verbose ? CLB_PROP_COUNT - 1 : CORE_LAST;

    fputs("id,platform", out);
    for (int p = 0; p <= last; p++)
        fprintf(out, ",%s", clb_prop_descs[p].key);
    fputs(r->checks ? ",max_fp16_params,check_ok,check_error\n" : ",max_fp16_params\n", out);
    for (size_t i = 0; i < r->n_devices; i++) {
        const struct clb_device *d = r->devices[i];
        fprintf(out, "%u:%u,", d->platform_index, d->device_index);
        clb_csv_field(out, d->platform->name);
        for (int p = 0; p <= last; p++) {
            const struct clb_prop *pr = &d->props[p];
            const struct clb_prop_desc *desc = &clb_prop_descs[p];
            char v[64] = "";
            fputc(',', out);
            if (!pr->applicable || pr->err != CL_SUCCESS)
                continue;
            if (desc->type == CLB_VAL_STRING) {
                clb_csv_field(out, pr->str);
                continue;
            }
            if (desc->type == CLB_VAL_BOOL)
                snprintf(v, sizeof(v), "%s", pr->num[0] ? "true" : "false");
            else
                for (unsigned k = 0, used = 0; k < pr->n_num && used < sizeof(v); k++)
                    used += (unsigned)snprintf(v + used, sizeof(v) - used, "%s%" PRIu64,
                                               k ? "x" : "", pr->num[k]);
            fputs(v, out);
        }
        fprintf(out, ",%" PRIu64, fp16_params(d));
        if (r->checks) {
            fprintf(out, ",%s,", r->checks[i].ok ? "true" : "false");
            clb_csv_field(out, r->checks[i].ok ? "" : r->checks[i].error.msg);
        }
        fputc('\n', out);
    }
    return 0;
}

int clb_devices_write(FILE *out, enum clb_format fmt, const struct clb_devices_report *r)
{
    switch (fmt) {
    case CLB_FORMAT_JSON:
        return write_json(out, r);
    case CLB_FORMAT_CSV:
        return write_csv(out, r);
    case CLB_FORMAT_TABLE:
        break;
    }
    return r->verbose ? write_verbose(out, r) : write_table(out, r);
}

void clb_device_label(const struct clb_device *dev, char *buf, size_t len)
{
    if (dev)
        snprintf(buf, len, "%u:%u %s", dev->platform_index, dev->device_index,
                 clb_device_str(dev, CLB_PROP_NAME));
    else
        snprintf(buf, len, "host CPU");
}

void clb_device_id(const struct clb_device *dev, char *buf, size_t len)
{
    if (dev)
        snprintf(buf, len, "%u:%u", dev->platform_index, dev->device_index);
    else
        snprintf(buf, len, "host");
}
