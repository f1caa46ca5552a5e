/*
 * The datasheet table (clbench/datasheet/datasheet.h): the built-in table
 * parses and holds the accelerators the issue names, every figure with a
 * source and in its unit; device names as drivers report them find their row
 * and only theirs; a broken table is refused with the row and the reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "clbench/datasheet/datasheet.h"

static const struct clb_datasheet *table(void)
{
    struct clb_error e = { "" };
    const struct clb_datasheet *d = clb_datasheet_builtin(&e);
    if (!d)
        fail_msg("%s", e.msg);
    return d;
}

static const struct clb_ds_row *row_named(const char *name)
{
    const struct clb_datasheet *d = table();
    for (size_t i = 0; i < d->n_rows; i++)
        if (!strcmp(d->rows[i].name, name))
            return &d->rows[i];
    fail_msg("no row %s", name);
    return NULL;
}

static void builtin_complete(void **state)
{
    static const char *const wanted[] = {
        "H200", "H100 SXM", "H100 PCIe", "A100 SXM4 40GB", "A100 SXM4 80GB", "L40S", "NVIDIA L4",
        "T4", "V100", "RTX 4090", "RTX 4080", "RTX 3090", "MI300X", "MI250X", "7900 XTX",
        "Max 1550", "A770",
    };
    const struct clb_datasheet *d = table();
    (void)state;
    for (size_t w = 0; w < sizeof(wanted) / sizeof(wanted[0]); w++) {
        bool found = false;
        for (size_t i = 0; i < d->n_rows; i++)
            found |= strstr(d->rows[i].name, wanted[w]) != NULL;
        if (!found)
            fail_msg("no row for %s", wanted[w]);
    }
    /* Every row: a memory figure at least, and every figure sourced (the parser insists). */
    for (size_t i = 0; i < d->n_rows; i++) {
        const struct clb_ds_row *r = &d->rows[i];
        assert_true(r->fig[CLB_DS_MEMORY].present);
        assert_true(r->memory_bytes > 1000000000ull);
        for (int f = 0; f < CLB_DS_FIGURES; f++)
            if (r->fig[f].present)
                assert_non_null(r->fig[f].source);
    }
    /* Units: TFLOPS in the table, GFLOP/s here; GB/s as given. */
    const struct clb_ds_row *h100 = row_named("NVIDIA H100 SXM5 80GB");
    assert_true(h100->fig[CLB_DS_FP32_VECTOR].value == 67000);
    assert_true(h100->fig[CLB_DS_MEMORY].value == 3350);
    assert_true(h100->fig[CLB_DS_FP16_MATRIX].value > 10 * h100->fig[CLB_DS_FP32_VECTOR].value);
    assert_string_equal(clb_ds_figure_key(CLB_DS_FP32_VECTOR), "fp32_vector");
    assert_string_equal(clb_ds_figure_unit(CLB_DS_INT8_MATRIX), "GIOP/s");
}

static void matching(void **state)
{
    static const char *const cases[][3] = {
        /* CL_DEVICE_NAME, AMD board name, the row (NULL: none) */
        { "NVIDIA H100 80GB HBM3", NULL, "NVIDIA H100 SXM5 80GB" },
        { "NVIDIA H100 PCIe", NULL, "NVIDIA H100 PCIe 80GB" },
        { "NVIDIA A100-SXM4-40GB", NULL, "NVIDIA A100 SXM4 40GB" },
        { "NVIDIA A100-SXM4-80GB", NULL, "NVIDIA A100 SXM4 80GB" },
        { "NVIDIA L40S", NULL, "NVIDIA L40S" },
        { "NVIDIA L4", NULL, "NVIDIA L4" },
        { "NVIDIA L40", NULL, NULL },
        { "NVIDIA GeForce RTX 3090", NULL, "NVIDIA GeForce RTX 3090" },
        { "NVIDIA GeForce RTX 3090 Ti", NULL, NULL },
        { "NVIDIA H200 NVL", NULL, NULL },
        { "gfx942:sramecc+:xnack-", "AMD Instinct MI300X", "AMD Instinct MI300X" },
        { "gfx942:sramecc+:xnack-", "AMD Instinct MI300A", NULL },
        { "Intel(R) Arc(TM) A770 Graphics", NULL, "Intel Arc A770 (16GB)" },
        { "pthread-skylake-avx512-AMD EPYC", NULL, NULL },
    };
    const struct clb_datasheet *d = table();
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct clb_ds_row *r = clb_datasheet_match(d, cases[i][0], cases[i][1]);
        if (!cases[i][2] && r)
            fail_msg("%s matched %s", cases[i][0], r->name);
        if (cases[i][2] && (!r || strcmp(r->name, cases[i][2])))
            fail_msg("%s matched %s, not %s", cases[i][0], r ? r->name : "nothing", cases[i][2]);
    }
    assert_null(clb_datasheet_match(d, "gfx90a:sramecc+:xnack-", "AMD Instinct MI250X / MI250"));
    /* A package OpenCL shows as several devices: each is held against its share. */
    const struct clb_ds_row *mi250x = row_named("AMD Instinct MI250X");
    assert_int_equal(clb_datasheet_parts(mi250x, 68702699520ull), 2);  /* one die: 64 GiB */
    assert_int_equal(clb_datasheet_parts(mi250x, 128000000000ull), 1);
    assert_int_equal(clb_datasheet_parts(row_named("AMD Instinct MI300X"), 25769803776ull), 8);
    assert_int_equal(clb_datasheet_parts(row_named("NVIDIA H100 SXM5 80GB"), 1000000000ull), 1);
    assert_true(clb_datasheet_row_selected(row_named("NVIDIA H100 PCIe 80GB"), "h100"));
    assert_true(clb_datasheet_row_selected(row_named("NVIDIA H100 PCIe 80GB"), "NVIDIA H100 PCIe"));
    assert_false(clb_datasheet_row_selected(row_named("NVIDIA H100 PCIe 80GB"), "A100"));
}

