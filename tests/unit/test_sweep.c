/*
 * Where the caches stop helping in a `bandwidth --sizes` sweep
 * (clbench/results/sweep.h): the middle half of a size's calls, and the
 * verdict from sizes, spreads and the last-level cache, as tables worked by
 * hand. Each verdict case says what comparing medians (the rule before)
 * made of it.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "clbench/results/sweep.h"

#define KIB 1024ull
#define MIB (1024ull * 1024)
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static bool near(double a, double b)
{
    return fabs(a - b) <= 1e-12 * fabs(b);
}

/* The middle half of the calls as GB/s: work over the 75th- and 25th-percentile times. */
static void spread(void **state)
{
    static const struct {
        const char *name;
        double times_s[8];
        size_t n;
        double work, lo, hi; /* bytes per call; GB/s */
    } cases[] = {
        /* sorted 1..5 s: q1 = 2 s, q3 = 4 s; 1e9 bytes a call */
        { "five calls", { 1, 2, 3, 4, 5 }, 5, 1e9, 1.0 / 4, 1.0 / 2 },
        { "in any order", { 5, 1, 4, 2, 3 }, 5, 1e9, 1.0 / 4, 1.0 / 2 },
        /* q1 at 0.75 between 1 and 2: 1.75 s; q3 at 2.25: 3.25 s */
        { "four calls, between them", { 4, 3, 2, 1 }, 4, 1e9, 1 / 3.25, 1 / 1.75 },
        /* q1 1.5 s, q3 2.5 s */
        { "two calls", { 3, 1 }, 2, 1e9, 1 / 2.5, 1 / 1.5 },
        /* One preempted call of five moves neither end; the min-max range would be 0.01-1. */
        { "one slow call", { 1, 1, 100, 1, 1 }, 5, 1e9, 1, 1 },
        /* A late worker: half the calls at 2x the time, the range takes in both. */
        { "bimodal", { 1, 2, 1, 2, 1, 2 }, 6, 3e9, 3.0 / 2, 3.0 / 1 },
    };
    double lo, hi;
    (void)state;

    for (size_t i = 0; i < N_OF(cases); i++) {
        if (!clb_sweep_spread(cases[i].times_s, cases[i].n, cases[i].work, &lo, &hi))
            fail_msg("%s: no spread", cases[i].name);
        if (!near(lo, cases[i].lo) || !near(hi, cases[i].hi))
            fail_msg("%s: %.17g-%.17g GB/s, want %.17g-%.17g", cases[i].name, lo, hi,
                     cases[i].lo, cases[i].hi);
    }
    /* Nothing to weigh: no calls, one call (no spread), no work, a call of no time. */
    const double t[] = { 0, 0, 1 };
    assert_false(clb_sweep_spread(t, 0, 1e9, &lo, &hi));
    assert_false(clb_sweep_spread(t + 2, 1, 1e9, &lo, &hi));
    assert_false(clb_sweep_spread(t + 1, 2, 0, &lo, &hi));
    assert_false(clb_sweep_spread(t, 3, 1e9, &lo, &hi));
    assert_true(lo == 0 && hi == 0);
}

/* One verdict case: the sizes (array bytes, headline GB/s, middle half GB/s) and the LLC. */
struct judge_case {
    const char *name;
    struct clb_sweep_size size[4];
    size_t n;
    uint64_t llc_bytes;
    enum clb_sweep_verdict verdict;
    size_t cached, past; /* SIZE_MAX: not checked */
    const char *text;    /* the whole finding, or NULL */
    const char *has, *lacks; /* or NULL */
};

