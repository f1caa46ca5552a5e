/* sched_getaffinity and CPU_COUNT are GNU extensions. */
#define _GNU_SOURCE
#include "clbench/util/cpu.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#include <sys/prctl.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
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

/* One line of a sysfs file into buf; false when it cannot be read. */
static bool read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    bool ok = f && fgets(buf, (int)len, f);

    if (f)
        fclose(f);
    if (ok)
        buf[strcspn(buf, "\n")] = '\0';
    return ok;
}

static bool fake_cpu_id(struct clb_cpu_id *id)
{
    const char *fake = getenv("CLBENCH_FAKE_CPU_ID");
    char vendor[16];
    unsigned long family, model;
    char *end;

    if (!fake || !*fake)
        return false;
    const char *colon = strchr(fake, ':');
    if (!colon || (size_t)(colon - fake) >= sizeof(vendor))
        return false;
    memcpy(vendor, fake, (size_t)(colon - fake));
    vendor[colon - fake] = '\0';
    family = strtoul(colon + 1, &end, 0);
    if (*end != ':')
        return false;
    model = strtoul(end + 1, &end, 0);
    if (*end || family > 0xfff || model > 0xfff)
        return false;
    *id = (struct clb_cpu_id){ .known = true, .family = (unsigned)family,
                               .model = (unsigned)model };
    memcpy(id->vendor, vendor, sizeof(vendor));
    return true;
}

/* Arm's implementer codes, MIDR_EL1[31:24], by Linux's names (arch/arm64/include/asm/cputype.h). */
static const struct {
    unsigned code;
    const char *name;
} arm_implementers[] = {
    { 0x41, "ARM" },       { 0x42, "Broadcom" }, { 0x43, "Cavium" },   { 0x46, "Fujitsu" },
    { 0x48, "HiSilicon" }, { 0x4e, "NVIDIA" },   { 0x50, "APM" },      { 0x51, "Qualcomm" },
    { 0x61, "Apple" },     { 0x6d, "Microsoft" }, { 0xc0, "Ampere" },
};

/* MIDR_EL1: implementer [31:24], variant [23:20], architecture [19:16], part [15:4], revision [3:0]. */
static void from_midr(struct clb_cpu_id *id, unsigned long midr)
{
    const unsigned implementer = (unsigned)(midr >> 24) & 0xff;
    const char *name = "unknown";

    for (size_t i = 0; i < sizeof(arm_implementers) / sizeof(arm_implementers[0]); i++)
        if (arm_implementers[i].code == implementer)
            name = arm_implementers[i].name;
    *id = (struct clb_cpu_id){ .known = true, .family = implementer,
                               .model = (unsigned)(midr >> 4) & 0xfff, .midr = true,
                               .variant = (unsigned)(midr >> 20) & 0xf,
                               .revision = (unsigned)midr & 0xf };
    snprintf(id->vendor, sizeof(id->vendor), "%s", name);
}

/* A hex number of at most 32 bits ("0x410fd0c1", "0x00000000410fd0c1" as sysfs writes it). */
static bool parse_midr(const char *s, unsigned long *midr)
{
    char *end;
    unsigned long long v;

    if (!s || !*s)
        return false;
    v = strtoull(s, &end, 16);
    while (*end == '\n' || *end == ' ')
        end++;
    if (end == s || *end || v > 0xffffffffull)
        return false;
    *midr = (unsigned long)v;
    return true;
}

#if defined(__aarch64__) && defined(__linux__)
/* /proc/cpuinfo's first "CPU implementer", "CPU variant", "CPU part" and "CPU revision". */
static bool cpuinfo_midr(unsigned long *midr)
{
    static const char *const keys[] = { "CPU implementer", "CPU variant", "CPU part",
                                        "CPU revision" };
    static const unsigned shifts[] = { 24, 20, 4, 0 };
    unsigned long fields[4];
    bool seen[4] = { false };
    char line[256];
    FILE *f = fopen("/proc/cpuinfo", "r");

    if (!f)
        return false;
    while (fgets(line, sizeof(line), f) && !(seen[0] && seen[1] && seen[2] && seen[3]))
        for (int k = 0; k < 4; k++) {
            const size_t n = strlen(keys[k]);
            const char *colon = strchr(line, ':');
            if (!seen[k] && !strncmp(line, keys[k], n) && colon && strspn(line + n, " \t") ==
                                                                       (size_t)(colon - line - n)) {
                fields[k] = strtoul(colon + 1, NULL, 0);
                seen[k] = true;
            }
        }
    fclose(f);
    if (!seen[0] || !seen[2])
        return false;
    *midr = 0;
    for (int k = 0; k < 4; k++)
        *midr |= seen[k] ? fields[k] << shifts[k] : 0;
    return true;
}

