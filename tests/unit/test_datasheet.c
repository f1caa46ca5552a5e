/*
 * The datasheet table (clbench/datasheet/datasheet.h): the built-in table
 * parses and holds the accelerators the issue names, every figure with a
 * source and in its unit; device names as drivers report them find their row
 * and only theirs; a broken table is refused with the row and the reason.
 * The CPU core designs: each CPUID family/model finds its design, and the
 * flops per cycle derived from its FMA units and the instruction set are
 * the hand-worked ones; a hybrid part's P- and E-cores are summed, each at
 * its own pipes, and the cores' kinds come from the lists Linux (or the
 * CLBENCH_FAKE_CPU_TYPES hook) gives.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "clbench/datasheet/datasheet.h"
#include "clbench/util/cpu.h"

static const struct clb_datasheet *table(void)
{
    struct clb_error e = { "" };
    const struct clb_datasheet *d = clb_datasheet_builtin(&e);
    if (!d)
        fail_msg("%s", e.msg);
    return d;
}

static const struct clb_ds_row *row_named(const char *name)
{
    const struct clb_datasheet *d = table();
    for (size_t i = 0; i < d->n_rows; i++)
        if (!strcmp(d->rows[i].name, name))
            return &d->rows[i];
    fail_msg("no row %s", name);
    return NULL;
}

static void builtin_complete(void **state)
{
    static const char *const wanted[] = {
        "H200", "H100 SXM", "H100 PCIe", "A100 SXM4 40GB", "A100 SXM4 80GB", "L40S", "NVIDIA L4",
        "T4", "V100", "RTX 4090", "RTX 4080", "RTX 3090", "MI300X", "MI250X", "7900 XTX",
        "Max 1550", "A770",
    };
    const struct clb_datasheet *d = table();
    (void)state;
    for (size_t w = 0; w < sizeof(wanted) / sizeof(wanted[0]); w++) {
        bool found = false;
        for (size_t i = 0; i < d->n_rows; i++)
            found |= strstr(d->rows[i].name, wanted[w]) != NULL;
        if (!found)
            fail_msg("no row for %s", wanted[w]);
    }
    /* Every row: a memory figure at least, and every figure sourced (the parser insists). */
    for (size_t i = 0; i < d->n_rows; i++) {
        const struct clb_ds_row *r = &d->rows[i];
        assert_true(r->fig[CLB_DS_MEMORY].present);
        assert_true(r->memory_bytes > 1000000000ull);
        for (int f = 0; f < CLB_DS_FIGURES; f++)
            if (r->fig[f].present)
                assert_non_null(r->fig[f].source);
    }
    /* Units: TFLOPS in the table, GFLOP/s here; GB/s as given. */
    const struct clb_ds_row *h100 = row_named("NVIDIA H100 SXM5 80GB");
    assert_true(h100->fig[CLB_DS_FP32_VECTOR].value == 67000);
    assert_true(h100->fig[CLB_DS_MEMORY].value == 3350);
    assert_true(h100->fig[CLB_DS_FP16_MATRIX].value > 10 * h100->fig[CLB_DS_FP32_VECTOR].value);
    assert_string_equal(clb_ds_figure_key(CLB_DS_FP32_VECTOR), "fp32_vector");
    assert_string_equal(clb_ds_figure_unit(CLB_DS_INT8_MATRIX), "GIOP/s");
}

