/*
 * OpenBLAS's core against the CPU: the table of cores, which is older than
 * which CPU, and what --blas-core decides in each case (no OpenBLAS needed).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "clbench/backends/blascore.h"

static void core_levels(void **state)
{
    enum clb_cpu_level l;

    (void)state;
    assert_true(clb_blas_core_level("Prescott", &l) && l == CLB_CPU_SSE3);
    assert_true(clb_blas_core_level("prescott", &l) && l == CLB_CPU_SSE3); /* any case */
    assert_true(clb_blas_core_level("Haswell", &l) && l == CLB_CPU_AVX2_FMA);
    assert_true(clb_blas_core_level("Zen", &l) && l == CLB_CPU_AVX2_FMA);
    assert_true(clb_blas_core_level("SkylakeX", &l) && l == CLB_CPU_AVX512);
    assert_true(clb_blas_core_level("Cooperlake", &l) && l == CLB_CPU_AVX512_BF16);
    assert_true(clb_blas_core_level("NeoverseV1", &l) && l == CLB_CPU_SVE);
    assert_true(clb_blas_core_level("ARMV8", &l) && l == CLB_CPU_NEON);
    assert_false(clb_blas_core_level("Zen9", &l));
    assert_false(clb_blas_core_level(NULL, &l));
    /* Each CPU level's best core really is of that level. */
    for (int c = CLB_CPU_SSE2; c <= CLB_CPU_SVE; c++) {
        const char *core = clb_blas_core_for(c);
        if (!core)
            continue;
        assert_true(clb_blas_core_level(core, &l));
        assert_false(clb_blas_core_older(l, c));
    }
    assert_null(clb_blas_core_for(CLB_CPU_SCALAR));
}

static void older(void **state)
{
    (void)state;
    assert_true(clb_blas_core_older(CLB_CPU_SSE3, CLB_CPU_AVX512));      /* Prescott on a Xeon */
    assert_true(clb_blas_core_older(CLB_CPU_SSE3, CLB_CPU_AVX2_FMA));
    assert_true(clb_blas_core_older(CLB_CPU_AVX2_FMA, CLB_CPU_AVX512));  /* Haswell on AVX-512 */
    assert_false(clb_blas_core_older(CLB_CPU_AVX512, CLB_CPU_AVX512_BF16)); /* bf16: no GEMM gain */
    assert_false(clb_blas_core_older(CLB_CPU_AVX512_BF16, CLB_CPU_AVX512));
    assert_false(clb_blas_core_older(CLB_CPU_AVX2_FMA, CLB_CPU_AVX2_FMA));
    assert_true(clb_blas_core_older(CLB_CPU_NEON, CLB_CPU_SVE));
    assert_false(clb_blas_core_older(CLB_CPU_SSE3, CLB_CPU_SVE));       /* other architecture */
    assert_false(clb_blas_core_older(CLB_CPU_SSE3, CLB_CPU_SCALAR));
}

/*
 * The arm64 cores of OpenBLAS 0.3.21's DYNAMIC_ARCH build as Debian 12's libopenblas0-pthread
 * exports them (its gotoblas_* kernel tables): no NeoverseV2, A64FX or ARMV8SVE.
 */
static bool has_0321(const char *core)
{
    static const char *const cores[] = { "ARMV8",      "CortexA53",    "CortexA55",
                                         "CortexA57",  "CortexA72",    "CortexA73",
                                         "EMAG8180",   "Falkor",       "NeoverseN1",
                                         "NeoverseN2", "NeoverseV1",   "ThunderX",
                                         "ThunderX2T99", "ThunderX3T110", "TSV110" };
    for (size_t i = 0; i < sizeof(cores) / sizeof(cores[0]); i++)
        if (!strcasecmp(core, cores[i]))
            return true;
    return false;
}

/* The design of an Arm part, as clb_cpu_id_detect fills it from a MIDR. */
static const struct clb_blas_design *arm_design(unsigned implementer, unsigned part)
{
    const struct clb_cpu_id id = { .known = true, .vendor = "ARM", .family = implementer,
                                   .model = part, .midr = true };
    return clb_blas_design_for(&id);
}