/* MRS where the kernel traps and emulates it for EL0, else sysfs, else /proc/cpuinfo. */
static bool read_midr(unsigned long *midr)
{
    char buf[64];

#if defined(HWCAP_CPUID)
    if (getauxval(AT_HWCAP) & HWCAP_CPUID) {
        uint64_t v;
        __asm__ volatile("mrs %0, midr_el1" : "=r"(v));
        *midr = (unsigned long)(v & 0xffffffffu);
        return true;
    }
#endif
    if (read_line("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", buf,
                  sizeof(buf)) && parse_midr(buf, midr))
        return true;
    return cpuinfo_midr(midr);
}
#endif

void clb_cpu_id_detect(struct clb_cpu_id *id)
{
    unsigned long midr;

    memset(id, 0, sizeof(*id));
    if (fake_cpu_id(id))
        return;
    if (parse_midr(getenv("CLBENCH_FAKE_MIDR"), &midr)) {
        from_midr(id, midr);
        return;
    }
#if defined(__aarch64__) && defined(__linux__)
    if (read_midr(&midr))
        from_midr(id, midr);
#elif defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return;
    /* The vendor string is EBX, EDX, ECX in that order. */
    memcpy(id->vendor, &b, 4);
    memcpy(id->vendor + 4, &d, 4);
    memcpy(id->vendor + 8, &c, 4);
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return;
    const unsigned base_family = (a >> 8) & 0xf, base_model = (a >> 4) & 0xf;
    id->family = base_family == 0xf ? base_family + ((a >> 20) & 0xff) : base_family;
    id->model = base_family == 0x6 || base_family == 0xf ? ((a >> 12) & 0xf0) | base_model
                                                          : base_model;
    id->known = true;
#endif
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
        if (!read_line(path, buf, sizeof(buf)))
            break;
        const unsigned long khz = strtoul(buf, NULL, 10);
        most = khz > most ? khz : most;
    }
    return most;
}

/* CLBENCH_FAKE_CPU_TOPOLOGY=CPUS:PER_CORE (clbench/util/cpu.h); false when unset or malformed. */
static bool fake_topology(unsigned *cpus, unsigned *per_core)
{
    const char *fake = getenv("CLBENCH_FAKE_CPU_TOPOLOGY");
    char *end;

    if (!fake || !*fake)
        return false;
    const unsigned long n = strtoul(fake, &end, 10);
    if (end == fake || *end != ':')
        return false;
    const char *second = end + 1;
    const unsigned long k = strtoul(second, &end, 10);
    if (end == second || *end || n < 1 || k < 1 || k > n || n > CPU_SETSIZE)
        return false;
    *cpus = (unsigned)n;
    *per_core = (unsigned)k;
    return true;
}

#if defined(__linux__)
/* A Linux CPU list ("0-7,16", "" for none) into set; false when it is not one. */
static bool parse_cpu_list(const char *s, cpu_set_t *set)
{
    CPU_ZERO(set);
    while (*s) {
        char *end;
        const long lo = strtol(s, &end, 10);
        long hi = lo;
        if (end == s || lo < 0)
            return false;
        if (*end == '-') {
            const char *h = end + 1;
            hi = strtol(h, &end, 10);
            if (end == h || hi < lo)
                return false;
        }
        for (long c = lo; c <= hi && c < CPU_SETSIZE; c++)
            CPU_SET((int)c, set);
        if (*end && *end != ',')
            return false;
        s = *end ? end + 1 : end;
    }
    return true;
}

/*
 * The CPUs of avail at which a physical core counts: the first of its SMT siblings that avail
 * holds (core_id alone repeats across the dies of one package on some systems). False when
 * the topology cannot be read.
 */
