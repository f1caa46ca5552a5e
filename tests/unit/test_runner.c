/*
 * The runner's contract (src/commands/runner.h), as fio refuses an engine
 * without .queue: every measure in the registry fills the hooks the runner
 * calls unchecked, each is named as a command of its own, and a measure
 * that lacks one is refused by name, before any hook runs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "src/commands/registry.h"
#include "src/commands/runner.h"

static void every_measure_passes(void **state)
{
    struct clb_error e = { "" };
    size_t n = 0;

    (void)state;
    for (const struct clb_measure *const *m = clb_measures; *m; m++, n++) {
        print_message("%s\n", (*m)->name ? (*m)->name : "(no name)");
        if (clb_measure_check(*m, &e))
            fail_msg("%s", e.msg);
        /* Named as its command, and once: the registry's two lists agree. */
        assert_non_null(clb_command_find((*m)->name));
        for (const struct clb_measure *const *o = clb_measures; o != m; o++)
            assert_string_not_equal((*o)->name, (*m)->name);
    }
    /* run, gemm, peak, bandwidth, transfer, latency, tune, collective */
    assert_int_equal(n, 8);
}

static int never_validate(struct clb_run *run)
{
    (void)run;
    fail_msg("the runner called a hook of a measure it should have refused");
    return 0;
}

static const void *never_report(struct clb_run *run)
{
    (void)run;
    fail_msg("the runner called a hook of a measure it should have refused");
    return NULL;
}

static int never_write(FILE *out, enum clb_format fmt, const void *report)
{
    (void)out;
    (void)fmt;
    (void)report;
    fail_msg("the runner called a hook of a measure it should have refused");
    return 0;
}

/* Each a whole measure but for one required part; the message names the measure and it. */
static const struct {
    struct clb_measure m;
    const char *says;
} incomplete[] = {
    { { .validate = never_validate, .report = never_report, .write = never_write },
      "the measure '(no name)' lacks its name, which the runner requires" },
    { { .name = "nothing", .report = never_report, .write = never_write },
      "the measure 'nothing' lacks its validate hook, which the runner requires" },
    { { .name = "silent", .validate = never_validate, .write = never_write },
      "the measure 'silent' lacks its report hook, which the runner requires" },
    { { .name = "mute", .validate = never_validate, .report = never_report },
      "the measure 'mute' lacks its write hook, which the runner requires" },
};

static void incomplete_measure_refused(void **state)
{
    const struct clb_common common = { 0 };

    (void)state;
    for (size_t i = 0; i < sizeof(incomplete) / sizeof(incomplete[0]); i++) {
        struct clb_error e = { "" };
        print_message("%s\n", incomplete[i].says);
        assert_int_equal(clb_measure_check(&incomplete[i].m, &e), -1);
        assert_string_equal(e.msg, incomplete[i].says);
        /* Refused at start: a runtime failure, no hook called, no crash on the missing one. */
        assert_int_equal(clb_measure_run(&incomplete[i].m, NULL, &common), CLB_EXIT_FAILURE);
        assert_int_equal(clb_measure_run_world(&incomplete[i].m, NULL, &common),
                         CLB_EXIT_FAILURE);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_measure_passes),
        cmocka_unit_test(incomplete_measure_refused),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