static void decide_on(const char *mode, const char *current, const char *user,
                      enum clb_cpu_level cpu, const struct clb_blas_design *design,
                      bool (*has)(const char *), bool switch_core,
                      enum clb_blas_core_source source, const char *want)
{
    struct clb_blas_core_decision d;

    clb_blas_core_decide(mode, current, user, cpu, design, has, &d);
    if (d.switch_core != switch_core || d.source != source ||
        (switch_core && strcmp(d.want, want)))
        fail_msg("%s, %s on %s, user %s: got switch %d to '%s' by %s", mode, current,
                 design ? design->name : "-", user ? user : "-", d.switch_core, d.want,
                 clb_blas_core_source_name(d.source));
}

static void decide(const char *mode, const char *current, const char *user,
                   enum clb_cpu_level cpu, bool switch_core, enum clb_blas_core_source source,
                   const char *want)
{
    decide_on(mode, current, user, cpu, NULL, NULL, switch_core, source, want);
}

static void decisions(void **state)
{
    (void)state;
    /* The Emerald Rapids case: Prescott on AVX-512 is switched. */
    decide("auto", "Prescott", NULL, CLB_CPU_AVX512, true, CLB_BLAS_CORE_CLBENCH, "SkylakeX");
    decide("auto", "Prescott", NULL, CLB_CPU_AVX512_BF16, true, CLB_BLAS_CORE_CLBENCH,
           "SkylakeX"); /* bf16 adds nothing to fp32/fp64 GEMM; SkylakeX is in more builds */
    decide("auto", "Prescott", NULL, CLB_CPU_AVX2_FMA, true, CLB_BLAS_CORE_CLBENCH, "Haswell");
    decide("auto", "Zen", NULL, CLB_CPU_AVX512, true, CLB_BLAS_CORE_CLBENCH, "SkylakeX");
    decide("auto", "ARMV8", NULL, CLB_CPU_SVE, true, CLB_BLAS_CORE_CLBENCH, "NeoverseV1");
    /* Right already, or nothing better known: kept. */
    decide("auto", "Cooperlake", NULL, CLB_CPU_AVX512_BF16, false, CLB_BLAS_CORE_OPENBLAS, "");
    decide("auto", "SkylakeX", NULL, CLB_CPU_AVX512_BF16, false, CLB_BLAS_CORE_OPENBLAS, "");
    decide("auto", "Zen", NULL, CLB_CPU_AVX2_FMA, false, CLB_BLAS_CORE_OPENBLAS, "");
    decide("auto", "NeoverseN1", NULL, CLB_CPU_NEON, false, CLB_BLAS_CORE_OPENBLAS, "");
    decide("auto", "Zen9", NULL, CLB_CPU_AVX512, false, CLB_BLAS_CORE_OPENBLAS, "");
    /* The user's own OPENBLAS_CORETYPE is respected, even when it is older. */
    decide("auto", "Prescott", "Prescott", CLB_CPU_AVX512, false, CLB_BLAS_CORE_USER, "");
    /* as-is keeps whatever runs. */
    decide("as-is", "Prescott", NULL, CLB_CPU_AVX512, false, CLB_BLAS_CORE_OPENBLAS, "");
    decide("as-is", "Prescott", "Prescott", CLB_CPU_AVX512, false, CLB_BLAS_CORE_USER, "");
    /* A name: switched unless it already runs (any case), over the environment too. */
    decide("Haswell", "Cooperlake", NULL, CLB_CPU_AVX512, true, CLB_BLAS_CORE_OPTION,
           "Haswell");
    decide("haswell", "Haswell", NULL, CLB_CPU_AVX512, false, CLB_BLAS_CORE_OPTION, "");
    decide("SkylakeX", "Prescott", "Prescott", CLB_CPU_AVX512, true, CLB_BLAS_CORE_OPTION,
           "SkylakeX");
}

