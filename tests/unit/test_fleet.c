/*
 * A fleet run's arithmetic, without MPI: which of a node's devices each rank
 * takes (clb_mpi_pick_devices), and the one document rank 0 makes of every
 * rank's (clb_fleet_merge): rows stamped with who measured them, the fleet's
 * statistics per figure, stragglers flagged both ways (GFLOP/s below the
 * median, latency above it), ranks that sent nothing listed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "clbench/core/types.h"
#include "clbench/mpi/mpi.h"
#include "clbench/results/fleet.h"
#include "clbench/results/resultfile.h"

static void pick(void **state)
{
    size_t idx[8];
    (void)state;
    /* One rank per node: every device. */
    assert_int_equal(clb_mpi_pick_devices(3, 1, 0, idx), 3);
    assert_int_equal(idx[2], 2);
    /* As many ranks as devices: one each. */
    for (int r = 0; r < 4; r++) {
        assert_int_equal(clb_mpi_pick_devices(4, 4, r, idx), 1);
        assert_int_equal(idx[0], (size_t)r);
    }
    /* More devices than ranks: round robin, none twice, none left. */
    assert_int_equal(clb_mpi_pick_devices(5, 2, 0, idx), 3);
    assert_int_equal(idx[0], 0);
    assert_int_equal(idx[1], 2);
    assert_int_equal(idx[2], 4);
    assert_int_equal(clb_mpi_pick_devices(5, 2, 1, idx), 2);
    assert_int_equal(idx[0], 1);
    assert_int_equal(idx[1], 3);
    /* Fewer devices than ranks: they share. */
    assert_int_equal(clb_mpi_pick_devices(2, 3, 2, idx), 1);
    assert_int_equal(idx[0], 0);
    assert_int_equal(clb_mpi_pick_devices(0, 3, 2, idx), 0);
    /* A nonsense local rank is taken as a lone rank. */
    assert_int_equal(clb_mpi_pick_devices(2, 2, 5, idx), 2);
}

/*
 * A rank's document: a GEMM row (GFLOP/s), a latency row (us), a failed row,
 * an OpenBLAS row on its host's CPU and a peak width that is not its best.
 */
static char *doc(const char *host, const char *cpu, double gflops, double us, bool complete)
{
    char *s = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&s, &len);
    fprintf(f,
            "{\"schema\": \"%s\", \"clbench_version\": \"t\", \"created\": \"now\", "
            "\"complete\": %s, \"host\": {\"hostname\": \"%s\", \"cpu\": \"%s\"}, "
            "\"devices\": [{\"id\": \"0:0\", \"name\": \"GPU\"}], \"results\": ["
            "{\"benchmark\": \"gemm\", \"case\": \"fp32 64x64x64\", \"backend\": \"clblast\", "
            "\"precision\": \"fp32\", \"device\": \"0:0\", \"device_name\": \"GPU\", "
            "\"metric\": \"gflops\", \"status\": \"ok\", \"gflops\": %g, \"config\": {\"tuned\": false}},"
            "{\"benchmark\": \"latency\", \"case\": \"round trip\", \"backend\": \"clbench\", "
            "\"device\": \"0:0\", \"device_name\": \"GPU\", \"metric\": \"us\", \"status\": \"ok\", "
            "\"us\": %g, \"config\": {}},"
            "{\"benchmark\": \"gemm\", \"case\": \"fp32 64x64x64\", \"backend\": \"clbench\", "
            "\"precision\": \"fp32\", \"device\": \"0:0\", \"device_name\": \"GPU\", "
            "\"metric\": \"gflops\", \"status\": \"failed\", \"gflops\": 1e9, \"config\": {}},"
            "{\"benchmark\": \"gemm\", \"case\": \"fp32 64x64x64\", \"backend\": \"openblas\", "
            "\"precision\": \"fp32\", \"device\": \"host\", \"device_name\": \"host CPU\", "
            "\"metric\": \"gflops\", \"status\": \"ok\", \"gflops\": %g, \"config\": {}},"
            "{\"benchmark\": \"peak\", \"case\": \"fp32 x4\", \"backend\": \"clbench\", "
            "\"precision\": \"fp32\", \"device\": \"0:0\", \"device_name\": \"GPU\", "
            "\"metric\": \"gflops\", \"status\": \"ok\", \"gflops\": %g, \"headline\": false, "
            "\"config\": {\"width\": 4}}]}",
            CLB_RESULT_SCHEMA, complete ? "true" : "false", host, cpu, gflops, us, gflops, gflops);
    fclose(f);
    return s;
}

