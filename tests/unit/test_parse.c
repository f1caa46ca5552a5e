/* Strict number parsing and option-table parsing: no device needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "clbench/cli/cli.h"
#include "clbench/util/parse.h"

static void u64_accepts_plain_numbers(void **state)
{
    struct clb_error e;
    uint64_t v = 0;

    (void)state;
    assert_int_equal(clb_parse_u64("0", 0, 10, &v, &e), 0);
    assert_int_equal(v, 0);
    assert_int_equal(clb_parse_u64("4096", 1, 1u << 20, &v, &e), 0);
    assert_int_equal(v, 4096);
    assert_int_equal(clb_parse_u64("18446744073709551615", 0, UINT64_MAX, &v, &e), 0);
    assert_true(v == UINT64_MAX);
}

static void u64_rejects_bad_text(void **state)
{
    static const char *const bad[] = { "", "-1", "+3", " 3", "3 ", "12x", "abc", "0x10", "1e3",
                                       "99999999999999999999", "1.5" };
    struct clb_error e;
    uint64_t v = 77;

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        e.msg[0] = '\0';
        assert_int_equal(clb_parse_u64(bad[i], 0, UINT64_MAX, &v, &e), -1);
        assert_true(strlen(e.msg) > 0);
        assert_null(strchr(e.msg, '\n'));
    }
    assert_int_equal(v, 77);
}

static void u64_enforces_range(void **state)
{
    struct clb_error e;
    uint64_t v;

    (void)state;
    assert_int_equal(clb_parse_u64("0", 1, 10, &v, &e), -1);
    assert_non_null(strstr(e.msg, "out of range"));
    assert_int_equal(clb_parse_u64("11", 1, 10, &v, &e), -1);
    assert_int_equal(clb_parse_u64("10", 1, 10, &v, &e), 0);
}

static void double_parsing(void **state)
{
    struct clb_error e;
    double v;

    (void)state;
    assert_int_equal(clb_parse_double("0.5", 0, 10, &v, &e), 0);
    assert_true(v == 0.5);
    assert_int_equal(clb_parse_double("nan", 0, 10, &v, &e), -1);
    assert_int_equal(clb_parse_double("inf", 0, 1e300, &v, &e), -1);
    assert_int_equal(clb_parse_double("1.5s", 0, 10, &v, &e), -1);
    assert_int_equal(clb_parse_double("", 0, 10, &v, &e), -1);
    assert_int_equal(clb_parse_double("-1", 0, 10, &v, &e), -1);
}

struct cfg {
    struct clb_common common;
    bool verbose;
    const char *name;
};

static const struct clb_option opts[] = {
    CLB_COMMON_OPTIONS(struct cfg),
    { .name = "verbose", .short_name = 'v', .help = "Verbose",
      .offset = offsetof(struct cfg, verbose) },
    { .name = "name", .short_name = 'n', .metavar = "NAME", .help = "A name",
      .parse = clb_opt_string, .offset = offsetof(struct cfg, name) },
    { 0 },
};

static const struct clb_command cmd = {
    .name = "test", .summary = "A test command.", .usage = "[FILE]", .options = opts,
    .config_size = sizeof(struct cfg), .max_operands = 1,
};

static int parse(int argc, char **argv, struct cfg *c, struct clb_error *e, int *n_ops)
{
    char *ops[16];

    memset(c, 0, sizeof(*c));
    c->common.device = "all";
    return clb_options_parse(&cmd, argc, argv, c, ops, n_ops, e);
}

static void options_all_forms(void **state)
{
    char *argv[] = { "test", "-v", "--name=x", "-d", "gpu", "--format", "csv", "file" };
    struct clb_error e;
    struct cfg c;
    int n_ops;

    (void)state;
    assert_int_equal(parse(8, argv, &c, &e, &n_ops), 0);
    assert_true(c.verbose);
    assert_string_equal(c.name, "x");
    assert_string_equal(c.common.device, "gpu");
    assert_int_equal(c.common.format, CLB_FORMAT_CSV);
    assert_int_equal(n_ops, 1);

    char *argv2[] = { "test", "-ny", "-dcpu" };
    assert_int_equal(parse(3, argv2, &c, &e, &n_ops), 0);
    assert_string_equal(c.name, "y");
    assert_string_equal(c.common.device, "cpu");
}

static void options_errors(void **state)
{
    struct {
        int argc;
        char *argv[4];
        const char *want;
    } cases[] = {
        { 2, { "test", "--bogus" }, "unknown option '--bogus'" },
        { 2, { "test", "-x" }, "unknown option '-x'" },
        { 2, { "test", "--name" }, "needs a value" },
        { 3, { "test", "--format", "xml" }, "option --format: unknown format 'xml'" },
        { 3, { "test", "-v", "-v" }, "more than once" },
        { 2, { "test", "--verbose=1" }, "takes no value" },
        { 3, { "test", "a", "b" }, "unexpected argument 'b'" },
        { 3, { "test", "--name", "" }, "option --name: empty value" },
    };
    struct clb_error e;
    struct cfg c;
    int n_ops;

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        e.msg[0] = '\0';
        assert_int_equal(parse(cases[i].argc, cases[i].argv, &c, &e, &n_ops), -1);
        if (!strstr(e.msg, cases[i].want))
            fail_msg("case %zu: '%s' lacks '%s'", i, e.msg, cases[i].want);
    }
}

static void help_lists_every_option(void **state)
{
    char buf[4096] = "";
    FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

    (void)state;
    assert_non_null(f);
    clb_options_help(&cmd, f);
    fclose(f);
    for (const struct clb_option *o = opts; o->name; o++) {
        char want[64];
        snprintf(want, sizeof(want), "--%s", o->name);
        assert_non_null(strstr(buf, want));
    }
    assert_non_null(strstr(buf, "Usage: clbench test [OPTIONS] [FILE]"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(u64_accepts_plain_numbers),
        cmocka_unit_test(u64_rejects_bad_text),
        cmocka_unit_test(u64_enforces_range),
        cmocka_unit_test(double_parsing),
        cmocka_unit_test(options_all_forms),
        cmocka_unit_test(options_errors),
        cmocka_unit_test(help_lists_every_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