/* Which Arm design a MIDR is, and OpenBLAS's cores for it. */
static void designs(void **state)
{
    enum clb_cpu_level l;
    static const struct {
        unsigned implementer, part;
        const char *name, *core; /* the design, its own core */
    } cases[] = {
        { 0x41, 0xd0c, "Neoverse N1", "NeoverseN1" }, /* Graviton2, Ampere Altra */
        { 0x41, 0xd40, "Neoverse V1", "NeoverseV1" }, /* Graviton3 */
        { 0x41, 0xd4f, "Neoverse V2", "NeoverseV2" }, /* Grace, Graviton4 */
        { 0x41, 0xd49, "Neoverse N2", "NeoverseN2" },
        { 0x46, 0x001, "A64FX", "A64FX" },
    };
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct clb_blas_design *d = arm_design(cases[i].implementer, cases[i].part);
        if (!d || strcmp(d->name, cases[i].name) || strcmp(d->cores[0], cases[i].core))
            fail_msg("0x%x 0x%x: %s", cases[i].implementer, cases[i].part, d ? d->name : "none");
        /* Every core named is one clbench's table knows, of Arm's levels. */
        for (size_t j = 0; d->cores[j]; j++)
            assert_true(clb_blas_core_level(d->cores[j], &l) && l >= CLB_CPU_NEON);
    }
    assert_null(arm_design(0x41, 0xd0b));  /* Cortex-A76: no design here */
    assert_null(arm_design(0x42, 0xd0c));  /* the part of another implementer */
    assert_null(arm_design(0x46, 0xd0c));
    assert_null(arm_design(0x41, 0x001));
    assert_null(clb_blas_design_for(NULL));
    /* An x86 ID with the same numbers is no Arm design. */
    const struct clb_cpu_id x86 = { .known = true, .vendor = "ARM", .family = 0x41,
                                    .model = 0xd0c };
    assert_null(clb_blas_design_for(&x86));
    /* The MIDR hook, on any architecture: implementer 0x41, r4p1, part 0xd0c. */
    struct clb_cpu_id id;
    setenv("CLBENCH_FAKE_MIDR", "0x414fd0c1", 1);
    clb_cpu_id_detect(&id);
    assert_true(id.known && id.midr && !strcmp(id.vendor, "ARM"));
    assert_int_equal(id.family, 0x41);
    assert_int_equal(id.model, 0xd0c);
    assert_int_equal(id.variant, 4);
    assert_int_equal(id.revision, 1);
    assert_string_equal(clb_blas_design_for(&id)->name, "Neoverse N1");
    setenv("CLBENCH_FAKE_MIDR", "0x461f0010", 1);
    clb_cpu_id_detect(&id);
    assert_true(!strcmp(id.vendor, "Fujitsu") && id.family == 0x46 && id.model == 0x001 &&
                id.variant == 1 && id.revision == 0);
    setenv("CLBENCH_FAKE_MIDR", "0x000f0510", 1); /* qemu's max: implementer 0 */
    clb_cpu_id_detect(&id);
    assert_true(id.known && !strcmp(id.vendor, "unknown") && id.model == 0x051);
    assert_null(clb_blas_design_for(&id));
    /* A malformed one is ignored: the CPU's own identity. */
    struct clb_cpu_id own;
    setenv("CLBENCH_FAKE_MIDR", "0x1410fd0c1", 1);
    clb_cpu_id_detect(&id);
    setenv("CLBENCH_FAKE_MIDR", "neoverse", 1);
    clb_cpu_id_detect(&own);
    assert_memory_equal(&id, &own, sizeof(id));
    unsetenv("CLBENCH_FAKE_MIDR");
    clb_cpu_id_detect(&own);
    assert_memory_equal(&id, &own, sizeof(id));
    /* CLBENCH_FAKE_CPU_ID wins over it. */
    setenv("CLBENCH_FAKE_MIDR", "0x414fd0c1", 1);
    setenv("CLBENCH_FAKE_CPU_ID", "AuthenticAMD:25:17", 1);
    clb_cpu_id_detect(&id);
    assert_true(!id.midr && id.family == 25);
    unsetenv("CLBENCH_FAKE_CPU_ID");
    unsetenv("CLBENCH_FAKE_MIDR");
}

