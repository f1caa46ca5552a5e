/* The limits a GEMM run (gemm, run) measures first and holds its rows against. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "clbench/bench/bandwidth.h"
#include "clbench/bench/gemm_run.h"
#include "clbench/bench/hostpeak.h"
#include "clbench/bench/micro.h"
#include "clbench/bench/peak.h"
#include "clbench/cl/env.h"
#include "clbench/limits/limits.h"
#include "clbench/util/interrupt.h"

/* The micro-benchmarks' options for the limits: 3 runs, in the GEMM precisions. */
static struct clb_micro_options limit_options(const enum clb_precision *precisions, size_t n)
{
    return (struct clb_micro_options){ .runs = 3, .precisions = precisions, .n_precisions = n };
}

void clb_limits_host_run(const enum clb_precision *precisions, size_t n,
                         const enum clb_cpu_level *host_also, struct clb_micro_results *micro)
{
    struct clb_micro_options mopt = limit_options(precisions, n);

    mopt.host_also = host_also;
    if (isatty(STDERR_FILENO))
        fprintf(stderr, "[limits] peak of the host CPU ...\n");
    clb_host_peak_run(&mopt, micro);
}

void clb_limits_device_run(const struct clb_device *dev, size_t i, size_t n_devices,
                           const enum clb_precision *precisions, size_t n, bool bandwidth,
                           struct clb_micro_results *micro)
{
    const struct clb_micro_options mopt = limit_options(precisions, n);
    struct clb_cl_env env;
    struct clb_error e;

    if (isatty(STDERR_FILENO))
        fprintf(stderr, "[limits %zu/%zu] peak%s %s ...\n", i + 1, n_devices,
                bandwidth ? " and bandwidth" : "", clb_device_str(dev, CLB_PROP_NAME));
    if (clb_cl_env_init(&env, dev->id, false, &e))
        return; /* the GEMM rows of this device will report the fault */
    clb_peak_run(dev, &env, &mopt, micro);
    if (bandwidth && !clb_interrupted())
        clb_bandwidth_run(dev, &env, &mopt, micro);
    clb_cl_env_finish(&env);
}

void clb_limits_hold_gemm(struct clb_gemm_results *res, const struct clb_micro_results *micro,
                          bool peak_shared)
{
    struct clb_cpu_isa isa;
    /* A host backend on fewer threads than there are physical cores is held against its share
     * of the peak (SMT siblings share a core's FMA units), unless the peak is a share already. */
    const double host_share = peak_shared ? 1.0 : clb_cpu_core_share(res->host_threads);

    clb_cpu_isa_detect(&isa);
    for (size_t i = 0; i < res->n_rows; i++) {
        struct clb_row *row = &res->rows[i];
        const enum clb_precision prec = row->precision;
        /* An OpenCL CPU device runs on the host's silicon: both peaks apply. */
        const bool on_host = !row->device || clb_device_is_cpu(row->device);
        const struct clb_row *dev_peak =
            row->device ? clb_micro_peak_row(micro, row->device, prec, NULL) : NULL;
        if (dev_peak) {
            row->device_peak_gflops = dev_peak->best;
            row->device_peak_partial = !dev_peak->launch.fills_device;
        }
        if (!on_host)
            continue;
        /* A host backend's kernels use one instruction set: a handicapped one's peak is
         * that set's, not the CPU's best. */
        const struct clb_host_peak_variant *v =
            !row->device && res->baseline_handicap[0]
                ? clb_host_peak_for_level(&isa, prec, res->handicap_level)
                : NULL;
        const struct clb_row *peak = clb_micro_peak_row(micro, NULL, prec,
                                                              v ? v->name : NULL);
        if (!peak)
            continue;
        row->host_peak_gflops = peak->best * (row->device ? 1.0 : host_share);
        row->host_peak_of_kernels = v != NULL;
        snprintf(row->host_peak_isa, sizeof(row->host_peak_isa), "%s",
                 peak->isa ? peak->isa : "");
    }
    clb_datasheet_attach_gemm(res, micro, host_share);
}
