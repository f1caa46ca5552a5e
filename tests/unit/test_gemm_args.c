/* The GEMM option values: sizes, shapes, precisions, backends, numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "clbench/cli/gemm_args.h"

static void sizes_lists_and_ranges(void **state)
{
    struct clb_shape_list l = { 0 };
    struct clb_error e;

    (void)state;
    assert_int_equal(clb_opt_sizes("512,1024", &l, &e), 0);
    assert_int_equal(l.n, 2);
    assert_true(l.v[1].m == 1024 && l.v[1].n == 1024 && l.v[1].k == 1024);
    memset(&l, 0, sizeof(l));
    assert_int_equal(clb_opt_sizes("256:4096:x2", &l, &e), 0);
    assert_int_equal(l.n, 5);
    assert_true(l.v[0].m == 256 && l.v[4].m == 4096);
    memset(&l, 0, sizeof(l));
    assert_int_equal(clb_opt_sizes("100:350:100,7", &l, &e), 0);
    assert_int_equal(l.n, 4);
    assert_true(l.v[2].m == 300 && l.v[3].m == 7);
    /* A list given replaces the one there (tune's default): no memset before it. */
    assert_int_equal(clb_opt_sizes("64", &l, &e), 0);
    assert_int_equal(l.n, 1);
    assert_true(l.v[0].m == 64);
}

static void sizes_rejected(void **state)
{
    static const char *const bad[] = { "",       "0",      "abc",     "-1",  "12x",
                                       "512,",   ",512",   "1,,2",    "4:2:x2", "1:8:x1",
                                       "1:8",    "1:8:0",  "1:8:x2:3", "99999999999999999999",
                                       "2147483648", "1:100000:1" };
    struct clb_error e;

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct clb_shape_list l = { 0 };
        e.msg[0] = '\0';
        if (clb_opt_sizes(bad[i], &l, &e) != -1)
            fail_msg("'%s' accepted", bad[i]);
        assert_true(strlen(e.msg) > 0);
    }
}

static void mnk(void **state)
{
    struct clb_shape_list l = { 0 };
    struct clb_error e;
    static const char *const bad[] = { "1,2", "1,2,3,4", "1,0,3", "a,b,c", "1,2,", "", "1,,3" };

    (void)state;
    assert_int_equal(clb_opt_mnk("17,33,9", &l, &e), 0);
    assert_true(l.n == 1 && l.v[0].m == 17 && l.v[0].n == 33 && l.v[0].k == 9);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        memset(&l, 0, sizeof(l));
        if (clb_opt_mnk(bad[i], &l, &e) != -1)
            fail_msg("'%s' accepted", bad[i]);
    }
}

static void precisions(void **state)
{
    struct clb_precision_list l = { 0 };
    struct clb_error e;

    (void)state;
    assert_int_equal(clb_opt_precisions("fp64,fp32,fp64", &l, &e), 0);
    assert_int_equal(l.n, 2);
    assert_int_equal(l.v[0], CLB_FP64);
    assert_int_equal(clb_opt_precisions("all", &l, &e), 0);
    assert_int_equal(l.n, CLB_GEMM_PRECISIONS);
    assert_int_equal(clb_opt_precisions("fp8", &l, &e), -1);
    assert_non_null(strstr(e.msg, "unknown precision 'fp8'"));
    assert_int_equal(clb_opt_precisions("fp32,", &l, &e), -1);
}

static void backends(void **state)
{
    struct clb_backend_list l = { 0 };
    struct clb_error e;

    (void)state;
    assert_int_equal(clb_opt_backends("openblas", &l, &e), 0);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.v[0]->name, "openblas");
    assert_int_equal(clb_opt_backends("all", &l, &e), 0);
    assert_true(l.n >= 2);
    assert_int_equal(clb_opt_backends("cublas", &l, &e), -1);
    assert_non_null(strstr(e.msg, "clblast"));
}

static void numbers(void **state)
{
    struct clb_error e;
    unsigned u;
    double d;

    (void)state;
    assert_int_equal(clb_opt_positive("0", &u, &e), -1);
    assert_int_equal(clb_opt_positive("-1", &u, &e), -1);
    assert_int_equal(clb_opt_positive("5", &u, &e), 0);
    assert_int_equal(u, 5);
    assert_int_equal(clb_opt_uint("0", &u, &e), 0);
    assert_int_equal(clb_opt_seconds("2.5s", &d, &e), 0);
    assert_true(d == 2.5);
    assert_int_equal(clb_opt_seconds("2", &d, &e), 0);
    assert_int_equal(clb_opt_seconds("-2", &d, &e), -1);
    assert_int_equal(clb_opt_seconds("s", &d, &e), -1);
    assert_int_equal(clb_opt_scalar("inf", &d, &e), -1);
    assert_int_equal(clb_opt_scalar("-0.5", &d, &e), 0);
}

