/*
 * A fleet run's arithmetic, without MPI: which of a node's devices each rank
 * takes (clb_mpi_pick_devices), and the one document rank 0 makes of every
 * rank's (clb_fleet_merge): rows stamped with who measured them, the fleet's
 * statistics per figure, stragglers flagged both ways (GFLOP/s below the
 * median, latency above it) and only where the ranks' calls can tell them
 * from noise, ranks that sent nothing listed; and the link through which a
 * rank's signal stops the others.
 */
#include <setjmp.h>
#include <signal.h>
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
#include "clbench/output/fleet.h"
#include "clbench/results/fleet.h"
#include "clbench/results/resultfile.h"
#include "clbench/util/interrupt.h"

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
 * an OpenBLAS row on its host's CPU and a peak width that is not its best;
 * every row's timed calls are times (a JSON array, s).
 */
static char *doc_timed(const char *host, const char *cpu, double gflops, double us,
                       bool complete, const char *times)
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
            "\"metric\": \"gflops\", \"status\": \"ok\", \"gflops\": %g, \"times_s\": %s, "
            "\"config\": {\"tuned\": false}},"
            "{\"benchmark\": \"latency\", \"case\": \"round trip\", \"backend\": \"clbench\", "
            "\"device\": \"0:0\", \"device_name\": \"GPU\", \"metric\": \"us\", \"status\": \"ok\", "
            "\"us\": %g, \"times_s\": %s, \"config\": {}},"
            "{\"benchmark\": \"gemm\", \"case\": \"fp32 64x64x64\", \"backend\": \"clbench\", "
            "\"precision\": \"fp32\", \"device\": \"0:0\", \"device_name\": \"GPU\", "
            "\"metric\": \"gflops\", \"status\": \"failed\", \"gflops\": 1e9, \"config\": {}},"
            "{\"benchmark\": \"gemm\", \"case\": \"fp32 64x64x64\", \"backend\": \"openblas\", "
            "\"precision\": \"fp32\", \"device\": \"host\", \"device_name\": \"host CPU\", "
            "\"metric\": \"gflops\", \"status\": \"ok\", \"gflops\": %g, \"times_s\": %s, "
            "\"config\": {}},"
            "{\"benchmark\": \"peak\", \"case\": \"fp32 x4\", \"backend\": \"clbench\", "
            "\"precision\": \"fp32\", \"device\": \"0:0\", \"device_name\": \"GPU\", "
            "\"metric\": \"gflops\", \"status\": \"ok\", \"gflops\": %g, \"headline\": false, "
            "\"config\": {\"width\": 4}}]}",
            CLB_RESULT_SCHEMA, complete ? "true" : "false", host, cpu, gflops, times, us, times,
            gflops, times, gflops);
    fclose(f);
    return s;
}