/* The core to run on each design, with every core and with OpenBLAS 0.3.21's. */
static void design_cores(void **state)
{
    const struct clb_blas_design *n1 = arm_design(0x41, 0xd0c), *v1 = arm_design(0x41, 0xd40),
                                 *v2 = arm_design(0x41, 0xd4f), *n2 = arm_design(0x41, 0xd49),
                                 *fx = arm_design(0x46, 0x001);
    static const struct {
        int design; /* index into the designs above */
        enum clb_cpu_level cpu;
        bool v0321; /* only OpenBLAS 0.3.21's cores */
        const char *core;
    } cases[] = {
        { 0, CLB_CPU_NEON, false, "NeoverseN1" }, { 0, CLB_CPU_NEON, true, "NeoverseN1" },
        { 1, CLB_CPU_SVE, false, "NeoverseV1" },  { 1, CLB_CPU_SVE, true, "NeoverseV1" },
        { 1, CLB_CPU_NEON, false, "NeoverseN1" }, /* SVE off: OpenBLAS's own fallback */
        { 2, CLB_CPU_SVE, false, "NeoverseV2" },
        { 2, CLB_CPU_SVE, true, "NeoverseV1" },   /* 0.3.21 has no NeoverseV2 */
        { 2, CLB_CPU_NEON, true, "NeoverseN1" },
        { 3, CLB_CPU_SVE, false, "NeoverseN2" },  { 3, CLB_CPU_SVE, true, "NeoverseN2" },
        { 3, CLB_CPU_NEON, false, "NeoverseN1" },
        { 4, CLB_CPU_SVE, false, "A64FX" },
        { 4, CLB_CPU_SVE, true, NULL },           /* 0.3.21 has neither A64FX nor ARMV8SVE */
        { 4, CLB_CPU_NEON, false, NULL },
        { 0, CLB_CPU_AVX512, false, NULL },       /* a faked MIDR on an x86 build */
    };
    const struct clb_blas_design *all[] = { n1, v1, v2, n2, fx };
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *core = clb_blas_design_core(all[cases[i].design], cases[i].cpu,
                                                cases[i].v0321 ? has_0321 : NULL);
        if (cases[i].core ? !core || strcmp(core, cases[i].core) : core != NULL)
            fail_msg("case %zu: %s", i, core ? core : "none");
    }
    assert_null(clb_blas_design_core(NULL, CLB_CPU_SVE, NULL));
    /* Older on a design: by level, or after the best in its list, or not in it. */
    assert_true(clb_blas_core_older_on(n1, "NeoverseN1", "ARMV8", CLB_CPU_NEON, CLB_CPU_NEON));
    assert_true(clb_blas_core_older_on(n1, "NeoverseN1", "ThunderX2T99", CLB_CPU_NEON,
                                       CLB_CPU_NEON));
    assert_false(clb_blas_core_older_on(n1, "NeoverseN1", "neoversen1", CLB_CPU_NEON,
                                        CLB_CPU_NEON)); /* as OpenBLAS spells it */
    assert_true(clb_blas_core_older_on(v2, "NeoverseV2", "NeoverseN1", CLB_CPU_NEON,
                                       CLB_CPU_SVE));
    assert_true(clb_blas_core_older_on(v2, "NeoverseV2", "NeoverseV1", CLB_CPU_SVE, CLB_CPU_SVE));
    assert_false(clb_blas_core_older_on(v2, "NeoverseV1", "NeoverseV1", CLB_CPU_SVE,
                                        CLB_CPU_SVE));
    assert_true(clb_blas_core_older_on(v2, "NeoverseV1", "NeoverseN2", CLB_CPU_SVE, CLB_CPU_SVE));
    assert_false(clb_blas_core_older_on(v2, "NeoverseN1", "NeoverseN1", CLB_CPU_NEON,
                                        CLB_CPU_NEON)); /* SVE off */
    /* No design, or no best core for it: the level alone. */
    assert_false(clb_blas_core_older_on(NULL, "NeoverseN1", "ARMV8", CLB_CPU_NEON, CLB_CPU_NEON));
    assert_false(clb_blas_core_older_on(fx, NULL, "ARMV8SVE", CLB_CPU_SVE, CLB_CPU_SVE));
    assert_true(clb_blas_core_older_on(fx, NULL, "ARMV8", CLB_CPU_NEON, CLB_CPU_SVE));
    (void)v1;
}

