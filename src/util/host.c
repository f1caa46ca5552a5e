#include "clbench/util/host.h"
#include "clbench/util/cpu.h"
#include "clbench/util/record.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

uint64_t clb_host_meminfo_bytes(const char *key)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    unsigned long long kib = 0;
    size_t n = strlen(key);

    while (f && fgets(line, sizeof(line), f))
        if (strncmp(line, key, n) == 0 && line[n] == ':' &&
            sscanf(line + n + 1, "%llu", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return (uint64_t)kib * 1024u;
}

static void os_name(char *buf, size_t len)
{
    FILE *f = fopen("/etc/os-release", "r");
    char line[256];

    snprintf(buf, len, "unknown");
    while (f && fgets(line, sizeof(line), f)) {
        if (strncmp(line, "PRETTY_NAME=", 12) == 0) {
            char *v = line + 12;
            v[strcspn(v, "\n")] = '\0';
            if (*v == '"') {
                v++;
                v[strcspn(v, "\"")] = '\0';
            }
            snprintf(buf, len, "%s", v);
            break;
        }
    }
    if (f)
        fclose(f);
}

void clb_host_info_read(struct clb_host_info *out)
{
    struct utsname u;

    memset(out, 0, sizeof(*out));
    if (gethostname(out->hostname, sizeof(out->hostname) - 1) != 0)
        snprintf(out->hostname, sizeof(out->hostname), "unknown");
    clb_cpu_name(out->cpu, sizeof(out->cpu));
    os_name(out->os, sizeof(out->os));
    if (uname(&u) == 0) {
        snprintf(out->kernel, sizeof(out->kernel), "%.63s", u.sysname);
        snprintf(out->kernel_release, sizeof(out->kernel_release), "%.127s", u.release);
        snprintf(out->arch, sizeof(out->arch), "%.63s", u.machine);
    }
    out->logical_cpus = clb_cpu_count_online();
    out->memory_bytes = clb_host_meminfo_bytes("MemTotal");
}

uint64_t clb_host_available_bytes(void)
{
    uint64_t bytes = clb_host_meminfo_bytes("MemAvailable");
    if (bytes)
        return bytes;
    long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_MAX;
}
