#include "gemm_config.h"

#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clbench/cli/args.h"
#include "common.h"

/* --backend's help: the registry's backends, each with its summary. */
static void backend_help(FILE *out)
{
    for (size_t b = 0; clb_gemm_backends[b]; b++)
        fprintf(out, " %s (%s),", clb_gemm_backends[b]->name, clb_gemm_backends[b]->summary);
    fputs(" or all; NAME-untuned runs a tunable backend with its built-in parameters", out);
}

const struct clb_option clb_gemm_options[] = {
    CLB_COMMON_OPTIONS(struct gemm_config),
    CLB_FLEET_OPTIONS(struct gemm_config),
    /* Only without --mnk and --shapes: clb_gemm_config_validate fills it. */
    { .name = "size", .short_name = 'n', .metavar = "LIST",
      .help = "Square sizes M=N=K: a list (512,1024) or ranges FROM:TO:xFACTOR (256:4096:x2) "
              "or FROM:TO:STEP",
      .parse = clb_opt_sizes, .offset = offsetof(struct gemm_config, sizes),
      .def_help = CLB_GEMM_DEFAULT_SIZES },
    { .name = "mnk", .metavar = "M,N,K",
      .help = "One non-square shape instead of --size",
      .parse = clb_opt_mnk, .offset = offsetof(struct gemm_config, mnk) },
    CLB_SHAPES_OPTIONS(struct gemm_config, shapes),
    { .name = "precision", .short_name = 'p', .metavar = "LIST",
      .help = "Precisions: fp32, fp64, fp16 or all",
      .parse = clb_opt_precisions, .offset = offsetof(struct gemm_config, precisions),
      .def = "fp32", .words_hook = clb_precision_words },
    { .name = "backend", .short_name = 'b', .metavar = "LIST",
      .help = "Backends:",
      .parse = clb_opt_backends, .offset = offsetof(struct gemm_config, backends), .def = "all",
      .help_hook = backend_help, .words_hook = clb_backend_words },
    { .name = "runs", .metavar = "N",
      .help = "Timed calls per result, at least",
      .parse = clb_opt_positive, .offset = offsetof(struct gemm_config, runs), .def = "5" },
    { .name = "warmup", .metavar = "N",
      .help = "Untimed calls after the first call",
      .parse = clb_opt_uint, .offset = offsetof(struct gemm_config, warmup), .def = "1" },
    { .name = "min-time", .metavar = "SECONDS",
      .help = "Keep timing calls until at least this much time was measured",
      .parse = clb_opt_seconds, .offset = offsetof(struct gemm_config, min_time_s), .def = "0" },
    /* 0, no limit, is no value of --max-time. */
    { .name = "max-time", .metavar = "SECONDS",
      .help = "Start no new result after this long, more than 0; the rest show as skipped",
      .parse = clb_opt_time_limit, .offset = offsetof(struct gemm_config, max_time_s),
      .def_help = "no limit" },
    /* 0: the CPUs this process may use, or a fleet rank's share of them (host_threads, gemm.c). */
    { .name = "threads", .metavar = "N",
      .help = "OpenBLAS threads",
      .parse = clb_opt_positive, .offset = offsetof(struct gemm_config, threads),
      .def_help = "every CPU this process may use" },
    { .name = "blas-core", .metavar = "MODE",
      .help = "OpenBLAS kernels: auto (switch to the CPU's instruction set when OpenBLAS "
              "picked older ones), as-is, or a core name such as SkylakeX",
      .parse = clb_opt_blas_core, .offset = offsetof(struct gemm_config, blas_core),
      .def = "auto", .words = "auto as-is" },
    { .name = "transfers",
      .help = "Also time end to end: host-to-device copy + GEMM + device-to-host copy",
      .offset = offsetof(struct gemm_config, transfers) },
    { .name = "seed", .metavar = "N",
      .help = "Seed of the random inputs",
      .parse = clb_opt_u64, .offset = offsetof(struct gemm_config, seed), .def = "42" },
    { .name = "alpha", .metavar = "X",
      .help = "alpha in C = alpha*A*B + beta*C, not 0",
      .parse = clb_opt_alpha, .offset = offsetof(struct gemm_config, alpha), .def = "1" },
    { .name = "beta", .metavar = "X",
      .help = "beta in C = alpha*A*B + beta*C",
      .parse = clb_opt_scalar, .offset = offsetof(struct gemm_config, beta), .def = "0" },
    { .name = "trans", .metavar = "AB",
      .help = "Whether A and B are stored transposed, as BLAS's transa and transb: NN, NT, TN "
              "or TT; C = alpha*op(A)*op(B) + beta*C, op(A) M x K, op(B) K x N",
      .parse = clb_opt_trans, .offset = offsetof(struct gemm_config, mode), .def = "NN",
      .words = "NN NT TN TT" },
    { .name = "layout", .metavar = "ORDER",
      .help = "Storage of A, B and C: row (row-major) or col (column-major, BLAS's own)",
      .parse = clb_opt_layout, .offset = offsetof(struct gemm_config, mode), .def = "row",
      .words = "row col" },
    { .name = "ld", .metavar = "PAD",
      .help = "Make every leading dimension PAD elements longer than its minimum, at every "
              "size (lda = K + PAD for a row-major A in NN; the padding must stay untouched)",
      .parse = clb_opt_ld_pad, .offset = offsetof(struct gemm_config, mode), .def = "0" },
    { .name = "offset", .metavar = "N",
      .help = "Put each matrix N elements into its buffer, as CLBlast's a_offset, b_offset and "
              "c_offset",
      .parse = clb_opt_offset, .offset = offsetof(struct gemm_config, mode), .def = "0" },
    { .name = "code-path", .metavar = "PATH",
      .help = "Which of clbench's own GEMM kernels runs (-b clbench): cpu (packed panels, "
              "register tiles of vectors), gpu (tiles staged in local memory, register tiles "
              "fed by vector reads, K split where the problem gives fewer than 4 work-groups "
              "per compute unit) or auto (cpu on devices of type CPU, else gpu)",
      .parse = clb_opt_code_path, .offset = offsetof(struct gemm_config, code_path),
      .def = "auto", .words = "auto cpu gpu" },
    { .name = "untuned",
      .help = "Also run every tunable backend with its built-in parameters (clblast-untuned, "
              "clbench-untuned) next to its rows with the parameters stored by 'clbench tune'",
      .offset = offsetof(struct gemm_config, untuned) },
    { .name = "no-peak",
      .help = "Do not measure the host CPU's and each device's peak first (the % PEAK columns "
              "stay empty)",
      .offset = offsetof(struct gemm_config, no_peak) },
    { .name = "output", .short_name = 'o', .metavar = "FILE",
      .help = "Also write the results to FILE.json or FILE.csv",
      .parse = clb_opt_string, .offset = offsetof(struct gemm_config, output), .file = true },
    { 0 },
};