static bool core_firsts(const cpu_set_t *avail, cpu_set_t *firsts)
{
    CPU_ZERO(firsts);
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        char path[96], list[256];
        cpu_set_t siblings;
        if (!CPU_ISSET(cpu, avail))
            continue;
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
                 cpu);
        if (!read_line(path, list, sizeof(list)) || !parse_cpu_list(list, &siblings))
            return false;
        CPU_AND(&siblings, &siblings, avail);
        int first = -1;
        for (int c = 0; c < CPU_SETSIZE && first < 0; c++)
            if (CPU_ISSET(c, &siblings))
                first = c;
        /* A CPU its own list leaves out counts as a core of its own. */
        if (first == cpu || first < 0)
            CPU_SET(cpu, firsts);
    }
    return CPU_COUNT(firsts) > 0;
}

/*
 * The CPUs this process may run on and the first CPU of each physical core among them:
 * Linux's, or CLBENCH_FAKE_CPU_TOPOLOGY's (CPUs 0 to CPUS-1, PER_CORE siblings a core), so
 * that every count below sees the same machine. False when the topology cannot be read.
 */
static bool cpu_topology(cpu_set_t *avail, cpu_set_t *firsts)
{
    unsigned n, per_core;

    if (fake_topology(&n, &per_core)) {
        CPU_ZERO(avail);
        CPU_ZERO(firsts);
        for (unsigned c = 0; c < n; c++) {
            CPU_SET(c, avail);
            if (c % per_core == 0)
                CPU_SET(c, firsts);
        }
        return true;
    }
    return sched_getaffinity(0, sizeof(*avail), avail) == 0 && CPU_COUNT(avail) > 0 &&
           core_firsts(avail, firsts);
}

/*
 * The P- and E-core CPU lists: the hook's, else Linux's hybrid PMUs' (none on a faked
 * topology: it is not this machine); false when neither.
 */
static bool type_lists(bool faked, cpu_set_t *p, cpu_set_t *e, bool *known)
{
    const char *fake = getenv("CLBENCH_FAKE_CPU_TYPES");
    char pl[1024] = "", el[1024] = "";

    *known = true;
    if (faked && !fake)
        return false;
    if (fake) {
        const char *slash = strchr(fake, '/');
        if (!slash || (size_t)(slash - fake) >= sizeof(pl) || strlen(slash + 1) >= sizeof(el))
            return *known = false;
        memcpy(pl, fake, (size_t)(slash - fake));
        pl[slash - fake] = '\0';
        strcpy(el, slash + 1);
    } else {
        const bool has_p = read_line("/sys/devices/cpu_core/cpus", pl, sizeof(pl)),
                   has_e = read_line("/sys/devices/cpu_atom/cpus", el, sizeof(el));
        if (!has_p && !has_e)
            return false;
    }
    if (!parse_cpu_list(pl, p) || !parse_cpu_list(el, e))
        *known = false;
    return *known;
}

/* Whether CPUID says this is a hybrid part (leaf 7 EDX bit 15); false off x86. */
static bool cpuid_hybrid(void)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (d >> 15 & 1);
#else
    return false;
#endif
}
#endif

unsigned clb_cpu_count_cores(void)
{
#if defined(__linux__)
    cpu_set_t avail, firsts;
    if (cpu_topology(&avail, &firsts))
        return (unsigned)CPU_COUNT(&firsts);
#else
    unsigned fake_cpus, fake_per_core;
    if (fake_topology(&fake_cpus, &fake_per_core))
        return (fake_cpus + fake_per_core - 1) / fake_per_core;
#endif
    return clb_cpu_count_available();
}