static const struct judge_case judge_cases[] = {
    /* tests/data/bandwidth-sweep.json's fp32: 1 MiB's calls all beat 16 MiB's, past the LLC.
     * Medians said the same (48.06 >= 1.5 x 17.21): the clear case stays an edge. */
    { "clear edge",
      { { 64 * KIB, 12.5, 12.3, 12.7 }, { MIB, 48.06, 47.5, 49 }, { 16 * MIB, 17.21, 16.5, 18 } },
      3, 32 * MIB, CLB_SWEEP_EDGE, 1, 2,
      "caches help up to 1 MiB arrays (48.06 GB/s; middle half of calls 47.5-49 GB/s) and stop by "
      "16 MiB, past the 32 MiB LLC (17.21 GB/s; 16.5-18 GB/s)", NULL, NULL },
    /* Its fp64: 1 MiB bimodal (a late worker), median 40 >= 1.5 x 19.5, so medians said
     * "caches help up to 1 MiB"; its middle half 15-60 overlaps 16 MiB's 19-20. */
    { "bimodal: medians differ, spreads overlap",
      { { 64 * KIB, 20, 19.5, 20.5 }, { MIB, 40, 15, 60 }, { 16 * MIB, 19.5, 19, 20 } },
      3, 32 * MIB, CLB_SWEEP_NOISE, 1, 2,
      "within noise: 1 MiB arrays, the fastest inside the 32 MiB LLC (40 GB/s; middle half of "
      "calls 15-60 GB/s), overlap 16 MiB past it (19.5 GB/s; 19-20 GB/s)", NULL, NULL },
    /* The audit's run: medians put the drop at 1 MiB (40 < 1.5 x 30 of 256 MiB), "caches help
     * up to 64 KiB ... stop by 1 MiB"; but 3 x 1 MiB fits the 32 MiB LLC: 256 MiB is the
     * first size past the caches, and 1 MiB's calls (35-170) all beat its (29-31). */
    { "a drop inside the LLC is not past the caches",
      { { 64 * KIB, 150, 140, 160 }, { MIB, 40, 35, 170 }, { 256 * MIB, 30, 29, 31 } },
      3, 32 * MIB, CLB_SWEEP_EDGE, 1, 2, NULL, "and stop by 256 MiB, past the 32 MiB LLC",
      "stop by 1 MiB" },
    /* The other run: medians said "up to 16 MiB ... stop by 256 MiB" (70 >= 1.5 x 30), but
     * 3 x 16 MiB = 48 MiB is past a 32 MiB LLC. Rows out of size order. */
    { "a size past the LLC is not cached",
      { { 256 * MIB, 30, 29, 31 }, { 16 * MIB, 70, 60, 80 }, { MIB, 100, 95, 105 } },
      3, 32 * MIB, CLB_SWEEP_EDGE, 2, 1, NULL, "caches help up to 1 MiB arrays", "up to 16 MiB" },
    /* 3 x 1 MiB = 3 MiB fits a 3 MiB LLC exactly (as cache_resident); 2 MiB is past it. */
    { "arrays that fill the LLC exactly are inside it",
      { { MIB, 50, 45, 55 }, { 2 * MIB, 20, 19, 21 } }, 2, 3 * MIB, CLB_SWEEP_EDGE, 0, 1, NULL,
      "caches help up to 1 MiB arrays", NULL },
    /* 1 MiB's calls spread into 16 MiB's, 64 KiB's do not: the edge is the largest size apart
     * (medians: "up to 1 MiB", 60 >= 1.5 x 25). */
    { "the largest size apart",
      { { 16 * MIB, 25, 24, 26 }, { 64 * KIB, 100, 95, 105 }, { MIB, 60, 20, 90 } },
      3, 32 * MIB, CLB_SWEEP_EDGE, 1, 0, NULL,
      "caches help up to 64 KiB arrays (100 GB/s; middle half of calls 95-105 GB/s) and stop by "
      "16 MiB", NULL },
    /* Launch-bound small arrays: every size inside ran apart below the size past the LLC. */
    { "no gain",
      { { 64 * KIB, 5, 4, 6 }, { 16 * MIB, 20, 19, 21 } }, 2, MIB, CLB_SWEEP_NO_GAIN, 0, 1,
      "caches did not help: 64 KiB arrays, the fastest inside the 1 MiB LLC (5 GB/s; middle "
      "half of calls 4-6 GB/s), ran slower than 16 MiB past it (20 GB/s; 19-21 GB/s)", NULL,
      NULL },
    /* One size inside slower, one overlapping: no edge, and not "did not help" either. */
    { "some slower, some overlapping",
      { { 64 * KIB, 5, 4, 6 }, { MIB, 22, 15, 30 }, { 16 * MIB, 20, 19, 21 } }, 3, 4 * MIB,
      CLB_SWEEP_NOISE, 1, 2, NULL, "within noise: 1 MiB arrays", NULL },
    /* Medians said "caches help up to 64 KiB ... stop by 1 MiB"; with no LLC size, nothing. */
    { "LLC unknown",
      { { 64 * KIB, 100, 95, 105 }, { MIB, 20, 19, 21 } }, 2, 0, CLB_SWEEP_NO_LLC, SIZE_MAX,
      SIZE_MAX,
      "not judged: the last-level cache's size is not known, so no size is known to be past "
      "the caches", NULL, NULL },
    /* The same figures, both sizes inside a 32 MiB LLC: none is past the caches. */
    { "every size inside",
      { { 64 * KIB, 100, 95, 105 }, { MIB, 20, 19, 21 } }, 2, 32 * MIB, CLB_SWEEP_NONE_PAST,
      SIZE_MAX, SIZE_MAX,
      "not judged: every size's three arrays fit the 32 MiB LLC, so none is past the caches",
      NULL, NULL },
    { "every size past",
      { { 16 * MIB, 100, 95, 105 }, { 256 * MIB, 20, 19, 21 } }, 2, 32 * MIB,
      CLB_SWEEP_NONE_INSIDE, SIZE_MAX, SIZE_MAX,
      "not judged: no size's three arrays fit the 32 MiB LLC, so none ran from the caches", NULL,
      NULL },
    /* A file with figures but no calls (times_s absent): medians alone decide nothing. */
    { "no calls to weigh",
      { { 64 * KIB, 100, 0, 0 }, { 16 * MIB, 20, 0, 0 } }, 2, 32 * MIB, CLB_SWEEP_NO_CALLS,
      SIZE_MAX, 1, "not judged: 16 MiB arrays have fewer than 2 timed calls, no spread to weigh", NULL, NULL },
    { "a size inside without calls",
      { { 64 * KIB, 100, 0, 0 }, { 16 * MIB, 20, 19, 21 } }, 2, 32 * MIB, CLB_SWEEP_NO_CALLS,
      SIZE_MAX, 0, "not judged: 64 KiB arrays have fewer than 2 timed calls, no spread to weigh", NULL, NULL },
    { "no sizes", { { 0 } }, 0, 32 * MIB, CLB_SWEEP_NONE, SIZE_MAX, SIZE_MAX, "", NULL, NULL },
};

