/* sched_getaffinity and CPU_COUNT are GNU extensions. */
#define _GNU_SOURCE
#include "clbench/util/cpu.h"
#include "cpu_sysfs.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

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
        if (!clb_cpu_read_line(path, list, sizeof(list)) || !parse_cpu_list(list, &siblings))
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
        const bool has_p = clb_cpu_read_line("/sys/devices/cpu_core/cpus", pl, sizeof(pl)),
                   has_e = clb_cpu_read_line("/sys/devices/cpu_atom/cpus", el, sizeof(el));
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
    return clb_cpu_count_online();
}

unsigned clb_cpu_count_online(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

double clb_cpu_core_share(unsigned threads)
{
    const unsigned cores = clb_cpu_count_cores();

    return threads && threads < cores ? (double)threads / cores : 1.0;
}
