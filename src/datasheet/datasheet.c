#include "clbench/datasheet/datasheet.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/util/parse.h"

#define DATASHEET_SCHEMA "clbench-datasheet/1"

static const struct {
    const char *key, *unit, *field; /* field: the number's name in the table */
    double scale;                   /* to the unit clbench measures in */
} figures[CLB_DS_FIGURES] = {
    [CLB_DS_FP64_VECTOR] = { "fp64_vector", "GFLOP/s", "tflops", 1e3 },
    [CLB_DS_FP32_VECTOR] = { "fp32_vector", "GFLOP/s", "tflops", 1e3 },
    [CLB_DS_FP16_VECTOR] = { "fp16_vector", "GFLOP/s", "tflops", 1e3 },
    [CLB_DS_FP64_MATRIX] = { "fp64_matrix", "GFLOP/s", "tflops", 1e3 },
    [CLB_DS_FP32_MATRIX] = { "fp32_matrix", "GFLOP/s", "tflops", 1e3 },
    [CLB_DS_FP16_MATRIX] = { "fp16_matrix", "GFLOP/s", "tflops", 1e3 },
    [CLB_DS_BF16_MATRIX] = { "bf16_matrix", "GFLOP/s", "tflops", 1e3 },
    [CLB_DS_INT8_MATRIX] = { "int8_matrix", "GIOP/s", "tops", 1e3 },
    [CLB_DS_MEMORY] = { "memory", "GB/s", "gbps", 1 },
    [CLB_DS_BOOST_CLOCK] = { "boost_clock", "MHz", "mhz", 1 },
};

bool clb_ds_vector_figure(enum clb_precision precision, enum clb_ds_figure *f)
{
    switch (precision) {
    case CLB_FP64: *f = CLB_DS_FP64_VECTOR; return true;
    case CLB_FP32: *f = CLB_DS_FP32_VECTOR; return true;
    case CLB_FP16: *f = CLB_DS_FP16_VECTOR; return true;
    default: return false;
    }
}

const char *clb_ds_figure_key(enum clb_ds_figure f)
{
    return f < CLB_DS_FIGURES ? figures[f].key : "?";
}

const char *clb_ds_figure_unit(enum clb_ds_figure f)
{
    return f < CLB_DS_FIGURES ? figures[f].unit : "?";
}

static const char *str(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) && json_string_length(v) ? json_string_value(v) : NULL;
}

static bool patterns(json_t *a, bool required)
{
    size_t i;
    json_t *p;

    if (!a)
        return !required;
    if (!json_is_array(a) || (required && !json_array_size(a)))
        return false;
    json_array_foreach(a, i, p)
        if (!json_is_string(p) || !json_string_length(p))
            return false;
    return true;
}

static bool positive(json_t *v, double *out)
{
    if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) <= 0)
        return false;
    *out = json_number_value(v);
    return true;
}

/* One figure of row r from its JSON object o; -1 with e set. */
static int read_figure(struct clb_ds_row *r, json_t *row, enum clb_ds_figure f, json_t *o,
                       struct clb_error *e)
{
    struct clb_ds_value *v = &r->fig[f];
    const char *src = str(o, "source");
    double x;

    if (!json_is_object(o) || !positive(json_object_get(o, figures[f].field), &x)) {
        clb_error_set(e, "%s: %s needs a positive \"%s\"", r->name, figures[f].key,
                      figures[f].field);
        return -1;
    }
    if (!src || !(v->source = str(json_object_get(row, "sources"), src))) {
        clb_error_set(e, "%s: %s has no source in the row's \"sources\"", r->name,
                      figures[f].key);
        return -1;
    }
    v->present = true;
    v->value = x * figures[f].scale;
    v->note = str(o, "note");
    if (f == CLB_DS_MEMORY && json_object_get(o, "bytes")) {
        double bytes;
        if (!positive(json_object_get(o, "bytes"), &bytes) ||
            (r->memory_bytes && (uint64_t)bytes != r->memory_bytes)) {
            clb_error_set(e, "%s: memory.bytes disagrees with memory_bytes", r->name);
            return -1;
        }
        r->memory_bytes = (uint64_t)bytes;
    }
    return 0;
}

