#ifndef CLBENCH_RESULTS_RESULTFILE_H
#define CLBENCH_RESULTS_RESULTFILE_H

/*
 * Reading result documents back (clbench-result/1, docs/result-schema.md)
 * for `compare` and `report`. Everything read from outside is checked:
 * a file that is not such a document is refused with a reason that names it.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "clbench/core/row.h"
#include "clbench/util/error.h"

/* Result files larger than this are refused rather than parsed. */
#define CLB_RESULT_FILE_MAX_BYTES (256u << 20)

/*
 * A row's "datasheet" object (peak, bandwidth and gemm rows of a device the
 * datasheet table names; docs/result-schema.md): the figure the row is held
 * against, in the row's unit (GFLOP/s, GB/s), the device's share of its
 * package. Strings borrowed from the JSON.
 */
struct clb_result_datasheet {
    const char *accelerator; /* the table's row, "NVIDIA H100 PCIe 80GB"; "AMD Zen 4" if derived */
    const char *figure;      /* "fp32_vector", "fp64_vector", "fp16_vector", "memory" */
    const char *source;      /* where the table has it from; NULL when absent */
    double value;            /* > 0 */
    /*
     * Not a vendor's figure: a CPU's peak derived as cores x flops_per_cycle
     * x clock_ghz (the clock measured); each of those 0 when absent.
     */
    bool derived;
    double cores, flops_per_cycle, clock_ghz;
};

/* One result row, as `compare` and `report` need it (strings borrowed from the JSON). */
struct clb_result_row {
    enum clb_benchmark benchmark; /* OTHER: a name this build does not know */
    const char *benchmark_name;   /* as the file names it, "gemm" */
    const char *case_;     /* "fp32 1024x1024x1024": the problem within the benchmark */
    const char *backend;   /* "clblast" */
    const char *device;    /* device name, "host CPU" for host backends */
    const char *device_id; /* "P:D", "host"; "" when absent */
    const char *status;    /* "ok", "failed", ... */
    enum clb_precision precision; /* NONE: the row has none, or one this build does not know */
    const char *precision_name;   /* as the file names it; NULL when absent */
    uint64_t m, n, k;      /* 0 when not a GEMM row */
    const char *metric;    /* key of the headline figure, e.g. "gflops" (higher is better) */
    bool has_value;        /* status ok and the figure present */
    double value;          /* the headline figure */
    double best;           /* the fastest verified call's figure (<metric>_best; 0: absent, or
                              not verified): what a peak is as a limit */
    double speedup;        /* over the CPU baseline; 0 when absent */
    bool baseline;         /* this row is the CPU baseline itself */
    const char *baseline_handicap; /* why that baseline is slower than its CPU can be; NULL:
                                      it is not (or the file does not say) */
    bool headline;         /* peak: the best vector width of its precision */
    /*
     * Borrowed (owned by the file): the row's "config" object, what must match
     * for another run's figure to be comparable. Files written before "config"
     * existed get one derived from the rest of the document, equal to what the
     * writer would have written: gemm {tuned, alpha, beta, transfers} from the
     * row and "options", plus {threads, blas_core} from "libraries" for host
     * rows; peak {width}; bandwidth {bytes_per_call} from work_per_call; {} else.
     */
    json_t *config;
    /*
     * Fleet files only (a run under mpirun/srun, docs/result-schema.md "fleet"):
     * the rank that measured the row, its node and its rank on that node;
     * host NULL and rank, local_rank -1 in a single run's file.
     */
    const char *host;
    int rank, local_rank;
    /* gemm --shapes rows: what the shape is in the model (NULL/0 otherwise). */
    const char *role, *phase; /* "qkv", "prefill" */
    unsigned per_layer;
    double median_s;      /* the median timed call, s (0: none) */
    /*
     * The row's timed calls ("times_s"), s: how many, what they add up to,
     * the fastest, the median and the slowest; all 0 when the row has none;
     * and the calls themselves, ascending (owned by the file; NULL when none).
     */
    size_t n_calls;
    double calls_s, fastest_s, call_median_s, slowest_s;
    double *times_s;
    int slot;             /* its device's place among its rank's devices; -1: none */
    const char *host_cpu; /* a host row's CPU model; NULL otherwise */
    bool straggler;      /* judged beyond the run's threshold from its figure's fleet median */
    /*
     * false: beyond the threshold, but its calls too few, too short or too
     * spread to tell it from noise (clb_fleet_merge); true when absent.
     */
    bool judged;
    double fleet_median; /* that median over the ranks' verified figures; 0: none */
    bool has_datasheet;  /* the row carries a datasheet object (whatever its status) */
    struct clb_result_datasheet datasheet;
    /*
     * What ran: the row's "kernel"; for a bandwidth row the stream kernel
     * ("triad", "dot chunked", "local"). Files written before bandwidth rows
     * had it get the kernel their case names ("fp32 triad 8 MiB"); NULL when
     * neither says.
     */
    const char *kernel;
    /*
     * Bandwidth rows of the three stream arrays: bytes of each array
     * ("array_bytes"; older files: the size a --sizes case names, "8 MiB"),
     * 0 when not of them. sized: the case names the size, so the row is one
     * size of a `bandwidth --sizes` sweep.
     */
    uint64_t array_bytes;
    bool sized;
    uint64_t llc_bytes;   /* the last-level cache the arrays were held against ("llc_bytes");
                             0: not known (null), or a file written before rows had it */
    double work_per_call; /* operations or bytes per timed call ("work_per_call"); 0: absent */
};

