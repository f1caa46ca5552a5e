#ifndef CLBENCH_DATASHEET_DATASHEET_H
#define CLBENCH_DATASHEET_DATASHEET_H

/*
 * Vendors' published figures (src/datasheet/datasheet.json, embedded at
 * build time): one row per accelerator, each figure with its source, against
 * which measured figures are held ("% of datasheet"). A figure no source
 * gives is absent, never guessed. Matrix-unit (tensor core, XMX, MFMA)
 * figures are dense and kept apart from the vector (shader) figures: an
 * OpenCL C kernel can only approach the vector ones.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/core/types.h"
#include "clbench/util/error.h"

/* An embedded text file (the build's table; see kernels/embed.c). */
struct clb_embedded_text {
    const char *name; /* file name without extension: "datasheet" */
    const char *text;
};
extern const struct clb_embedded_text clb_datasheet_files[];

enum clb_ds_figure {
    CLB_DS_FP64_VECTOR,
    CLB_DS_FP32_VECTOR,
    CLB_DS_FP16_VECTOR,
    CLB_DS_FP64_MATRIX,
    CLB_DS_FP32_MATRIX,
    CLB_DS_FP16_MATRIX,
    CLB_DS_BF16_MATRIX,
    CLB_DS_INT8_MATRIX,
    CLB_DS_MEMORY,      /* bandwidth */
    CLB_DS_BOOST_CLOCK,
    CLB_DS_FIGURES
};

/* The vector (shader) peak of a precision ("fp32"): true and *f set, or false (int32). */
bool clb_ds_vector_figure(enum clb_precision precision, enum clb_ds_figure *f);

/* The figure's key in the table ("fp32_vector") and its unit for people ("GFLOP/s"). */
const char *clb_ds_figure_key(enum clb_ds_figure f);
const char *clb_ds_figure_unit(enum clb_ds_figure f);

struct clb_ds_value {
    bool present;
    double value;        /* GFLOP/s (floating point), GIOP/s (int8), GB/s (memory), MHz (clock) */
    const char *source;  /* the source's text, resolved from the row's sources (borrowed) */
    const char *note;    /* or NULL (borrowed) */
};

struct clb_ds_row {
    const char *name, *vendor;
    const char *opencl_note;  /* what OpenCL can and cannot reach here, or NULL */
    uint64_t memory_bytes;    /* 0: not given */
    bool opencl_split;        /* OpenCL may show the package as several devices */
    struct clb_ds_value fig[CLB_DS_FIGURES];
    json_t *match, *exclude;  /* borrowed arrays of patterns (exclude may be NULL) */
    /*
     * The row's "fp32_packed": whether fp32_vector counts packed FP32 (CDNA's
     * v_pk_fma_f32, RDNA 3's dual issue: two FP32 FMAs a lane a clock) and the
     * vendor's figure that does (GFLOP/s, sourced). Every AMD row states it
     * (the parser insists); fp32_packed_counted false means fp32_vector is the
     * non-packed rate, the one an FP32 vector kernel is held against.
     */
    bool fp32_packed_stated, fp32_packed_counted;
    struct clb_ds_value fp32_packed;
};

/*
 * A CPU core design: its vector FMA pipes, from which a CPU's peak is
 * derived (clb_ds_core_flops_per_cycle) rather than read from a datasheet.
 */
struct clb_ds_core {
    const char *name, *vendor; /* "AMD Zen 4", the CPUID vendor "AuthenticAMD"; Arm: the
                                  implementer's name, "ARM" (clb_cpu_id) */
    unsigned family;           /* CPUID display family; Arm: MIDR's implementer code */
    json_t *models;            /* borrowed: [[first, last], ...] display models; Arm: parts */
    unsigned fma_units;        /* vector FMA pipes per core; 0: differ by part (see note) */
    unsigned fma_bits;         /* their width: 128, 256, 512 */
    const char *source;        /* or NULL when fma_units is 0 */
    const char *note;          /* why fma_units is 0, or NULL */
    /*
     * A hybrid part's E-core (the row's e_core): its own FMA pipes; the
     * fields above are then the P-core's. e_fma_units 0: not hybrid.
     */
    const char *e_name, *e_source; /* "Gracemont", its source (borrowed) */
    unsigned e_fma_units, e_fma_bits;
};

