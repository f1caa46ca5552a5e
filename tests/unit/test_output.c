/* Formatting helpers, the text table, CSV quoting and error names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <regex.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>
#include <stdlib.h>

#include "clbench/bench/micro.h"
#include "clbench/cl/device.h"
#include "clbench/output/gemm.h"
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
static struct clb_row *limited_row(struct clb_micro_results *res,
                                         enum clb_benchmark benchmark,
                                         const char *case_, const char *metric, double value,
                                         bool derived)
{
    struct clb_row *row = clb_micro_add(res, NULL, benchmark, metric);
    assert_non_null(row);
    snprintf(row->case_, sizeof(row->case_), "%s", case_);
    row->precision = CLB_FP32;
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

    limited_row(&res, CLB_BENCH_PEAK, "fp32 x8", "gflops", 150, true);
    limited_row(&res, CLB_BENCH_BANDWIDTH, "fp32 triad", "gbps", 120, false);
    limited_row(&res, CLB_BENCH_BANDWIDTH, "fp32 copy", "gbps", 100, false);
    struct clb_row *cached = limited_row(&res, CLB_BENCH_BANDWIDTH, "fp32 add 64 KiB", "gbps", 300,
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
        !strstr(text, "\nin cache: arrays 3 x 64 KiB = 192 KiB <= LLC 1 MiB on host CPU: the cache, "
                      "not memory, fed those figures, so no "))
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

/*
 * The micro table says what its statistics are: a spread above 10 % is marked "!", fewer
 * than 3 calls show "—", each with its note; every measured row names its clock (peak's is
 * the host's); a cache-resident row says "in cache" with no datasheet figure to withhold;
 * BabelStream's dot on the cpu path says it is kernel-bound. Rows as data: case, times,
 * cache-resident, kernel and code path, then what its line must hold.
 */
static void micro_statistics_marked(void **state)
{
    static const struct {
        enum clb_benchmark benchmark;
        const char *case_;
        double times[4];
        size_t n;
        bool resident;
        const char *kernel, *code_path, *line;
    } rows[] = {
        { CLB_BENCH_PEAK, "fp32 x8", { 1.0, 1.0, 1.0 }, 3, false, NULL, NULL,
          "  host +3 +\u00b10\\.0%  OK$" },
        { CLB_BENCH_PEAK, "fp32 x4", { 1.0, 1.5, 0.5 }, 3, false, NULL, NULL,
          "  host +3 +\u00b150\\.0% !  OK$" },
        { CLB_BENCH_PEAK, "fp32 x2", { 1.0, 2.0 }, 2, false, NULL, NULL, "  host +2 +\u2014  OK$" },
        { CLB_BENCH_BANDWIDTH, "fp32 triad", { 1.0, 1.0, 1.0 }, 3, true, "triad", "cpu",
          "  host +3 +\u00b10\\.0%  OK, in cache$" },
        { CLB_BENCH_BANDWIDTH, "fp32 dot", { 1.0, 1.0, 1.0 }, 3, false, "dot", "cpu",
          "  host +3 +\u00b10\\.0%  OK, kernel-bound$" },
        { CLB_BENCH_BANDWIDTH, "fp32 read", { 1.0, 1.0, 1.0 }, 3, false, "dot", "gpu",
          "  host +3 +\u00b10\\.0%  OK$" },
    };
    static const char *const notes[] = {
        "\n! spread (coefficient of variation of the timed calls) above 10%: ",
        "\nSPREAD \u2014: fewer than 3 timed calls, too few for a spread",
        "\nkernel-bound: BabelStream's dot on the cpu code path ",
        "\nin cache: arrays 3 x 64 KiB = 192 KiB <= LLC 1 MiB on host CPU: the cache, not memory, "
        "fed those figures\n",
        "\nCLOCK: host = the host's monotonic clock around each call",
    };
    struct clb_micro_results res = { 0 };
    char *text = NULL;
    size_t len = 0;
    (void)state;

    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct clb_row *r = clb_micro_add(&res, NULL, rows[i].benchmark,
                                                rows[i].benchmark == CLB_BENCH_PEAK ? "gflops"
                                                                                 : "gbps");
        assert_non_null(r);
        snprintf(r->case_, sizeof(r->case_), "%s", rows[i].case_);
        r->precision = CLB_FP32;
        r->headline = true;
        r->status = CLB_ROW_OK;
        r->work = 1e9;
        for (size_t c = 0; c < rows[i].n; c++)
            assert_int_equal(clb_micro_push(r, rows[i].times[c]), 0);
        snprintf(r->kernel, sizeof(r->kernel), "%s", rows[i].kernel ? rows[i].kernel : "");
        r->code_path = rows[i].code_path;
        r->cache_resident = rows[i].resident;
        r->array_bytes = rows[i].resident ? 65536 : 0;
        r->llc_bytes = 1 << 20;
        clb_micro_row_summarize(r);
    }
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    assert_int_equal(clb_micro_write_table(out, &res, true), 0);
    fclose(out);
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        const char *at = strstr(text, rows[i].case_);
        char line[512] = "";
        regex_t re;
        if (at)
            snprintf(line, sizeof(line), "%.*s", (int)strcspn(at, "\n"), at);
        assert_int_equal(regcomp(&re, rows[i].line, REG_EXTENDED | REG_NOSUB), 0);
        const int miss = regexec(&re, line, 0, NULL, 0);
        regfree(&re);
        if (miss)
            fail_msg("row %s does not match /%s/:\n%s", rows[i].case_, rows[i].line, text);
    }
    for (size_t i = 0; i < sizeof(notes) / sizeof(notes[0]); i++)
        if (!strstr(text, notes[i]))
            fail_msg("no note \"%s\":\n%s", notes[i], text);
    free(text);
    clb_micro_results_finish(&res);
}