static void judge(void **state)
{
    (void)state;

    for (size_t i = 0; i < N_OF(judge_cases); i++) {
        const struct judge_case *c = &judge_cases[i];
        struct clb_sweep_finding f;
        clb_sweep_judge(c->size, c->n, c->llc_bytes, &f);
        if (f.verdict != c->verdict)
            fail_msg("%s: verdict %d, want %d (%s)", c->name, (int)f.verdict, (int)c->verdict,
                     f.text);
        if ((c->cached != SIZE_MAX && f.cached != c->cached) ||
            (c->past != SIZE_MAX && f.past != c->past))
            fail_msg("%s: cached %zu past %zu, want %zu %zu", c->name, f.cached, f.past,
                     c->cached, c->past);
        if (c->text && strcmp(f.text, c->text))
            fail_msg("%s: '%s', want '%s'", c->name, f.text, c->text);
        if ((c->has && !strstr(f.text, c->has)) || (c->lacks && strstr(f.text, c->lacks)))
            fail_msg("%s: '%s' (want '%s', not '%s')", c->name, f.text, c->has ? c->has : "",
                     c->lacks ? c->lacks : "");
    }
}

/*
 * A sweep read back from a file (one device, fp32 triad rows): the sizes, their calls and
 * the LLC reach the same verdict as the run's, from clb_sweep_spread of the same calls.
 * Rows as JSON with ' for ".
 */
static struct clb_result_file *sweep_doc(const char *rows)
{
    char text[8192];
    struct clb_error e;
    int n = snprintf(text, sizeof(text),
                     "{'schema': 'clbench-result/1', 'clbench_version': '0.1.0', "
                     "'created': '2026-01-01T00:00:00Z', 'complete': true, 'host': {}, "
                     "'devices': [{'id': '0:0', 'name': 'CPU'}], 'results': [%s]}", rows);
    assert_true(n > 0 && (size_t)n < sizeof(text));
    for (char *c = text; *c; c++)
        if (*c == '\'')
            *c = '"';
    struct clb_result_file *f = clb_result_file_parse("sweep", text, strlen(text), &e);
    if (!f)
        fail_msg("%s", e.msg);
    return f;
}

