#include "clbench/results/resultfile.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "clbench/core/types.h"

static const char *opt_string(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static int need_string(json_t *o, const char *key, size_t i, const char **out,
                       struct clb_error *e)
{
    if (!(*out = opt_string(o, key))) {
        clb_error_set(e, "results[%zu].%s is missing or not a string", i, key);
        return -1;
    }
    return 0;
}

/* A string the row keeps a copy of: refused, not cut, when longer than the row holds. */
static int copy_string(char *to, size_t room, const char *s, const char *key, size_t i,
                       struct clb_error *e)
{
    if (strlen(s) >= room) {
        clb_error_set(e, "results[%zu].%s is longer than %zu characters", i, key, room - 1);
        return -1;
    }
    memcpy(to, s, strlen(s) + 1);
    return 0;
}

static int read_count(json_t *o, const char *key, size_t i, uint64_t *out, struct clb_error *e)
{
    json_t *v = json_object_get(o, key);

    *out = 0;
    if (!v)
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < 1) {
        clb_error_set(e, "results[%zu].%s is not a positive integer", i, key);
        return -1;
    }
    *out = (uint64_t)json_integer_value(v);
    return 0;
}

static int read_figure(json_t *o, const char *key, size_t i, double *out, bool *present,
                       struct clb_error *e)
{
    json_t *v = json_object_get(o, key);

    *present = false;
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) < 0) {
        clb_error_set(e, "results[%zu].%s is not a non-negative number", i, key);
        return -1;
    }
    *out = json_number_value(v);
    *present = true;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The row's "times_s": every one a non-negative number (an empty or absent array: no calls). */
static int read_calls(json_t *o, size_t i, struct clb_row *r, struct clb_error *e)
{
    json_t *times = json_object_get(o, "times_s"), *t;
    size_t k, n = json_array_size(times);
    double *sorted;

    r->time_s.n = r->n_times = 0;
    r->measured_s = r->time_s.min = r->time_s.median = r->time_s.max = 0;
    r->times_s = NULL;
    if (!times || json_is_null(times) || (json_is_array(times) && n == 0))
        return 0;
    if (!json_is_array(times)) {
        clb_error_set(e, "results[%zu].times_s is not an array", i);
        return -1;
    }
    if (!(sorted = malloc(n * sizeof(*sorted)))) {
        clb_error_set(e, "out of host memory");
        return -1;
    }
    json_array_foreach(times, k, t) {
        if (!json_is_number(t) || !isfinite(json_number_value(t)) || json_number_value(t) < 0) {
            clb_error_set(e, "results[%zu].times_s[%zu] is not a non-negative number", i, k);
            free(sorted);
            return -1;
        }
        sorted[k] = json_number_value(t);
        r->measured_s += sorted[k];
    }
    qsort(sorted, n, sizeof(*sorted), cmp_double);
    r->time_s.n = r->n_times = n;
    r->time_s.min = sorted[0];
    r->time_s.max = sorted[n - 1];
    r->time_s.median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    r->times_s = sorted;
    return 0;
}

/* A fleet file's row: who measured it, its figure's fleet median, whether it was flagged. */
static int read_fleet(json_t *o, size_t i, struct clb_row *r, struct clb_error *e)
{
    json_t *rank = json_object_get(o, "rank"), *local = json_object_get(o, "local_rank");
    json_t *s = json_object_get(o, "straggler");
    bool present;

    json_t *slot = json_object_get(o, "slot");

    r->host = opt_string(o, "host");
    r->host_cpu = opt_string(o, "host_cpu");
    r->rank = r->local_rank = r->slot = -1;
    r->judged = true;
    if (slot && (!json_is_integer(slot) || json_integer_value(slot) < 0 ||
                 json_integer_value(slot) > INT32_MAX)) {
        clb_error_set(e, "results[%zu].slot is not a non-negative integer", i);
        return -1;
    }
    if (slot)
        r->slot = (int)json_integer_value(slot);
    if (!r->host && !rank && !local)
        return 0;
    if (!r->host || !json_is_integer(rank) || json_integer_value(rank) < 0 ||
        json_integer_value(rank) > INT32_MAX || !json_is_integer(local) ||
        json_integer_value(local) < 0 || json_integer_value(local) > json_integer_value(rank)) {
        clb_error_set(e, "results[%zu]: host, rank and local_rank must come together "
                         "(a string and ranks 0 <= local_rank <= rank)", i);
        return -1;
    }
    r->rank = (int)json_integer_value(rank);
    r->local_rank = (int)json_integer_value(local);
    if (s && !json_is_boolean(s)) {
        clb_error_set(e, "results[%zu].straggler is not true/false", i);
        return -1;
    }
    r->straggler = json_is_true(s);
    json_t *judged = json_object_get(o, "judged");
    if (judged && !json_is_boolean(judged)) {
        clb_error_set(e, "results[%zu].judged is not true/false", i);
        return -1;
    }
    r->judged = !json_is_false(judged);
    if (r->straggler && !r->judged) {
        clb_error_set(e, "results[%zu]: a straggler not judged", i);
        return -1;
    }
    return read_figure(o, "fleet_median", i, &r->fleet_median, &present, e);
}