/*
 * The GEMM table says what its figures are held against: a figure above a device peak that
 * filled the device blames the peak's run ("^" and its note), one above a peak measured on
 * part of the device says so instead; a speedup against a handicapped baseline is marked "*"
 * with the reason; CALLS is a column, and a row of 2 calls has no spread. Rows as data.
 */
static void gemm_marks(void **state)
{
    static const struct {
        bool partial, handicap;
        double gflops, peak;
        size_t calls;
        const char *line, *note;
    } cases[] = {
        { false, false, 120, 100, 3, " 120\\.0% \\^ .* +3 +\u00b10\\.0% +1\\.20x ",
          "\n^ above the measured peak: the peak was under-measured" },
        { true, false, 120, 100, 3, " 120\\.0% \\^ ",
          "\n^ above a device peak measured on part of the device: its launch held fewer "
          "than 4 work-groups a compute unit" },
        { false, true, 90, 100, 2, " 90\\.0% .* +2 +\u2014 +0\\.90x \\* ",
          "\n* against a handicapped CPU baseline: OpenBLAS runs core Prescott" },
    };
    static const struct clb_gemm_backend host = { .name = "hostblas" },
                                          dev_be = { .name = "devblas", .on_device = true };
    static const enum clb_precision precs[] = { CLB_FP32 };
    struct clb_device dev = { .platform_index = 0, .device_index = 0 };
    const struct clb_run_record rec = { .host = { .cpu = "Test CPU", .logical_cpus = 1 } };
    const struct clb_run_meta meta = { .record = &rec };
    const struct clb_gemm_options opt = { .precisions = precs, .n_precisions = 1, .runs = 3 };
    (void)state;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct clb_row rows[2] = { { 0 } };
        struct clb_gemm_results res = { .rows = rows, .n_rows = 2, .baseline = &host };
        double times[3] = { 1, 1, 1 };
        const struct clb_gemm_report r = { .meta = &meta, .results = &res, .options = &opt };
        char *text = NULL;
        size_t len = 0;
        for (size_t k = 0; k < 2; k++) {
            struct clb_row *row = &rows[k];
            row->device = k ? &dev : NULL;
            row->backend_ops = k ? &dev_be : &host;
            snprintf(row->backend, sizeof(row->backend), "%s", row->backend_ops->name);
            row->precision = CLB_FP32;
            row->shape = (struct clb_gemm_shape){ 64, 64, 64 };
            row->status = CLB_ROW_OK;
            row->verify.method = CLB_VERIFY_FULL;
            row->first_call_s = 1;
            row->times_s = times;
            row->n_times = k ? cases[i].calls : 3;
            clb_stats_compute(times, row->n_times, &row->time_s);
            row->gflops = k ? cases[i].gflops : 100;
            row->speedup = row->gflops / 100;
            row->baseline_handicapped = cases[i].handicap;
        }
        rows[1].device_peak_gflops = cases[i].peak;
        rows[1].device_peak_partial = cases[i].partial;
        if (cases[i].handicap)
            snprintf(res.baseline_handicap, sizeof(res.baseline_handicap),
                     "OpenBLAS runs core Prescott (sse3 kernels) on this avx2+fma CPU");
        FILE *out = open_memstream(&text, &len);
        assert_non_null(out);
        assert_int_equal(clb_gemm_write(out, CLB_FORMAT_TABLE, &r), 0);
        fclose(out);
        regex_t re;
        const char *at = strstr(text, "\n0:0 ");
        char line[512] = "";
        if (at)
            snprintf(line, sizeof(line), "%.*s", (int)strcspn(at + 1, "\n"), at + 1);
        assert_int_equal(regcomp(&re, cases[i].line, REG_EXTENDED | REG_NOSUB), 0);
        const int miss = regexec(&re, line, 0, NULL, 0);
        regfree(&re);
        if (miss || !strstr(text, "  CALLS  ") || !strstr(text, cases[i].note))
            fail_msg("case %zu: no /%s/ or no note \"%s\":\n%s", i, cases[i].line,
                     cases[i].note, text);
        /* One reason per table: the other ^ note is not printed. */
        if (strstr(text, cases[i].partial ? "\n^ above the measured peak"
                                          : "\n^ above a device peak measured on part"))
            fail_msg("case %zu: both ^ notes:\n%s", i, text);
        free(text);
    }
}

