/* CPU_SETSIZE is a GNU extension. */
#define _GNU_SOURCE
#include "clbench/util/cpu.h"
#include "cpu_sysfs.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#include <sys/prctl.h>
#endif

static const char *const level_names[] = {
    [CLB_CPU_SCALAR] = "scalar",
    [CLB_CPU_SSE2] = "sse2",
    [CLB_CPU_SSE3] = "sse3",
    [CLB_CPU_SSE4_2] = "sse4.2",
    [CLB_CPU_AVX] = "avx",
    [CLB_CPU_AVX2_FMA] = "avx2+fma",
    [CLB_CPU_AVX512] = "avx512f",
    [CLB_CPU_AVX512_BF16] = "avx512bf16",
    [CLB_CPU_NEON] = "neon",
    [CLB_CPU_SVE] = "sve",
};

const char *clb_cpu_level_name(enum clb_cpu_level level)
{
    return (unsigned)level < sizeof(level_names) / sizeof(level_names[0]) ? level_names[level]
                                                                          : "unknown";
}

bool clb_cpu_level_parse(const char *name, enum clb_cpu_level *level)
{
    for (size_t i = 0; i < sizeof(level_names) / sizeof(level_names[0]); i++)
        if (!strcmp(name, level_names[i])) {
            *level = (enum clb_cpu_level)i;
            return true;
        }
    return false;
}

enum clb_cpu_level clb_cpu_isa_level(const struct clb_cpu_isa *isa)
{
    if (isa->sve)
        return CLB_CPU_SVE;
    if (isa->neon)
        return CLB_CPU_NEON;
    if (isa->avx512f && isa->avx512bf16)
        return CLB_CPU_AVX512_BF16;
    if (isa->avx512f)
        return CLB_CPU_AVX512;
    if (isa->avx2 && isa->fma)
        return CLB_CPU_AVX2_FMA;
    if (isa->avx)
        return CLB_CPU_AVX;
    if (isa->sse4_2)
        return CLB_CPU_SSE4_2;
    if (isa->sse3)
        return CLB_CPU_SSE3;
    if (isa->sse2)
        return CLB_CPU_SSE2;
    return CLB_CPU_SCALAR;
}

/* Clears every flag that belongs to a level above max (same architecture). */
static void lower_to(struct clb_cpu_isa *isa, enum clb_cpu_level max)
{
    const bool arm = max == CLB_CPU_NEON || max == CLB_CPU_SVE;
    const bool x86 = max >= CLB_CPU_SSE2 && max <= CLB_CPU_AVX512_BF16;

    /* A level of another architecture, or one this CPU never had, lowers nothing. */
    if ((arm && !isa->neon) || (x86 && !isa->sse2))
        return;
    const struct {
        bool *flag;
        enum clb_cpu_level level;
    } flags[] = {
        { &isa->sse2, CLB_CPU_SSE2 },         { &isa->sse3, CLB_CPU_SSE3 },
        { &isa->ssse3, CLB_CPU_SSE4_2 },      { &isa->sse4_2, CLB_CPU_SSE4_2 },
        { &isa->avx, CLB_CPU_AVX },           { &isa->avx2, CLB_CPU_AVX2_FMA },
        { &isa->fma, CLB_CPU_AVX2_FMA },      { &isa->avx512f, CLB_CPU_AVX512 },
        { &isa->avx512bw, CLB_CPU_AVX512 },   { &isa->avx512dq, CLB_CPU_AVX512 },
        { &isa->avx512vl, CLB_CPU_AVX512 },   { &isa->avx512bf16, CLB_CPU_AVX512_BF16 },
        { &isa->amx_tile, CLB_CPU_AVX512_BF16 }, { &isa->neon, CLB_CPU_NEON },
        { &isa->sve, CLB_CPU_SVE },
    };
    for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
        if (flags[i].level > max)
            *flags[i].flag = false;
    if (!isa->sve)
        isa->sve_bits = 0;
}

/* The vector length Linux gives this thread (inherited by the threads it creates). */
static unsigned sve_bits(void)
{
#if defined(__aarch64__) && defined(__linux__) && defined(PR_SVE_GET_VL)
    const int vl = prctl(PR_SVE_GET_VL, 0, 0, 0, 0);
    return vl < 0 ? 0 : (unsigned)(vl & PR_SVE_VL_LEN_MASK) * 8;
#else
    return 0;
#endif
}

void clb_cpu_isa_detect(struct clb_cpu_isa *isa)
{
    memset(isa, 0, sizeof(*isa));
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    isa->sse2 = __builtin_cpu_supports("sse2");
    isa->sse3 = __builtin_cpu_supports("sse3");
    isa->ssse3 = __builtin_cpu_supports("ssse3");
    isa->sse4_2 = __builtin_cpu_supports("sse4.2");
    isa->avx = __builtin_cpu_supports("avx");
    isa->avx2 = __builtin_cpu_supports("avx2");
    isa->fma = __builtin_cpu_supports("fma");
    isa->avx512f = __builtin_cpu_supports("avx512f");
    isa->avx512bw = __builtin_cpu_supports("avx512bw");
    isa->avx512dq = __builtin_cpu_supports("avx512dq");
    isa->avx512vl = __builtin_cpu_supports("avx512vl");
    isa->avx512bf16 = __builtin_cpu_supports("avx512bf16");
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
    isa->amx_tile = __builtin_cpu_supports("amx-tile");
#endif
#elif defined(__aarch64__)
    isa->neon = true;
#if defined(__linux__) && defined(HWCAP_SVE)
    isa->sve = (getauxval(AT_HWCAP) & HWCAP_SVE) != 0;
#endif
#endif
    isa->sve_bits = isa->sve ? sve_bits() : 0;
    if (!isa->sve_bits)
        isa->sve = false; /* a length the OS does not tell is no kernel's to guess */
    const char *fake = getenv("CLBENCH_FAKE_CPU_ISA");
    enum clb_cpu_level max;
    if (fake && clb_cpu_level_parse(fake, &max))
        lower_to(isa, max);
}

bool clb_cpu_read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    bool ok = f && fgets(buf, (int)len, f);

    if (f)
        fclose(f);
    if (ok)
        buf[strcspn(buf, "\n")] = '\0';
    return ok;
}

unsigned clb_cpu_level_fma_bits(enum clb_cpu_level level)
{
    switch (level) {
    case CLB_CPU_AVX512:
    case CLB_CPU_AVX512_BF16:
        return 512;
    case CLB_CPU_AVX2_FMA:
        return 256;
    case CLB_CPU_NEON:
    case CLB_CPU_SVE:
        return 128;
    default:
        return 0;
    }
}

unsigned long clb_cpu_max_khz(void)
{
    char path[96], buf[32];
    unsigned long most = 0;

    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq",
                 cpu);
        if (!clb_cpu_read_line(path, buf, sizeof(buf)))
            break;
        const unsigned long khz = strtoul(buf, NULL, 10);
        most = khz > most ? khz : most;
    }
    return most;
}