/* What auto does on each design. */
static void design_decisions(void **state)
{
    const struct clb_blas_design *n1 = arm_design(0x41, 0xd0c), *v1 = arm_design(0x41, 0xd40),
                                 *v2 = arm_design(0x41, 0xd4f), *n2 = arm_design(0x41, 0xd49),
                                 *fx = arm_design(0x46, 0x001);
    const enum clb_cpu_level sve = CLB_CPU_SVE, neon = CLB_CPU_NEON;
    const enum clb_blas_core_source by = CLB_BLAS_CORE_CLBENCH, kept = CLB_BLAS_CORE_OPENBLAS;
    (void)state;
    /* A generic ARMV8 core on a Neoverse N1: the same NEON level, still switched. */
    decide_on("auto", "ARMV8", NULL, neon, n1, NULL, true, by, "NeoverseN1");
    decide_on("auto", "armv8", NULL, neon, n1, has_0321, true, by, "NeoverseN1");
    decide_on("auto", "neoversen1", NULL, neon, n1, has_0321, false, kept, "");
    decide_on("auto", "ARMV8", NULL, neon, NULL, NULL, false, kept, ""); /* no design known */
    decide_on("auto", "ARMV8", NULL, sve, v1, has_0321, true, by, "NeoverseV1");
    decide_on("auto", "neoversev1", NULL, sve, v1, has_0321, false, kept, "");
    /* Grace on Debian 12: OpenBLAS 0.3.21 falls back to ARMV8; its best is NeoverseV1. */
    decide_on("auto", "armv8", NULL, sve, v2, has_0321, true, by, "NeoverseV1");
    decide_on("auto", "neoversen1", NULL, sve, v2, has_0321, true, by, "NeoverseV1");
    decide_on("auto", "neoversev1", NULL, sve, v2, has_0321, false, kept, "");
    decide_on("auto", "neoversen2", NULL, sve, v2, has_0321, true, by, "NeoverseV1");
    /* An OpenBLAS with NeoverseV2. */
    decide_on("auto", "armv8", NULL, sve, v2, NULL, true, by, "NeoverseV2");
    decide_on("auto", "neoversev1", NULL, sve, v2, NULL, true, by, "NeoverseV2");
    decide_on("auto", "neoversev2", NULL, sve, v2, NULL, false, kept, "");
    decide_on("auto", "neoversen1", NULL, neon, v2, NULL, false, kept, ""); /* SVE off */
    decide_on("auto", "armv8", NULL, sve, n2, has_0321, true, by, "NeoverseN2");
    /* A64FX: its own core where the library has it; 0.3.21 has neither, and another design's
     * kernels are not taken for it (the level rule's NeoverseV1 is Armv8.4). */
    decide_on("auto", "armv8", NULL, sve, fx, NULL, true, by, "A64FX");
    decide_on("auto", "armv8", NULL, sve, fx, has_0321, false, kept, "");
    decide_on("auto", "ARMV8SVE", NULL, sve, fx, NULL, true, by, "A64FX");
    /* The user's OPENBLAS_CORETYPE and as-is stand on a design too. */
    decide_on("auto", "armv8", "ARMV8", sve, v2, NULL, false, CLB_BLAS_CORE_USER, "");
    decide_on("as-is", "armv8", NULL, sve, v2, NULL, false, kept, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(core_levels),
        cmocka_unit_test(older),
        cmocka_unit_test(decisions),
        cmocka_unit_test(designs),
        cmocka_unit_test(design_cores),
        cmocka_unit_test(design_decisions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
