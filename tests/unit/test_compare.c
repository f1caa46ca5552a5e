/* compare's matching, ratios and regression rule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>
#include <cmocka.h>

#include "clbench/cli/args.h"
#include "clbench/results/compare.h"

static void regression_rule(void **state)
{
    (void)state;
    assert_false(clb_compare_regressed("gflops", 0.96, 0.05));
    assert_true(clb_compare_regressed("gflops", 0.94, 0.05));
    assert_false(clb_compare_regressed("gflops", 2.0, 0.05));
    /* Latency: lower is better, so a larger ratio is the regression. */
    assert_true(clb_compare_regressed("us", 1.06, 0.05));
    assert_false(clb_compare_regressed("us", 0.5, 0.05));
    assert_false(clb_compare_regressed("gflops", 0.1, 0.0)); /* no threshold: never */
}

static void device_matching(void **state)
{
    struct clb_pair_list pairs = { 0 };
    struct clb_error e;

    (void)state;
    assert_true(clb_devices_match("NVIDIA H200", "NVIDIA H200", NULL));
    assert_false(clb_devices_match("NVIDIA H200", "NVIDIA H100", NULL));
    assert_int_equal(clb_opt_pairs("h200=h100,iris=a100", &pairs, &e), 0);
    assert_int_equal(pairs.n, 2);
    assert_true(clb_devices_match("NVIDIA H200", "NVIDIA H100 80GB", &pairs));
    assert_true(clb_devices_match("Intel Iris Xe", "A100-SXM4", &pairs));
    assert_false(clb_devices_match("NVIDIA H100", "NVIDIA H200", &pairs)); /* ordered */
    assert_int_equal(clb_opt_pairs("a=", &pairs, &e), -1);
    assert_int_equal(clb_opt_pairs("=b", &pairs, &e), -1);
    assert_int_equal(clb_opt_pairs("ab", &pairs, &e), -1);
}

static void percent(void **state)
{
    double v;
    struct clb_error e;

    (void)state;
    assert_int_equal(clb_opt_percent("5%", &v, &e), 0);
    assert_true(fabs(v - 0.05) < 1e-12);
    assert_int_equal(clb_opt_percent("12.5", &v, &e), 0);
    assert_true(fabs(v - 0.125) < 1e-12);
    assert_int_equal(clb_opt_percent("%", &v, &e), -1);
    assert_int_equal(clb_opt_percent("-1%", &v, &e), -1);
    assert_int_equal(clb_opt_percent("101%", &v, &e), -1);
}

/*
 * A result document around `results` (JSON with ' for "), with the options
 * and libraries a GEMM run writes.
 */
static struct clb_result_file *parse_doc(const char *name, const char *libraries,
                                         const char *results, struct clb_error *e)
{
    char text[8192];
    int n = snprintf(text, sizeof(text),
                     "{'schema': 'clbench-result/1', 'clbench_version': '0.1.0', "
                     "'created': '2026-01-01T00:00:00Z', 'complete': true, 'host': {}, "
                     "'devices': [{'id': '0:0', 'name': 'GPU', 'driver_version': '1.0'}], "
                     "'options': {'runs': 3, 'alpha': 1, 'beta': 0.0, 'transfers': false}, "
                     "'libraries': {%s}, 'results': [%s]}",
                     libraries, results);
    assert_true(n > 0 && (size_t)n < sizeof(text));
    for (char *c = text; *c; c++)
        if (*c == '\'')
            *c = '"';
    return clb_result_file_parse(name, text, strlen(text), e);
}

static struct clb_result_file *doc(const char *name, const char *libraries, const char *results)
{
    struct clb_error e;
    struct clb_result_file *f = parse_doc(name, libraries, results, &e);
    if (!f)
        fail_msg("%s", e.msg);
    return f;
}

#define OPENBLAS(threads, core) \
    "'openblas': {'library': 'OpenBLAS', 'version': '0.3.21', 'core': '" core "', " \
    "'threads': " #threads "}"
static const char *host_row(const char *status, double gflops, char *buf, size_t len)
{
    snprintf(buf, len,
             "{'benchmark': 'gemm', 'case': 'fp32 64x64x64', 'metric': 'gflops', "
             "'device': 'host', 'device_name': 'host CPU', 'backend': 'openblas', "
             "'baseline': true, 'status': '%s', 'gflops': %g}",
             status, gflops);
    return buf;
}

static const char *dev_row(const char *backend, const char *extra, const char *status,
                           double gflops, char *buf, size_t len)
{
    snprintf(buf, len,
             "{'benchmark': 'gemm', 'case': 'fp32 64x64x64', 'metric': 'gflops', "
             "'device': '0:0', 'device_name': 'GPU', 'backend': '%s', %s "
             "'status': '%s', 'gflops': %g}",
             backend, extra, status, gflops);
    return buf;
}

static const char *micro_row(const char *benchmark, const char *case_, const char *metric,
                             const char *extra, double value, char *buf, size_t len)
{
    snprintf(buf, len,
             "{'benchmark': '%s', 'case': '%s', 'metric': '%s', 'device': '0:0', "
             "'device_name': 'GPU', 'backend': 'clbench', %s 'status': 'ok', '%s': %g}",
             benchmark, case_, metric, extra, metric, value);
    return buf;
}