/* --trans, --layout, --ld, --offset: each sets its part of the mode and leaves the rest. */
static void modes(void **state)
{
    static const char *const bad_trans[] = { "", "N", "NNN", "TC", "NN ", "1", "T,N" };
    static const char *const bad_layout[] = { "", "rows", "column", "ROW", "col-major" };
    static const char *const bad_count[] = { "", "-1", "+3", "1.5", "0x10", "3 ", "1000001" };
    struct clb_gemm_mode m = { .ld_pad = 7, .offset = 9 };
    struct clb_error e;

    (void)state;
    assert_int_equal(clb_opt_trans("TN", &m, &e), 0);
    assert_true(m.trans_a && !m.trans_b && m.ld_pad == 7 && m.offset == 9);
    assert_int_equal(clb_opt_trans("nt", &m, &e), 0);
    assert_true(!m.trans_a && m.trans_b);
    assert_int_equal(clb_opt_trans("TT", &m, &e), 0);
    assert_true(m.trans_a && m.trans_b);
    assert_int_equal(clb_opt_layout("col", &m, &e), 0);
    assert_true(m.col_major && m.trans_a);
    assert_int_equal(clb_opt_layout("row", &m, &e), 0);
    assert_false(m.col_major);
    assert_int_equal(clb_opt_ld_pad("1000000", &m, &e), 0);
    assert_int_equal(clb_opt_offset("0", &m, &e), 0);
    assert_true(m.ld_pad == 1000000 && m.offset == 0 && m.trans_b);
    assert_int_equal(clb_opt_offset("1000000000", &m, &e), 0);
    assert_int_equal(m.offset, 1000000000);
    for (size_t i = 0; i < sizeof(bad_trans) / sizeof(bad_trans[0]); i++) {
        e.msg[0] = '\0';
        if (clb_opt_trans(bad_trans[i], &m, &e) != -1)
            fail_msg("--trans '%s' accepted", bad_trans[i]);
        assert_non_null(strstr(e.msg, "expected NN, NT, TN or TT"));
    }
    for (size_t i = 0; i < sizeof(bad_layout) / sizeof(bad_layout[0]); i++)
        if (clb_opt_layout(bad_layout[i], &m, &e) != -1)
            fail_msg("--layout '%s' accepted", bad_layout[i]);
    for (size_t i = 0; i < sizeof(bad_count) / sizeof(bad_count[0]); i++)
        if (clb_opt_ld_pad(bad_count[i], &m, &e) != -1)
            fail_msg("--ld '%s' accepted", bad_count[i]);
    assert_int_equal(clb_opt_offset("1000000001", &m, &e), -1);
    assert_int_equal(clb_opt_offset("-5", &m, &e), -1);
    assert_true(m.ld_pad == 1000000 && m.offset == 1000000000 && m.trans_a && !m.col_major);
}

static void code_paths(void **state)
{
    static const char *const bad[] = { "", "GPU", "fpga", "gpu ", "cpu,gpu", "autox" };
    enum clb_code_path c = CLB_CODE_PATH_CPU;
    struct clb_error e;

    (void)state;
    assert_int_equal(clb_opt_code_path("gpu", &c, &e), 0);
    assert_int_equal(c, CLB_CODE_PATH_GPU);
    assert_int_equal(clb_opt_code_path("cpu", &c, &e), 0);
    assert_int_equal(c, CLB_CODE_PATH_CPU);
    assert_int_equal(clb_opt_code_path("auto", &c, &e), 0);
    assert_int_equal(c, CLB_CODE_PATH_AUTO);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        e.msg[0] = '\0';
        if (clb_opt_code_path(bad[i], &c, &e) != -1)
            fail_msg("--code-path '%s' accepted", bad[i]);
        assert_non_null(strstr(e.msg, "expected auto, cpu or gpu"));
        assert_int_equal(c, CLB_CODE_PATH_AUTO); /* untouched */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sizes_lists_and_ranges),
        cmocka_unit_test(sizes_rejected),
        cmocka_unit_test(mnk),
        cmocka_unit_test(precisions),
        cmocka_unit_test(backends),
        cmocka_unit_test(numbers),
        cmocka_unit_test(modes),
        cmocka_unit_test(code_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