static void matching(void **state)
{
    static const char *const cases[][3] = {
        /* CL_DEVICE_NAME, AMD board name, the row (NULL: none) */
        { "NVIDIA H100 80GB HBM3", NULL, "NVIDIA H100 SXM5 80GB" },
        { "NVIDIA H100 PCIe", NULL, "NVIDIA H100 PCIe 80GB" },
        { "NVIDIA A100-SXM4-40GB", NULL, "NVIDIA A100 SXM4 40GB" },
        { "NVIDIA A100-SXM4-80GB", NULL, "NVIDIA A100 SXM4 80GB" },
        { "NVIDIA L40S", NULL, "NVIDIA L40S" },
        { "NVIDIA L4", NULL, "NVIDIA L4" },
        { "NVIDIA L40", NULL, NULL },
        { "NVIDIA GeForce RTX 3090", NULL, "NVIDIA GeForce RTX 3090" },
        { "NVIDIA GeForce RTX 3090 Ti", NULL, NULL },
        { "NVIDIA H200 NVL", NULL, NULL },
        { "gfx942:sramecc+:xnack-", "AMD Instinct MI300X", "AMD Instinct MI300X" },
        { "gfx942:sramecc+:xnack-", "AMD Instinct MI300A", NULL },
        { "Intel(R) Arc(TM) A770 Graphics", NULL, "Intel Arc A770 (16GB)" },
        { "pthread-skylake-avx512-AMD EPYC", NULL, NULL },
    };
    const struct clb_datasheet *d = table();
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct clb_ds_row *r = clb_datasheet_match(d, cases[i][0], cases[i][1]);
        if (!cases[i][2] && r)
            fail_msg("%s matched %s", cases[i][0], r->name);
        if (cases[i][2] && (!r || strcmp(r->name, cases[i][2])))
            fail_msg("%s matched %s, not %s", cases[i][0], r ? r->name : "nothing", cases[i][2]);
    }
    assert_null(clb_datasheet_match(d, "gfx90a:sramecc+:xnack-", "AMD Instinct MI250X / MI250"));
    /* A package OpenCL shows as several devices: each is held against its share. */
    const struct clb_ds_row *mi250x = row_named("AMD Instinct MI250X");
    assert_int_equal(clb_datasheet_parts(mi250x, 68702699520ull), 2);  /* one die: 64 GiB */
    assert_int_equal(clb_datasheet_parts(mi250x, 128000000000ull), 1);
    assert_int_equal(clb_datasheet_parts(row_named("AMD Instinct MI300X"), 25769803776ull), 8);
    assert_int_equal(clb_datasheet_parts(row_named("NVIDIA H100 SXM5 80GB"), 1000000000ull), 1);
    assert_true(clb_datasheet_row_selected(row_named("NVIDIA H100 PCIe 80GB"), "h100"));
    assert_true(clb_datasheet_row_selected(row_named("NVIDIA H100 PCIe 80GB"), "NVIDIA H100 PCIe"));
    assert_false(clb_datasheet_row_selected(row_named("NVIDIA H100 PCIe 80GB"), "A100"));
}

/* A one-row table with `figures` and `extra` top-level row fields. */
static struct clb_datasheet *one(const char *figures, const char *extra, struct clb_error *e)
{
    char text[2048];
    snprintf(text, sizeof(text),
             "{\"schema\": \"clbench-datasheet/1\", \"accelerators\": [{\"name\": \"X1\", "
             "\"vendor\": \"V\", \"match\": [\"X1\"], %s \"figures\": {%s}, "
             "\"sources\": {\"S1\": \"the X1 datasheet\"}}]}",
             extra, figures);
    return clb_datasheet_parse(text, strlen(text), e);
}

/*
 * AMD quotes FP32 vector peaks with and without packed math (MI300X's 163.4 TFLOPS counts
 * it, MI250X's 47.9 does not): every AMD row states its convention, sourced, and holds
 * fp32_vector at the non-packed rate, below the packed one.
 */
