#include "clbench/limits/limits.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clbench/bench/gemm_run.h"
#include "clbench/bench/micro.h"
#include "clbench/datasheet/datasheet.h"
#include "clbench/mpi/mpi.h"
#include "clbench/util/cpu.h"
#include "clbench/util/parse.h"

const struct clb_ds_row *clb_device_datasheet(const struct clb_device *dev)
{
    static bool warned;
    struct clb_error e;
    const struct clb_datasheet *d = clb_datasheet_builtin(&e);
    const char *fake = getenv("CLBENCH_FAKE_DEVICE_NAME");

    if (!d && !warned) {
        warned = true;
        fprintf(stderr, "clbench: %s\n", e.msg);
    }
    if (!d || !dev)
        return NULL;
    return clb_datasheet_match(d, fake && *fake ? fake : clb_device_str(dev, CLB_PROP_NAME),
                               clb_device_str(dev, CLB_PROP_AMD_BOARD_NAME));
}

/* Figure f of dev's datasheet row, or value 0. */
static struct clb_datasheet_ref datasheet_ref(const struct clb_device *dev, enum clb_ds_figure f)
{
    const struct clb_ds_row *r = clb_device_datasheet(dev);
    struct clb_datasheet_ref ref = { 0 };

    if (r && r->fig[f].present) {
        /* One die or partition of a package is held against its share. */
        const unsigned parts =
            clb_datasheet_parts(r, clb_device_u64(dev, CLB_PROP_GLOBAL_MEM_BYTES));
        ref = (struct clb_datasheet_ref){ .value = r->fig[f].value / parts,
                                          .name = r->name,
                                          .figure = clb_ds_figure_key(f),
                                          .source = r->fig[f].source,
                                          .parts = parts };
    }
    return ref;
}

const struct clb_ds_core *clb_host_core(void)
{
    struct clb_error e;
    const struct clb_datasheet *d = clb_datasheet_builtin(&e);
    struct clb_cpu_id id;

    clb_cpu_id_detect(&id);
    return id.known ? clb_datasheet_match_core(d, id.vendor, id.family, id.model) : NULL;
}

/*
 * The host CPU's peak in precision, derived from its core design's FMA
 * units, its physical cores and the clock measured during the host peak's
 * FMA run of that precision in micro, times share (a device's part of the CPU); value 0 when any is
 * unknown.
 */
static struct clb_datasheet_ref derived_ref(const struct clb_micro_results *micro,
                                            enum clb_precision precision, double share)
{
    struct clb_datasheet_ref ref = { 0 };
    const unsigned elem_bits = precision == CLB_FP32 ? 32 : precision == CLB_FP64 ? 64 : 0;
    /* The clock measured during this precision's FMA run: the headline's, else that of any
     * row of the precision (-v measures every ISA variant, each under its own load). */
    double ghz = 0;
    for (int pass = 0; pass < 2 && !ghz; pass++)
        for (size_t i = 0; micro && i < micro->n_rows && !ghz; i++) {
            const struct clb_row *r = &micro->rows[i];
            if (!r->device && r->benchmark == CLB_BENCH_PEAK && r->precision == precision &&
                (pass || r->headline))
                ghz = r->clock_ghz;
        }
    struct clb_cpu_isa isa;
    clb_cpu_isa_detect(&isa);
    const struct clb_ds_core *core = clb_host_core();
    /* A hybrid part counts its P- and E-cores apart, each kind at its own FMA rate. */
    unsigned p_cores = clb_cpu_count_cores(), e_cores = 0;
    if (core && core->e_fma_units && !clb_cpu_count_core_types(&p_cores, &e_cores))
        p_cores = e_cores = 0;
    /* SVE's FMA is as wide as the vector length this process runs (the host peak's SVE
     * kernel's): 512 bits on an A64FX, 128 on a Neoverse V2. */
    const enum clb_cpu_level level = clb_cpu_isa_level(&isa);
    const unsigned isa_bits = level == CLB_CPU_SVE && isa.sve_bits ? isa.sve_bits
                                                                   : clb_cpu_level_fma_bits(level);
    const double per_cycle =
        clb_ds_core_cpu_flops_per_cycle(core, isa_bits, elem_bits, p_cores, e_cores);
    if (ghz <= 0 || per_cycle <= 0 || share <= 0)
        return ref;
    /* Per core: the mean over both kinds, so that cores x flops_per_cycle stays the sum. */
    const double fpc = per_cycle / (p_cores + e_cores);
    /* A fleet's ranks on one node that see the same CPUs share its cores. */
    share = clb_host_share(share, NULL);
    const double cores = (p_cores + e_cores) * share;
    ref = (struct clb_datasheet_ref){ .value = cores * fpc * ghz,
                                      .name = core->name,
                                      .figure = precision == CLB_FP32 ? "fp32_vector"
                                                                     : "fp64_vector",
                                      .source = core->source,
                                      .parts = 1,
                                      .derived = true,
                                      .cores = cores,
                                      .flops_per_cycle = fpc,
                                      .clock_ghz = ghz };
    return ref;
}