static bool config_is(const struct clb_row *r, const char *want)
{
    char text[512];
    snprintf(text, sizeof(text), "%s", want);
    for (char *c = text; *c; c++)
        if (*c == '\'')
            *c = '"';
    json_t *w = json_loads(text, 0, NULL);
    bool eq = clb_config_equal(r->config, w);
    if (!eq) {
        char *got = json_dumps(r->config, JSON_COMPACT | JSON_SORT_KEYS);
        print_error("config %s, expected %s\n", got, text);
        free(got);
    }
    json_decref(w);
    return eq;
}

static void config_equality(void **state)
{
    json_t *a = json_loads("{\"alpha\": 1, \"tuned\": false}", 0, NULL);
    json_t *b = json_loads("{\"tuned\": false, \"alpha\": 1.0}", 0, NULL);
    json_t *c = json_loads("{\"alpha\": 1.0, \"tuned\": false, \"threads\": 2}", 0, NULL);
    struct clb_config_diff d[4];

    (void)state;
    assert_true(clb_config_equal(a, b)); /* 1 and 1.0: a file that went through jq */
    assert_false(clb_config_equal(a, c));
    assert_false(clb_config_equal(a, NULL));
    assert_true(clb_config_equal(NULL, NULL));
    assert_int_equal(clb_config_diff(a, c, d, 4), 1);
    assert_string_equal(d[0].key, "threads");
    assert_null(d[0].first);
    assert_int_equal(json_integer_value(d[0].other), 2);
    json_decref(a);
    json_decref(b);
    json_decref(c);
}

/* Files without "config" get one derived from the row and the document. */
static void config_derived(void **state)
{
    char r[5][512], rows[2600];

    (void)state;
    snprintf(rows, sizeof(rows), "%s, %s, %s, %s, %s", host_row("ok", 100, r[0], 512),
             dev_row("clblast", "'tuned': true,", "ok", 10, r[1], 512),
             micro_row("peak", "fp32 x8", "gflops", "'width': 8, 'headline': true,", 50, r[2], 512),
             micro_row("bandwidth", "triad", "gbps", "'work_per_call': 3145728,", 20, r[3], 512),
             micro_row("latency", "round trip", "us", "", 30, r[4], 512));
    struct clb_result_file *f = doc("a.json", OPENBLAS(2, "Haswell"), rows);
    assert_true(config_is(&f->rows[0], "{'tuned': false, 'alpha': 1, 'beta': 0, "
                                       "'transfers': false, 'threads': 2, "
                                       "'blas_core': 'Haswell'}"));
    assert_true(config_is(&f->rows[1], "{'tuned': true, 'alpha': 1, 'beta': 0, "
                                       "'transfers': false}"));
    assert_true(config_is(&f->rows[2], "{'width': 8}"));
    assert_true(config_is(&f->rows[3], "{'bytes_per_call': 3145728}"));
    assert_true(config_is(&f->rows[4], "{}"));
    clb_result_file_destroy(f);
}

/* A written config and the one derived from the same file without it pair. */
static void config_written_matches_derived(void **state)
{
    char r[2][512], rows[1100];
    struct clb_comparison c;
    struct clb_error e;

    (void)state;
    snprintf(rows, sizeof(rows), "%s, %s", host_row("ok", 100, r[0], 512),
             dev_row("clblast", "'tuned': false,", "ok", 10, r[1], 512));
    struct clb_result_file *plain = doc("plain.json", OPENBLAS(2, "Haswell"), rows);
    snprintf(rows, sizeof(rows), "%s, %s",
             host_row("ok", 100, r[0], 512),
             dev_row("clblast", "'tuned': false, 'config': {'tuned': false, 'alpha': 1.0, "
                     "'beta': 0.0, 'transfers': false},", "ok", 10, r[1], 512));
    /* The host row's config as gemm.c writes it, spliced in after "baseline". */
    char *at = strstr(rows, "'baseline': true,");
    char host[1300];
    snprintf(host, sizeof(host), "%.*s'baseline': true, 'config': {'tuned': false, "
             "'alpha': 1.0, 'beta': 0.0, 'transfers': false, 'threads': 2, "
             "'blas_core': 'Haswell'},%s", (int)(at - rows), rows,
             at + strlen("'baseline': true,"));
    struct clb_result_file *written = doc("written.json", OPENBLAS(2, "Haswell"), host);
    struct clb_result_file *files[2] = { plain, written };

    assert_int_equal(clb_compare(files, 2, NULL, 0, &c, &e), 0);
    assert_int_equal(c.n_rows, 2);
    assert_int_equal(c.n_unpaired, 0);
    clb_comparison_finish(&c);
    files[0] = written;
    files[1] = plain;
    assert_int_equal(clb_compare(files, 2, NULL, 0, &c, &e), 0);
    assert_int_equal(c.n_rows, 2);
    assert_int_equal(c.n_unpaired, 0);
    clb_comparison_finish(&c);
    clb_result_file_destroy(plain);
    clb_result_file_destroy(written);
}