static void amd_packed_fp32(void **state)
{
    const struct clb_datasheet *d = table();
    size_t amd = 0;
    (void)state;
    for (size_t i = 0; i < d->n_rows; i++) {
        const struct clb_ds_row *r = &d->rows[i];
        if (strcmp(r->vendor, "AMD"))
            continue;
        amd++;
        if (!r->fp32_packed_stated || r->fp32_packed_counted || !r->fp32_packed.source ||
            !r->fp32_packed.note)
            fail_msg("%s: no non-packed fp32_vector stated and sourced", r->name);
        assert_true(r->fig[CLB_DS_FP32_VECTOR].present);
        /* CDNA's packed FP32 and RDNA 3's dual issue both double the FMAs a lane a clock
         * (the vendor rounds each figure to 3 digits). */
        assert_true(r->fp32_packed.value == 2 * r->fig[CLB_DS_FP32_VECTOR].value ||
                    fabs(r->fp32_packed.value / r->fig[CLB_DS_FP32_VECTOR].value - 2) < 0.005);
    }
    assert_true(amd >= 3);
    /* The non-packed rates: CUs x clock x 128 flops a clock a CU. */
    assert_true(fabs(row_named("AMD Instinct MI300X")->fig[CLB_DS_FP32_VECTOR].value -
                     304 * 2.1 * 128) < 50);
    assert_true(fabs(row_named("AMD Instinct MI250X")->fig[CLB_DS_FP32_VECTOR].value -
                     220 * 1.7 * 128) < 50);
    assert_true(row_named("AMD Instinct MI300X")->fp32_packed.value == 163400);
    assert_true(row_named("AMD Instinct MI250X")->fp32_packed.value == 95700);

    /* The parser refuses an AMD row without it, or one whose figures contradict it. */
    static const char *const bad[][2] = {
        { "", "must state" },
        { "\"fp32_packed\": {\"counted\": false, \"tflops\": 10, \"source\": \"S1\"},",
          "is not below" },
        { "\"fp32_packed\": {\"counted\": true, \"tflops\": 20, \"source\": \"S1\"},",
          "differs from" },
        { "\"fp32_packed\": {\"counted\": false, \"tflops\": 20},", "no source" },
        { "\"fp32_packed\": {\"tflops\": 20, \"source\": \"S1\"},", "counted" },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char text[1024];
        struct clb_error e = { "" };
        snprintf(text, sizeof(text),
                 "{\"schema\": \"clbench-datasheet/1\", \"accelerators\": [{\"name\": \"X1\", "
                 "\"vendor\": \"AMD\", \"match\": [\"X1\"], %s \"figures\": {\"fp32_vector\": "
                 "{\"tflops\": 10, \"source\": \"S1\"}, \"memory\": {\"gbps\": 500, \"source\": "
                 "\"S1\"}}, \"sources\": {\"S1\": \"the X1 datasheet\"}}]}", bad[i][0]);
        assert_null(clb_datasheet_parse(text, strlen(text), &e));
        if (!strstr(e.msg, bad[i][1]) || !strstr(e.msg, "X1"))
            fail_msg("case %zu: '%s' does not say '%s' about X1", i, e.msg, bad[i][1]);
    }
}

static void refused(void **state)
{
    struct clb_error e;
    struct clb_datasheet *d;
    (void)state;

    d = one("\"fp32_vector\": {\"tflops\": 10, \"source\": \"S1\"}, "
            "\"memory\": {\"gbps\": 500, \"bytes\": 16000000000, \"source\": \"S1\"}",
            "\"memory_gbps\": 500,", &e);
    assert_non_null(d); /* the good one */
    assert_true(d->rows[0].memory_bytes == 16000000000ull);
    clb_datasheet_destroy(d);
    static const char *const bad[][3] = {
        { "\"fp32_vector\": {\"tflops\": 10, \"source\": \"S9\"}", "", "no source" },
        { "\"fp32_vector\": {\"tflops\": 10}", "", "no source" },
        { "\"fp32_vector\": {\"tflops\": -1, \"source\": \"S1\"}", "", "positive" },
        { "\"fp32_vector\": {\"tops\": 10, \"source\": \"S1\"}", "", "positive \"tflops\"" },
        { "\"fp33_vector\": {\"tflops\": 10, \"source\": \"S1\"}", "", "unknown figure" },
        { "\"fp32_vector\": {\"tflops\": 10, \"source\": \"S1\"}, "
          "\"fp16_vector\": {\"tflops\": 5, \"source\": \"S1\"}", "", "fp16_vector (5000) is below" },
        { "\"fp16_vector\": {\"tflops\": 50, \"source\": \"S1\"}, "
          "\"fp16_matrix\": {\"tflops\": 20, \"source\": \"S1\"}", "", "fp16_matrix" },
        { "\"memory\": {\"gbps\": 500, \"source\": \"S1\"}", "\"memory_gbps\": 600,", "memory_gbps" },
        { "\"boost_clock\": {\"mhz\": 1500, \"source\": \"S1\"}", "\"boost_mhz\": 1600,", "boost_mhz" },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        e.msg[0] = '\0';
        assert_null(one(bad[i][0], bad[i][1], &e));
        if (!strstr(e.msg, bad[i][2]) || !strstr(e.msg, "X1"))
            fail_msg("case %zu: '%s' does not say '%s' about X1", i, e.msg, bad[i][2]);
    }
    assert_null(clb_datasheet_parse("{\"schema\": \"x\"}", 15, &e));
    assert_null(clb_datasheet_parse("[", 1, &e));
}

