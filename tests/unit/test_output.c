/* Formatting helpers, the text table, CSV quoting and error names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "clbench/cl/device.h"
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