/*
 * A tuning note is said once per backend, precision and note, however many rows carry it;
 * a twin backend (its own ops) with the same note says it again.
 */
static void tuning_notes_once(void **state)
{
    static const struct clb_gemm_backend be = { .name = "tunedblas", .on_device = true },
                                          twin = { .name = "tunedblas", .on_device = true };
    static const enum clb_precision precs[] = { CLB_FP32 };
    const struct clb_run_record rec = { .host = { .cpu = "Test CPU", .logical_cpus = 1 } };
    const struct clb_run_meta meta = { .record = &rec };
    const struct clb_gemm_options opt = { .precisions = precs, .n_precisions = 1, .runs = 1 };
    struct clb_device dev = { .platform_index = 0, .device_index = 0 };
    struct clb_row rows[4] = { { 0 } };
    struct clb_gemm_results res = { .rows = rows, .n_rows = 4 };
    const struct clb_gemm_report r = { .meta = &meta, .results = &res, .options = &opt };
    char *text = NULL;
    size_t len = 0, said = 0;
    (void)state;

    for (size_t k = 0; k < 4; k++) {
        rows[k].device = &dev;
        rows[k].backend_ops = k < 3 ? &be : &twin;
        snprintf(rows[k].backend, sizeof(rows[k].backend), "tunedblas");
        rows[k].precision = CLB_FP32;
        rows[k].shape = (struct clb_gemm_shape){ 64u << k, 64u << k, 64u << k };
        rows[k].status = CLB_ROW_SKIPPED;
        snprintf(rows[k].reason, sizeof(rows[k].reason), "not run");
        snprintf(rows[k].tuning_note, sizeof(rows[k].tuning_note), "tuned elsewhere");
    }
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    assert_int_equal(clb_gemm_write(out, CLB_FORMAT_TABLE, &r), 0);
    fclose(out);
    for (const char *at = text; (at = strstr(at, "tuning: tunedblas fp32: tuned elsewhere\n"));
         at++)
        said++;
    if (said != 2)
        fail_msg("the note %zu times, not twice (one backend, its twin):\n%s", said, text);
    free(text);
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
        cmocka_unit_test(micro_statistics_marked),
        cmocka_unit_test(gemm_marks),
        cmocka_unit_test(tuning_notes_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