static void cpu_cores(void **state)
{
    const struct clb_datasheet *d = table();
    (void)state;
    /* Every design: a vendor, model ranges, and FMA units with a source, or a note why not. */
    assert_true(d->n_cores >= 6);
    for (size_t i = 0; i < d->n_cores; i++) {
        const struct clb_ds_core *c = &d->cores[i];
        assert_true(json_array_size(c->models) > 0);
        if (c->fma_units)
            assert_true(c->source && strlen(c->source) > 20 && c->fma_bits >= 128);
        else
            assert_non_null(c->note);
    }
    static const struct {
        const char *vendor;
        unsigned family, model;
        const char *core; /* NULL: none */
        unsigned isa_bits, elem_bits;
        double fpc;       /* hand-worked flops per cycle per core */
    } cases[] = {
        /* EPYC 9004 (Genoa): 2 FMA x 256 bits; AVX-512 runs at the 256-bit rate. */
        { "AuthenticAMD", 0x19, 0x11, "AMD Zen 4", 512, 32, 2 * 8 * 2 },
        { "AuthenticAMD", 0x19, 0x11, "AMD Zen 4", 512, 64, 2 * 4 * 2 },
        { "AuthenticAMD", 0x19, 0x61, "AMD Zen 4", 512, 32, 32 },   /* Ryzen 7000 */
        { "AuthenticAMD", 0x19, 0x01, "AMD Zen 3", 256, 32, 32 },   /* EPYC 7003 */
        { "AuthenticAMD", 0x17, 0x31, "AMD Zen 2", 256, 64, 16 },   /* EPYC 7002 */
        { "AuthenticAMD", 0x17, 0x01, "AMD Zen / Zen+", 256, 32, 2 * 4 * 2 },
        /* Emerald Rapids: 2 FMA x 512 bits; with AVX2 only, 256 bits of each. */
        { "GenuineIntel", 6, 0xCF, "Intel Xeon Scalable", 512, 32, 2 * 16 * 2 },
        { "GenuineIntel", 6, 0xCF, "Intel Xeon Scalable", 256, 32, 2 * 8 * 2 },
        { "GenuineIntel", 6, 0x8F, "Intel Xeon Scalable", 512, 64, 2 * 8 * 2 },
        { "GenuineIntel", 6, 0x55, "Intel Skylake-SP", 512, 32, 0 }, /* 1 or 2 units */
        /* EPYC 9005 Turin (this project's third machine): 2 FMA x 512 bits = 2 x 16 x 2. */
        { "AuthenticAMD", 0x1a, 0x02, "AMD Zen 5 (512-bit", 512, 32, 64 },
        { "AuthenticAMD", 0x1a, 0x02, "AMD Zen 5 (512-bit", 512, 64, 2 * 8 * 2 },
        { "AuthenticAMD", 0x1a, 0x02, "AMD Zen 5 (512-bit", 256, 32, 32 },  /* AVX2 only */
        { "AuthenticAMD", 0x1a, 0x08, "AMD Zen 5 (512-bit", 512, 32, 64 },  /* Threadripper */
        { "AuthenticAMD", 0x1a, 0x44, "AMD Zen 5 (512-bit", 512, 32, 64 },  /* Ryzen 9000 */
        { "AuthenticAMD", 0x1a, 0x70, "AMD Zen 5 (512-bit", 512, 32, 64 },  /* Strix Halo */
        /* Strix Point: the same two FMA pipes, 256 bits wide: 2 x 8 x 2. */
        { "AuthenticAMD", 0x1a, 0x24, "AMD Zen 5 (256-bit", 512, 32, 32 },
        { "AuthenticAMD", 0x1a, 0x24, "AMD Zen 5 (256-bit", 512, 64, 16 },
        /* Models whose datapath no source gives per model: no design. */
        { "AuthenticAMD", 0x1a, 0x11, NULL, 512, 32, 0 },                  /* Turin Dense */
        { "AuthenticAMD", 0x1a, 0x60, NULL, 512, 32, 0 },                  /* Krackan */
        { "AuthenticAMD", 0x1a, 0x68, NULL, 512, 32, 0 },
        /* Bergamo (A0h) and Siena: Zen 4's two 256-bit pipes. */
        { "AuthenticAMD", 0x19, 0xa0, "AMD Zen 4c", 512, 32, 2 * 8 * 2 },
        { "AuthenticAMD", 0x19, 0xaf, "AMD Zen 4c", 512, 64, 16 },
        { "AuthenticAMD", 0x19, 0xb0, NULL, 512, 32, 0 },
        /* Ice Lake-SP: 2 x 512 bits on every SKU; Ice Lake-D (6Ch) not known. */
        { "GenuineIntel", 6, 0x6a, "Intel Ice Lake-SP", 512, 32, 2 * 16 * 2 },
        { "GenuineIntel", 6, 0x6a, "Intel Ice Lake-SP", 512, 64, 32 },
        { "GenuineIntel", 6, 0x6c, NULL, 512, 32, 0 },
        /* A hybrid part's P-core alone: Golden Cove's 2 x 256 bits. */
        { "GenuineIntel", 6, 0x97, "Intel Alder Lake", 256, 32, 32 },
        { "GenuineIntel", 6, 0xbd, "Intel Arrow Lake", 256, 32, 32 },
        { "GenuineIntel", 6, 0x9E, "Intel Haswell", 256, 32, 32 },
        { "GenuineIntel", 6, 0x9E, "Intel Haswell", 0, 32, 0 },      /* no vector FMA */
        { "GenuineIntel", 6, 0x01, NULL, 512, 32, 0 },
        { "AuthenticAMD", 6, 0xCF, NULL, 512, 32, 0 },               /* vendor counts */
        { "CentaurHauls", 6, 0x0F, NULL, 128, 32, 0 },
        /* Arm, by MIDR: vendor the implementer's name, family its code, model the part.
         * Neoverse N1 (Graviton2, Altra): 2 x 128-bit NEON FMA = 2 x 4 x 2 fp32. */
        { "ARM", 0x41, 0xd0c, "Arm Neoverse N1", 128, 32, 2 * 4 * 2 },
        { "ARM", 0x41, 0xd0c, "Arm Neoverse N1", 128, 64, 2 * 2 * 2 },
        /* Neoverse V1 (Graviton3): 4 x 128 NEON = 2 x 256 SVE: 32 fp32 flops with NEON
         * (128) and with SVE at its 256-bit length alike. */
        { "ARM", 0x41, 0xd40, "Arm Neoverse V1", 128, 32, 4 * 4 * 2 },
        { "ARM", 0x41, 0xd40, "Arm Neoverse V1", 256, 32, 2 * 8 * 2 },
        { "ARM", 0x41, 0xd40, "Arm Neoverse V1", 256, 64, 2 * 4 * 2 },
        /* Neoverse V2 (Grace, Graviton4): 4 x 128 for NEON and SVE2 (128-bit length). */
        { "ARM", 0x41, 0xd4f, "Arm Neoverse V2", 128, 32, 4 * 4 * 2 },
        { "ARM", 0x41, 0xd4f, "Arm Neoverse V2", 128, 64, 4 * 2 * 2 },
        /* Neoverse N2: 2 x 128. */
        { "ARM", 0x41, 0xd49, "Arm Neoverse N2", 128, 32, 2 * 4 * 2 },
        /* A64FX: 2 x 512-bit SVE; NEON's 128 bits on the same two pipes. */
        { "Fujitsu", 0x46, 0x001, "Fujitsu A64FX", 512, 64, 2 * 8 * 2 },
        { "Fujitsu", 0x46, 0x001, "Fujitsu A64FX", 512, 32, 2 * 16 * 2 },
        { "Fujitsu", 0x46, 0x001, "Fujitsu A64FX", 128, 32, 2 * 4 * 2 },
        { "ARM", 0x41, 0xd0b, NULL, 128, 32, 0 },    /* Cortex-A76: no row */
        { "ARM", 0x46, 0x001, NULL, 512, 32, 0 },    /* the vendor name and code go together */
        { "Fujitsu", 0x41, 0xd0c, NULL, 128, 32, 0 },
        { "unknown", 0x00, 0x051, NULL, 128, 32, 0 }, /* qemu's "max" */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct clb_ds_core *c =
            clb_datasheet_match_core(d, cases[i].vendor, cases[i].family, cases[i].model);
        if (!cases[i].core ? c != NULL : !c || strncmp(c->name, cases[i].core,
                                                        strlen(cases[i].core)))
            fail_msg("case %zu: %s", i, c ? c->name : "no core");
        assert_true(clb_ds_core_flops_per_cycle(c, cases[i].isa_bits, cases[i].elem_bits) ==
                    cases[i].fpc);
    }
}

