/*
 * The clock the host peak measures during its FMA run, against the operating system's own
 * figure for the cores' clock, within 10 %:
 *   cpufreq (scaling_cur_freq of the CPUs, read right after the run, which the kernel takes
 *   from APERF/MPERF on x86, and cpuinfo_max_freq): the clock lies in
 *   [0.9 x the lowest current, 1.1 x the highest maximum];
 *   else /proc/cpuinfo's "cpu MHz" where the CPU flags aperfmperf (the kernel then measures
 *   it): [0.9 x the lowest, 1.1 x the highest].
 * Nothing else counts: the TSC ticks at a fixed nominal rate that boosting cores exceed (a
 * Zen 5 VM: TSC 2096 MHz, cores at ~3.6 GHz under AVX-512 FMA), and without aperfmperf
 * "cpu MHz" is that TSC rate. Where no reference exists the test says so in one line and
 * exits 77 (skipped).
 * Another process on a CPU only ever slows a window of the chain (the clock keeps each
 * thread's fastest of 40), so a busy machine reads low only if every window is disturbed;
 * the bounds leave 10 % for that and for the reference's own sampling.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/bench/hostpeak.h"
#include "clbench/util/cpu.h"

/* The lowest and highest value (MHz) of file `name` under each CPU's cpufreq; 0 when none. */
static int cpufreq(const char *name, double *lo, double *hi)
{
    int n = 0;
    *lo = *hi = 0;
    for (int cpu = 0; cpu < 4096; cpu++) {
        char path[128];
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/%s", cpu, name);
        FILE *f = fopen(path, "r");
        unsigned long khz = 0;
        if (!f) {
            if (cpu > 0 && n == 0)
                break;
            continue;
        }
        if (fscanf(f, "%lu", &khz) == 1 && khz > 0) {
            const double mhz = khz / 1e3;
            *lo = n ? (mhz < *lo ? mhz : *lo) : mhz;
            *hi = n ? (mhz > *hi ? mhz : *hi) : mhz;
            n++;
        }
        fclose(f);
    }
    return n;
}

/* /proc/cpuinfo's "cpu MHz" range, where the CPU flags aperfmperf; 0 otherwise. */
static int cpuinfo_measured(double *lo, double *hi, double *plain)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[8192];
    int n = 0;
    bool aperf = false;

    *lo = *hi = *plain = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof(line), f)) {
        double mhz;
        if (!strncmp(line, "flags", 5) && strstr(line, " aperfmperf"))
            aperf = true;
        if (!strncmp(line, "cpu MHz", 7) && sscanf(strchr(line, ':') + 1, "%lf", &mhz) == 1) {
            *lo = n ? (mhz < *lo ? mhz : *lo) : mhz;
            *hi = n ? (mhz > *hi ? mhz : *hi) : mhz;
            *plain = mhz;
            n++;
        }
    }
    fclose(f);
    return aperf ? n : 0;
}

int main(void)
{
    static const enum clb_precision fp32[] = { CLB_FP32 };
    struct clb_micro_options opt = { .runs = 1, .target_s = 0.002, .precisions = fp32,
                                     .n_precisions = 1 };
    struct clb_micro_results res = { 0 };

    if (clb_host_peak_run(&opt, &res) || res.n_rows != 1 || res.rows[0].status != CLB_ROW_OK) {
        printf("FAIL: the host peak did not run: %s\n", res.n_rows ? res.rows[0].reason : "");
        return 1;
    }
    const double ghz = res.rows[0].clock_ghz, under = res.rows[0].clock_under_fma;
    double lo, hi, max_lo, max_hi, plain;
    const int cur = cpufreq("scaling_cur_freq", &lo, &hi);
    const int most = cpufreq("cpuinfo_max_freq", &max_lo, &max_hi);
    clb_micro_results_finish(&res);
#if !defined(__x86_64__) && !defined(__aarch64__)
    printf("SKIP: no add-chain clock on this architecture\n");
    return 77;
#endif
    if (ghz <= 0 || !(under > 0 && under <= 1)) {
        printf("FAIL: clock %.3f GHz, %.0f %% of its measurement in the FMA kernel\n", ghz,
               100 * under);
        return 1;
    }
    /* Another load shared the cores during the clock's measurement: its figure then says
     * little of the FMA clock, and the scheduler, not clbench, decided that. */
    if (under < 0.9) {
        printf("SKIP: only %.0f %% of the clock's measurement was in the FMA kernel (a loaded "
               "machine): no verdict on %.3f GHz\n", 100 * under, ghz);
        return 77;
    }
    const char *source;
    if (cur > 0) {
        source = "cpufreq (scaling_cur_freq .. cpuinfo_max_freq)";
        hi = most > 0 && max_hi > hi ? max_hi : hi;
    } else if (cpuinfo_measured(&lo, &hi, &plain) > 0) {
        source = "/proc/cpuinfo cpu MHz (APERF/MPERF)";
    } else {
        cpuinfo_measured(&lo, &hi, &plain);
        printf("SKIP: no reference for the core clock (no cpufreq, no aperfmperf; cpu MHz %.0f "
               "is the TSC's rate, which boosting cores exceed): measured %.3f GHz during the "
               "FMA run\n", plain, ghz);
        return 77;
    }
    const bool ok = ghz >= 0.9 * lo / 1e3 && ghz <= 1.1 * hi / 1e3;
    printf("%s: clock during the FMA run %.3f GHz (%.0f %% of it FMA), %s %.0f .. %.0f MHz: "
           "bounds %.3f .. %.3f GHz\n", ok ? "PASS" : "FAIL", ghz, 100 * under, source, lo, hi,
           0.9 * lo / 1e3, 1.1 * hi / 1e3);
    return ok ? 0 : 1;
}
