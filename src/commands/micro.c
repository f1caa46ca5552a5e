/* peak, bandwidth, transfer, latency: clbench's own kernels, one command each. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clbench/bench/bandwidth.h"
#include "clbench/bench/hostpeak.h"
#include "clbench/bench/latency.h"
#include "clbench/bench/peak.h"
#include "clbench/bench/transfer.h"
#include "clbench/cl/env.h"
#include "clbench/cli/args.h"
#include "clbench/cli/gemm_args.h"
#include "clbench/output/micro.h"
#include "clbench/util/interrupt.h"
#include "clbench/util/parse.h"
#include "common.h"
#include "runner.h"

struct micro_config {
    struct clb_common common;
    unsigned runs;
    double min_time_s;  /* --min-time */
    bool stat_best;     /* --stat best */
    bool verbose;
    const char *output;
    uint64_t bytes;
    struct clb_byte_list sizes;
    unsigned transfer_modes; /* transfer: --modes, bits of enum clb_transfer_mode */
    struct clb_precision_list precisions; /* bandwidth: -p */
    enum clb_code_path code_path; /* bandwidth: --code-path */
    bool host_time;     /* bandwidth: --host-time */
};

static int opt_bytes(const char *arg, void *field, struct clb_error *e)
{
    return clb_parse_bytes(arg, field, e);
}

/* --modes "pageable,map": strict, each name once, "all" alone. */
static int opt_transfer_modes(const char *arg, void *field, struct clb_error *e)
{
    unsigned *modes = field;

    *modes = 0;
    if (!strcmp(arg, "all")) {
        *modes = (1u << CLB_TRANSFER_MODE_COUNT) - 1;
        return 0;
    }
    for (const char *s = arg;;) {
        const size_t len = strcspn(s, ",");
        int found = -1;
        for (int i = 0; i < CLB_TRANSFER_MODE_COUNT; i++)
            if (strlen(clb_transfer_mode_names[i]) == len &&
                !strncmp(s, clb_transfer_mode_names[i], len))
                found = i;
        if (!len) {
            clb_error_set(e, "empty item in '%s'", arg);
            return -1;
        }
        if (len == 3 && !strncmp(s, "all", 3)) {
            clb_error_set(e, "'all' goes alone, not with other modes");
            return -1;
        }
        if (found < 0) {
            clb_error_set(e, "unknown mode '%.*s' (pageable, pinned, async, map, zero-copy, "
                             "or all alone)", (int)len, s);
            return -1;
        }
        if (*modes & (1u << found)) {
            clb_error_set(e, "'%s' is listed twice", clb_transfer_mode_names[found]);
            return -1;
        }
        *modes |= 1u << found;
        if (!s[len])
            return 0;
        s += len + 1;
    }
}

static int opt_stat(const char *arg, void *field, struct clb_error *e)
{
    if (strcmp(arg, "median") && strcmp(arg, "best")) {
        clb_error_set(e, "unknown statistic '%s', expected median or best", arg);
        return -1;
    }
    *(bool *)field = !strcmp(arg, "best");
    return 0;
}

#define MICRO_COMMON_OPTIONS                                                                  \
    CLB_COMMON_OPTIONS(struct micro_config),                                                  \
    CLB_FLEET_OPTIONS(struct micro_config),                                                   \
    { .name = "output", .short_name = 'o', .metavar = "FILE",                                 \
      .help = "Also write the results to FILE.json or FILE.csv",                              \
      .parse = clb_opt_string, .offset = offsetof(struct micro_config, output),              \
      .file = true },                                                                         \
    { .name = "runs", .metavar = "N", .help = "Timed calls per figure at least, after a warm-up", \
      .parse = clb_opt_positive, .offset = offsetof(struct micro_config, runs), .def = "5" }, \
    { .name = "min-time", .metavar = "SECONDS",                                               \
      .help = "And timed calls until they add up to this much per figure, as clpeak does "    \
              "(at most 20000 calls)",                                                        \
      .parse = clb_opt_seconds, .offset = offsetof(struct micro_config, min_time_s),          \
      .def = "0.5" },                                                                         \
    { .name = "stat", .metavar = "STAT",                                                      \
      .help = "The headline figure: median (of the calls) or best (the fastest call, as "     \
              "BabelStream and clpeak report)",                                               \
      .parse = opt_stat, .offset = offsetof(struct micro_config, stat_best), .def = "median", \
      .words = "median best" }

