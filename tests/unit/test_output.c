/* Formatting helpers, the text table, CSV quoting and error names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>
#include <stdlib.h>

#include "clbench/bench/micro.h"
#include "clbench/cl/device.h"
#include "clbench/output/micro.h"
#include "clbench/output/table.h"
#include "clbench/util/units.h"

static void bytes(void **state)
{
    char b[32];

    (void)state;
    clb_format_bytes(0, b, sizeof(b));
    assert_string_equal(b, "0 B");
    clb_format_bytes(1023, b, sizeof(b));
    assert_string_equal(b, "1023 B");
    clb_format_bytes(1024, b, sizeof(b));
    assert_string_equal(b, "1 KiB");
    clb_format_bytes(1536, b, sizeof(b));
    assert_string_equal(b, "1.5 KiB");
    clb_format_bytes(3896140800ull, b, sizeof(b));
    assert_string_equal(b, "3.6 GiB");
    clb_format_bytes(150754820096ull, b, sizeof(b));
    assert_string_equal(b, "140.4 GiB");
    clb_format_bytes(UINT64_MAX, b, sizeof(b));
    assert_string_equal(b, "16 EiB");
}

static void flops_and_seconds(void **state)
{
    char b[32];

    (void)state;
    clb_format_flops(12.345, b, sizeof(b));
    assert_string_equal(b, "12.35 GFLOP/s");
    clb_format_flops(812.34, b, sizeof(b));
    assert_string_equal(b, "812.3 GFLOP/s");
    clb_format_flops(51200.0, b, sizeof(b));
    assert_string_equal(b, "51.20 TFLOP/s");
    clb_format_seconds(2.5e-7, b, sizeof(b));
    assert_string_equal(b, "250 ns");
    clb_format_seconds(0.0125, b, sizeof(b));
    assert_string_equal(b, "12.50 ms");
}

static void table_aligns_columns(void **state)
{
    static const char *const head[] = { "A", "NUM" };
    static const char *const r1[] = { "long cell", "1" };
    static const char *const r2[] = { "x", "1234" };
    char buf[512] = "";
    FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
    struct clb_table *t = clb_table_create(head, 2);

    (void)state;
    assert_non_null(t);
    clb_table_align_right(t, 1);
    assert_int_equal(clb_table_add(t, r1), 0);
    assert_int_equal(clb_table_add(t, r2), 0);
    clb_table_print(t, f);
    fclose(f);
    clb_table_destroy(t);
    assert_string_equal(buf, "A           NUM\n"
                             "---------  ----\n"
                             "long cell     1\n"
                             "x          1234\n");
}

static void csv_quoting(void **state)
{
    char buf[128] = "";
    FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

    (void)state;
    clb_csv_field(f, "plain");
    fputc('|', f);
    clb_csv_field(f, "a,b");
    fputc('|', f);
    clb_csv_field(f, "say \"hi\"");
    fclose(f);
    assert_string_equal(buf, "plain|\"a,b\"|\"say \"\"hi\"\"\"");
}

static void prop_format_units_and_errors(void **state)
{
    struct clb_prop p = { .applicable = true, .n_num = 1, .num = { 2596 } };
    char b[64];

    (void)state;
    clb_prop_format(&clb_prop_descs[CLB_PROP_MAX_CLOCK_MHZ], &p, b, sizeof(b));
    assert_string_equal(b, "2596 MHz");
    p.num[0] = 1ull << 30;
    clb_prop_format(&clb_prop_descs[CLB_PROP_MAX_ALLOC_BYTES], &p, b, sizeof(b));
    assert_string_equal(b, "1 GiB");
    p.err = CL_INVALID_VALUE;
    clb_prop_format(&clb_prop_descs[CLB_PROP_MAX_ALLOC_BYTES], &p, b, sizeof(b));
    assert_string_equal(b, "unavailable (CL_INVALID_VALUE)");
    p.applicable = false;
    clb_prop_format(&clb_prop_descs[CLB_PROP_NV_WARP_SIZE], &p, b, sizeof(b));
    assert_string_equal(b, "n/a (no cl_nv_device_attribute_query)");
}

static void prop_table_is_complete(void **state)
{
    (void)state;
    for (int i = 0; i < CLB_PROP_COUNT; i++) {
        const struct clb_prop_desc *d = &clb_prop_descs[i];
        if ((int)d->id != i || !d->key || !d->label)
            fail_msg("property %d is not filled in", i);
        for (int j = 0; j < i; j++)
            if (strcmp(clb_prop_descs[j].key, d->key) == 0)
                fail_msg("key %s appears twice", d->key);
        if (!d->read && d->type != CLB_VAL_STRING && d->param_size != 4 && d->param_size != 8)
            fail_msg("%s: numeric property without a size", d->key);
    }
}

static void error_names(void **state)
{
    struct clb_error e;

    (void)state;
    assert_string_equal(clb_cl_errname(CL_OUT_OF_RESOURCES), "CL_OUT_OF_RESOURCES");
    assert_string_equal(clb_cl_errname(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
    assert_string_equal(clb_cl_errname(-12345), "CL_UNKNOWN_ERROR");
    assert_int_equal(clb_cl_check(&e, "clFinish", CL_INVALID_COMMAND_QUEUE),
                     CL_INVALID_COMMAND_QUEUE);
    assert_string_equal(e.msg, "clFinish: CL_INVALID_COMMAND_QUEUE (-36)");
    clb_error_prefix(&e, "device %d", 3);
    assert_string_equal(e.msg, "device 3: clFinish: CL_INVALID_COMMAND_QUEUE (-36)");
    memset(e.msg, 'x', sizeof(e.msg) - 1);
    e.msg[sizeof(e.msg) - 1] = '\0';
    clb_error_prefix(&e, "p");
    assert_int_equal(strlen(e.msg), sizeof(e.msg) - 1);
    assert_memory_equal(e.msg, "p: xx", 5);
}

/* A verified host row of `benchmark` at `value`, held against a limit of 100. */
static struct clb_micro_row *limited_row(struct clb_micro_results *res, const char *benchmark,
                                         const char *case_, const char *metric, double value,
                                         bool derived)
{
    struct clb_micro_row *row = clb_micro_add(res, NULL, benchmark, metric);
    assert_non_null(row);
    snprintf(row->case_, sizeof(row->case_), "%s", case_);
    row->precision = "fp32";
    row->headline = true;
    row->status = CLB_ROW_OK;
    assert_int_equal(clb_micro_push(row, 1.0), 0);
    row->n_times = 1;
    row->value = row->best = row->median = value;
    row->datasheet = (struct clb_datasheet_ref){ .value = 100, .name = "Part X",
                                                 .figure = metric[1] == 'f' ? "fp32_vector"
                                                                            : "memory",
                                                 .source = "its sheet", .parts = 1,
                                                 .derived = derived, .cores = 1,
                                                 .flops_per_cycle = 50, .clock_ghz = 2 };
    return row;
}