/* What must hold between a row's figures where both are given. */
static int consistent(const struct clb_ds_row *r, json_t *row, struct clb_error *e)
{
    static const enum clb_ds_figure at_least[][2] = {
        { CLB_DS_FP16_VECTOR, CLB_DS_FP32_VECTOR }, { CLB_DS_FP32_VECTOR, CLB_DS_FP64_VECTOR },
        { CLB_DS_FP16_MATRIX, CLB_DS_FP16_VECTOR }, { CLB_DS_FP32_MATRIX, CLB_DS_FP32_VECTOR },
        { CLB_DS_FP64_MATRIX, CLB_DS_FP64_VECTOR },
    };
    double x;

    for (size_t i = 0; i < sizeof(at_least) / sizeof(at_least[0]); i++) {
        const struct clb_ds_value *hi = &r->fig[at_least[i][0]], *lo = &r->fig[at_least[i][1]];
        if (hi->present && lo->present && hi->value < lo->value) {
            clb_error_set(e, "%s: %s (%g) is below %s (%g)", r->name,
                          figures[at_least[i][0]].key, hi->value, figures[at_least[i][1]].key,
                          lo->value);
            return -1;
        }
    }
    if (json_object_get(row, "memory_gbps") &&
        (!positive(json_object_get(row, "memory_gbps"), &x) || !r->fig[CLB_DS_MEMORY].present ||
         x != r->fig[CLB_DS_MEMORY].value)) {
        clb_error_set(e, "%s: memory_gbps disagrees with its memory figure", r->name);
        return -1;
    }
    if (json_object_get(row, "boost_mhz") &&
        (!positive(json_object_get(row, "boost_mhz"), &x) ||
         !r->fig[CLB_DS_BOOST_CLOCK].present || x != r->fig[CLB_DS_BOOST_CLOCK].value)) {
        clb_error_set(e, "%s: boost_mhz disagrees with its boost_clock figure", r->name);
        return -1;
    }
    return 0;
}

/*
 * The row's fp32_packed object (clbench/datasheet/datasheet.h): required of
 * AMD's rows, whose vendor quotes FP32 vector peaks both with and without
 * packed math; -1 with e set.
 */
static int read_packed(struct clb_ds_row *r, json_t *row, struct clb_error *e)
{
    json_t *o = json_object_get(row, "fp32_packed"), *counted = json_object_get(o, "counted");
    const char *src = str(o, "source");
    const struct clb_ds_value *vec = &r->fig[CLB_DS_FP32_VECTOR];
    double x;

    if (!o) {
        if (strcmp(r->vendor, "AMD"))
            return 0;
        clb_error_set(e, "%s: an AMD row must state in \"fp32_packed\" whether fp32_vector "
                         "counts packed FP32", r->name);
        return -1;
    }
    if (!json_is_object(o) || !json_is_boolean(counted) ||
        !positive(json_object_get(o, "tflops"), &x)) {
        clb_error_set(e, "%s: fp32_packed needs \"counted\" (true/false) and a positive "
                         "\"tflops\"", r->name);
        return -1;
    }
    if (!src || !(r->fp32_packed.source = str(json_object_get(row, "sources"), src))) {
        clb_error_set(e, "%s: fp32_packed has no source in the row's \"sources\"", r->name);
        return -1;
    }
    r->fp32_packed_stated = true;
    r->fp32_packed_counted = json_is_true(counted);
    r->fp32_packed = (struct clb_ds_value){ .present = true, .value = x * 1000.0,
                                            .source = r->fp32_packed.source,
                                            .note = str(o, "note") };
    /* Counted: fp32_vector is the packed figure; not: it is the lower, non-packed one. */
    if (vec->present && (r->fp32_packed_counted ? vec->value != r->fp32_packed.value
                                                : !(vec->value < r->fp32_packed.value))) {
        clb_error_set(e, "%s: fp32_vector (%g) %s fp32_packed (%g), which says counted: %s",
                      r->name, vec->value, r->fp32_packed_counted ? "differs from" : "is not below",
                      r->fp32_packed.value, r->fp32_packed_counted ? "true" : "false");
        return -1;
    }
    return 0;
}