/* OpenBLAS with other threads and core, CLBlast tuned: not the same measurements. */
static void config_pairing(void **state)
{
    char r[3][512], rows[1700];
    struct clb_comparison c;
    struct clb_error e;

    (void)state;
    snprintf(rows, sizeof(rows), "%s, %s, %s", host_row("ok", 100, r[0], 512),
             dev_row("clblast", "", "ok", 10, r[1], 512),
             dev_row("clbench", "", "ok", 20, r[2], 512));
    struct clb_result_file *a = doc("a.json", OPENBLAS(2, "Cooperlake"), rows);
    snprintf(rows, sizeof(rows), "%s, %s, %s", host_row("ok", 90, r[0], 512),
             dev_row("clblast", "'tuned': true,", "ok", 40, r[1], 512),
             dev_row("clbench", "", "ok", 22, r[2], 512));
    struct clb_result_file *b = doc("b.json", OPENBLAS(1, "Prescott"), rows);
    struct clb_result_file *files[2] = { a, b };

    assert_int_equal(clb_compare(files, 2, NULL, 0.05, &c, &e), 0);
    assert_int_equal(c.n_rows, 1); /* only clbench's row is comparable */
    assert_string_equal(c.rows[0].row[0]->backend, "clbench");
    assert_true(fabs(c.rows[0].ratio[1] - 1.1) < 1e-12);
    assert_int_equal(c.n_regressions, 0); /* 0.9x on OpenBLAS is not a regression: not compared */
    assert_int_equal(c.n_unpaired, 2);
    const struct clb_compare_unpaired *u = &c.unpaired[0];
    assert_string_equal(u->first->backend, "openblas");
    assert_ptr_equal(u->other, &b->rows[0]);
    assert_int_equal(u->file, 1);
    assert_int_equal(u->n_diffs, 2);
    assert_string_equal(u->diff[0].key, "threads");
    assert_int_equal(json_integer_value(u->diff[0].first), 2);
    assert_int_equal(json_integer_value(u->diff[0].other), 1);
    assert_string_equal(u->diff[1].key, "blas_core");
    assert_string_equal(json_string_value(u->diff[1].first), "Cooperlake");
    assert_string_equal(json_string_value(u->diff[1].other), "Prescott");
    u = &c.unpaired[1];
    assert_string_equal(u->first->backend, "clblast");
    assert_int_equal(u->n_diffs, 1);
    assert_string_equal(u->diff[0].key, "tuned");
    assert_true(json_is_false(u->diff[0].first) && json_is_true(u->diff[0].other));
    assert_int_equal(c.n_groups, 1);
    clb_comparison_finish(&c);

    /* Nothing comparable at all: the error names a difference. */
    struct clb_result_file *only_host[2];
    snprintf(rows, sizeof(rows), "%s", host_row("ok", 100, r[0], 512));
    only_host[0] = doc("a.json", OPENBLAS(2, "Cooperlake"), rows);
    only_host[1] = doc("b.json", OPENBLAS(1, "Cooperlake"), rows);
    assert_int_equal(clb_compare(only_host, 2, NULL, 0, &c, &e), -1);
    assert_non_null(strstr(e.msg, "threads 2 vs 1"));
    clb_result_file_destroy(only_host[0]);
    clb_result_file_destroy(only_host[1]);
    clb_result_file_destroy(a);
    clb_result_file_destroy(b);
}

/* A failed or errored row has no ratio, counts as a regression, and pairs despite its config. */
static void failed_rows(void **state)
{
    char r[2][512], rows[1100];
    struct clb_comparison c;
    struct clb_error e;

    (void)state;
    snprintf(rows, sizeof(rows), "%s, %s", host_row("ok", 100, r[0], 512),
             dev_row("clblast", "'tuned': true,", "ok", 10, r[1], 512));
    struct clb_result_file *a = doc("a.json", OPENBLAS(2, "Haswell"), rows);
    snprintf(rows, sizeof(rows), "%s, %s", host_row("failed", 100, r[0], 512),
             dev_row("clblast", "", "error", 0, r[1], 512));
    struct clb_result_file *b = doc("b.json", OPENBLAS(2, "Haswell"), rows);
    struct clb_result_file *files[2] = { a, b };

    assert_false(b->rows[0].has_value);
    assert_int_equal(clb_compare(files, 2, NULL, 0.05, &c, &e), 0);
    assert_int_equal(c.n_rows, 2);
    assert_int_equal(c.n_unpaired, 0); /* the error row lost its tuning with its figure */
    assert_true(c.rows[0].ratio[1] == 0 && c.rows[1].ratio[1] == 0);
    assert_int_equal(c.n_regressions, 2);
    assert_int_equal(c.n_groups, 0);
    clb_comparison_finish(&c);
    clb_result_file_destroy(a);
    clb_result_file_destroy(b);
}

/*
 * Ratios and their noise: each side a figure, its statistic and its timed
 * calls; the spreads overlap (within noise, never a regression) or not.
 */
struct noise_case {
    const char *name, *metric, *stat; /* stat: both rows' config "stat" ("" for the median) */
    double a, a_calls[3];
    size_t a_n;
    double b, b_calls[3];
    size_t b_n;
    enum clb_noise want;
    bool regressed; /* at a 5% threshold */
};

