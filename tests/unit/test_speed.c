/*
 * What `fit --from` takes from a result file (clbench/results/speed.h):
 * tests/data/fit-from-llama.json holds one device's Llama 2 7B prefill GEMMs,
 * each timed at 100 GFLOP/s, and a triad of 100 GB/s; a layer's rate is its
 * GEMMs together, weighted by how many of each a layer does. Read with the
 * reader every command uses, then changed in memory to test the weighting.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "clbench/results/speed.h"

static const char *path;

static void from_file(void **state)
{
    struct clb_error e;
    struct clb_device_speed s[8];
    (void)state;

    struct clb_result_file *f = clb_result_file_load(path, &e);
    if (!f)
        fail_msg("%s", e.msg);
    size_t n = clb_result_speeds(f, CLB_PRECISION_NONE, s, 8);
    assert_int_equal(n, 1);
    assert_string_equal(s[0].backend, "clbench");
    assert_int_equal(s[0].precision, CLB_FP32);
    assert_int_equal(s[0].prefill_roles, 4);
    assert_true(s[0].prefill_gflops > 100 - 1e-9 && s[0].prefill_gflops < 100 + 1e-9);
    assert_true(s[0].bandwidth_gbps == 100);
    assert_int_equal(s[0].rank, -1);

    /* The up/gate GEMM twice as slow: the layer's rate is its work over its time, 2x counted. */
    double w = 0, t = 0;
    for (size_t i = 0; i < f->n_rows; i++) {
        struct clb_row *r = &f->rows[i];
        if (!r->role.role)
            continue;
        if (!strcmp(r->role.role, "mlp up/gate"))
            r->median_s *= 2;
        w += r->role.per_layer * 2.0 * (double)r->shape.m * (double)r->shape.n * (double)r->shape.k;
        t += r->role.per_layer * r->median_s;
    }
    n = clb_result_speeds(f, CLB_PRECISION_NONE, s, 8);
    assert_true(s[0].prefill_gflops < 100 && fabs(s[0].prefill_gflops - w / t * 1e-9) < 1e-9);
    /* A failed row is no figure: without it, part of a layer. */
    for (size_t i = 0; i < f->n_rows; i++)
        if (f->rows[i].role.role && !strcmp(f->rows[i].role.role, "qkv"))
            f->rows[i].has_value = false;
    n = clb_result_speeds(f, CLB_PRECISION_NONE, s, 8);
    assert_int_equal(s[0].prefill_roles, 3);
    /* Two precisions of part of a layer each: the one asked for wins, even when slower. */
    for (size_t i = 0; i < f->n_rows; i++)
        if (f->rows[i].role.role && (!strcmp(f->rows[i].role.role, "mlp up/gate") ||
                                !strcmp(f->rows[i].role.role, "mlp down"))) {
            f->rows[i].precision_name = "fp16";
            f->rows[i].precision = CLB_FP16;
            f->rows[i].median_s /= 4;
        }
    n = clb_result_speeds(f, CLB_FP32, s, 8);
    assert_int_equal(s[0].precision, CLB_FP32);
    assert_int_equal(s[0].prefill_roles, 1); /* qkv failed above: attention out alone */
    n = clb_result_speeds(f, CLB_FP16, s, 8);
    assert_int_equal(s[0].precision, CLB_FP16);
    assert_int_equal(s[0].prefill_roles, 2);
    /* None asked: more roles first. An absent precision: any. */
    n = clb_result_speeds(f, CLB_PRECISION_NONE, s, 8);
    assert_int_equal(s[0].precision, CLB_FP16);
    n = clb_result_speeds(f, CLB_FP64, s, 8);
    assert_int_equal(s[0].precision, CLB_FP16);
    /* No room: nothing written past cap. */
    assert_int_equal(clb_result_speeds(f, CLB_PRECISION_NONE, s, 0), 0);
    clb_result_file_destroy(f);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(from_file),
    };
    if (argc != 2) {
        fprintf(stderr, "usage: %s tests/data/fit-from-llama.json\n", argv[0]);
        return 2;
    }
    path = argv[1];
    return cmocka_run_group_tests(tests, NULL, NULL);
}
