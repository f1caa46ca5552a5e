/*
 * OpenBLAS's core against the CPU: the table of cores, which is older than
 * which CPU, and what --blas-core decides in each case (no OpenBLAS needed).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

static void decide(const char *mode, const char *current, const char *user,
                   enum clb_cpu_level cpu, bool switch_core, enum clb_blas_core_source source,
                   const char *want)
{
    struct clb_blas_core_decision d;

    clb_blas_core_decide(mode, current, user, cpu, &d);
    if (d.switch_core != switch_core || d.source != source ||
        (switch_core && strcmp(d.want, want)))
        fail_msg("%s, %s, user %s: got switch %d to '%s' by %s", mode, current,
                 user ? user : "-", d.switch_core, d.want, clb_blas_core_source_name(d.source));
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(core_levels),
        cmocka_unit_test(older),
        cmocka_unit_test(decisions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