static int read_row(struct clb_ds_row *r, json_t *row, size_t i, struct clb_error *e)
{
    json_t *figs = json_object_get(row, "figures"), *o;
    const char *key;
    double bytes;

    if (!json_is_object(row) || !(r->name = str(row, "name")) || !(r->vendor = str(row, "vendor"))) {
        clb_error_set(e, "accelerators[%zu] needs a name and a vendor", i);
        return -1;
    }
    r->match = json_object_get(row, "match");
    r->exclude = json_object_get(row, "exclude");
    r->opencl_note = str(row, "opencl_note");
    json_t *split = json_object_get(row, "opencl_split");
    if (split && !json_is_boolean(split)) {
        clb_error_set(e, "%s: opencl_split is not true/false", r->name);
        return -1;
    }
    r->opencl_split = json_is_true(split);
    if (!patterns(r->match, true) || !patterns(r->exclude, false)) {
        clb_error_set(e, "%s: match (and exclude) must be lists of non-empty patterns", r->name);
        return -1;
    }
    if (json_object_get(row, "memory_bytes")) {
        if (!positive(json_object_get(row, "memory_bytes"), &bytes)) {
            clb_error_set(e, "%s: memory_bytes is not a positive number", r->name);
            return -1;
        }
        r->memory_bytes = (uint64_t)bytes;
    }
    if (!json_is_object(figs) || !json_is_object(json_object_get(row, "sources"))) {
        clb_error_set(e, "%s: needs \"figures\" and \"sources\" objects", r->name);
        return -1;
    }
    json_object_foreach(figs, key, o) {
        enum clb_ds_figure f = 0;
        while (f < CLB_DS_FIGURES && strcmp(figures[f].key, key))
            f++;
        if (f == CLB_DS_FIGURES) {
            clb_error_set(e, "%s: unknown figure \"%s\"", r->name, key);
            return -1;
        }
        if (read_figure(r, row, f, o, e))
            return -1;
    }
    return consistent(r, row, e) || read_packed(r, row, e) ? -1 : 0;
}

static bool model_ranges(json_t *a)
{
    size_t i;
    json_t *r;

    if (!json_is_array(a) || !json_array_size(a))
        return false;
    json_array_foreach(a, i, r) {
        json_t *lo = json_array_get(r, 0), *hi = json_array_get(r, 1);
        if (json_array_size(r) != 2 || !json_is_integer(lo) || !json_is_integer(hi) ||
            json_integer_value(lo) < 0 || json_integer_value(lo) > json_integer_value(hi) ||
            json_integer_value(hi) > 0xfff)
            return false;
    }
    return true;
}

/* A design's (or its E-core's) vector FMA pipes from o; false unless 1 to 4 of 128, 256 or 512 bits. */
static bool fma_pipes(json_t *o, unsigned *units, unsigned *bits)
{
    json_t *u = json_object_get(o, "fma_units"), *b = json_object_get(o, "fma_bits");

    *units = json_is_integer(u) ? (unsigned)json_integer_value(u) : 0;
    *bits = json_is_integer(b) ? (unsigned)json_integer_value(b) : 0;
    return *units >= 1 && *units <= 4 && (*bits == 128 || *bits == 256 || *bits == 512);
}