/* The part of the host CPU an OpenCL CPU device runs on: its compute units of the CPUs here. */
static double cpu_device_share(const struct clb_device *dev)
{
    const double units = (double)clb_device_u64(dev, CLB_PROP_COMPUTE_UNITS);

    return units > 0 ? fmin(1.0, units / clb_cpu_count_available()) : 1.0;
}

/* A device's datasheet figure f; for a CPU device no row names, its share of the host's
 * derived peak. */
static struct clb_datasheet_ref device_ref(const struct clb_micro_results *micro,
                                           const struct clb_device *dev, enum clb_ds_figure f)
{
    struct clb_datasheet_ref ref = datasheet_ref(dev, f);

    if (!ref.value && clb_device_is_cpu(dev) &&
        (f == CLB_DS_FP32_VECTOR || f == CLB_DS_FP64_VECTOR))
        ref = derived_ref(micro, f == CLB_DS_FP32_VECTOR ? CLB_FP32 : CLB_FP64,
                          cpu_device_share(dev));
    return ref;
}

uint64_t clb_device_llc_bytes(const struct clb_device *dev)
{
    const char *fake = getenv("CLBENCH_FAKE_LLC_BYTES");
    uint64_t bytes;
    struct clb_error e;

    if (fake && *fake && !clb_parse_bytes(fake, &bytes, &e))
        return bytes;
    bytes = dev ? clb_device_u64(dev, CLB_PROP_GLOBAL_CACHE_BYTES) : 0;
    if (!dev || clb_device_is_cpu(dev)) {
        const uint64_t l3 = clb_cpu_llc_total_bytes();
        bytes = l3 > bytes ? l3 : bytes;
    }
    return bytes;
}

void clb_datasheet_attach(struct clb_micro_results *res)
{
    for (size_t i = 0; i < res->n_rows; i++) {
        struct clb_row *row = &res->rows[i];
        enum clb_ds_figure f;
        /* Local memory is on the chip: no datasheet figure is of it. */
        if (row->benchmark == CLB_BENCH_BANDWIDTH &&
            strcmp(row->kernel, "local")) {
            row->datasheet = datasheet_ref(row->device, CLB_DS_MEMORY);
            /* Arrays that fit in the last-level cache ran from it, not from DRAM. */
            if (row->array_bytes) {
                row->llc_bytes = clb_device_llc_bytes(row->device);
                row->cache_resident = row->llc_bytes && 3 * row->array_bytes <= row->llc_bytes;
            }
            if (row->cache_resident && row->datasheet.value > 0) {
                row->datasheet = (struct clb_datasheet_ref){ 0 };
                row->datasheet_withheld = true;
            }
        } else if (row->benchmark == CLB_BENCH_PEAK && !row->device)
            row->datasheet = derived_ref(res, row->precision, 1.0);
        else if (row->benchmark == CLB_BENCH_PEAK && clb_ds_vector_figure(row->precision, &f))
            row->datasheet = device_ref(res, row->device, f);
    }
}

void clb_datasheet_attach_gemm(struct clb_gemm_results *res,
                               const struct clb_micro_results *micro, double host_share)
{
    for (size_t i = 0; i < res->n_rows; i++) {
        struct clb_row *row = &res->rows[i];
        enum clb_ds_figure f;
        if (!row->device)
            row->datasheet = derived_ref(micro, row->precision, host_share);
        else if (clb_ds_vector_figure(row->precision, &f))
            row->datasheet = device_ref(micro, row->device, f);
    }
}

double clb_host_share(double whole, bool *shared)
{
    const int sharers = clb_mpi_cpu_sharers();

    if (shared)
        *shared = sharers > 1;
    return whole / sharers;
}