static const struct clb_option peak_options[] = {
    MICRO_COMMON_OPTIONS,
    { .name = "verbose", .short_name = 'v',
      .help = "Show every vector width, not only the best",
      .offset = offsetof(struct micro_config, verbose) },
    { .name = "code-path", .metavar = "PATH",
      .help = "Independent chains per work-item: cpu (8), gpu (a work-item's accumulators "
              "within 64 32-bit registers: 8 chains down to 2 for fp64 x16) or auto, by the "
              "device's type",
      .parse = clb_opt_code_path, .offset = offsetof(struct micro_config, code_path),
      .def = "auto", .words = "auto cpu gpu" },
    { 0 },
};

static const struct clb_option bandwidth_options[] = {
    MICRO_COMMON_OPTIONS,
    /* Per device, and --bytes by its memory; both stay 0 ("not given") for the bench. */
    { .name = "precision", .short_name = 'p', .metavar = "LIST", .help = "fp32, fp64 or all",
      .parse = clb_opt_precisions, .offset = offsetof(struct micro_config, precisions),
      .def_help = "fp64 where the device has it, else fp32, as BabelStream",
      .words_hook = clb_precision_words },
    { .name = "bytes", .metavar = "SIZE", .help = "Bytes per array, e.g. 256M",
      .parse = opt_bytes, .offset = offsetof(struct micro_config, bytes),
      .def_help = "256 MiB, 1 GiB on a device other than a CPU with 16 GB or more, less if the "
                  "device cannot hold three" },
    { .name = "sizes", .metavar = "LIST",
      .help = "Instead of --bytes, a sweep of array sizes (64K,1M,16M,256M): each size's "
              "rows, and where the caches stop helping",
      .parse = clb_opt_byte_list, .offset = offsetof(struct micro_config, sizes) },
    { .name = "code-path", .metavar = "PATH",
      .help = "The kernels' variant: cpu (the read pass and a dot in contiguous chunks, "
              "BabelStream's CPU dot grid), gpu (a coalesced read, its GPU grid) or auto, by "
              "the device's type",
      .parse = clb_opt_code_path, .offset = offsetof(struct micro_config, code_path),
      .def = "auto", .words = "auto cpu gpu" },
    { .name = "host-time",
      .help = "Also show each figure on the other clock: the host's around enqueue + clFinish "
              "(as BabelStream times) where the headline is the device's profiling events, "
              "the device's where it is the host's (a CPU device)",
      .offset = offsetof(struct micro_config, host_time) },
    { 0 },
};

static const struct clb_option transfer_options[] = {
    MICRO_COMMON_OPTIONS,
    { .name = "sizes", .metavar = "LIST",
      .help = "Transfer sizes",
      .parse = clb_opt_byte_list, .offset = offsetof(struct micro_config, sizes),
      .def = "4K,64K,1M,16M,256M" },
    { .name = "modes", .metavar = "LIST",
      .help = "Paths to time, or all: pageable, pinned (blocking copies from malloc'd or "
              "CL_MEM_ALLOC_HOST_PTR memory), async (pinned, non-blocking + clFinish), map "
              "(map + memcpy + unmap), zero-copy (map + unmap of a CL_MEM_USE_HOST_PTR "
              "buffer: the handover alone, no copy)",
      .parse = opt_transfer_modes, .offset = offsetof(struct micro_config, transfer_modes),
      .def = "pageable,pinned", .words = "pageable pinned async map zero-copy all" },
    { 0 },
};

static const struct clb_option latency_options[] = {
    MICRO_COMMON_OPTIONS,
    { 0 },
};