/*
 * The row's datasheet object, or its derived_peak object (a CPU's peak derived
 * from its cores, FMA units and clock; files before derived_peak existed hold
 * it under "datasheet" with derived: true): what it is held against. A figure
 * name this build does not know is read as given (new ones may come within a
 * version); percent is not read, it follows from the figure and the value.
 */
static int read_datasheet(json_t *o, size_t i, struct clb_row *r, struct clb_error *e)
{
    json_t *ds = json_object_get(o, "datasheet"), *derived;
    struct clb_datasheet_ref *d = &r->datasheet;
    const char *key = "datasheet";

    if (!ds || json_is_null(ds)) {
        ds = json_object_get(o, "derived_peak");
        key = "derived_peak";
    }
    r->has_datasheet = ds && !json_is_null(ds);
    if (!r->has_datasheet)
        return 0;
    if (!json_is_object(ds) || !(d->name = opt_string(ds, "accelerator")) ||
        !(d->figure = opt_string(ds, "figure")) ||
        (json_object_get(ds, "source") && !(d->source = opt_string(ds, "source")))) {
        clb_error_set(e, "results[%zu].%s is not an object with accelerator, figure "
                         "and source strings", i, key);
        return -1;
    }
    derived = json_object_get(ds, "derived");
    if (derived && !json_is_boolean(derived)) {
        clb_error_set(e, "results[%zu].%s.derived is not true/false", i, key);
        return -1;
    }
    d->derived = json_is_true(derived) || !strcmp(key, "derived_peak");
    static const char *const keys[] = { "value", "cores", "flops_per_cycle", "clock_ghz" };
    double *const to[] = { &d->value, &d->cores, &d->flops_per_cycle, &d->clock_ghz };
    for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
        json_t *v = json_object_get(ds, keys[k]);
        if (v && !json_is_null(v) &&
            !(json_is_number(v) && isfinite(json_number_value(v)) && json_number_value(v) >= 0)) {
            clb_error_set(e, "results[%zu].%s.%s is not a non-negative number", i, key,
                          keys[k]);
            return -1;
        }
        *to[k] = json_is_number(v) ? json_number_value(v) : 0;
    }
    if (!(d->value > 0)) {
        clb_error_set(e, "results[%zu].%s.value is missing or not a positive number", i, key);
        return -1;
    }
    return 0;
}

/*
 * Files written before bandwidth had precisions name a stream kernel alone
 * ("triad"), always float: read them as today's rows ("fp32 triad",
 * precision fp32), so they compare with new files.
 */
static void upgrade_stream_row(json_t *o)
{
    static const char *const kernels[] = { "copy", "mul", "add", "triad", "dot" };
    const char *bench = json_string_value(json_object_get(o, "benchmark"));
    const char *c = json_string_value(json_object_get(o, "case"));
    char renamed[32];

    if (!bench || !c || strcmp(bench, "bandwidth") || json_object_get(o, "precision"))
        return;
    for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++)
        if (!strcmp(c, kernels[k])) {
            snprintf(renamed, sizeof(renamed), "fp32 %s", c);
            json_object_set_new(o, "case", json_string(renamed));
            json_object_set_new(o, "precision", json_string("fp32"));
            return;
        }
}