static const struct noise_case noise_cases[] = {
    /* The audit's peak: median 0.71x, yet b's fastest call beats a's (1.02x): within
     * noise, and still a regression at 5 %: one slow call must not open the gate. */
    { "noisy peak 0.71x", "gflops", "", 99.0099, { 0.0500, 0.0505, 0.0520 }, 3,
      70.3235, { 0.0711, 0.0490, 0.0800 }, 3, CLB_NOISE_WITHIN, true },
    { "tight 2x slower", "gflops", "", 100, { 0.0100, 0.0101, 0.0102 }, 3,
      50, { 0.0200, 0.0201, 0.0202 }, 3, CLB_NOISE_BEYOND, true },
    { "tight 2x faster", "gflops", "", 100, { 0.0100, 0.0101, 0.0102 }, 3,
      200, { 0.0050, 0.00505, 0.0051 }, 3, CLB_NOISE_BEYOND, false },
    { "no per-call times", "gflops", "", 100, { 0 }, 0, 90, { 0 }, 0, CLB_NOISE_UNKNOWN, true },
    { "two calls: too few", "gflops", "", 100, { 0.010, 0.011 }, 2,
      90, { 0.011, 0.012 }, 2, CLB_NOISE_UNKNOWN, true },
    /* Latency: lower is better, a call's figure grows with its time. a: [10, 20] us. */
    { "latency 1.5x overlapping", "us", "", 10, { 1.0, 1.0, 2.0 }, 3,
      15, { 1.0, 1.5, 1.6 }, 3, CLB_NOISE_WITHIN, true },
    { "latency tight 2x", "us", "", 10, { 1.0, 1.0, 1.01 }, 3,
      20, { 2.0, 2.0, 2.02 }, 3, CLB_NOISE_BEYOND, true },
    /* --stat best: the headline is the fastest call, so a spans [47.6, 100], not [95, 200]. */
    { "stat best 1.5x", "gflops", "best", 100, { 0.010, 0.020, 0.021 }, 3,
      150, { 0.0066, 0.0067, 0.0067 }, 3, CLB_NOISE_BEYOND, false },
};

static const char *noise_row(const struct noise_case *t, double value, const double *calls,
                             size_t n, char *buf, size_t len)
{
    char extra[256];
    size_t used = (size_t)snprintf(extra, sizeof(extra), "'config': {%s%s%s}, 'times_s': [",
                                   t->stat[0] ? "'stat': '" : "", t->stat,
                                   t->stat[0] ? "'" : "");
    for (size_t k = 0; k < n; k++)
        used += (size_t)snprintf(extra + used, sizeof(extra) - used, "%s%g", k ? ", " : "",
                                 calls[k]);
    snprintf(extra + used, sizeof(extra) - used, "],");
    return micro_row(!strcmp(t->metric, "us") ? "latency" : "peak", "fp32", t->metric, extra,
                     value, buf, len);
}

static void noise_verdicts(void **state)
{
    char ra[512], rb[512];
    struct clb_comparison c;
    struct clb_error e;

    (void)state;
    for (size_t k = 0; k < sizeof(noise_cases) / sizeof(noise_cases[0]); k++) {
        const struct noise_case *t = &noise_cases[k];
        struct clb_result_file *files[2] = {
            doc("a.json", "", noise_row(t, t->a, t->a_calls, t->a_n, ra, sizeof(ra))),
            doc("b.json", "", noise_row(t, t->b, t->b_calls, t->b_n, rb, sizeof(rb))),
        };
        assert_int_equal(clb_compare(files, 2, NULL, 0.05, &c, &e), 0);
        assert_int_equal(c.n_rows, 1);
        if (fabs(c.rows[0].ratio[1] - t->b / t->a) > 1e-12 || c.rows[0].noise[1] != t->want ||
            clb_compare_row_regressed(&c, &c.rows[0], 1) != t->regressed ||
            c.n_regressions != (t->regressed ? 1u : 0u))
            fail_msg("%s: ratio %g, noise %s (want %s), regressed %d (want %d), %zu counted",
                     t->name, c.rows[0].ratio[1], clb_noise_name(c.rows[0].noise[1]),
                     clb_noise_name(t->want), clb_compare_row_regressed(&c, &c.rows[0], 1),
                     t->regressed, c.n_regressions);
        /* A regression within noise counts and is said to be. */
        assert_int_equal(c.n_noisy, t->regressed && t->want == CLB_NOISE_WITHIN);
        assert_string_equal(clb_compare_stat(c.rows[0].row[0]), t->stat[0] ? t->stat : "median");
        clb_comparison_finish(&c);
        clb_result_file_destroy(files[0]);
        clb_result_file_destroy(files[1]);
    }
}

/* A row's spread: the figure its slowest and fastest calls give, by its statistic's call. */
static void spread_of_calls(void **state)
{
    char r[512];
    struct clb_figure_spread s;

    (void)state;
    struct clb_result_file *f = doc("a.json", "", noise_row(&noise_cases[1], 100,
                                                          noise_cases[1].a_calls, 3, r, 512));
    s = clb_compare_spread(&f->rows[0]); /* median call 0.0101 s gives 100 */
    assert_true(s.known);
    assert_true(fabs(s.lo - 100 * 0.0101 / 0.0102) < 1e-9 && fabs(s.hi - 100 * 0.0101 / 0.0100) < 1e-9);
    clb_result_file_destroy(f);
    f = doc("a.json", "", noise_row(&noise_cases[7], 100, noise_cases[7].a_calls, 3, r, 512));
    s = clb_compare_spread(&f->rows[0]); /* best: the fastest call, 0.010 s, gives 100 */
    assert_true(fabs(s.lo - 100 * 0.010 / 0.021) < 1e-9 && fabs(s.hi - 100) < 1e-9);
    clb_result_file_destroy(f);
    f = doc("a.json", "", noise_row(&noise_cases[5], 10, noise_cases[5].a_calls, 3, r, 512));
    s = clb_compare_spread(&f->rows[0]); /* latency: the slowest call is the highest figure */
    assert_true(fabs(s.lo - 10) < 1e-9 && fabs(s.hi - 20) < 1e-9);
    clb_result_file_destroy(f);
    f = doc("a.json", "", noise_row(&noise_cases[3], 100, NULL, 0, r, 512));
    assert_false(clb_compare_spread(&f->rows[0]).known);
    clb_result_file_destroy(f);
}

