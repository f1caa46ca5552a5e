#include "clbench/util/cpu.h"
#include "cpu_sysfs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/* The value of /proc/cpuinfo's first line "KEY<blanks>: VALUE", its blanks and newline
 * trimmed, into buf (len bytes); false when no line has the key. */
static bool cpuinfo_field(const char *key, char *buf, size_t len)
{
    const size_t n = strlen(key);
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    bool found = false;

    while (f && !found && fgets(line, sizeof(line), f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, key, n) || !colon ||
            strspn(line + n, " \t") != (size_t)(colon - line - n))
            continue;
        colon += 1 + strspn(colon + 1, " \t");
        colon[strcspn(colon, "\n")] = '\0';
        snprintf(buf, len, "%s", colon);
        found = true;
    }
    if (f)
        fclose(f);
    return found;
}

void clb_cpu_name(char *buf, size_t len)
{
    if (!cpuinfo_field("model name", buf, len))
        snprintf(buf, len, "unknown CPU");
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
    unsigned long m = 0;
    char value[256];

    for (int k = 0; k < 4; k++) {
        if (cpuinfo_field(keys[k], value, sizeof(value)))
            m |= strtoul(value, NULL, 0) << shifts[k];
        else if (k == 0 || k == 2) /* the implementer and the part are the identity */
            return false;
    }
    *midr = m;
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
    if (clb_cpu_read_line("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", buf,
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