int clb_gemm_config_validate(struct gemm_config *cfg)
{
    struct clb_error e;

    if ((cfg->sizes.n > 0) + (cfg->mnk.n > 0) + (cfg->shapes.model != NULL) > 1) {
        fprintf(stderr, "clbench gemm: options --size, --mnk and --shapes conflict: give one\n");
        return CLB_EXIT_USAGE;
    }
    if (clb_shapes_validate(&cfg->shapes, cfg->common.format, &cfg->sizes) != CLB_EXIT_OK)
        return CLB_EXIT_USAGE;
    if (cfg->mnk.n)
        cfg->sizes = cfg->mnk;
    if (!cfg->sizes.n)
        clb_opt_sizes(CLB_GEMM_DEFAULT_SIZES, &cfg->sizes, &e);
    if (cfg->untuned) {
        /* --untuned adds rows only for tunable backends: with none it would add nothing. */
        bool tunable = false;
        char names[256] = "";
        for (size_t i = 0; i < cfg->backends.n; i++)
            tunable |= cfg->backends.v[i]->tuning != NULL;
        for (size_t b = 0; clb_gemm_backends[b]; b++)
            if (clb_gemm_backends[b]->tuning)
                snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
                         names[0] ? ", " : "", clb_gemm_backends[b]->name);
        if (!tunable) {
            fprintf(stderr, "clbench gemm: option --untuned: no backend in --backend has "
                            "tuning; expected it with %s\n", names[0] ? names : "none");
            return CLB_EXIT_USAGE;
        }
        /* Each tunable backend's untuned rows just before its tuned ones, side by side. */
        struct clb_backend_list l = { 0 };
        for (size_t i = 0; i < cfg->backends.n; i++) {
            const struct clb_gemm_backend *be = cfg->backends.v[i];
            bool have = false;
            for (size_t j = 0; j < cfg->backends.n; j++)
                have |= cfg->backends.v[j] == be && cfg->backends.untuned[j];
            if (be->tuning && !cfg->backends.untuned[i] && !have && l.n < 7) {
                l.v[l.n] = be;
                l.untuned[l.n++] = true;
            }
            if (l.n < 8) {
                l.v[l.n] = be;
                l.untuned[l.n++] = cfg->backends.untuned[i];
            }
        }
        cfg->backends = l;
    }
    /* A name other than FILE.json or FILE.csv is the runner's to refuse, before its folder. */
    if (cfg->output && clb_format_from_path(cfg->output) >= 0) {
        char *copy = strdup(cfg->output);
        const char *dir = copy ? dirname(copy) : ".";
        int writable = access(dir, W_OK) == 0;
        free(copy);
        /* In a fleet only rank 0 writes it: the folder need not exist on other nodes. */
        if (!writable && clb_fleet_lead()) {
            fprintf(stderr, "clbench gemm: option --output: cannot write in the folder of '%s'\n",
                    cfg->output);
            return CLB_EXIT_USAGE;
        }
    }
    return CLB_EXIT_OK;
}