/* A config without "stat" was measured by the median: named so, never "none". */
static void stat_named(void **state)
{
    char ra[512], rb[512], a_text[64], b_text[64];
    struct clb_comparison c;
    struct clb_error e;
    struct noise_case median = noise_cases[1], best = noise_cases[1];

    (void)state;
    best.stat = "best";
    struct clb_result_file *files[2] = {
        doc("a.json", "", noise_row(&median, 100, median.a_calls, 3, ra, sizeof(ra))),
        doc("b.json", "", noise_row(&best, 100, best.a_calls, 3, rb, sizeof(rb))),
    };
    assert_int_equal(clb_compare(files, 2, NULL, 0, &c, &e), -1); /* nothing in common */
    assert_non_null(strstr(e.msg, "stat median vs best"));
    clb_config_value_str("stat", NULL, a_text, sizeof(a_text));
    assert_string_equal(a_text, "median");
    clb_config_value_str("threads", NULL, b_text, sizeof(b_text));
    assert_string_equal(b_text, "none");
    clb_result_file_destroy(files[0]);
    clb_result_file_destroy(files[1]);
}

/* GEMM, peak and bandwidth of one backend on one device: a geomean each; peak at its best width. */
static void grouping(void **state)
{
    char r[5][512], rows[2600];
    struct clb_comparison c;
    struct clb_error e;

    (void)state;
    snprintf(rows, sizeof(rows), "%s, %s, %s, %s, %s",
             dev_row("clbench", "", "ok", 10, r[0], 512),
             micro_row("peak", "fp32 x4", "gflops", "'width': 4, 'headline': false,", 40, r[1], 512),
             micro_row("peak", "fp32 x8", "gflops", "'width': 8, 'headline': true,", 50, r[2], 512),
             micro_row("bandwidth", "triad", "gbps", "'work_per_call': 1000,", 20, r[3], 512),
             micro_row("bandwidth", "copy", "gbps", "'work_per_call': 1000,", 20, r[4], 512));
    struct clb_result_file *a = doc("a.json", "", rows);
    snprintf(rows, sizeof(rows), "%s, %s, %s, %s, %s",
             dev_row("clbench", "", "ok", 20, r[0], 512),
             micro_row("peak", "fp32 x4", "gflops", "'width': 4, 'headline': false,", 400, r[1], 512),
             micro_row("peak", "fp32 x8", "gflops", "'width': 8, 'headline': true,", 100, r[2], 512),
             micro_row("bandwidth", "triad", "gbps", "'work_per_call': 1000,", 40, r[3], 512),
             micro_row("bandwidth", "copy", "gbps", "'work_per_call': 1000,", 10, r[4], 512));
    struct clb_result_file *b = doc("b.json", "", rows);
    struct clb_result_file *files[2] = { a, b };

    assert_int_equal(clb_compare(files, 2, NULL, 0, &c, &e), 0);
    assert_int_equal(c.n_rows, 5);
    assert_true(fabs(c.rows[1].ratio[1] - 10.0) < 1e-12); /* the x4 row is still paired */
    assert_int_equal(c.n_groups, 3);
    assert_string_equal(c.groups[0].benchmark, "gemm");
    assert_int_equal(c.groups[0].n, 1);
    assert_true(fabs(c.groups[0].geomean - 2.0) < 1e-12);
    assert_string_equal(c.groups[1].benchmark, "peak");
    assert_string_equal(c.groups[1].metric, "gflops");
    assert_int_equal(c.groups[1].n, 1); /* x8 only */
    assert_true(fabs(c.groups[1].geomean - 2.0) < 1e-12);
    assert_string_equal(c.groups[2].benchmark, "bandwidth");
    assert_int_equal(c.groups[2].n, 2);
    assert_true(fabs(c.groups[2].geomean - 1.0) < 1e-12);
    clb_comparison_finish(&c);
    clb_result_file_destroy(a);
    clb_result_file_destroy(b);
}

/* What differs between the files but does not keep rows apart. */
static void ignored_differences(void **state)
{
    char r[2][512], rows[1100], text[4096];
    struct clb_comparison c;
    struct clb_error e;

    (void)state;
    snprintf(rows, sizeof(rows), "%s, %s", host_row("ok", 100, r[0], 512),
             dev_row("clblast", "", "ok", 10, r[1], 512));
    struct clb_result_file *a = doc("a.json", OPENBLAS(2, "Haswell"), rows);
    struct clb_result_file *b = doc("b.json", OPENBLAS(2, "Haswell"), rows);
    json_object_set_new(b->root, "clbench_version", json_string("0.2.0"));
    json_object_set_new(json_object_get(b->root, "options"), "runs", json_integer(10));
    json_object_set_new(json_object_get(json_object_get(b->root, "libraries"), "openblas"),
                        "version", json_string("0.3.26"));
    json_object_set_new(json_array_get(b->devices, 0), "driver_version",
                        json_string("2.0"));
    json_object_set_new(a->host, "hostname", json_string("a"));
    json_object_set_new(b->host, "hostname", json_string("b"));
    json_object_set_new(b->host, "cpu", json_string("only in b: not a difference"));
    struct clb_result_file *files[2] = { a, b };

    assert_int_equal(clb_compare(files, 2, NULL, 0, &c, &e), 0);
    text[0] = '\0';
    for (size_t k = 0; k < c.n_ignored; k++) {
        strcat(text, c.ignored[k].field);
        strcat(text, ";");
    }
    assert_string_equal(text, "clbench_version;options.runs;host.hostname;"
                              "libraries.openblas.version;devices[GPU].driver_version;");
    assert_string_equal(json_string_value(c.ignored[0].values[1]), "0.2.0");
    clb_comparison_finish(&c);
    clb_result_file_destroy(a);
    clb_result_file_destroy(b);
}

