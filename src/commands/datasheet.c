/* datasheet: the vendors' published figures clbench holds its measurements against. */
#include <stdlib.h>
#include <string.h>

#include "clbench/datasheet/datasheet.h"
#include "clbench/output/table.h"
#include "clbench/util/cpu.h"
#include "common.h"

struct datasheet_config {
    struct clb_common common;
};

static const struct clb_option datasheet_options[] = {
    CLB_COMMON_OPTIONS(struct datasheet_config),
    { 0 },
};

static void cell(const struct clb_ds_row *r, enum clb_ds_figure f, char *buf, size_t len)
{
    if (!r->fig[f].present)
        snprintf(buf, len, "-");
    else if (f == CLB_DS_MEMORY)
        snprintf(buf, len, "%.0f", r->fig[f].value);
    else
        snprintf(buf, len, "%.4g", r->fig[f].value / 1e3);
}

/* Every selected row on one line: memory, bandwidth and the peaks in TFLOPS (TOPS). */
static int write_list(FILE *out, const struct clb_datasheet *d, const char *query)
{
    static const char *const head[] = { "ACCELERATOR", "MEMORY", "GB/S", "FP64",  "FP32",
                                        "FP16",        "FP64 M", "FP16 M", "BF16 M", "INT8 M" };
    static const enum clb_ds_figure cols[] = { CLB_DS_MEMORY,      CLB_DS_FP64_VECTOR,
                                               CLB_DS_FP32_VECTOR, CLB_DS_FP16_VECTOR,
                                               CLB_DS_FP64_MATRIX, CLB_DS_FP16_MATRIX,
                                               CLB_DS_BF16_MATRIX, CLB_DS_INT8_MATRIX };
    struct clb_table *t = clb_table_create(head, 10);
    char v[10][48];
    int rc = t ? 0 : -1;

    for (size_t c = 1; t && c < 10; c++)
        clb_table_align_right(t, c);
    for (size_t i = 0; !rc && i < d->n_rows; i++) {
        const struct clb_ds_row *r = &d->rows[i];
        if (query && !clb_datasheet_row_selected(r, query))
            continue;
        /* As the vendors count it: decimal gigabytes. */
        if (r->memory_bytes)
            snprintf(v[1], sizeof(v[1]), "%.0f GB", r->memory_bytes / 1e9);
        else
            snprintf(v[1], sizeof(v[1]), "-");
        for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
            cell(r, cols[c], v[2 + c], sizeof(v[2 + c]));
        const char *cells[] = { r->name, v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9] };
        rc = clb_table_add(t, cells);
    }
    if (!rc)
        clb_table_print(t, out);
    clb_table_destroy(t);
    fputs("TFLOPS (INT8: TOPS) as the vendors publish them, dense. FP64, FP32, FP16: the vector "
          "(shader) units, what an OpenCL kernel can approach; M: matrix units (tensor cores, "
          "XMX, MFMA), which OpenCL C cannot reach. '-': no source gives it. "
          "'clbench datasheet NAME' shows each figure's source.\n", out);
    return rc;
}

/* The CPU core designs a CPU's derived peak comes from, and which one this host is. */
static int write_cores(FILE *out, const struct clb_datasheet *d)
{
    static const char *const head[] = { "CPU CORE", "VENDOR", "FAMILY", "MODELS", "FMA UNITS",
                                        "FP32/CYCLE" };
    struct clb_table *t = clb_table_create(head, 6);
    int rc = t ? 0 : -1;

    for (size_t i = 0; !rc && i < d->n_cores; i++) {
        const struct clb_ds_core *c = &d->cores[i];
        char fam[16], models[160] = "", units[64] = "per part", fpc[32] = "-";
        size_t j, used = 0;
        json_t *r;
        snprintf(fam, sizeof(fam), "0x%x", c->family);
        json_array_foreach(c->models, j, r) {
            const json_int_t lo = json_integer_value(json_array_get(r, 0)),
                             hi = json_integer_value(json_array_get(r, 1));
            int w = lo == hi ? snprintf(models + used, sizeof(models) - used, "%s0x%llx",
                                        j ? "," : "", (unsigned long long)lo)
                             : snprintf(models + used, sizeof(models) - used, "%s0x%llx-0x%llx",
                                        j ? "," : "", (unsigned long long)lo,
                                        (unsigned long long)hi);
            if (w > 0 && (size_t)w < sizeof(models) - used)
                used += (size_t)w;
        }
        if (c->e_fma_units) {
            snprintf(units, sizeof(units), "P %u x %u-bit, E %u x %u-bit", c->fma_units,
                     c->fma_bits, c->e_fma_units, c->e_fma_bits);
            snprintf(fpc, sizeof(fpc), "P %.0f, E %.0f", clb_ds_core_flops_per_cycle(c, 512, 32),
                     clb_ds_core_e_flops_per_cycle(c, 512, 32));
        } else if (c->fma_units) {
            snprintf(units, sizeof(units), "%u x %u-bit", c->fma_units, c->fma_bits);
            snprintf(fpc, sizeof(fpc), "%.0f", clb_ds_core_flops_per_cycle(c, 512, 32));
        }
        const char *cells[] = { c->name, c->vendor, fam, models, units, fpc };
        rc = clb_table_add(t, cells);
    }
    if (!rc)
        clb_table_print(t, out);
    clb_table_destroy(t);
    struct clb_cpu_id id;
    clb_cpu_id_detect(&id);
    const struct clb_ds_core *mine =
        id.known ? clb_datasheet_match_core(d, id.vendor, id.family, id.model) : NULL;
    fprintf(out, "A CPU's peak is derived, not published: cores x FMA units x the vector width "
                 "(the narrower of the units' and the instruction set's) / element bits x 2 x "
                 "the clock clbench measures; a hybrid part's P- and E-cores (P, E) are counted "
                 "apart and summed. FP32/CYCLE: per core, at the units' full width.");
    if (id.known) {
        if (id.midr) /* Arm: the table's family and model are MIDR's implementer and part */
            fprintf(out, " This host: %s implementer 0x%02x part 0x%03x r%up%u", id.vendor,
                    id.family, id.model, id.variant, id.revision);
        else
            fprintf(out, " This host: %s family 0x%x model 0x%x", id.vendor, id.family, id.model);
        fprintf(out, ", %s%s", mine ? mine->name : "no core design in the table",
                mine && !mine->fma_units ? " (FMA units differ by part)" : "");
        unsigned p, e;
        if (mine && mine->e_fma_units && clb_cpu_count_core_types(&p, &e))
            fprintf(out, ", %u P-cores + %u E-cores", p, e);
        else if (mine && mine->e_fma_units)
            fprintf(out, " (the cores' kinds are not known here: no derived peak)");
        fputs(".\n", out);
    } else
        fputc('\n', out);
    return rc;
}

