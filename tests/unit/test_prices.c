/*
 * What a run, a token and a training run cost (clbench/results/prices.h):
 * parsing the user's prices, matching them to devices, and the arithmetic,
 * each figure worked by hand in the comment beside it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "clbench/results/prices.h"
#include "clbench/util/units.h"

static void parse_good(void **state)
{
    struct clb_price p;
    struct clb_error e;
    (void)state;

    assert_int_equal(clb_price_parse("H100=2", &p, &e), 0);
    assert_string_equal(p.device, "H100");
    assert_true(p.usd_per_hour == 2.0);
    assert_int_equal(clb_price_parse("  NVIDIA A100 = 1.29 ", &p, &e), 0);
    assert_string_equal(p.device, "NVIDIA A100");
    assert_string_equal(p.text, "NVIDIA A100 = 1.29");
    assert_true(p.usd_per_hour == 1.29);
    /* Free is a price: a device owned. */
    assert_int_equal(clb_price_parse("host=0", &p, &e), 0);
    assert_true(p.usd_per_hour == 0);
}

static void parse_bad(void **state)
{
    static const struct {
        const char *text, *why;
    } bad[] = {
        { "H100", "expected DEVICE=USD_PER_HOUR" }, { "=2", "no device before '='" },
        { " =2", "no device" },                      { "H100=", "no price after '='" },
        { "H100=abc", "'abc' is not a number" },     { "H100=nan", "'nan' is not a number" },
        { "H100=inf", "'inf' is not a number" },     { "H100=-1", "negative" },
        { "H100=-0", "negative" },                   { "H100=2x", "'2x' is not a number" },
        { "H100=1e999", "is not a number" },
    };
    struct clb_price p;
    struct clb_error e;
    (void)state;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(clb_price_parse(bad[i].text, &p, &e), -1);
        if (!strstr(e.msg, bad[i].why))
            fail_msg("'%s': '%s' does not say '%s'", bad[i].text, e.msg, bad[i].why);
    }
}

static void add(struct clb_prices *l, const char *text)
{
    struct clb_error e;
    assert_int_equal(clb_prices_add(l, text, &e), 0);
}

static void matching(void **state)
{
    static struct clb_prices l;
    const struct clb_price *p;
    struct clb_error e;
    (void)state;

    memset(&l, 0, sizeof(l));
    add(&l, "h100=2");
    add(&l, "0:1=1");
    add(&l, "host=0.5");
    /* A case-insensitive substring of the name... */
    assert_true(clb_price_matches(&l.v[0], "NVIDIA H100 PCIe", "0:0"));
    assert_false(clb_price_matches(&l.v[0], "NVIDIA A100", "0:0"));
    /* ...or an id, exactly, never a name. */
    assert_true(clb_price_matches(&l.v[1], "anything", "0:1"));
    assert_false(clb_price_matches(&l.v[1], "dev 0:1", "0:10"));
    assert_true(clb_price_matches(&l.v[2], "host CPU", "host"));
    assert_false(clb_price_matches(&l.v[2], "Intel Xeon", "0:0"));

    assert_int_equal(clb_price_find(&l, "NVIDIA H100 PCIe", "0:0", &p, &e), 0);
    assert_ptr_equal(p, &l.v[0]);
    assert_int_equal(clb_price_find(&l, "NVIDIA A100", "1:0", &p, &e), 0);
    assert_null(p);
    /* H100 by name and 0:1 by id at different prices: ambiguous. */
    assert_int_equal(clb_price_find(&l, "NVIDIA H100", "0:1", &p, &e), -1);
    assert_non_null(strstr(e.msg, "NVIDIA H100 (0:1) has two prices: --price 'h100=2' and "
                                  "--price '0:1=1' both name it"));
    /* The same price twice is no conflict. */
    add(&l, "PCIe=2");
    assert_int_equal(clb_price_find(&l, "NVIDIA H100 PCIe", "0:0", &p, &e), 0);
    assert_ptr_equal(p, &l.v[0]);
}

static void check_devices(void **state)
{
    static struct clb_prices l;
    struct clb_error e;
    const struct clb_priced_device d[] = { { "NVIDIA H100 PCIe", "0:0", NULL },
                                           { "host CPU", "host", NULL } };
    (void)state;

    memset(&l, 0, sizeof(l));
    add(&l, "h100=2");
    add(&l, "host=0");
    assert_int_equal(clb_prices_check(&l, d, 2, "r.json", &e), 0);
    /* A --price that names no device is a usage error... */
    add(&l, "A100=1");
    assert_int_equal(clb_prices_check(&l, d, 2, "r.json", &e), -1);
    assert_string_equal(e.msg, "--price 'A100=1': no device in r.json is named like 'A100'");
    /* ...a table file's entry is not: a catalogue. */
    l.v[2].catalogue = true;
    assert_int_equal(clb_prices_check(&l, d, 2, "r.json", &e), 0);
    /* Two prices for one device are. */
    add(&l, "PCIe=3");
    assert_int_equal(clb_prices_check(&l, d, 2, "r.json", &e), -1);
    assert_non_null(strstr(e.msg, "has two prices"));
}