/*
 * A document of host `hostname` around `results`; with `fleet`, a fleet
 * run's (the rows then carry host, rank and local_rank: placed()).
 */
static struct clb_result_file *host_doc(const char *name, const char *hostname, bool fleet,
                                        const char *results)
{
    char text[8192];
    struct clb_error e;
    int n = snprintf(text, sizeof(text),
                     "{'schema': 'clbench-result/1', 'clbench_version': '0.1.0', "
                     "'created': '2026-01-01T00:00:00Z', 'complete': true, "
                     "'host': {'hostname': '%s'}, "
                     "'devices': [{'id': '0:0', 'name': 'GPU', 'driver_version': '1.0'}], "
                     "'options': {'runs': 3, 'alpha': 1, 'beta': 0.0, 'transfers': false}, "
                     "'libraries': {}, %s 'results': [%s]}",
                     hostname, fleet ? "'fleet': {'ranks': 3, 'threshold': 0.1}," : "", results);
    assert_true(n > 0 && (size_t)n < sizeof(text));
    for (char *c = text; *c; c++)
        if (*c == '\'')
            *c = '"';
    struct clb_result_file *f = clb_result_file_parse(name, text, strlen(text), &e);
    if (!f)
        fail_msg("%s", e.msg);
    return f;
}

/* clbench's GEMM on GPU, measured by `rank`, rank `local` of node `host`. */
static const char *placed(const char *host, int rank, int local, double gflops, char *buf,
                          size_t len)
{
    char extra[128];
    snprintf(extra, sizeof(extra), "'host': '%s', 'rank': %d, 'local_rank': %d,", host, rank,
             local);
    return dev_row("clbench", extra, "ok", gflops, buf, len);
}

/* The compared row whose first-file row has this figure. */
static const struct clb_compare_row *row_with(const struct clb_comparison *c, double first)
{
    for (size_t r = 0; r < c->n_rows; r++)
        if (c->rows[r].row[0]->value == first)
            return &c->rows[r];
    fail_msg("no compared row with %g in the first file", first);
    return NULL;
}

/*
 * Fleet files pair by host and local rank, not by global rank nor by row
 * order: b's launcher put node2 first, so its ranks are numbered differently.
 */
static void fleet_pairs_by_place(void **state)
{
    char r[3][512], rows[1700];
    struct clb_comparison c;
    struct clb_error e;

    (void)state;
    snprintf(rows, sizeof(rows), "%s, %s, %s", placed("node1", 0, 0, 10, r[0], 512),
             placed("node1", 1, 1, 20, r[1], 512), placed("node2", 2, 0, 30, r[2], 512));
    struct clb_result_file *a = host_doc("a.json", "node1", true, rows);
    snprintf(rows, sizeof(rows), "%s, %s, %s", placed("node2", 0, 0, 33, r[0], 512),
             placed("node1", 1, 0, 11, r[1], 512), placed("node1", 2, 1, 40, r[2], 512));
    struct clb_result_file *b = host_doc("b.json", "node2", true, rows);
    struct clb_result_file *files[2] = { a, b };

    assert_int_equal(clb_compare(files, 2, NULL, 0, &c, &e), 0);
    assert_int_equal(c.n_rows, 3);
    const struct clb_compare_row *row = row_with(&c, 20); /* node1, local rank 1 */
    assert_ptr_equal(row->row[1], &b->rows[2]);
    assert_int_equal(row->row[1]->rank, 2);
    assert_true(fabs(row->ratio[1] - 2.0) < 1e-12);
    assert_ptr_equal(row_with(&c, 10)->row[1], &b->rows[1]);
    assert_ptr_equal(row_with(&c, 30)->row[1], &b->rows[0]);
    /* A geometric mean per place: rank 1's 2x does not leak into rank 0's. */
    assert_int_equal(c.n_groups, 3);
    for (size_t g = 0; g < c.n_groups; g++) {
        const struct clb_compare_group *gr = &c.groups[g];
        assert_int_equal(gr->n, 1);
        assert_non_null(gr->host);
        if (!strcmp(gr->host, "node1") && gr->local_rank == 1)
            assert_true(fabs(gr->geomean - 2.0) < 1e-12);
        else
            assert_true(fabs(gr->geomean - 1.1) < 1e-12);
    }
    clb_comparison_finish(&c);
    clb_result_file_destroy(a);
    clb_result_file_destroy(b);
}

