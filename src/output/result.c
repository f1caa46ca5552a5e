#include "clbench/output/result.h"

#include <string.h>

#include "clbench/output/devices.h"
#include "clbench/output/result.h"
#include "config.h"

static json_t *command_line(const struct clb_run_meta *m)
{
    json_t *a = json_array();
    for (int i = 0; a && i < m->argc; i++)
        json_array_append_new(a, json_string(m->argv[i]));
    return a;
}

static json_t *host_json(const struct clb_host_info *h)
{
    return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:I}", "hostname", h->hostname, "os",
                     h->os, "kernel", h->kernel, "kernel_release", h->kernel_release, "arch",
                     h->arch, "cpu", h->cpu, "logical_cpus", (int)h->logical_cpus,
                     "memory_bytes", (json_int_t)h->memory_bytes);
}

static json_t *field_json(const struct clb_field *f)
{
    switch (f->type) {
    case CLB_FIELD_STRING:
        return json_string(f->str);
    case CLB_FIELD_INT:
        return json_integer((json_int_t)f->i);
    case CLB_FIELD_BOOL:
        return json_boolean(f->b);
    case CLB_FIELD_NULL:
        break;
    }
    return json_null();
}

void clb_row_envelope_json(json_t *o, enum clb_benchmark benchmark, const char *case_,
                           const char *metric, const struct clb_device *dev,
                           const char *backend)
{
    char id[32];

    clb_device_id(dev, id, sizeof(id));
    json_object_set_new(o, "benchmark", json_string(clb_benchmark_name(benchmark)));
    json_object_set_new(o, "case", json_string(case_));
    json_object_set_new(o, "metric", json_string(metric));
    json_object_set_new(o, "device", json_string(id));
    json_object_set_new(o, "device_name",
                        json_string(dev ? clb_device_str(dev, CLB_PROP_NAME) : "host CPU"));
    json_object_set_new(o, "backend", json_string(backend));
}

json_t *clb_library_json(const struct clb_library_info *lib)
{
    json_t *o = json_pack("{s:s, s:s}", "library", lib->library, "version", lib->version);

    for (size_t i = 0; o && i < lib->n_fields; i++) {
        const struct clb_field *f = &lib->fields[i];
        const char *dot = strchr(f->key, '.');
        if (!dot) {
            json_object_set_new(o, f->key, field_json(f));
            continue;
        }
        /* "core_check.cpu_isa": one level of nesting is all the record uses. */
        char parent[sizeof(f->key)];
        snprintf(parent, sizeof(parent), "%.*s", (int)(dot - f->key), f->key);
        json_t *sub = json_object_get(o, parent);
        if (!sub) {
            sub = json_object();
            json_object_set_new(o, parent, sub);
        }
        json_object_set_new(sub, dot + 1, field_json(f));
    }
    return o;
}

json_t *clb_result_doc_create(const struct clb_run_meta *meta, struct clb_device *const *devices,
                              size_t n_devices)
{
    const struct clb_run_record *rec = meta->record;
    char created[32];
    struct tm tm;
    json_t *root = json_object(), *libs = json_object(), *devs = json_array();

    if (!root || !libs || !devs) {
        json_decref(root);
        json_decref(libs);
        json_decref(devs);
        return NULL;
    }
    gmtime_r(&meta->started, &tm);
    strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", &tm);
    json_object_set_new(root, "schema", json_string(CLB_RESULT_SCHEMA));
    json_object_set_new(root, "clbench_version", json_string(CLBENCH_VERSION));
    json_object_set_new(root, "created", json_string(created));
    json_object_set_new(root, "complete", json_boolean(meta->complete));
    if (!meta->complete)
        json_object_set_new(root, "interrupted_by",
                            json_string(meta->signal ? strsignal(meta->signal) : "unknown"));
    json_object_set_new(root, "command", command_line(meta));
    json_object_set_new(root, "host", host_json(&rec->host));
    for (size_t i = 0; i < rec->n_libs; i++)
        json_object_set_new(libs, rec->libs[i].id, clb_library_json(&rec->libs[i]));
    json_object_set_new(root, "libraries", libs);

    for (size_t i = 0; i < n_devices; i++)
        json_array_append_new(devs, clb_device_json(devices[i]));
    json_object_set_new(root, "devices", devs);
    return root;
}

json_t *clb_datasheet_ref_json(const struct clb_datasheet_ref *d, double measured,
                               bool verified)
{
    json_t *o = json_pack("{s:s, s:s, s:f, s:i, s:s}", "accelerator", d->name, "figure",
                          d->figure, "value", d->value, "parts", (int)d->parts, "source",
                          d->source);
    if (o && verified) {
        json_object_set_new(o, "percent", json_real(100.0 * measured / d->value));
        json_object_set_new(o, "above_limit", json_boolean(measured > d->value));
    }
    if (o && d->derived) {
        json_object_set_new(o, "derived", json_true());
        json_object_set_new(o, "cores", json_real(d->cores));
        json_object_set_new(o, "flops_per_cycle", json_real(d->flops_per_cycle));
        json_object_set_new(o, "clock_ghz", json_real(d->clock_ghz));
    }
    return o;
}

const char *clb_datasheet_ref_key(const struct clb_datasheet_ref *d)
{
    return d->derived ? "derived_peak" : "datasheet";
}

void clb_datasheet_what(const struct clb_datasheet_ref *d, char *buf, size_t len)
{
    if (d->derived)
        snprintf(buf, len, "the %.4s peak derived for %s: %.4g cores x %.4g flops/cycle x %.3g GHz "
                           "(measured)", d->figure, d->name, d->cores, d->flops_per_cycle,
                 d->clock_ghz);
    else
        snprintf(buf, len, "the datasheet's %s of %s", d->figure, d->name);
}

void clb_datasheet_note(FILE *out, const struct clb_datasheet_ref *d, const char *value)
{
    char what[200];

    clb_datasheet_what(d, what, sizeof(what));
    fprintf(out, "%% %s: of %s, %s", d->derived ? "DERIVED" : "DATASHEET", what, value);
    if (d->parts > 1)
        fprintf(out, " (this device is 1 of the %u OpenCL devices the package shows as: "
                     "1/%u of its figure)", d->parts, d->parts);
    fprintf(out, " (source: %s)\n", d->source);
}

void clb_result_libraries_text(FILE *out, const struct clb_run_record *rec)
{
    fprintf(out, "host CPU: %s, %u logical CPUs\n", rec->host.cpu, rec->host.logical_cpus);
    for (size_t b = 0; b < rec->n_libs; b++) {
        const struct clb_library_info *lib = &rec->libs[b];
        const struct clb_field *note = clb_library_field(lib, "core_check.note");
        int extra = 0;

        if (!strcmp(lib->id, "icd_loader"))
            continue;
        fprintf(out, "%s: %s %s", lib->id, lib->library, lib->version);
        for (size_t i = 0; i < lib->n_fields; i++) {
            const struct clb_field *f = &lib->fields[i];
            if (!strcmp(f->key, "config") || strchr(f->key, '.') ||
                (f->type != CLB_FIELD_STRING && f->type != CLB_FIELD_INT))
                continue;
            fprintf(out, "%s%s ", extra++ ? ", " : " (", f->key);
            if (f->type == CLB_FIELD_STRING)
                fputs(f->str, out);
            else
                fprintf(out, "%lld", f->i);
        }
        fputs(extra ? ")\n" : "\n", out);
        /* What decided the library's kernels, when there is something to say. */
        if (note && note->type == CLB_FIELD_STRING)
            fprintf(out, "%s: %s\n", lib->id, note->str);
    }
}