/* Which devices an entry prices, and one CPU under two names priced as one only. */
static void matched(void **state)
{
    static struct clb_prices l;
    char lines[8][CLB_PRICES_LINE];
    const char *cpu = "AMD EPYC 7763";
    const struct clb_priced_device d[] = {
        { "host CPU", "host", clb_price_device_cpu("host", "host CPU", true, cpu) },
        { "pthread-znver3-AMD EPYC 7763", "0:0",
          clb_price_device_cpu("0:0", "pthread-znver3-AMD EPYC 7763", true, cpu) },
        { "NVIDIA H100 PCIe", "1:0", clb_price_device_cpu("1:0", "NVIDIA H100 PCIe", false, cpu) },
    };
    (void)state;

    /* pocl's device is the host's CPU; a GPU, or a CPU device of another name, is not. */
    assert_string_equal(d[0].cpu, cpu);
    assert_string_equal(d[1].cpu, cpu);
    assert_null(d[2].cpu);
    assert_null(clb_price_device_cpu("0:1", "pthread-generic", true, cpu));
    assert_null(clb_price_device_cpu("host", "host CPU", false, "unknown CPU"));
    memset(&l, 0, sizeof(l));
    add(&l, "cpu=1.5");
    assert_int_equal(clb_prices_matched(&l, d, 3, lines, 8), 2);
    assert_string_equal(lines[0], "note: --price 'cpu=1.5' prices host CPU (host)");
    assert_string_equal(lines[1], "warning: host CPU (host) and pthread-znver3-AMD EPYC 7763 "
                                  "(0:0) are the same CPU, AMD EPYC 7763, but only the first has "
                                  "a price (--price 'cpu=1.5'): give 0:0 one too to cost it");
    /* Both priced: no warning; an entry matching two devices names both. */
    add(&l, "epyc=1.5");
    add(&l, "1:0=2");
    assert_int_equal(clb_prices_matched(&l, d, 3, lines, 8), 3);
    assert_string_equal(lines[1], "note: --price 'epyc=1.5' prices pthread-znver3-AMD EPYC 7763 (0:0)");
    memset(&l, 0, sizeof(l));
    add(&l, "0:0=1");
    add(&l, "e=1");
    assert_int_equal(clb_prices_matched(&l, d, 3, lines, 8), 3);
    assert_string_equal(lines[1], "note: --price 'e=1' prices pthread-znver3-AMD EPYC 7763 (0:0), "
                                  "NVIDIA H100 PCIe (1:0)");
    assert_non_null(strstr(lines[2], "warning: pthread-znver3-AMD EPYC 7763 (0:0) and host CPU (host)"));
}

static void table_file(void **state)
{
    static struct clb_prices l;
    struct clb_error e;
    char path[] = "/tmp/clbench-prices-XXXXXX";
    (void)state;

    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("# cloud, per hour\n\nH100 = 2.00\n   # owned\nhost=0\n", f);
    fclose(f);
    memset(&l, 0, sizeof(l));
    add(&l, "A100=1");
    assert_int_equal(clb_prices_load(&l, path, &e), 0);
    assert_int_equal(l.n, 3);
    assert_false(l.v[0].catalogue);
    assert_true(l.v[1].catalogue && l.v[2].catalogue);
    assert_string_equal(l.v[1].device, "H100");
    char where[64];
    snprintf(where, sizeof(where), "%s:3", path);
    assert_string_equal(l.v[1].source, where);
    assert_true(l.v[2].usd_per_hour == 0);
    /* A bad line is named by its number. */
    f = fopen(path, "w");
    fputs("H100=2\n\nA100=-1\n", f);
    fclose(f);
    assert_int_equal(clb_prices_load(&l, path, &e), -1);
    snprintf(where, sizeof(where), "%s:3: 'A100=-1': price -1 is negative", path);
    assert_non_null(strstr(e.msg, where));
    unlink(path);
    assert_int_equal(clb_prices_load(&l, path, &e), -1);
    assert_non_null(strstr(e.msg, "cannot open"));
}

static void close_to(double got, double want, double rel)
{
    if (!(got >= want * (1 - rel) && got <= want * (1 + rel)))
        fail_msg("%.9g, expected %.9g (within %g)", got, want, rel);
}

/*
 * The figure: GPT-3's 3.14e23 training FLOPs at 312 TFLOP/s on a
 * device priced $2.00 an hour. By hand: 3.14e23 / 3.12e14 = 1.00641e9 s;
 * / 3600 = 279,558.4 hours; x $2.00 = $559,116.8, printed "$559,117".
 * The FLOPs come as fit's estimate makes them, 6 x parameters x tokens:
 * 174.444 B parameters (3.14e23 / 6 / 300e9) on 300 B tokens.
 */