/* One row in full: every figure with its note and source, in the vendors' units. */
static void write_row(FILE *out, const struct clb_ds_row *r)
{
    fprintf(out, "%s (%s)", r->name, r->vendor);
    if (r->memory_bytes)
        fprintf(out, ", memory %.0f GB", r->memory_bytes / 1e9);
    fputc('\n', out);
    for (int f = 0; f < CLB_DS_FIGURES; f++) {
        const struct clb_ds_value *v = &r->fig[f];
        const bool rate = f != CLB_DS_MEMORY && f != CLB_DS_BOOST_CLOCK;
        if (!v->present)
            continue;
        fprintf(out, "  %-12s %8.6g %-6s%s%s%s\n      source: %s\n", clb_ds_figure_key(f),
                rate ? v->value / 1e3 : v->value,
                f == CLB_DS_INT8_MATRIX ? "TOPS" : rate ? "TFLOPS" : clb_ds_figure_unit(f),
                v->note ? " (" : "", v->note ? v->note : "", v->note ? ")" : "", v->source);
    }
    if (r->fp32_packed_stated)
        fprintf(out, "  %-12s %8.6g TFLOPS (%s in fp32_vector%s%s)\n      source: %s\n",
                "fp32_packed", r->fp32_packed.value / 1e3,
                r->fp32_packed_counted ? "counted" : "not counted",
                r->fp32_packed.note ? ": " : "", r->fp32_packed.note ? r->fp32_packed.note : "",
                r->fp32_packed.source);
    if (r->opencl_note)
        fprintf(out, "  OpenCL: %s\n", r->opencl_note);
}

static int datasheet_run(void *config, int n_operands, char **operands)
{
    struct datasheet_config *cfg = config;
    const char *query = n_operands ? operands[0] : NULL;
    struct clb_error e;
    const struct clb_datasheet *d = clb_datasheet_builtin(&e);
    size_t n = 0;
    int status = CLB_EXIT_USAGE;

    if (!d) {
        clb_report_error(&e);
        return CLB_EXIT_FAILURE;
    }
    json_t *rows = json_array();
    for (size_t i = 0; i < d->n_rows; i++)
        if (!query || clb_datasheet_row_selected(&d->rows[i], query)) {
            json_array_append(rows, json_array_get(json_object_get(d->root, "accelerators"), i));
            n++;
        }
    if (!n) {
        fprintf(stderr, "clbench datasheet: no row matches '%s' (see 'clbench datasheet')\n",
                query);
        goto out;
    }
    int rc = 0;
    if (cfg->common.format == CLB_FORMAT_JSON) {
        json_t *root = json_pack("{s:O, s:O, s:o}", "schema", json_object_get(d->root, "schema"),
                                 "match_rule", json_object_get(d->root, "match_rule"),
                                 "accelerators", rows);
        rows = NULL; /* json_pack took it */
        if (root && !query) {
            json_object_set(root, "cpu_rule", json_object_get(d->root, "cpu_rule"));
            json_object_set(root, "cpu_cores", json_object_get(d->root, "cpu_cores"));
        }
        rc = root ? json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : -1;
        fputc('\n', stdout);
        json_decref(root);
    } else if (query) {
        for (size_t i = 0; i < d->n_rows; i++)
            if (clb_datasheet_row_selected(&d->rows[i], query))
                write_row(stdout, &d->rows[i]);
    } else {
        rc = write_list(stdout, d, NULL);
        if (!rc && d->n_cores) {
            fputc('\n', stdout);
            rc = write_cores(stdout, d);
        }
    }
    if (rc)
        fprintf(stderr, "clbench: could not write the table\n");
    status = rc || clb_finish_stdout() ? CLB_EXIT_FAILURE : CLB_EXIT_OK;
out:
    json_decref(rows);
    return status;
}

const struct clb_command clb_cmd_datasheet = {
    .name = "datasheet",
    .summary = "The vendors' published figures (memory, bandwidth, vector and matrix peaks) "
               "that measured figures are held against, each with its source.",
    .usage = "[NAME]",
    .options = datasheet_options,
    .config_size = sizeof(struct datasheet_config),
    .max_operands = 1,
    .run = datasheet_run,
};