bool clb_cpu_count_core_types(unsigned *p_cores, unsigned *e_cores)
{
    *p_cores = *e_cores = 0;
#if defined(__linux__)
    cpu_set_t avail, firsts, p, e, both;
    unsigned fake_cpus, fake_per_core;
    const bool faked = fake_topology(&fake_cpus, &fake_per_core);
    bool known;
    if (!cpu_topology(&avail, &firsts))
        return false;
    if (!type_lists(faked, &p, &e, &known)) {
        /* No lists: one kind of core, P-cores, unless CPUID says this part is hybrid. */
        if (!known || (!faked && cpuid_hybrid()))
            return false;
        *p_cores = (unsigned)CPU_COUNT(&firsts);
        return true;
    }
    CPU_AND(&both, &p, &e);
    if (CPU_COUNT(&both))
        return false;
    CPU_AND(&p, &p, &firsts);
    CPU_AND(&e, &e, &firsts);
    /* A core the lists do not name is of no known kind: no count rather than a short one. */
    if (CPU_COUNT(&p) + CPU_COUNT(&e) != CPU_COUNT(&firsts))
        return false;
    *p_cores = (unsigned)CPU_COUNT(&p);
    *e_cores = (unsigned)CPU_COUNT(&e);
    return true;
#else
    return false;
#endif
}

unsigned clb_cpu_count_available(void)
{
    unsigned fake_cpus, fake_per_core;
    if (fake_topology(&fake_cpus, &fake_per_core))
        return fake_cpus;
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

double clb_cpu_core_share(unsigned threads)
{
    const unsigned cores = clb_cpu_count_cores();

    return threads && threads < cores ? (double)threads / cores : 1.0;
}

/* "32K", "2048K", "32M" in bytes. */
static uint64_t cache_size_bytes(const char *buf)
{
    char *end;
    const uint64_t v = strtoull(buf, &end, 10);
    return *end == 'K' ? v << 10 : *end == 'M' ? v << 20 : *end == 'G' ? v << 30 : v;
}

static unsigned long read_cache_bytes(unsigned level)
{
    char path[128], buf[64];

    for (unsigned i = 0; i < 16; i++) {
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%u/level", i);
        if (!read_line(path, buf, sizeof(buf)))
            break;
        if (strtoul(buf, NULL, 10) != level)
            continue;
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%u/type", i);
        if (!read_line(path, buf, sizeof(buf)) || !strcmp(buf, "Instruction"))
            continue;
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%u/size", i);
        if (!read_line(path, buf, sizeof(buf)))
            continue;
        return (unsigned long)cache_size_bytes(buf);
    }
    return 0;
}

static uint64_t read_llc_total(void)
{
    char path[128], buf[256];
    uint64_t total = 0;

    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        unsigned top = 0, top_index = 0;
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index0/level", cpu);
        if (!read_line(path, buf, sizeof(buf))) {
            /* Offline CPUs have no cache folder; the numbering goes on past them. */
            snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
            if (access(path, F_OK) != 0)
                break;
            continue;
        }
        for (unsigned i = 0; i < 16; i++) {
            snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%u/level",
                     cpu, i);
            if (!read_line(path, buf, sizeof(buf)))
                break;
            const unsigned level = (unsigned)strtoul(buf, NULL, 10);
            snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%u/type",
                     cpu, i);
            if (level > top && read_line(path, buf, sizeof(buf)) && strcmp(buf, "Instruction")) {
                top = level;
                top_index = i;
            }
        }
        if (!top)
            continue;
        /* Each instance once: at the lowest CPU that shares it ("0-7,64-71", "3"). */
        snprintf(path, sizeof(path),
                 "/sys/devices/system/cpu/cpu%d/cache/index%u/shared_cpu_list", cpu, top_index);
        if (read_line(path, buf, sizeof(buf)) && strtol(buf, NULL, 10) != cpu)
            continue;
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%u/size", cpu,
                 top_index);
        if (read_line(path, buf, sizeof(buf)))
            total += cache_size_bytes(buf);
    }
    return total;
}

uint64_t clb_cpu_llc_total_bytes(void)
{
    /* sysfs does not change while we run: walk the CPUs once (0 is a valid answer). */
    static uint64_t total;
    static bool read;

    if (!read) {
        total = read_llc_total();
        read = true;
    }
    return total;
}

unsigned long clb_cpu_cache_bytes(unsigned level)
{
    /* sysfs does not change while we run: read each level once (0 is a valid answer). */
    static unsigned long bytes[4];
    static bool read[4];

    if (level >= 4)
        return read_cache_bytes(level);
    if (!read[level]) {
        bytes[level] = read_cache_bytes(level);
        read[level] = true;
    }
    return bytes[level];
}