/* A one-row table with `figures` and `extra` top-level row fields. */
static struct clb_datasheet *one(const char *figures, const char *extra, struct clb_error *e)
{
    char text[2048];
    snprintf(text, sizeof(text),
             "{\"schema\": \"clbench-datasheet/1\", \"accelerators\": [{\"name\": \"X1\", "
             "\"vendor\": \"V\", \"match\": [\"X1\"], %s \"figures\": {%s}, "
             "\"sources\": {\"S1\": \"the X1 datasheet\"}}]}",
             extra, figures);
    return clb_datasheet_parse(text, strlen(text), e);
}

static void refused(void **state)
{
    struct clb_error e;
    struct clb_datasheet *d;
    (void)state;

    d = one("\"fp32_vector\": {\"tflops\": 10, \"source\": \"S1\"}, "
            "\"memory\": {\"gbps\": 500, \"bytes\": 16000000000, \"source\": \"S1\"}",
            "\"memory_gbps\": 500,", &e);
    assert_non_null(d); /* the good one */
    assert_true(d->rows[0].memory_bytes == 16000000000ull);
    clb_datasheet_destroy(d);
    static const char *const bad[][3] = {
        { "\"fp32_vector\": {\"tflops\": 10, \"source\": \"S9\"}", "", "no source" },
        { "\"fp32_vector\": {\"tflops\": 10}", "", "no source" },
        { "\"fp32_vector\": {\"tflops\": -1, \"source\": \"S1\"}", "", "positive" },
        { "\"fp32_vector\": {\"tops\": 10, \"source\": \"S1\"}", "", "positive \"tflops\"" },
        { "\"fp33_vector\": {\"tflops\": 10, \"source\": \"S1\"}", "", "unknown figure" },
        { "\"fp32_vector\": {\"tflops\": 10, \"source\": \"S1\"}, "
          "\"fp16_vector\": {\"tflops\": 5, \"source\": \"S1\"}", "", "fp16_vector (5000) is below" },
        { "\"fp16_vector\": {\"tflops\": 50, \"source\": \"S1\"}, "
          "\"fp16_matrix\": {\"tflops\": 20, \"source\": \"S1\"}", "", "fp16_matrix" },
        { "\"memory\": {\"gbps\": 500, \"source\": \"S1\"}", "\"memory_gbps\": 600,", "memory_gbps" },
        { "\"boost_clock\": {\"mhz\": 1500, \"source\": \"S1\"}", "\"boost_mhz\": 1600,", "boost_mhz" },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        e.msg[0] = '\0';
        assert_null(one(bad[i][0], bad[i][1], &e));
        if (!strstr(e.msg, bad[i][2]) || !strstr(e.msg, "X1"))
            fail_msg("case %zu: '%s' does not say '%s' about X1", i, e.msg, bad[i][2]);
    }
    assert_null(clb_datasheet_parse("{\"schema\": \"x\"}", 15, &e));
    assert_null(clb_datasheet_parse("[", 1, &e));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builtin_complete),
        cmocka_unit_test(matching),
        cmocka_unit_test(refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