static json_t *figure(json_t *merged, const char *benchmark, const char *backend)
{
    size_t i;
    json_t *f;
    json_array_foreach(json_object_get(json_object_get(merged, "fleet"), "figures"), i, f)
        if (!strcmp(json_string_value(json_object_get(f, "benchmark")), benchmark) &&
            !strcmp(json_string_value(json_object_get(f, "backend")), backend))
            return f;
    return NULL;
}

static double num(json_t *o, const char *key)
{
    return json_number_value(json_object_get(o, key));
}

static void merge(void **state)
{
    /* Rank 2 is slow at GEMM, rank 1 slow to launch; rank 3 sent nothing. */
    char *t[4] = { doc("a", "X", 100, 10, true), doc("a", "X", 96, 30, true),
                   doc("b", "Y", 40, 11, true), NULL };
    struct clb_fleet_part parts[4] = { { t[0], strlen(t[0]), 0 }, { t[1], strlen(t[1]), 1 },
                                       { t[2], strlen(t[2]), 0 }, { NULL, 0, 0 } };
    struct clb_error e;
    (void)state;

    json_t *m = clb_fleet_merge(parts, 4, 0.10, &e);
    assert_non_null(m);
    json_t *fleet = json_object_get(m, "fleet"), *rows = json_object_get(m, "results");
    assert_int_equal(json_integer_value(json_object_get(fleet, "ranks")), 4);
    assert_int_equal(json_array_size(rows), 15);
    assert_int_equal(json_array_size(json_object_get(m, "devices")), 3);
    assert_false(json_is_true(json_object_get(m, "complete"))); /* rank 3 is missing */
    assert_int_equal(json_array_size(json_object_get(fleet, "missing")), 1);
    /* Hosts in order of appearance, with their ranks. */
    json_t *hosts = json_object_get(fleet, "hosts");
    assert_int_equal(json_array_size(hosts), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(hosts, 0), "hostname")),
                        "a");
    assert_int_equal(json_array_size(json_object_get(json_array_get(hosts, 0), "ranks")), 2);
    /* Every row says who measured it. */
    json_t *r6 = json_array_get(rows, 6); /* rank 1's latency row */
    assert_string_equal(json_string_value(json_object_get(r6, "host")), "a");
    assert_int_equal(json_integer_value(json_object_get(r6, "rank")), 1);
    assert_int_equal(json_integer_value(json_object_get(r6, "local_rank")), 1);
    assert_int_equal(json_integer_value(json_object_get(r6, "slot")), 0);
    assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 13), "host_cpu")),
                        "Y");

    /* GEMM: sum 236, median 96; 40 < 0.9 x 96 flags rank 2 only. */
    json_t *g = figure(m, "gemm", "clblast");
    assert_int_equal(json_integer_value(json_object_get(g, "ranks")), 3);
    assert_true(num(g, "sum") == 236 && num(g, "min") == 40 && num(g, "max") == 100);
    assert_true(num(g, "median") == 96);
    assert_int_equal(json_array_size(json_object_get(g, "stragglers")), 1);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(g, "stragglers"), 0)), 2);
    assert_true(json_is_true(json_object_get(json_array_get(rows, 10), "straggler")));
    assert_false(json_is_true(json_object_get(json_array_get(rows, 5), "straggler")));
    assert_true(num(json_array_get(rows, 0), "fleet_median") == 96);
    /* Latency: lower is better, 30 > 1.1 x 11 flags rank 1. */
    json_t *l = figure(m, "latency", "clbench");
    assert_true(json_is_true(json_object_get(l, "lower_is_better")));
    assert_true(num(l, "median") == 11);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(l, "stragglers"), 0)), 1);
    assert_int_equal(json_array_size(json_object_get(l, "stragglers")), 1);
    /* A failed row's figure is no figure: no statistics, never a straggler. */
    json_t *f = figure(m, "gemm", "clbench");
    assert_int_equal(json_integer_value(json_object_get(f, "ranks")), 0);
    assert_true(json_is_null(json_object_get(f, "median")));
    assert_null(json_object_get(json_array_get(rows, 2), "fleet_median"));
    /* OpenBLAS on CPU X (ranks 0, 1) and on CPU Y (rank 2): two figures, nobody flagged. */
    size_t i, n_openblas = 0;
    json_t *fig;
    json_array_foreach(json_object_get(fleet, "figures"), i, fig) {
        if (strcmp(json_string_value(json_object_get(fig, "backend")), "openblas"))
            continue;
        n_openblas++;
        assert_int_equal(json_array_size(json_object_get(fig, "stragglers")), 0);
    }
    assert_int_equal(n_openblas, 2);
    /* A peak width that is no rank's best: 40 is far below 96, yet never flagged. */
    json_t *p = figure(m, "peak", "clbench");
    assert_true(num(p, "median") == 96);
    assert_false(json_is_true(json_object_get(p, "headline")));
    assert_int_equal(json_array_size(json_object_get(p, "stragglers")), 0);
    assert_false(json_is_true(json_object_get(json_array_get(rows, 14), "straggler")));
    assert_int_equal(json_integer_value(json_object_get(fleet, "stragglers")), 2);

    /* What rank 0 prints is read back like any result file. */
    char *text = json_dumps(m, 0);
    struct clb_result_file *rf = clb_result_file_parse("merged", text, strlen(text), &e);
    assert_non_null(rf);
    assert_non_null(rf->fleet);
    assert_int_equal(rf->rows[10].rank, 2);
    assert_true(rf->rows[10].straggler);
    assert_true(rf->rows[10].fleet_median == 96);
    assert_string_equal(rf->rows[10].host, "b");
    assert_int_equal(rf->rows[10].slot, 0);
    assert_string_equal(rf->rows[13].host_cpu, "Y");
    clb_result_file_destroy(rf);
    free(text);
    json_decref(m);

    /* Rank 3 present (a copy of rank 0): complete; at 70 % GEMM flags nobody (40 >= 0.3 x 98). */
    parts[3] = (struct clb_fleet_part){ t[0], strlen(t[0]), 1 };
    m = clb_fleet_merge(parts, 4, 0.70, &e);
    assert_non_null(m);
    assert_true(json_is_true(json_object_get(m, "complete")));
    assert_int_equal(json_array_size(json_object_get(figure(m, "gemm", "clblast"), "stragglers")),
                     0);
    json_decref(m);
    for (int i = 0; i < 3; i++)
        free(t[i]);
}

static void rank0_unusable(void **state)
{
    struct clb_fleet_part parts[2] = { { "{\"schema\": \"x\"}", 15, 0 }, { "{}", 2, 0 } };
    struct clb_error e;
    (void)state;
    assert_null(clb_fleet_merge(parts, 2, 0.1, &e));
    assert_non_null(strstr(e.msg, "rank 0"));
    parts[0] = (struct clb_fleet_part){ "not json", 8, 0 };
    assert_null(clb_fleet_merge(parts, 2, 0.1, &e));
    assert_non_null(strstr(e.msg, "not valid JSON"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pick),
        cmocka_unit_test(merge),
        cmocka_unit_test(rank0_unusable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