static void gpt3(void **state)
{
    struct clb_price p = { .device = "H100", .usd_per_hour = 2.0 };
    const struct clb_fit_request req = { .params = 174444444444ull, .batch = 1 };
    const struct clb_fit_estimate memory = { 0 };
    const struct clb_speed_inputs in = { .prefill_gflops = 312e3, .train_tokens = 300e9 };
    struct clb_fit_speed s = { .measured = { .prefill_gflops = 312e3 } };
    struct clb_speed_cost c;
    char buf[32];
    (void)state;

    clb_speed_estimate(&req, &memory, &in, &s.estimate);
    close_to(s.estimate.train_flops, 3.14e23, 1e-11);
    clb_speed_cost(&p, &s, 0, &c);
    close_to(s.estimate.train_s, 1.006e9, 5e-4);       /* 1.006e9 s */
    close_to(s.estimate.train_s / 3600, 279558, 2e-6); /* 279,558 hours */
    close_to(c.train_usd, 559117, 1e-6);               /* $559,117 */
    clb_format_usd(c.train_usd, buf, sizeof(buf));
    assert_string_equal(buf, "$559,117");
    /* 312,000 GFLOP/s / $2.00 = 156,000 GFLOP/s per USD/h. */
    close_to(c.prefill_gflops_per_usd_hour, 156000, 1e-12);
}

/*
 * fit-from-llama.json's figures at $2.00/h: 7.418 prefill tokens/s (1e11 /
 * 13.48e9) costs 2 / 3600 / 7.418 x 1e6 = $74.89 per million tokens and is
 * 3.709 tokens/s per USD/h; 108.7 ms of timed calls cost 2 x 0.1087 / 3600
 * = $6.04e-05.
 */
static void tokens(void **state)
{
    struct clb_price p = { .device = "pthread", .usd_per_hour = 2.0 };
    struct clb_fit_speed s = { .measured = { .prefill_gflops = 100, .bandwidth_gbps = 100 } };
    struct clb_speed_cost c;
    char buf[32];
    (void)state;

    s.estimate.prefill_tokens_s = 100e9 / 13.48e9;
    s.estimate.decode_tokens_s = 0; /* no bandwidth figure: no decode cost */
    clb_speed_cost(&p, &s, 0.10872, &c);
    close_to(c.prefill_usd_per_mtokens, 74.8889, 1e-5);
    clb_format_usd(c.prefill_usd_per_mtokens, buf, sizeof(buf));
    assert_string_equal(buf, "$74.89");
    assert_true(c.decode_usd_per_mtokens == 0);
    assert_true(c.decode_tokens_s_per_usd_hour == 0);
    close_to(c.prefill_tokens_s_per_usd_hour, 3.70920, 1e-5);
    close_to(c.prefill_gflops_per_usd_hour, 50, 1e-12);
    close_to(c.run_usd, 6.04e-5, 1e-3);
    clb_format_usd(c.run_usd, buf, sizeof(buf));
    assert_string_equal(buf, "$6.04e-05");
    assert_true(c.train_usd == 0);
    /* Free: costs nothing, and a figure per dollar is undefined (0). */
    p.usd_per_hour = 0;
    clb_speed_cost(&p, &s, 0.10872, &c);
    assert_true(c.run_usd == 0 && c.prefill_usd_per_mtokens == 0);
    assert_true(c.prefill_gflops_per_usd_hour == 0 && c.prefill_tokens_s_per_usd_hour == 0);
    /* No price: nothing. */
    clb_speed_cost(NULL, &s, 1, &c);
    assert_null(c.price);
    assert_true(c.run_usd == 0 && c.run_s == 0);
    /* One hour at $1.50 is $1.50; 1 token/s at $3.60/h is $1 per 1000 tokens. */
    close_to(clb_cost_usd(1.5, 3600), 1.5, 1e-15);
    close_to(clb_cost_usd_per_mtokens(3.6, 1), 1000, 1e-12);
    assert_true(clb_cost_usd_per_mtokens(3.6, 0) == 0);
    close_to(clb_per_usd_hour(10, 4), 2.5, 1e-15);
}

static void usd_format(void **state)
{
    char b[32];
    (void)state;

    clb_format_usd(0, b, sizeof(b));
    assert_string_equal(b, "$0");
    clb_format_usd(2, b, sizeof(b));
    assert_string_equal(b, "$2.00");
    clb_format_usd(999.994, b, sizeof(b));
    assert_string_equal(b, "$999.99");
    clb_format_usd(1000, b, sizeof(b));
    assert_string_equal(b, "$1,000");
    clb_format_usd(67400000, b, sizeof(b));
    assert_string_equal(b, "$67,400,000");
    clb_format_usd(0.00163, b, sizeof(b));
    assert_string_equal(b, "$0.00163");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse_good),    cmocka_unit_test(parse_bad),
        cmocka_unit_test(matching),      cmocka_unit_test(check_devices),
        cmocka_unit_test(matched),
        cmocka_unit_test(table_file),    cmocka_unit_test(gpt3),
        cmocka_unit_test(tokens),        cmocka_unit_test(usd_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