struct clb_datasheet {
    json_t *root;             /* owned */
    struct clb_ds_row *rows;  /* owned */
    size_t n_rows;
    struct clb_ds_core *cores; /* owned; the table's cpu_cores */
    size_t n_cores;
};

/*
 * Parses and checks a table (schema clbench-datasheet/1). Every row needs a
 * name, vendor and match patterns; every figure a positive value in its unit
 * and a source the row's "sources" resolves; the figures must hold together
 * (a row's memory figure equals its memory_bytes/memory_gbps; fp16 vector >=
 * fp32 vector >= fp64 vector, and a matrix figure >= the vector figure of
 * its precision, where both are given). NULL with e naming the row and what
 * is wrong.
 */
struct clb_datasheet *clb_datasheet_parse(const char *text, size_t len, struct clb_error *e);
void clb_datasheet_destroy(struct clb_datasheet *d);

/* The built-in table, parsed once (never freed); NULL with e set if it is broken. */
const struct clb_datasheet *clb_datasheet_builtin(struct clb_error *e);

/*
 * The row of a device: the first whose any match pattern is a
 * case-insensitive substring of `name` or `board` (AMD's board name; may be
 * NULL) and none of whose exclude patterns is; NULL when none.
 */
const struct clb_ds_row *clb_datasheet_match(const struct clb_datasheet *d, const char *name,
                                             const char *board);
/*
 * How many OpenCL devices the package of row r is, judging by one that
 * reports device_memory bytes: 1, or for an opencl_split row whose device
 * has less than two thirds of the row's memory, ceil(memory_bytes /
 * device_memory - 0.05) (an MI250X die: 2; an MI300X in CPX mode: 8).
 */
unsigned clb_datasheet_parts(const struct clb_ds_row *r, uint64_t device_memory);

/* The core design of a CPU (clb_cpu_id's fields), or NULL when the table has none. */
const struct clb_ds_core *clb_datasheet_match_core(const struct clb_datasheet *d,
                                                   const char *vendor, unsigned family,
                                                   unsigned model);

/*
 * Peak floating-point operations per cycle of one core of c on elements of
 * elem_bits (32, 64) with the instruction set's widest vector FMA isa_bits
 * (clb_cpu_level_fma_bits): fma_units x min(fma_bits, isa_bits) / elem_bits
 * x 2 (an FMA is 2 flops). 0 when c's FMA units are not known or isa_bits
 * is 0 (no vector FMA).
 */
double clb_ds_core_flops_per_cycle(const struct clb_ds_core *c, unsigned isa_bits,
                                   unsigned elem_bits);
/* The same for one E-core of a hybrid c; 0 when c is not hybrid. */
double clb_ds_core_e_flops_per_cycle(const struct clb_ds_core *c, unsigned isa_bits,
                                     unsigned elem_bits);

/*
 * Peak flops per cycle of a whole CPU of c: p_cores x the P-core's
 * (clb_ds_core_flops_per_cycle) + e_cores x the E-core's. 0 when either
 * is 0 but cores are given, or when e_cores > 0 and c is not hybrid
 * (cores of a kind the design does not name).
 */
double clb_ds_core_cpu_flops_per_cycle(const struct clb_ds_core *c, unsigned isa_bits,
                                       unsigned elem_bits, unsigned p_cores, unsigned e_cores);

/* The rows whose name contains `query` (case-insensitive), or the row `query` matches as a device name. */
bool clb_datasheet_row_selected(const struct clb_ds_row *r, const char *query);

#endif