/*
 * A bandwidth row's case: "PRECISION KERNEL" or, in a --sizes sweep,
 * "PRECISION KERNEL N UNIT" ("fp32 triad 8 MiB"). Files written before rows
 * had "kernel" and "array_bytes" get them from it; this is the one place a
 * case is read back for what it names.
 */
static void read_stream_case(struct clb_row *r, bool guess_kernel)
{
    static const char *const kernels[] = { "dot chunked", "copy", "mul", "add", "triad",
                                           "dot", "read", "local" };
    static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    const size_t p = r->precision_name ? strlen(r->precision_name) : 0;

    if (r->benchmark != CLB_BENCH_BANDWIDTH || !p || strncmp(r->case_, r->precision_name, p) ||
        r->case_[p] != ' ')
        return;
    const char *rest = r->case_ + p + 1;
    size_t len = 0;
    for (size_t k = 0; guess_kernel && !r->kernel[0] && k < sizeof(kernels) / sizeof(kernels[0]);
         k++) {
        len = strlen(kernels[k]);
        if (!strncmp(rest, kernels[k], len) && (rest[len] == '\0' || rest[len] == ' '))
            snprintf(r->kernel, sizeof(r->kernel), "%s", kernels[k]);
    }
    if ((guess_kernel && !r->kernel[0]) || strncmp(rest, r->kernel, len = strlen(r->kernel)) ||
        rest[len] != ' ')
        return;
    char *end;
    double v = strtod(rest + len + 1, &end);
    if (end == rest + len + 1 || *end != ' ' || !(v > 0))
        return;
    for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++, v *= 1024)
        if (!strcmp(end + 1, units[u])) {
            r->sized = true;
            if (!r->array_bytes)
                r->array_bytes = (uint64_t)v;
            return;
        }
}

/* The typed fields behind a row's label: kernel, array_bytes, llc_bytes, work_per_call. */
static int read_work(json_t *o, size_t i, struct clb_row *r, struct clb_error *e)
{
    const char *kernel = opt_string(o, "kernel");
    bool present;

    if (copy_string(r->kernel, sizeof(r->kernel), kernel ? kernel : "", "kernel", i, e))
        return -1;
    if (read_count(o, "array_bytes", i, &r->array_bytes, e) ||
        (!json_is_null(json_object_get(o, "llc_bytes")) &&
         read_count(o, "llc_bytes", i, &r->llc_bytes, e)) ||
        read_figure(o, "work_per_call", i, &r->work, &present, e))
        return -1;
    read_stream_case(r, !kernel);
    return 0;
}