/* A rank with no row at its place in the other file is not paired with another rank's. */
static void fleet_other_rank_not_paired(void **state)
{
    char r[2][512], rows[1100];
    struct clb_comparison c;
    struct clb_error e;

    (void)state;
    snprintf(rows, sizeof(rows), "%s, %s", placed("node1", 0, 0, 10, r[0], 512),
             placed("node1", 1, 1, 20, r[1], 512));
    struct clb_result_file *a = host_doc("a.json", "node1", true, rows);
    snprintf(rows, sizeof(rows), "%s", placed("node1", 1, 1, 22, r[0], 512));
    struct clb_result_file *b = host_doc("b.json", "node1", true, rows);
    struct clb_result_file *files[2] = { a, b };

    assert_int_equal(clb_compare(files, 2, NULL, 0, &c, &e), 0);
    assert_int_equal(c.n_rows, 1);
    assert_ptr_equal(c.rows[0].row[0], &a->rows[1]);
    assert_int_equal(c.n_unpaired, 0); /* another place is not a config difference */
    clb_comparison_finish(&c);
    /* The other way round: b's node1:1 against a, whose node1:0 comes first. */
    files[0] = b;
    files[1] = a;
    assert_int_equal(clb_compare(files, 2, NULL, 0, &c, &e), 0);
    assert_int_equal(c.n_rows, 1);
    assert_ptr_equal(c.rows[0].row[1], &a->rows[1]);
    clb_comparison_finish(&c);
    clb_result_file_destroy(a);
    clb_result_file_destroy(b);
}

/* A single run's row stands at (its host.hostname, local rank 0). */
static void single_pairs_with_local_rank_0(void **state)
{
    char r[3][512], rows[1700];
    struct clb_comparison c;
    struct clb_error e;

    (void)state;
    struct clb_result_file *one = host_doc("one.json", "node1", false,
                                           dev_row("clbench", "", "ok", 10, r[0], 512));
    struct clb_result_file *elsewhere = host_doc("else.json", "node3", false,
                                                 dev_row("clbench", "", "ok", 5, r[0], 512));
    snprintf(rows, sizeof(rows), "%s, %s, %s", placed("node2", 0, 0, 50, r[0], 512),
             placed("node1", 1, 1, 30, r[1], 512), placed("node1", 2, 0, 12, r[2], 512));
    struct clb_result_file *fleet = host_doc("fleet.json", "node2", true, rows);

    assert_true(clb_compare_same_place(one, &one->rows[0], fleet, &fleet->rows[2]));
    assert_true(clb_compare_same_place(fleet, &fleet->rows[2], one, &one->rows[0]));
    assert_false(clb_compare_same_place(one, &one->rows[0], fleet, &fleet->rows[1]));
    assert_false(clb_compare_same_place(one, &one->rows[0], fleet, &fleet->rows[0]));
    assert_false(clb_compare_same_place(fleet, &fleet->rows[1], fleet, &fleet->rows[2]));
    /* Two single runs: any machines, as before fleets. */
    assert_true(clb_compare_same_place(one, &one->rows[0], elsewhere, &elsewhere->rows[0]));

    struct clb_result_file *files[2] = { one, fleet };
    assert_int_equal(clb_compare(files, 2, NULL, 0, &c, &e), 0);
    assert_int_equal(c.n_rows, 1);
    assert_ptr_equal(c.rows[0].row[1], &fleet->rows[2]);
    assert_true(fabs(c.rows[0].ratio[1] - 1.2) < 1e-12);
    assert_int_equal(c.n_groups, 1);
    assert_string_equal(c.groups[0].host, "node1");
    assert_int_equal(c.groups[0].local_rank, 0);
    clb_comparison_finish(&c);
    files[0] = fleet;
    files[1] = one;
    assert_int_equal(clb_compare(files, 2, NULL, 0, &c, &e), 0);
    assert_int_equal(c.n_rows, 1);
    assert_ptr_equal(c.rows[0].row[0], &fleet->rows[2]);
    clb_comparison_finish(&c);
    /* A single run of a host the fleet did not use: nothing in common, and the error says why. */
    files[0] = elsewhere;
    files[1] = fleet;
    assert_int_equal(clb_compare(files, 2, NULL, 0, &c, &e), -1);
    assert_non_null(strstr(e.msg, "same host by the same local rank"));
    clb_result_file_destroy(one);
    clb_result_file_destroy(elsewhere);
    clb_result_file_destroy(fleet);
}

/* A row's datasheet object is read into the row; its percent is recomputed, not read. */
static void datasheet_read(void **state)
{
    char r[5][512], rows[2700];

    (void)state;
    snprintf(rows, sizeof(rows), "%s, %s, %s, %s, %s",
             micro_row("peak", "fp32 x8", "gflops",
                       "'datasheet': {'accelerator': 'NVIDIA H100 PCIe 80GB', 'figure': "
                       "'fp32_vector', 'value': 51000, 'parts': 1, 'source': 'NVIDIA', "
                       "'percent': 99},", 5100, r[0], 512),
             micro_row("peak", "fp32 avx2", "gflops",
                       "'datasheet': {'accelerator': 'AMD Zen 4', 'figure': 'fp32_vector', "
                       "'value': 200, 'source': 'AMD', 'derived': true, 'cores': 2, "
                       "'flops_per_cycle': 32, 'clock_ghz': 3.125},", 150, r[1], 512),
             /* A derived peak without its factors (files before them) still reads. */
             micro_row("peak", "fp64 avx2", "gflops",
                       "'datasheet': {'accelerator': 'AMD Zen 4', 'figure': 'fp64_vector', "
                       "'value': 100, 'derived': true},", 50, r[2], 512),
             micro_row("bandwidth", "fp32 triad", "gbps", "", 20, r[3], 512),
             dev_row("clblast", "'datasheet': {'accelerator': 'GPU X', 'figure': "
                     "'fp32_vector', 'value': 1000},", "failed", 10, r[4], 512));
    struct clb_result_file *f = doc("a.json", "", rows);
    const struct clb_datasheet_ref *d = &f->rows[0].datasheet;
    assert_true(f->rows[0].has_datasheet);
    assert_string_equal(d->name, "NVIDIA H100 PCIe 80GB");
    assert_string_equal(d->figure, "fp32_vector");
    assert_string_equal(d->source, "NVIDIA");
    assert_true(d->value == 51000 && !d->derived && d->cores == 0);
    assert_true(fabs(clb_result_row_datasheet_percent(&f->rows[0]) - 10.0) < 1e-12);
    d = &f->rows[1].datasheet;
    assert_true(d->derived && d->cores == 2 && d->flops_per_cycle == 32 && d->clock_ghz == 3.125);
    assert_true(fabs(clb_result_row_datasheet_percent(&f->rows[1]) - 75.0) < 1e-12);
    d = &f->rows[2].datasheet;
    assert_true(d->derived && d->value == 100 && d->cores == 0 && d->clock_ghz == 0);
    assert_null(d->source);
    assert_true(fabs(clb_result_row_datasheet_percent(&f->rows[2]) - 50.0) < 1e-12);
    assert_false(f->rows[3].has_datasheet);
    assert_true(clb_result_row_datasheet_percent(&f->rows[3]) == 0);
    /* A failed row keeps its datasheet object but has no percent: its figure is unverified. */
    assert_true(f->rows[4].has_datasheet);
    assert_true(clb_result_row_datasheet_percent(&f->rows[4]) == 0);
    clb_result_file_destroy(f);
}

