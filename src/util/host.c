#include "clbench/host.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

void clb_host_cpu_name(char *buf, size_t len)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];

    snprintf(buf, len, "unknown CPU");
    while (f && fgets(line, sizeof(line), f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon) {
            colon += 1 + strspn(colon + 1, " \t");
            colon[strcspn(colon, "\n")] = '\0';
            snprintf(buf, len, "%s", colon);
            break;
        }
    }
    if (f)
        fclose(f);
}

unsigned clb_host_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

static uint64_t meminfo_bytes(const char *key)
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

json_t *clb_host_json(void)
{
    struct utsname u;
    char host[256] = "unknown", cpu[256], os[256];

    gethostname(host, sizeof(host) - 1);
    clb_host_cpu_name(cpu, sizeof(cpu));
    os_name(os, sizeof(os));
    if (uname(&u) != 0)
        memset(&u, 0, sizeof(u));
    return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:I}", "hostname", host, "os", os,
                     "kernel", u.sysname, "kernel_release", u.release, "arch", u.machine, "cpu",
                     cpu, "logical_cpus", (int)clb_host_cpus(), "memory_bytes",
                     (json_int_t)meminfo_bytes("MemTotal"));
}