/*
 * Every figure above its datasheet or derived limit gets a "^" and the note under the
 * table, and above_limit in JSON; a figure at or below it neither. A cache-resident
 * bandwidth row has no percent and says why.
 */
/* The column (characters into its line, UTF-8) where the line holding `needle` ends; 0 if none. */
static size_t line_end_of(const char *text, const char *needle)
{
    const char *at = strstr(text, needle), *start = at;
    size_t col = 0;

    if (!at)
        return 0;
    while (start > text && start[-1] != '\n')
        start--;
    for (const char *c = start; *c && *c != '\n'; c++)
        col += ((unsigned char)*c & 0xC0) != 0x80;
    return col;
}

static void limits_marked(void **state)
{
    struct clb_micro_results res = { 0 };
    char *text = NULL;
    size_t len = 0;
    (void)state;

    limited_row(&res, "peak", "fp32 x8", "gflops", 150, true);
    limited_row(&res, "bandwidth", "fp32 triad", "gbps", 120, false);
    limited_row(&res, "bandwidth", "fp32 copy", "gbps", 100, false);
    struct clb_micro_row *cached = limited_row(&res, "bandwidth", "fp32 add 64 KiB", "gbps", 300,
                                               false);
    cached->datasheet = (struct clb_datasheet_ref){ 0 };
    cached->datasheet_withheld = cached->cache_resident = true;
    cached->array_bytes = 65536;
    cached->llc_bytes = 1 << 20;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    assert_int_equal(clb_micro_write_table(out, &res, false), 0);
    fclose(out);
    /* The derived peak in a column of its own, the last; the vendors' figures before it. */
    /* No line ends in blanks: a figure in % DATASHEET ends where that header does. */
    const char *hdr = strstr(text, "% DATASHEET  % DERIVED\n");
    const size_t datasheet_end = hdr ? (size_t)(hdr - text) + strlen("% DATASHEET") : 0;
    if (!hdr || !strstr(text, "  150.0% ^\n") || !strstr(text, "  120.0% ^\n") ||
        !strstr(text, "  100.0%\n") || line_end_of(text, "  120.0% ^\n") != datasheet_end ||
        line_end_of(text, "  100.0%\n") != datasheet_end ||
        line_end_of(text, " in cache\n") != datasheet_end || strstr(text, " \n") ||
        strstr(text, "100.0% ^") || !strstr(text, "\n% DERIVED: of the fp32 peak derived for Part X") ||
        !strstr(text, "\n^ above its datasheet figure or derived peak: ") ||
        !strstr(text, "\nin cache: arrays 3 x 64 KiB = 192 KiB <= LLC 1 MiB on host CPU, so no "))
        fail_msg("table:\n%s", text);
    free(text);

    json_t *rows = json_array();
    assert_int_equal(clb_micro_rows_json(&res, rows), 0);
    assert_null(json_object_get(json_array_get(rows, 0), "datasheet"));
    assert_true(json_is_true(json_object_get(json_object_get(json_array_get(rows, 0),
                                                             "derived_peak"),
                                             "above_limit")));
    assert_true(json_is_true(json_object_get(json_object_get(json_array_get(rows, 1), "datasheet"),
                                             "above_limit")));
    assert_true(json_is_false(json_object_get(json_object_get(json_array_get(rows, 2), "datasheet"),
                                              "above_limit")));
    json_t *c = json_array_get(rows, 3);
    assert_null(json_object_get(c, "datasheet"));
    assert_true(json_is_true(json_object_get(c, "cache_resident")));
    assert_string_equal(json_string_value(json_object_get(c, "datasheet_withheld")),
                        "cache-resident: arrays 3 x 64 KiB = 192 KiB <= LLC 1 MiB");
    json_decref(rows);

    /* No figure above its limit: no mark, no note. */
    res.rows[0].value = 99;
    res.rows[1].value = 99;
    text = NULL;
    out = open_memstream(&text, &len);
    assert_int_equal(clb_micro_write_table(out, &res, false), 0);
    fclose(out);
    assert_null(strstr(text, "^"));
    free(text);
    clb_micro_results_finish(&res);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bytes),
        cmocka_unit_test(flops_and_seconds),
        cmocka_unit_test(table_aligns_columns),
        cmocka_unit_test(csv_quoting),
        cmocka_unit_test(prop_format_units_and_errors),
        cmocka_unit_test(prop_table_is_complete),
        cmocka_unit_test(error_names),
        cmocka_unit_test(limits_marked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