/* A hybrid part's whole-CPU rate: P-cores and E-cores, each at its own pipes, summed. */
static void cpu_cores_hybrid(void **state)
{
    const struct clb_datasheet *d = table();
    (void)state;
    static const struct {
        unsigned model, isa_bits, elem_bits, p, e;
        const char *e_name;
        double e_fpc, cpu_fpc; /* hand-worked: one E-core, the whole CPU */
    } cases[] = {
        /* Core i9-12900K: 8 Golden Cove (2 x 256: 32) + 8 Gracemont (2 x 128: 16). */
        { 0x97, 256, 32, 8, 8, "Gracemont", 16, 8 * 32 + 8 * 16 },
        { 0x97, 256, 64, 8, 8, "Gracemont", 8, 8 * 16 + 8 * 8 },
        /* Core i9-13900K: 8 Raptor Cove + 16 Gracemont. */
        { 0xb7, 256, 32, 8, 16, "Gracemont", 16, 8 * 32 + 16 * 16 },
        /* Core Ultra 7 155H: 6 Redwood Cove + 8 + 2 (low-power) Crestmont. */
        { 0xaa, 256, 32, 6, 10, "Crestmont", 16, 6 * 32 + 10 * 16 },
        /* Core Ultra 9 285K: 8 Lion Cove + 16 Skymont (4 x 128: 32). */
        { 0xc6, 256, 32, 8, 16, "Skymont", 32, 8 * 32 + 16 * 32 },
        /* Core Ultra 7 258V (Lunar Lake): 4 + 4. */
        { 0xbd, 256, 64, 4, 4, "Skymont", 16, 4 * 16 + 4 * 16 },
        /* E-cores disabled: the P-cores alone. */
        { 0x97, 256, 32, 8, 0, "Gracemont", 16, 8 * 32 },
        /* No vector FMA in the instruction set: nothing. */
        { 0x97, 0, 32, 8, 8, "Gracemont", 0, 0 },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct clb_ds_core *c = clb_datasheet_match_core(d, "GenuineIntel", 6, cases[i].model);
        if (!c || !c->e_fma_units || strcmp(c->e_name, cases[i].e_name) || !c->e_source ||
            strlen(c->e_source) < 20)
            fail_msg("case %zu: model 0x%x is no hybrid design with %s E-cores", i,
                     cases[i].model, cases[i].e_name);
        if (clb_ds_core_e_flops_per_cycle(c, cases[i].isa_bits, cases[i].elem_bits) !=
                cases[i].e_fpc ||
            clb_ds_core_cpu_flops_per_cycle(c, cases[i].isa_bits, cases[i].elem_bits, cases[i].p,
                                            cases[i].e) != cases[i].cpu_fpc)
            fail_msg("case %zu: E-core %g, CPU %g flops/cycle, want %g and %g", i,
                     clb_ds_core_e_flops_per_cycle(c, cases[i].isa_bits, cases[i].elem_bits),
                     clb_ds_core_cpu_flops_per_cycle(c, cases[i].isa_bits, cases[i].elem_bits,
                                                     cases[i].p, cases[i].e),
                     cases[i].e_fpc, cases[i].cpu_fpc);
    }
    /* A plain design: P-cores only; E-cores it does not name make the rate unknown. */
    const struct clb_ds_core *zen5 = clb_datasheet_match_core(d, "AuthenticAMD", 0x1a, 0x02);
    assert_non_null(zen5);
    assert_int_equal(zen5->e_fma_units, 0);
    assert_true(clb_ds_core_cpu_flops_per_cycle(zen5, 512, 32, 2, 0) == 2 * 64);
    assert_true(clb_ds_core_cpu_flops_per_cycle(zen5, 512, 32, 2, 1) == 0);
    assert_true(clb_ds_core_cpu_flops_per_cycle(zen5, 512, 32, 0, 0) == 0);
    assert_true(clb_ds_core_cpu_flops_per_cycle(NULL, 512, 32, 2, 0) == 0);
    assert_true(clb_ds_core_e_flops_per_cycle(zen5, 512, 32) == 0);
}

