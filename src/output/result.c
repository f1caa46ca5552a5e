#include "clbench/result.h"

#include <string.h>

#include "clbench/host.h"
#include "clbench/report.h"
#include "config.h"

static json_t *command_line(const struct clb_run_meta *m)
{
    json_t *a = json_array();
    for (int i = 0; a && i < m->argc; i++)
        json_array_append_new(a, json_string(m->argv[i]));
    return a;
}

json_t *clb_result_doc_create(const struct clb_run_meta *meta,
                              const struct clb_gemm_backend *const *backends, size_t n_backends,
                              struct clb_device *const *devices, size_t n_devices)
{
    char created[32], loader[128], loader_version[64];
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
    json_object_set_new(root, "host", clb_host_json());

    clb_icd_loader_info(loader, sizeof(loader), loader_version, sizeof(loader_version));
    json_object_set_new(libs, "icd_loader",
                        json_pack("{s:s, s:s}", "library", loader, "version", loader_version));
    for (size_t b = 0; b < n_backends; b++)
        json_object_set_new(libs, backends[b]->name, backends[b]->info());
    json_object_set_new(root, "libraries", libs);

    for (size_t i = 0; i < n_devices; i++)
        json_array_append_new(devs, clb_device_json(devices[i]));
    json_object_set_new(root, "devices", devs);
    return root;
}

void clb_result_libraries_text(FILE *out, const struct clb_gemm_backend *const *backends,
                               size_t n_backends)
{
    char cpu[256];

    clb_host_cpu_name(cpu, sizeof(cpu));
    fprintf(out, "host CPU: %s, %u logical CPUs\n", cpu, clb_host_cpus());
    for (size_t b = 0; b < n_backends; b++) {
        json_t *info = backends[b]->info();
        const char *key;
        json_t *v;
        int extra = 0;

        fprintf(out, "%s: %s %s", backends[b]->name,
                json_string_value(json_object_get(info, "library")),
                json_string_value(json_object_get(info, "version")));
        json_object_foreach(info, key, v) {
            if (!strcmp(key, "library") || !strcmp(key, "version") || !strcmp(key, "config") ||
                !(json_is_string(v) || json_is_integer(v)))
                continue;
            fprintf(out, "%s%s ", extra++ ? ", " : " (", key);
            if (json_is_string(v))
                fputs(json_string_value(v), out);
            else
                fprintf(out, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        }
        fputs(extra ? ")\n" : "\n", out);
        /* What decided the library's kernels, when there is something to say. */
        const char *note = json_string_value(json_object_get(json_object_get(info, "core_check"),
                                                             "note"));
        if (note)
            fprintf(out, "%s: %s\n", backends[b]->name, note);
        json_decref(info);
    }
}