static int read_row(json_t *o, size_t i, struct clb_row *r, struct clb_error *e)
{
    bool present;

    if (!json_is_object(o)) {
        clb_error_set(e, "results[%zu] is not an object", i);
        return -1;
    }
    upgrade_stream_row(o);
    const char *case_, *backend;
    if (need_string(o, "benchmark", i, &r->benchmark_name, e) ||
        need_string(o, "case", i, &case_, e) || need_string(o, "backend", i, &backend, e) ||
        need_string(o, "device_name", i, &r->device_name, e) ||
        need_string(o, "status", i, &r->status_name, e) ||
        need_string(o, "metric", i, &r->metric, e))
        return -1;
    if (copy_string(r->case_, sizeof(r->case_), case_, "case", i, e) ||
        copy_string(r->backend, sizeof(r->backend), backend, "backend", i, e))
        return -1;
    r->status = clb_row_status_from_name(r->status_name);
    r->benchmark = clb_benchmark_from_name(r->benchmark_name);
    r->precision_name = opt_string(o, "precision");
    r->precision = clb_precision_from_name(r->precision_name);
    r->device_id = opt_string(o, "device");
    if (!r->device_id)
        r->device_id = "";
    if (read_count(o, "m", i, &r->shape.m, e) || read_count(o, "n", i, &r->shape.n, e) ||
        read_count(o, "k", i, &r->shape.k, e))
        return -1;
    if (read_figure(o, r->metric, i, &r->value, &present, e))
        return -1;
    r->has_value = present && r->status == CLB_ROW_OK;
    char best_key[80];
    snprintf(best_key, sizeof(best_key), "%s_best", r->metric);
    if (read_figure(o, best_key, i, &r->best, &present, e))
        return -1;
    if (!present || !r->has_value)
        r->best = 0;
    if (read_figure(o, "speedup", i, &r->speedup, &present, e))
        return -1;
    /* An unverified figure's speedup is as unverified as the figure. */
    if (!present || !r->has_value)
        r->speedup = 0;
    json_t *b = json_object_get(o, "baseline");
    if (b && !json_is_boolean(b)) {
        clb_error_set(e, "results[%zu].baseline is not true/false", i);
        return -1;
    }
    r->baseline = json_is_true(b);
    r->baseline_handicap = opt_string(o, "baseline_handicap");
    json_t *h = json_object_get(o, "headline");
    if (h && !json_is_boolean(h)) {
        clb_error_set(e, "results[%zu].headline is not true/false", i);
        return -1;
    }
    r->headline = !h || json_is_true(h);
    r->config = json_object_get(o, "config");
    if (r->config && !json_is_object(r->config)) {
        clb_error_set(e, "results[%zu].config is not an object", i);
        return -1;
    }
    json_t *t = json_object_get(o, "tuned");
    if (t && !json_is_boolean(t)) {
        clb_error_set(e, "results[%zu].tuned is not true/false", i);
        return -1;
    }
    r->role.role = opt_string(o, "role");
    r->role.phase = opt_string(o, "phase");
    json_t *pl = json_object_get(o, "per_layer");
    if (r->role.role && (!r->role.phase || !json_is_integer(pl) || json_integer_value(pl) < 1 ||
                    json_integer_value(pl) > 64)) {
        clb_error_set(e, "results[%zu]: a role needs a phase and per_layer (1 to 64)", i);
        return -1;
    }
    r->role.per_layer = r->role.role ? (unsigned)json_integer_value(pl) : 0;
    if (read_figure(json_object_get(o, "time"), "median_s", i, &r->median_s, &present, e) ||
        read_calls(o, i, r, e) || read_datasheet(o, i, r, e) || read_work(o, i, r, e))
        return -1;
    return read_fleet(o, i, r, e);
}

/* Copies o[key] into c[as] when it is a number (as a real: 1 and 1.0 are one value). */
static void derive_real(json_t *c, const char *as, json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (json_is_number(v))
        json_object_set_new(c, as, json_real(json_number_value(v)));
}

static void derive_copy(json_t *c, const char *as, json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (json_is_integer(v) || json_is_string(v) || json_is_boolean(v))
        json_object_set(c, as, v);
}

/* What src/output/gemm.c and micro.c write as "config", from what older files hold. */
static json_t *derive_config(json_t *root, json_t *o, const struct clb_row *r)
{
    json_t *c = json_object();

    if (!c)
        return NULL;
    if (r->benchmark == CLB_BENCH_GEMM) {
        json_t *opt = json_object_get(root, "options");
        json_object_set_new(c, "tuned", json_boolean(json_is_true(json_object_get(o, "tuned"))));
        derive_real(c, "alpha", opt, "alpha");
        derive_real(c, "beta", opt, "beta");
        if (json_is_boolean(json_object_get(opt, "transfers")))
            json_object_set(c, "transfers", json_object_get(opt, "transfers"));
        if (!strcmp(r->device_id, "host") || r->baseline || !strcmp(r->backend, "openblas")) {
            json_t *lib = json_object_get(json_object_get(root, "libraries"), r->backend);
            derive_copy(c, "threads", lib, "threads");
            derive_copy(c, "blas_core", lib, "core");
        }
    } else if (r->benchmark == CLB_BENCH_PEAK) {
        derive_copy(c, "width", o, "width");
    } else if (r->benchmark == CLB_BENCH_BANDWIDTH) {
        derive_real(c, "bytes_per_call", o, "work_per_call");
    }
    return c;
}

static const char *str_or_empty(json_t *o, const char *key)
{
    const char *s = opt_string(o, key);
    return s ? s : "";
}

static int64_t int_or_none(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : -1;
}

static int bool_or_none(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_boolean(v) ? json_is_true(v) : -1;
}