static struct clb_datasheet *with_core(const char *core, struct clb_error *e)
{
    char text[2048];
    snprintf(text, sizeof(text),
             "{\"schema\": \"clbench-datasheet/1\", \"accelerators\": [{\"name\": \"X1\", "
             "\"vendor\": \"V\", \"match\": [\"X1\"], \"figures\": {}, \"sources\": {}}], "
             "\"cpu_cores\": [{\"name\": \"C1\", \"vendor\": \"V\", \"family\": 6, %s}]}",
             core);
    return clb_datasheet_parse(text, strlen(text), e);
}

static void cpu_cores_refused(void **state)
{
    struct clb_error e;
    struct clb_datasheet *d;
    (void)state;

    d = with_core("\"models\": [[1, 2]], \"fma_units\": 2, \"fma_bits\": 256, "
                  "\"source\": \"a manual\"", &e);
    assert_non_null(d);
    assert_int_equal(d->n_cores, 1);
    clb_datasheet_destroy(d);
    d = with_core("\"models\": [[1, 2]], \"fma_units\": 2, \"fma_bits\": 256, "
                  "\"source\": \"a manual\", \"e_core\": {\"name\": \"Tiny\", \"fma_units\": 1, "
                  "\"fma_bits\": 128, \"source\": \"another manual\"}", &e);
    assert_non_null(d);
    assert_string_equal(d->cores[0].e_name, "Tiny");
    assert_int_equal(d->cores[0].e_fma_units, 1);
    assert_int_equal(d->cores[0].e_fma_bits, 128);
    assert_true(clb_ds_core_cpu_flops_per_cycle(&d->cores[0], 256, 32, 1, 2) ==
                32 + 2 * (1 * 4 * 2));
    clb_datasheet_destroy(d);
    static const char *const bad[][2] = {
        { "\"models\": [[2, 1]], \"fma_units\": 2, \"fma_bits\": 256, \"source\": \"m\"",
          "models" },
        { "\"models\": [], \"fma_units\": 2, \"fma_bits\": 256, \"source\": \"m\"", "models" },
        { "\"models\": [[1, 2]], \"fma_units\": 2, \"fma_bits\": 384, \"source\": \"m\"",
          "fma_bits" },
        { "\"models\": [[1, 2]], \"fma_units\": 2, \"fma_bits\": 256", "source" },
        { "\"models\": [[1, 2]]", "a note must say why" },
        { "\"models\": [[1, 2]], \"fma_units\": 2, \"fma_bits\": 256, \"source\": \"m\", "
          "\"e_core\": {\"name\": \"E\", \"fma_units\": 2, \"fma_bits\": 96, \"source\": \"m\"}",
          "e_core needs" },
        { "\"models\": [[1, 2]], \"fma_units\": 2, \"fma_bits\": 256, \"source\": \"m\", "
          "\"e_core\": {\"fma_units\": 2, \"fma_bits\": 128, \"source\": \"m\"}",
          "e_core needs" },
        { "\"models\": [[1, 2]], \"fma_units\": 2, \"fma_bits\": 256, \"source\": \"m\", "
          "\"e_core\": {\"name\": \"E\", \"fma_units\": 2, \"fma_bits\": 128}",
          "e_core needs" },
        { "\"models\": [[1, 2]], \"fma_units\": 2, \"fma_bits\": 256, \"source\": \"m\", "
          "\"e_core\": 3", "e_core needs" },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        e.msg[0] = '\0';
        assert_null(with_core(bad[i][0], &e));
        if (!strstr(e.msg, bad[i][1]) || !strstr(e.msg, "C1"))
            fail_msg("case %zu: '%s' does not say '%s' about C1", i, e.msg, bad[i][1]);
    }
}