typedef int (*micro_fn)(const struct clb_device *, const struct clb_cl_env *,
                        const struct clb_micro_options *, struct clb_micro_results *);

/* One run of a micro command: its config, what it measures, and what it measured. */
struct micro_run {
    struct micro_config *cfg;
    micro_fn fn;
    const char *name;
    enum clb_benchmark bench;
    enum clb_precision precs[CLB_GEMM_PRECISIONS];
    struct clb_micro_options opt;
    struct clb_micro_results res;
    struct clb_micro_report report;
};

static int write_report(FILE *out, enum clb_format fmt, const void *report)
{
    return clb_micro_write(out, fmt, report);
}

/* bandwidth: arrays too small for one chunk in every precision asked for would skip every row. */
static int check_stream_bytes(const struct micro_run *m)
{
    const struct micro_config *cfg = m->cfg;
    bool fp32_only = m->opt.n_precisions > 0;

    for (size_t i = 0; i < m->opt.n_precisions; i++)
        fp32_only &= m->precs[i] == CLB_FP32;
    const uint64_t least = CLB_STREAM_MIN_ELEMENTS * (fp32_only ? 4u : 8u);
    for (size_t i = 0; i < (cfg->sizes.n ? cfg->sizes.n : 1); i++) {
        const uint64_t b = cfg->sizes.n ? cfg->sizes.v[i] : cfg->bytes;
        if (b && b < least) {
            fprintf(stderr, "clbench bandwidth: option %s: %" PRIu64 " bytes hold fewer "
                            "than %d %s elements (one chunk of the dot kernel): expected "
                            "at least %s%s\n", cfg->sizes.n ? "--sizes" : "--bytes", b,
                    CLB_STREAM_MIN_ELEMENTS, fp32_only ? "fp32" : "fp64",
                    fp32_only ? "4K" : "8K", fp32_only ? "" : ", or 4K with -p fp32");
            return CLB_EXIT_USAGE;
        }
    }
    return CLB_EXIT_OK;
}

static int micro_validate(struct clb_run *run)
{
    struct micro_run *m = run->cmd;
    const struct micro_config *cfg = m->cfg;
    int rc = CLB_EXIT_OK;

    m->opt = (struct clb_micro_options){ .runs = cfg->runs, .min_time_s = cfg->min_time_s,
                                         .bytes = cfg->bytes,
                                         .sizes = cfg->sizes.n ? cfg->sizes.v : NULL,
                                         .n_sizes = cfg->sizes.n,
                                         .transfer_modes = cfg->transfer_modes,
                                         .code_path = cfg->code_path,
                                         .all_variants = cfg->verbose };
    /* Streams run in fp32 and fp64; "all" means both. */
    for (size_t i = 0; i < cfg->precisions.n; i++) {
        const enum clb_precision p = cfg->precisions.v[i];
        if (p == CLB_FP16 && cfg->precisions.n < CLB_GEMM_PRECISIONS) {
            fprintf(stderr, "clbench %s: option --precision: streams run in fp32 and fp64, "
                            "not fp16\n", m->name);
            rc = CLB_EXIT_USAGE;
        }
        if (p != CLB_FP16)
            m->precs[m->opt.n_precisions++] = p;
    }
    m->opt.precisions = m->opt.n_precisions ? m->precs : NULL;
    if (m->bench == CLB_BENCH_BANDWIDTH && rc == CLB_EXIT_OK)
        rc = check_stream_bytes(m);
    if (cfg->bytes && cfg->sizes.n) {
        fprintf(stderr, "clbench %s: options --bytes and --sizes conflict: give one\n", m->name);
        rc = CLB_EXIT_USAGE;
    }
    run->output = cfg->output;
    return rc;
}

/* peak: the host CPU's own yardstick first, the limit a CPU device is held against. */
static void micro_host_step(struct clb_run *run)
{
    struct micro_run *m = run->cmd;

    if (isatty(STDERR_FILENO))
        fprintf(stderr, "peak host CPU ...\n");
    clb_host_peak_run(&m->opt, &m->res);
}