/* Calls of 10 ms within 5 %: enough, and steady enough, to judge. */
static char *doc(const char *host, const char *cpu, double gflops, double us, bool complete)
{
    return doc_timed(host, cpu, gflops, us, complete, "[0.0095, 0.01, 0.0105]");
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
    /* Read once for the writers: the figures in order of appearance, the fleet object typed. */
    struct clb_fleet_figures figs;
    assert_int_equal(clb_fleet_figures_read(rf, &figs), 0);
    assert_ptr_equal(figs.file, rf);
    assert_int_equal(figs.world_ranks, 4);
    assert_int_equal(figs.n_ranks, 3);
    assert_true(figs.threshold == 0.10);
    assert_int_equal(figs.judge_min_calls, CLB_FLEET_JUDGE_MIN_CALLS);
    assert_true(figs.judge_min_s == CLB_FLEET_JUDGE_MIN_S);
    assert_int_equal(figs.n_stragglers, 2);
    assert_int_equal(figs.n_unjudged, 0);
    assert_int_equal(figs.n_hosts, 2);
    assert_string_equal(figs.hosts[0].hostname, "a");
    assert_int_equal(figs.hosts[0].n_ranks, 2);
    assert_int_equal(figs.hosts[0].ranks[1], 1);
    assert_string_equal(figs.hosts[1].hostname, "b");
    assert_int_equal(figs.hosts[1].ranks[0], 2);
    assert_int_equal(figs.n_rank_hosts, 2); /* the rows' ranks by host */
    assert_string_equal(figs.rank_hosts[0].hostname, "a");
    assert_int_equal(figs.rank_hosts[0].n_ranks, 2);
    assert_int_equal(figs.rank_hosts[0].ranks[1], 1);
    assert_int_equal(figs.rank_hosts[1].ranks[0], 2);
    assert_int_equal(figs.n_missing, 1);
    assert_int_equal(figs.missing[0].rank, 3);
    assert_non_null(figs.missing[0].why);
    /* gemm clblast, latency, gemm clbench, OpenBLAS on X, peak, OpenBLAS on Y. */
    assert_int_equal(figs.n, 6);
    const struct clb_fleet_figure *g0 = &figs.figs[0];
    assert_string_equal(g0->first->backend, "clblast");
    assert_int_equal(g0->n_rows, 3);
    assert_int_equal(g0->n_values, 3);
    assert_int_equal(g0->n_stragglers, 1);
    assert_true(g0->sum == 236 && g0->median == 96 && g0->headline && g0->lead);
    for (size_t k = 1; k < g0->n_rows; k++)
        assert_true(g0->rows[k - 1]->rank < g0->rows[k]->rank);
    assert_int_equal(figs.figs[2].n_unmeasured, 3);
    assert_false(figs.figs[4].headline); /* the peak width that is no rank's best */
    assert_false(figs.figs[4].lead);
    assert_int_equal(figs.figs[3].n_rows, 2);
    assert_string_equal(figs.figs[5].first->host_cpu, "Y");
    clb_fleet_figures_finish(&figs);
    clb_fleet_figures_finish(&figs); /* finishing twice is harmless */
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

/*
 * Ranks 0 and 1 at 100 GFLOP/s and 10 us with steady calls; rank 2 at 80 and
 * 12.5, beyond the 10 % threshold on three figures, with calls times2.
 * Returns the merged file read back (the caller destroys it), its
 * not-judged count in *unjudged.
 */
static struct clb_result_file *noisy_fleet(const char *times01, const char *times2,
                                           json_int_t *unjudged, json_int_t *stragglers)
{
    char *t[3] = { doc_timed("a", "X", 100, 10, true, times01),
                   doc_timed("a", "X", 100, 10, true, times01),
                   doc_timed("b", "X", 80, 12.5, true, times2) };
    struct clb_fleet_part parts[3];
    struct clb_error e;

    for (int i = 0; i < 3; i++)
        parts[i] = (struct clb_fleet_part){ t[i], strlen(t[i]), i < 2 ? i : 0 };
    json_t *m = clb_fleet_merge(parts, 3, 0.10, &e);
    assert_non_null(m);
    json_t *fleet = json_object_get(m, "fleet");
    *unjudged = json_integer_value(json_object_get(fleet, "not_judged"));
    *stragglers = json_integer_value(json_object_get(fleet, "stragglers"));
    assert_int_equal(json_integer_value(json_object_get(json_object_get(fleet, "judged_when"),
                                                        "calls")), CLB_FLEET_JUDGE_MIN_CALLS);
    /* A figure's ranks are listed as one or the other, never both. */
    size_t i;
    json_t *fig;
    json_array_foreach(json_object_get(fleet, "figures"), i, fig)
        assert_true(json_array_size(json_object_get(fig, "stragglers")) == 0 ||
                    json_array_size(json_object_get(fig, "not_judged")) == 0);
    char *text = json_dumps(m, 0);
    struct clb_result_file *rf = clb_result_file_parse("merged", text, strlen(text), &e);
    assert_non_null(rf);
    free(text);
    json_decref(m);
    for (int k = 0; k < 3; k++)
        free(t[k]);
    return rf;
}

/* Rank 2's rows of rf (GEMM clblast, latency, OpenBLAS; the peak width is no headline). */
static void assert_rank2(const struct clb_result_file *rf, bool straggler, bool judged)
{
    size_t n = 0;
    for (size_t i = 0; i < rf->n_rows; i++) {
        const struct clb_row *r = &rf->rows[i];
        if (r->rank != 2 || !r->has_value)
            continue;
        n++;
        const bool headline = r->benchmark != CLB_BENCH_PEAK;
        assert_true(r->straggler == (headline && straggler));
        assert_true(r->judged == (!headline || judged));
    }
    assert_int_equal(n, 4);
}

static void noise(void **state)
{
    const char *steady = "[0.0095, 0.01, 0.0105]";
    json_int_t unjudged, stragglers;
    struct clb_result_file *rf;
    (void)state;

    /* Every rank's calls 30 % either side: 80 is within the others' spread. */
    rf = noisy_fleet("[0.007, 0.01, 0.013]", "[0.007, 0.01, 0.013]", &unjudged, &stragglers);
    assert_rank2(rf, false, false);
    assert_int_equal(unjudged, 3);
    assert_int_equal(stragglers, 0);
    /* The table says so: the rows, the figures' column and the count. */
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    struct clb_fleet_figures figs;
    assert_int_equal(clb_fleet_figures_read(rf, &figs), 0);
    assert_int_equal(clb_fleet_write(f, CLB_FORMAT_TABLE, &figs), 0);
    fclose(f);
    clb_fleet_figures_finish(&figs);
    assert_non_null(strstr(out, " ok  not judged\n"));
    assert_null(strstr(out, "STRAGGLER\n"));
    assert_non_null(strstr(out, "b rank 2\n"));
    assert_non_null(strstr(out, "\n3 rows beyond it are not judged"));
    assert_non_null(strstr(out, "SUM adds the ranks' figures of one step, not of one instant"));
    free(out);
    clb_result_file_destroy(rf);
    /* Only rank 2 noisy: still worse than the others' slowest call at its fastest one. */
    rf = noisy_fleet(steady, "[0.009, 0.01, 0.02]", &unjudged, &stragglers);
    assert_rank2(rf, true, true);
    assert_int_equal(stragglers, 3);
    assert_int_equal(unjudged, 0);
    clb_result_file_destroy(rf);
    /* Its fastest call reaching the others' slowest: not judged. */
    rf = noisy_fleet(steady, "[0.0076, 0.01, 0.02]", &unjudged, &stragglers);
    assert_rank2(rf, false, false);
    clb_result_file_destroy(rf);
    /* Steady but a moment: 3 calls of 3 ms (9 ms) are not judged, of 4.5 ms (13.5 ms) are. */
    rf = noisy_fleet(steady, "[0.003, 0.003, 0.003]", &unjudged, &stragglers);
    assert_rank2(rf, false, false);
    clb_result_file_destroy(rf);
    rf = noisy_fleet(steady, "[0.0045, 0.0045, 0.0045]", &unjudged, &stragglers);
    assert_rank2(rf, true, true);
    clb_result_file_destroy(rf);
    /* Two calls, however long, or none: not judged. */
    rf = noisy_fleet(steady, "[0.02, 0.02]", &unjudged, &stragglers);
    assert_rank2(rf, false, false);
    clb_result_file_destroy(rf);
    rf = noisy_fleet(steady, "[]", &unjudged, &stragglers);
    assert_rank2(rf, false, false);
    clb_result_file_destroy(rf);
    /* The others' calls too few to say their spread: nothing to hold rank 2 against; */
    rf = noisy_fleet("[0.01, 0.01]", steady, &unjudged, &stragglers);
    assert_rank2(rf, false, false);
    clb_result_file_destroy(rf);
    /* short but enough: their slowest call is the worst they saw. */
    rf = noisy_fleet("[0.0009, 0.001, 0.0011]", steady, &unjudged, &stragglers);
    assert_rank2(rf, true, true);
    clb_result_file_destroy(rf);
}

/* A file that says a row is a straggler yet not judged, or judged as no boolean, is refused. */
static void judged_read(void **state)
{
    static const char *const bad[] = {
        "\"straggler\": true, \"judged\": false",
        "\"straggler\": false, \"judged\": 1",
    };
    struct clb_error e;
    (void)state;
    for (size_t i = 0; i < 2; i++) {
        char text[1024];
        snprintf(text, sizeof(text),
                 "{\"schema\": \"%s\", \"clbench_version\": \"t\", \"created\": \"now\", "
                 "\"complete\": true, \"host\": {}, \"devices\": [], \"results\": [{\"benchmark\": \"gemm\", "
                 "\"case\": \"c\", \"backend\": \"clblast\", \"device\": \"0:0\", "
                 "\"device_name\": \"GPU\", \"metric\": \"gflops\", \"status\": \"ok\", "
                 "\"gflops\": 1, \"host\": \"a\", \"rank\": 0, \"local_rank\": 0, %s}]}",
                 CLB_RESULT_SCHEMA, bad[i]);
        assert_null(clb_result_file_parse("f", text, strlen(text), &e));
        if (!strstr(e.msg, "judged"))
            fail_msg("%s", e.msg);
    }
}

/* The fleet's link, as src/mpi/mpi.c's: what it was told, what it says another rank got. */
static int link_told = -1, link_other;
static int fake_link(int received)
{
    link_told = received;
    return link_other;
}

static void interrupt_link(void **state)
{
    (void)state;
    clb_interrupt_install();
    clb_interrupt_link(fake_link);
    assert_false(clb_interrupted());
    assert_int_equal(link_told, 0);
    /* Another rank was stopped: this one stops too, by that rank's signal. */
    link_other = SIGTERM;
    assert_true(clb_interrupted());
    assert_int_equal(clb_interrupt_signal(), SIGTERM);
    /* That is no signal here: this process's own is still its first (not "now"), and the
     * link hears of it. */
    raise(SIGINT);
    assert_true(clb_interrupted());
    assert_int_equal(link_told, SIGINT);
    assert_int_equal(clb_interrupt_signal(), SIGINT);
    clb_interrupt_link(NULL);
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
        cmocka_unit_test(noise),
        cmocka_unit_test(judged_read),
        cmocka_unit_test(interrupt_link),
        cmocka_unit_test(rank0_unusable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