#define TRIAD(size, bytes, gbps, extra)                                                      \
    "{'benchmark': 'bandwidth', 'case': 'fp32 triad " size "', 'metric': 'gbps', "          \
    "'device': '0:0', 'device_name': 'CPU', 'backend': 'clbench', 'status': 'ok', "         \
    "'precision': 'fp32', 'gbps': " gbps ", 'kernel': 'triad', 'work_per_call': " bytes     \
    extra "}"

static void file(void **state)
{
    static const struct {
        const char *name, *rows;
        enum clb_sweep_verdict verdict;
        const char *text;
    } cases[] = {
        /* 1 MiB (3 MiB a call): calls 1, 2, 1 ms, middle half 1-1.5 ms, 3.146-2.097 GB/s;
         * 16 MiB (48 MiB a call): 50, 48, 52 ms, middle half 49-51 ms, 1.027-0.9869 GB/s. */
        { "current: an edge",
          TRIAD("1 MiB", "3145728", "3.145728", ", 'array_bytes': 1048576, 'llc_bytes': "
                "33554432, 'times_s': [0.001, 0.002, 0.001]") ","
          TRIAD("16 MiB", "50331648", "1.006633", ", 'array_bytes': 16777216, 'llc_bytes': "
                "33554432, 'times_s': [0.05, 0.048, 0.052]"),
          CLB_SWEEP_EDGE,
          "caches help up to 1 MiB arrays (3.146 GB/s; middle half of calls 2.097-3.146 GB/s) "
          "and stop by 16 MiB, past the 32 MiB LLC (1.007 GB/s; 0.9869-1.027 GB/s)" },
        /* The LLC written as null: not known. */
        { "llc null",
          TRIAD("1 MiB", "3145728", "3.145728", ", 'array_bytes': 1048576, 'llc_bytes': null, "
                "'times_s': [0.001, 0.001]") ","
          TRIAD("16 MiB", "50331648", "1", ", 'array_bytes': 16777216, 'llc_bytes': null, "
                "'times_s': [0.05, 0.05]"),
          CLB_SWEEP_NO_LLC, NULL },
        /* Written before rows had llc_bytes or array_bytes (the case names the size). */
        { "older file",
          TRIAD("1 MiB", "3145728", "3.145728", ", 'times_s': [0.001, 0.001]") ","
          TRIAD("16 MiB", "50331648", "1", ", 'times_s': [0.05, 0.05]"),
          CLB_SWEEP_NO_LLC, NULL },
        /* No calls kept, or one: no spread. */
        { "no calls, one call",
          TRIAD("1 MiB", "3145728", "3.145728", ", 'array_bytes': 1048576, 'llc_bytes': "
                "33554432") ","
          TRIAD("16 MiB", "50331648", "1", ", 'array_bytes': 16777216, 'llc_bytes': 33554432, "
                "'times_s': [0.05]"),
          CLB_SWEEP_NO_CALLS, "not judged: 16 MiB arrays have fewer than 2 timed calls, no spread to weigh" },
    };
    (void)state;

    for (size_t i = 0; i < N_OF(cases); i++) {
        struct clb_result_file *f = sweep_doc(cases[i].rows);
        struct clb_sweep s;
        clb_sweep_of(f, &f->rows[0], &s);
        assert_int_equal(s.n_triad, 2);
        assert_int_equal(s.n_sizes, 2);
        if (s.finding.verdict != cases[i].verdict)
            fail_msg("%s: verdict %d, want %d (%s)", cases[i].name, (int)s.finding.verdict,
                     (int)cases[i].verdict, s.finding.text);
        if (cases[i].text && strcmp(s.finding.text, cases[i].text))
            fail_msg("%s: '%s', want '%s'", cases[i].name, s.finding.text, cases[i].text);
        /* The run's judge of the same calls says the same. */
        struct clb_sweep_size size[2];
        struct clb_sweep_finding run;
        for (size_t k = 0; k < 2; k++) {
            const struct clb_row *r = s.triad[k];
            size[k] = (struct clb_sweep_size){ .array_bytes = r->array_bytes, .value = r->value };
            clb_sweep_spread(r->times_s, r->time_s.n, r->work, &size[k].lo, &size[k].hi);
        }
        clb_sweep_judge(size, 2, s.triad[0]->llc_bytes, &run);
        assert_string_equal(run.text, s.finding.text);
        clb_result_file_destroy(f);
    }
}

/*
 * Every sweep of a file, found once: one per place and precision in the order their first
 * triad rows appear (a copy row and a single size are no sweep of their own).
 */