/* "host" and the objects of "devices", typed (entries that are no object are skipped). */
static int read_machine(struct clb_result_file *f, struct clb_error *e)
{
    size_t i;
    json_t *d, *t = json_object_get(f->fleet, "threshold");

    f->host_info = (struct clb_result_host){ str_or_empty(f->host, "hostname"),
                                             str_or_empty(f->host, "cpu"),
                                             str_or_empty(f->host, "os") };
    if (json_is_number(t) && json_number_value(t) > 0 && json_number_value(t) < 1)
        f->fleet_threshold = json_number_value(t);
    f->device_list = calloc(json_array_size(f->devices) + 1, sizeof(*f->device_list));
    if (!f->device_list) {
        clb_error_set(e, "out of host memory");
        return -1;
    }
    json_array_foreach(f->devices, i, d) {
        if (!json_is_object(d))
            continue;
        f->device_list[f->n_devices++] = (struct clb_result_device){
            str_or_empty(d, "id"), str_or_empty(d, "name"), str_or_empty(d, "type"),
            str_or_empty(d, "vendor"), str_or_empty(d, "driver_version"),
            str_or_empty(d, "opencl_version"), int_or_none(d, "compute_units"),
            int_or_none(d, "max_clock_mhz"), int_or_none(d, "global_mem_bytes"),
            int_or_none(d, "max_alloc_bytes"), bool_or_none(d, "fp64"), bool_or_none(d, "fp16")
        };
    }
    return 0;
}