/* A document's "host" object, as far as the report shows it ("" when absent). */
struct clb_result_host {
    const char *hostname, *cpu, *os;
};

/*
 * One entry of a document's "devices" array (strings borrowed, "" when
 * absent; numbers -1 when absent; fp64/fp16 -1 when absent, else 0 or 1).
 */
struct clb_result_device {
    const char *id, *name, *type, *vendor, *driver_version, *opencl_version;
    int64_t compute_units, max_clock_mhz, global_mem_bytes, max_alloc_bytes;
    int fp64, fp16;
};

struct clb_result_file {
    char *path;
    json_t *root;
    const char *version;  /* clbench_version */
    const char *created;
    bool complete;
    struct clb_result_row *rows;
    size_t n_rows;
    json_t *devices;      /* borrowed: the "devices" array */
    json_t *host;         /* borrowed: the "host" object */
    json_t *derived;      /* owned: the configs derived for rows without one */
    json_t *fleet;        /* borrowed: the "fleet" object of a fleet run's file, else NULL */
    struct clb_result_host host_info;
    struct clb_result_device *device_list; /* owned: "devices"' objects, in order */
    size_t n_devices;
    double fleet_threshold; /* fleet.threshold (0 < t < 1), 0 when absent */
};

/* NULL with e set to "PATH: why" (one line) when the file is unusable. */
struct clb_result_file *clb_result_file_load(const char *path, struct clb_error *e);
/* The same from text in memory (len bytes, need not be NUL-terminated); name is for messages. */
struct clb_result_file *clb_result_file_parse(const char *name, const char *text, size_t len,
                                              struct clb_error *e);
void clb_result_file_destroy(struct clb_result_file *f);

/* A GEMM row's size as one number, (m n k)^(1/3): its n for an n x n x n problem. */
double clb_result_row_cube_size(const struct clb_result_row *r);

/*
 * The triad rows, written here once: a bandwidth row of the triad ("fp32
 * triad", "fp64 triad"), BabelStream's headline at its default size; and
 * one size of a `bandwidth --sizes` sweep of it (sized, kernel "triad"),
 * which is no headline and never an is_triad row.
 */
bool clb_result_row_is_triad(const struct clb_result_row *r);
bool clb_result_row_is_sized_triad(const struct clb_result_row *r);

/*
 * The same benchmark, the same precision: as the files name them, so names
 * this build does not know match by name too (two rows without a precision
 * have the same).
 */
bool clb_result_row_same_benchmark(const struct clb_result_row *a, const struct clb_result_row *b);
bool clb_result_row_same_precision(const struct clb_result_row *a, const struct clb_result_row *b);
/* An order of precisions for sorting (<0, 0, >0), 0 exactly when clb_result_row_same_precision. */
int clb_result_row_cmp_precision(const struct clb_result_row *a, const struct clb_result_row *b);

/* The same device name and id (ranks aside): one place of a file. */
bool clb_result_row_same_place(const struct clb_result_row *a, const struct clb_result_row *b);
/* The same place measured by the same rank. */
bool clb_result_row_same_device(const struct clb_result_row *a, const struct clb_result_row *b);

/* 100 x the row's figure / its datasheet value; 0 unless it has both (a verified figure). */
double clb_result_row_datasheet_percent(const struct clb_result_row *r);

#endif