static void file_sweeps(void **state)
{
    (void)state;
    struct clb_result_file *f = sweep_doc(
        TRIAD("1 MiB", "3145728", "3.145728", ", 'array_bytes': 1048576, 'llc_bytes': 33554432, "
              "'times_s': [0.001, 0.002, 0.001]") ","
        "{'benchmark': 'bandwidth', 'case': 'fp64 triad 1 MiB', 'metric': 'gbps', "
        "'device': '0:0', 'device_name': 'CPU', 'backend': 'clbench', 'status': 'ok', "
        "'precision': 'fp64', 'gbps': 3, 'kernel': 'triad', 'work_per_call': 3145728, "
        "'array_bytes': 1048576, 'times_s': [0.001, 0.001]},"
        TRIAD("16 MiB", "50331648", "1.006633", ", 'array_bytes': 16777216, 'llc_bytes': "
              "33554432, 'times_s': [0.05, 0.048, 0.052]"));
    struct clb_sweeps sw;

    assert_int_equal(clb_sweeps_of(f, &sw), 0);
    assert_int_equal(sw.n, 2);
    assert_ptr_equal(sw.s[0].triad[0], &f->rows[0]);
    assert_int_equal(sw.s[0].n_sizes, 2);
    assert_int_equal(sw.s[0].finding.verdict, CLB_SWEEP_EDGE);
    assert_ptr_equal(sw.s[1].triad[0], &f->rows[1]);
    assert_int_equal(sw.s[1].n_sizes, 1);
    clb_sweeps_finish(&sw);
    clb_sweeps_finish(&sw);
    clb_result_file_destroy(f);
}

/*
 * A run's triad points, grouped by device and precision in the order they first appear,
 * each judged against its first point's LLC as clb_sweep_judge judges its sizes.
 */
static void points(void **state)
{
    static const double fast[] = { 0.001, 0.002, 0.001 }, slow[] = { 0.05, 0.048, 0.052 };
    static const int dev_a = 0, dev_b = 0;
    const struct clb_sweep_point p[] = {
        { &dev_a, CLB_FP32, 1 << 20, 32 << 20, 3.145728, 3145728, fast, 3 },
        { &dev_b, CLB_FP32, 1 << 20, 0, 3.145728, 3145728, fast, 3 },
        { &dev_a, CLB_FP64, 1 << 20, 32 << 20, 3.145728, 3145728, fast, 3 },
        { &dev_a, CLB_FP32, 16 << 20, 32 << 20, 1.006633, 50331648, slow, 3 },
        { &dev_b, CLB_FP32, 16 << 20, 0, 1.006633, 50331648, slow, 3 },
    };
    struct clb_sweep_groups g;
    struct clb_sweep_size size[2];
    struct clb_sweep_finding want;
    (void)state;

    assert_int_equal(clb_sweep_group_points(p, N_OF(p), &g), 0);
    assert_int_equal(g.n, 3);
    assert_int_equal(g.g[0].first, 0);
    assert_ptr_equal(g.g[0].place, &dev_a);
    assert_int_equal(g.g[0].precision, CLB_FP32);
    assert_int_equal(g.g[0].n_sizes, 2);
    assert_int_equal(g.g[1].first, 1);
    assert_int_equal(g.g[1].finding.verdict, CLB_SWEEP_NO_LLC);
    assert_int_equal(g.g[2].first, 2);
    assert_int_equal(g.g[2].n_sizes, 1);
    for (size_t k = 0; k < 2; k++) {
        const struct clb_sweep_point *q = &p[k ? 3 : 0];
        size[k] = (struct clb_sweep_size){ .array_bytes = q->array_bytes, .value = q->value };
        clb_sweep_spread(q->times_s, q->n_times, q->work, &size[k].lo, &size[k].hi);
    }
    clb_sweep_judge(size, 2, 32 << 20, &want);
    assert_int_equal(g.g[0].finding.verdict, CLB_SWEEP_EDGE);
    assert_string_equal(g.g[0].finding.text, want.text);
    clb_sweep_groups_finish(&g);
    assert_int_equal(clb_sweep_group_points(p, 0, &g), 0);
    assert_int_equal(g.n, 0);
    clb_sweep_groups_finish(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spread),
        cmocka_unit_test(judge),
        cmocka_unit_test(file),
        cmocka_unit_test(file_sweeps),
        cmocka_unit_test(points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