static int read_core(struct clb_ds_core *c, json_t *o, size_t i, struct clb_error *e)
{
    json_t *family = json_object_get(o, "family"), *units = json_object_get(o, "fma_units"),
           *bits = json_object_get(o, "fma_bits");

    if (!json_is_object(o) || !(c->name = str(o, "name")) || !(c->vendor = str(o, "vendor")) ||
        !json_is_integer(family) || json_integer_value(family) <= 0) {
        clb_error_set(e, "cpu_cores[%zu] needs a name, a vendor and a family", i);
        return -1;
    }
    c->family = (unsigned)json_integer_value(family);
    c->models = json_object_get(o, "models");
    if (!model_ranges(c->models)) {
        clb_error_set(e, "%s: models must be a list of [first, last] model numbers", c->name);
        return -1;
    }
    c->source = str(o, "source");
    c->note = str(o, "note");
    if (!units && !bits) {
        if (c->note)
            return 0;
        clb_error_set(e, "%s: without fma_units, a note must say why", c->name);
        return -1;
    }
    if (!fma_pipes(o, &c->fma_units, &c->fma_bits) || !c->source) {
        clb_error_set(e, "%s: needs fma_units (1 to 4), fma_bits (128, 256 or 512) and a source",
                      c->name);
        return -1;
    }
    json_t *ecore = json_object_get(o, "e_core");
    if (!ecore)
        return 0;
    if (!json_is_object(ecore) || !(c->e_name = str(ecore, "name")) ||
        !(c->e_source = str(ecore, "source")) ||
        !fma_pipes(ecore, &c->e_fma_units, &c->e_fma_bits)) {
        clb_error_set(e, "%s: e_core needs a name, fma_units (1 to 4), fma_bits (128, 256 or 512) "
                      "and a source", c->name);
        return -1;
    }
    return 0;
}

static int read_cores(struct clb_datasheet *d, struct clb_error *e)
{
    json_t *cores = json_object_get(d->root, "cpu_cores");

    if (!cores)
        return 0;
    if (!json_is_array(cores)) {
        clb_error_set(e, "cpu_cores is not a list");
        return -1;
    }
    d->n_cores = json_array_size(cores);
    if (d->n_cores && !(d->cores = calloc(d->n_cores, sizeof(*d->cores)))) {
        clb_error_set(e, "out of host memory");
        return -1;
    }
    for (size_t i = 0; i < d->n_cores; i++)
        if (read_core(&d->cores[i], json_array_get(cores, i), i, e))
            return -1;
    return 0;
}

struct clb_datasheet *clb_datasheet_parse(const char *text, size_t len, struct clb_error *e)
{
    struct clb_datasheet *d = calloc(1, sizeof(*d));
    json_error_t je;
    json_t *rows;

    if (!d) {
        clb_error_set(e, "out of host memory");
        return NULL;
    }
    if (!(d->root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je))) {
        clb_error_set(e, "not valid JSON: %s (line %d)", je.text, je.line);
        goto fail;
    }
    const char *schema = str(d->root, "schema");
    rows = json_object_get(d->root, "accelerators");
    if (!schema || strcmp(schema, DATASHEET_SCHEMA) || !json_is_array(rows) ||
        !json_array_size(rows)) {
        clb_error_set(e, "not a %s table with accelerators", DATASHEET_SCHEMA);
        goto fail;
    }
    d->n_rows = json_array_size(rows);
    if (!(d->rows = calloc(d->n_rows, sizeof(*d->rows)))) {
        clb_error_set(e, "out of host memory");
        goto fail;
    }
    for (size_t i = 0; i < d->n_rows; i++)
        if (read_row(&d->rows[i], json_array_get(rows, i), i, e))
            goto fail;
    if (read_cores(d, e))
        goto fail;
    return d;
fail:
    clb_datasheet_destroy(d);
    return NULL;
}

void clb_datasheet_destroy(struct clb_datasheet *d)
{
    if (!d)
        return;
    free(d->rows);
    free(d->cores);
    json_decref(d->root);
    free(d);
}