/* A datasheet object that is not one is refused, naming the field. */
static void datasheet_refused(void **state)
{
    static const char *const bad[][2] = {
        { "'datasheet': 'H100',", "results[0].datasheet is not an object" },
        { "'datasheet': {'figure': 'memory', 'value': 2000},", "accelerator, figure" },
        { "'datasheet': {'accelerator': 'X', 'figure': 'memory', 'source': 7, 'value': 1},",
          "source strings" },
        { "'datasheet': {'accelerator': 'X', 'figure': 'memory'},",
          "results[0].datasheet.value is missing or not a positive number" },
        { "'datasheet': {'accelerator': 'X', 'figure': 'memory', 'value': 0},",
          "datasheet.value is missing" },
        { "'datasheet': {'accelerator': 'X', 'figure': 'memory', 'value': -5},",
          "results[0].datasheet.value is not a non-negative number" },
        { "'datasheet': {'accelerator': 'X', 'figure': 'memory', 'value': 1, 'derived': 'yes'},",
          "results[0].datasheet.derived is not true/false" },
        { "'datasheet': {'accelerator': 'X', 'figure': 'memory', 'value': 1, 'clock_ghz': 'fast'},",
          "results[0].datasheet.clock_ghz is not a non-negative number" },
    };
    char row[512];
    struct clb_error e;

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        micro_row("bandwidth", "fp32 triad", "gbps", bad[i][0], 20, row, sizeof(row));
        struct clb_result_file *f = parse_doc("bad.json", "", row, &e);
        if (f || !strstr(e.msg, bad[i][1]))
            fail_msg("%s: %s, expected an error with \"%s\"", bad[i][0], f ? "read" : e.msg,
                     bad[i][1]);
    }
}

/*
 * A row keeps its case, backend and kernel: one longer than the row holds is refused with
 * the key named, never cut (two cases alike up to the cut would pair as one); the longest
 * that fits is read whole.
 */
static void long_strings_refused(void **state)
{
    char long_case[200], fits[160], extra[320], row[1024];
    struct clb_error e;
    (void)state;

    memset(long_case, 'x', 199);
    long_case[199] = '\0';
    memset(fits, 'y', 159);
    fits[159] = '\0';
    micro_row("peak", long_case, "gflops", "", 1, row, sizeof(row));
    struct clb_result_file *f = parse_doc("long.json", "", row, &e);
    if (f || !strstr(e.msg, "results[0].case is longer than 159 characters"))
        fail_msg("a 199-character case: %s", f ? "read" : e.msg);
    snprintf(extra, sizeof(extra), "'kernel': '%s',", long_case);
    micro_row("bandwidth", "fp32 triad", "gbps", extra, 1, row, sizeof(row));
    f = parse_doc("long.json", "", row, &e);
    if (f || !strstr(e.msg, "results[0].kernel is longer than 95 characters"))
        fail_msg("a 199-character kernel: %s", f ? "read" : e.msg);
    micro_row("peak", fits, "gflops", "", 1, row, sizeof(row));
    assert_non_null(f = parse_doc("fits.json", "", row, &e));
    assert_string_equal(f->rows[0].case_, fits);
    clb_result_file_destroy(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(regression_rule),
        cmocka_unit_test(device_matching),
        cmocka_unit_test(percent),
        cmocka_unit_test(config_equality),
        cmocka_unit_test(config_derived),
        cmocka_unit_test(config_written_matches_derived),
        cmocka_unit_test(config_pairing),
        cmocka_unit_test(failed_rows),
        cmocka_unit_test(noise_verdicts),
        cmocka_unit_test(spread_of_calls),
        cmocka_unit_test(stat_named),
        cmocka_unit_test(grouping),
        cmocka_unit_test(ignored_differences),
        cmocka_unit_test(fleet_pairs_by_place),
        cmocka_unit_test(fleet_other_rank_not_paired),
        cmocka_unit_test(single_pairs_with_local_rank_0),
        cmocka_unit_test(datasheet_read),
        cmocka_unit_test(datasheet_refused),
        cmocka_unit_test(long_strings_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