static void micro_device_step(struct clb_run *run, size_t i)
{
    struct micro_run *m = run->cmd;
    const struct clb_selection *sel = &run->sel;
    struct clb_cl_env env;
    struct clb_error e;

    if (i >= sel->n_devices)
        return;
    if (isatty(STDERR_FILENO))
        fprintf(stderr, "[%zu/%zu] %s %s ...\n", i + 1, sel->n_devices, m->name,
                clb_device_str(sel->devices[i], CLB_PROP_NAME));
    if (clb_cl_env_init(&env, sel->devices[i]->id, false, &e)) {
        struct clb_row *row = clb_micro_add(&m->res, sel->devices[i], m->bench, "gbps");
        if (row) {
            row->status = CLB_ROW_ERROR;
            snprintf(row->case_, sizeof(row->case_), "all");
            snprintf(row->reason, sizeof(row->reason), "%s", e.msg);
        }
        return;
    }
    m->fn(sel->devices[i], &env, &m->opt, &m->res);
    clb_cl_env_finish(&env);
}

static const void *micro_report(struct clb_run *run)
{
    struct micro_run *m = run->cmd;

    /* The headline --stat asks for, before anything is held against it. */
    for (size_t i = 0; i < m->res.n_rows; i++) {
        m->res.rows[i].stat_best = m->cfg->stat_best;
        clb_micro_row_summarize(&m->res.rows[i]);
    }
    run->micro_rows = &m->res;
    clb_micro_pick_headlines(&m->res);
    clb_datasheet_attach(&m->res);
    m->report = (struct clb_micro_report){ .meta = &run->meta, .results = &m->res,
                                           .devices = run->sel.devices,
                                           .n_devices = run->sel.n_devices,
                                           .runs = m->cfg->runs, .verbose = m->cfg->verbose,
                                           .host_time = m->cfg->host_time };
    return &m->report;
}

static void micro_finish(struct clb_run *run)
{
    clb_micro_results_finish(&((struct micro_run *)run->cmd)->res);
}

#define MICRO_COMMAND(name_, fn_, host_, opts_, summary_)                                  \
    const struct clb_measure clb_cmd_##name_##_measure = {                                 \
        .name = #name_, .validate = micro_validate, .host_step = host_,                    \
        .device_step = micro_device_step, .report = micro_report,                          \
        .write = write_report, .finish = micro_finish,                                     \
    };                                                                                     \
    static int run_##name_(void *config, int n, char **ops)                                \
    {                                                                                      \
        struct micro_run m = { .cfg = config, .fn = fn_, .name = #name_,                   \
                               .bench = clb_benchmark_from_name(#name_) };                 \
        (void)n;                                                                           \
        (void)ops;                                                                         \
        return clb_measure_run(&clb_cmd_##name_##_measure, &m, &m.cfg->common);            \
    }                                                                                      \
    const struct clb_command clb_cmd_##name_ = {                                           \
        .name = #name_, .summary = summary_, .usage = "", .options = opts_,                \
        .config_size = sizeof(struct micro_config),                                        \
        .run = run_##name_,                                                                \
    }

MICRO_COMMAND(peak, clb_peak_run, micro_host_step, peak_options,
              "Peak arithmetic rate per precision (fp32, fp64, fp16, bf16, int32, int16, int8, "
              "int8dot) with clbench's own "
              "kernels, verified.");
MICRO_COMMAND(bandwidth, clb_bandwidth_run, NULL, bandwidth_options,
              "Device memory bandwidth: copy, mul, add, triad, dot (BabelStream's kernels), "
              "verified.");
MICRO_COMMAND(transfer, clb_transfer_run, NULL, transfer_options,
              "Host-to-device and device-to-host bandwidth, pageable and pinned memory (also "
              "non-blocking, map/unmap, zero-copy: --modes), by size.");
MICRO_COMMAND(latency, clb_latency_run, NULL, latency_options,
              "Kernel launch latency: round trip, enqueue to start, and an empty kernel's run.");