const struct clb_datasheet *clb_datasheet_builtin(struct clb_error *e)
{
    static struct clb_datasheet *table;
    static struct clb_error why;

    if (!table && !why.msg[0]) {
        const char *text = clb_datasheet_files[0].text;
        if (!(table = clb_datasheet_parse(text, strlen(text), &why)))
            clb_error_prefix(&why, "the built-in datasheet table");
    }
    if (!table)
        *e = why;
    return table;
}

static bool any_in(json_t *patterns, const char *name, const char *board)
{
    size_t i;
    json_t *p;

    json_array_foreach(patterns, i, p)
        if (clb_contains_nocase(name, json_string_value(p)) || clb_contains_nocase(board, json_string_value(p)))
            return true;
    return false;
}

const struct clb_ds_row *clb_datasheet_match(const struct clb_datasheet *d, const char *name,
                                             const char *board)
{
    for (size_t i = 0; d && i < d->n_rows; i++)
        if (any_in(d->rows[i].match, name, board) &&
            !(d->rows[i].exclude && any_in(d->rows[i].exclude, name, board)))
            return &d->rows[i];
    return NULL;
}

const struct clb_ds_core *clb_datasheet_match_core(const struct clb_datasheet *d,
                                                   const char *vendor, unsigned family,
                                                   unsigned model)
{
    for (size_t i = 0; d && vendor && i < d->n_cores; i++) {
        const struct clb_ds_core *c = &d->cores[i];
        size_t j;
        json_t *r;
        if (strcmp(c->vendor, vendor) || c->family != family)
            continue;
        json_array_foreach(c->models, j, r)
            if ((json_int_t)model >= json_integer_value(json_array_get(r, 0)) &&
                (json_int_t)model <= json_integer_value(json_array_get(r, 1)))
                return c;
    }
    return NULL;
}

/* units FMA pipes of fma_bits, used at the narrower of theirs and the instruction set's width. */
static double pipes_flops(unsigned units, unsigned fma_bits, unsigned isa_bits, unsigned elem_bits)
{
    if (!units || !isa_bits || !elem_bits)
        return 0;
    const unsigned bits = fma_bits < isa_bits ? fma_bits : isa_bits;
    return (double)units * bits / elem_bits * 2.0;
}

double clb_ds_core_flops_per_cycle(const struct clb_ds_core *c, unsigned isa_bits,
                                   unsigned elem_bits)
{
    return c ? pipes_flops(c->fma_units, c->fma_bits, isa_bits, elem_bits) : 0;
}

double clb_ds_core_e_flops_per_cycle(const struct clb_ds_core *c, unsigned isa_bits,
                                     unsigned elem_bits)
{
    return c ? pipes_flops(c->e_fma_units, c->e_fma_bits, isa_bits, elem_bits) : 0;
}

double clb_ds_core_cpu_flops_per_cycle(const struct clb_ds_core *c, unsigned isa_bits,
                                       unsigned elem_bits, unsigned p_cores, unsigned e_cores)
{
    const double p = clb_ds_core_flops_per_cycle(c, isa_bits, elem_bits),
                 e = clb_ds_core_e_flops_per_cycle(c, isa_bits, elem_bits);

    /* Cores of a kind with no known rate make the whole unknown, not a smaller sum. */
    if ((p_cores && p <= 0) || (e_cores && e <= 0) || !(p_cores + e_cores))
        return 0;
    return p_cores * p + e_cores * e;
}

unsigned clb_datasheet_parts(const struct clb_ds_row *r, uint64_t device_memory)
{
    if (!r->opencl_split || !r->memory_bytes || !device_memory ||
        3 * (double)device_memory >= 2 * (double)r->memory_bytes)
        return 1;
    return (unsigned)ceil((double)r->memory_bytes / (double)device_memory - 0.05);
}

bool clb_datasheet_row_selected(const struct clb_ds_row *r, const char *query)
{
    return clb_contains_nocase(r->name, query) || (any_in(r->match, query, NULL) &&
                                        !(r->exclude && any_in(r->exclude, query, NULL)));
}