/* The cores' kinds by the hook: all P, all E, split, and the hook's malformed values refused. */
static void cpu_types(void **state)
{
    const unsigned cores = clb_cpu_count_cores();
    unsigned p = 99, e = 99;
    (void)state;

    setenv("CLBENCH_FAKE_CPU_TYPES", "0-4095/", 1);
    assert_true(clb_cpu_count_core_types(&p, &e));
    assert_int_equal(p, cores);
    assert_int_equal(e, 0);
    setenv("CLBENCH_FAKE_CPU_TYPES", "/0-4095", 1);
    assert_true(clb_cpu_count_core_types(&p, &e));
    assert_int_equal(p, 0);
    assert_int_equal(e, cores);
    /* CPU 0 a P-core, every other an E-core: at most one P-core, the rest E, none lost. */
    setenv("CLBENCH_FAKE_CPU_TYPES", "0/1-4095", 1);
    assert_true(clb_cpu_count_core_types(&p, &e));
    assert_true(p <= 1 && p + e == cores);
    setenv("CLBENCH_FAKE_CPU_TYPES", "0,2-4095/1", 1);
    assert_true(clb_cpu_count_core_types(&p, &e));
    assert_true(e <= 1 && p + e == cores);
    static const char *const bad[] = {
        "0-4095",      /* no slash */
        "0-x/",        /* not a list */
        "3-1/",        /* backwards */
        "0-4095/0",    /* CPU 0 of both kinds */
        "/",           /* no CPU of either kind */
        "4000-4095/",  /* the cores here of neither kind */
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        p = e = 99;
        setenv("CLBENCH_FAKE_CPU_TYPES", bad[i], 1);
        if (clb_cpu_count_core_types(&p, &e) || p || e)
            fail_msg("'%s' gave %u P + %u E", bad[i], p, e);
    }
    unsetenv("CLBENCH_FAKE_CPU_TYPES");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builtin_complete),
        cmocka_unit_test(matching),
        cmocka_unit_test(refused),
        cmocka_unit_test(amd_packed_fp32),
        cmocka_unit_test(cpu_cores),
        cmocka_unit_test(cpu_cores_hybrid),
        cmocka_unit_test(cpu_types),
        cmocka_unit_test(cpu_cores_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