static int check_file(const char *path, struct clb_error *e)
{
    struct stat st;

    if (stat(path, &st) != 0) {
        clb_error_set(e, "cannot open: %s", strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        clb_error_set(e, "is a directory, not a result file");
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        clb_error_set(e, "is not a regular file");
        return -1;
    }
    if (st.st_size == 0) {
        clb_error_set(e, "is empty");
        return -1;
    }
    if ((uint64_t)st.st_size > CLB_RESULT_FILE_MAX_BYTES) {
        clb_error_set(e, "is larger than %u MiB: not a clbench result", CLB_RESULT_FILE_MAX_BYTES >> 20);
        return -1;
    }
    return 0;
}

static int parse(struct clb_result_file *f, const char *text, size_t len, struct clb_error *e)
{
    json_error_t je;
    json_t *results, *v;
    const char *schema;

    f->root = text ? json_loadb(text, len, JSON_REJECT_DUPLICATES, &je)
                   : json_load_file(f->path, JSON_REJECT_DUPLICATES, &je);
    if (!f->root) {
        /* The parser quotes the input near the error: keep binary bytes off the terminal. */
        for (char *c = je.text; *c; c++)
            if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
                *c = '?';
        clb_error_set(e, "not valid JSON: %s (line %d, column %d)", je.text, je.line, je.column);
        return -1;
    }
    if (!json_is_object(f->root)) {
        clb_error_set(e, "not a clbench result (the document is not an object)");
        return -1;
    }
    schema = opt_string(f->root, "schema");
    if (!schema || strcmp(schema, CLB_RESULT_SCHEMA) != 0) {
        clb_error_set(e, "not a clbench result: schema is %s%s%s, expected \"%s\"",
                      schema ? "\"" : "", schema ? schema : "missing", schema ? "\"" : "",
                      CLB_RESULT_SCHEMA);
        return -1;
    }
    f->version = opt_string(f->root, "clbench_version");
    f->created = opt_string(f->root, "created");
    if (!f->version || !f->created) {
        clb_error_set(e, "clbench_version or created is missing or not a string");
        return -1;
    }
    v = json_object_get(f->root, "complete");
    if (!json_is_boolean(v)) {
        clb_error_set(e, "complete is missing or not true/false");
        return -1;
    }
    f->complete = json_is_true(v);
    f->fleet = json_object_get(f->root, "fleet");
    if (f->fleet && !json_is_object(f->fleet)) {
        clb_error_set(e, "fleet is not an object");
        return -1;
    }
    f->devices = json_object_get(f->root, "devices");
    f->host = json_object_get(f->root, "host");
    if (!json_is_array(f->devices) || !json_is_object(f->host)) {
        clb_error_set(e, "devices or host is missing or of the wrong type");
        return -1;
    }
    if (read_machine(f, e))
        return -1;
    results = json_object_get(f->root, "results");
    if (!json_is_array(results)) {
        clb_error_set(e, "results is missing or not an array");
        return -1;
    }
    f->n_rows = json_array_size(results);
    f->rows = calloc(f->n_rows + 1, sizeof(*f->rows));
    if (!f->rows) {
        clb_error_set(e, "out of host memory");
        return -1;
    }
    if (!(f->derived = json_array())) {
        clb_error_set(e, "out of host memory");
        return -1;
    }
    for (size_t i = 0; i < f->n_rows; i++) {
        struct clb_row *r = &f->rows[i];
        if (read_row(json_array_get(results, i), i, r, e))
            return -1;
        if (!r->config) {
            r->config = derive_config(f->root, json_array_get(results, i), r);
            if (!r->config || json_array_append_new(f->derived, r->config)) {
                clb_error_set(e, "out of host memory");
                return -1;
            }
        }
    }
    return 0;
}

static struct clb_result_file *load(const char *path, const char *text, size_t len,
                                    struct clb_error *e)
{
    struct clb_result_file *f = calloc(1, sizeof(*f));

    if (!f || !(f->path = strdup(path))) {
        free(f);
        clb_error_set(e, "%s: out of host memory", path);
        return NULL;
    }
    if ((!text && check_file(path, e)) || parse(f, text, len, e)) {
        clb_error_prefix(e, "%s", path);
        clb_result_file_destroy(f);
        return NULL;
    }
    return f;
}

struct clb_result_file *clb_result_file_load(const char *path, struct clb_error *e)
{
    return load(path, NULL, 0, e);
}

struct clb_result_file *clb_result_file_parse(const char *name, const char *text, size_t len,
                                              struct clb_error *e)
{
    if (len == 0) {
        clb_error_set(e, "%s: is empty", name);
        return NULL;
    }
    return load(name, text, len, e);
}

void clb_result_file_destroy(struct clb_result_file *f)
{
    if (!f)
        return;
    for (size_t i = 0; f->rows && i < f->n_rows; i++)
        free(f->rows[i].times_s);
    free(f->rows);
    free(f->device_list);
    json_decref(f->derived);
    json_decref(f->root);
    free(f->path);
    free(f);
}

bool clb_result_row_same_place(const struct clb_row *a, const struct clb_row *b)
{
    return !strcmp(a->device_name, b->device_name) && !strcmp(a->device_id, b->device_id);
}

bool clb_result_row_same_device(const struct clb_row *a, const struct clb_row *b)
{
    return clb_result_row_same_place(a, b) && a->rank == b->rank;
}

double clb_result_row_datasheet_percent(const struct clb_row *r)
{
    return r->has_value && r->has_datasheet ? 100.0 * r->value / r->datasheet.value : 0;
}

double clb_result_row_cube_size(const struct clb_row *r)
{
    return cbrt((double)r->shape.m * (double)r->shape.n * (double)r->shape.k);
}

static bool same_name(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

bool clb_result_row_same_benchmark(const struct clb_row *a, const struct clb_row *b)
{
    return a->benchmark == b->benchmark && same_name(a->benchmark_name, b->benchmark_name);
}

bool clb_result_row_same_precision(const struct clb_row *a, const struct clb_row *b)
{
    return clb_result_row_cmp_precision(a, b) == 0;
}

int clb_result_row_cmp_precision(const struct clb_row *a, const struct clb_row *b)
{
    const char *x = a->precision_name, *y = b->precision_name;

    if (a->precision != b->precision)
        return a->precision < b->precision ? -1 : 1;
    return x == y ? 0 : !x ? -1 : !y ? 1 : strcmp(x, y);
}

bool clb_result_row_is_triad(const struct clb_row *r)
{
    return r->benchmark == CLB_BENCH_BANDWIDTH &&
           (!strcmp(r->case_, "fp32 triad") || !strcmp(r->case_, "fp64 triad"));
}

bool clb_result_row_is_sized_triad(const struct clb_row *r)
{
    return r->benchmark == CLB_BENCH_BANDWIDTH && r->sized &&
           !strcmp(r->kernel, "triad");
}
