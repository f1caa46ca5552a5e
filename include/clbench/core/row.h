#ifndef CLBENCH_CORE_ROW_H
#define CLBENCH_CORE_ROW_H

/*
 * The one row every figure is (struct clb_row below), measured or read back,
 * and what names it: the benchmark that measured it (with enum clb_precision
 * of clbench/core/types.h, the number type). Names appear only as the result
 * document writes them (docs/result-schema.md); rooms compare the enums, and
 * the file reader (clbench/results/resultfile.h) turns a document's names
 * into them.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/core/types.h"

enum clb_benchmark {
    CLB_BENCH_OTHER,      /* read from a file: a name this build does not know */
    CLB_BENCH_GEMM,
    CLB_BENCH_PEAK,
    CLB_BENCH_BANDWIDTH,
    CLB_BENCH_TRANSFER,
    CLB_BENCH_LATENCY,
    CLB_BENCH_COLLECTIVE,
    CLB_BENCH_COUNT
};

/* "gemm", "peak", ...; NULL for OTHER. */
const char *clb_benchmark_name(enum clb_benchmark b);
/* The benchmark called name; CLB_BENCH_OTHER for NULL or a name not in the table. */
enum clb_benchmark clb_benchmark_from_name(const char *name);

struct clb_device;       /* clbench/cl/device.h */
struct clb_gemm_backend; /* clbench/backends/backend.h */

/* Summary of repeated timings (any unit; the samples' own). */
struct clb_stats {
    size_t n;
    double median, min, max, mean;
    double cv; /* coefficient of variation: sample stddev / mean (0 for n < 2) */
};

enum clb_verify_method { CLB_VERIFY_FULL, CLB_VERIFY_FREIVALDS };
/* What verifying a GEMM result found (clbench/bench/verify.h). */
struct clb_verify_result {
    bool passed;
    enum clb_verify_method method;
    /* full: largest |C_ij - R_ij|; freivalds: largest row or column residual (NaN/Inf: not finite) */
    double max_abs_err;
    /* full: ||C - R||_F / ||R||_F; freivalds: ||r|| / ||R x||, rows and columns together */
    double rel_err;
    /* sqrt(sum of squared errors / sum of modelled variances): the error in units of the
     * rounding noise a correct result carries (about 0.2 to 0.8 when correct) */
    double noise_ratio;
    /* the largest statistic / tolerance over every check made: passed iff <= 1 and finite */
    double worst_ratio;
    char failed[96];   /* the check with the worst ratio when it failed ("row 12"), else "" */
    uint64_t checked;  /* entries of C covered by the checks: always m*n */
};

/* What a shape stands for in a model (gemm --shapes): static strings. */
struct clb_shape_role {
    const char *role;   /* "qkv", "mlp down" (clbench/fit/fit.h's roles) */
    const char *phase;  /* "prefill" (M = context x batch) or "decode" (M = batch) */
    unsigned per_layer; /* such GEMMs per layer */
};

/*
 * The timed kernel's launch, as run, so that tests hold `work` to it (0s where
 * nothing was launched; the JSON row's "launch").
 * peak (clbench's kernels and the host's): work = global_size x rounds x chains x
 * (operations of one chain step on a `width`-element vector).
 * bandwidth: work = the bytes the kernel's work-items move (elements, global_size,
 * local_size; local: rounds of 16 reads each).
 */
struct clb_micro_launch {
    uint64_t global_size;   /* work-items per launch; host peak: threads */
    uint64_t local_size;    /* work-items per work-group (peak on OpenCL: always given,
                               clb_peak_local_size); 0: the runtime's choice */
    uint64_t rounds;        /* peak: loop rounds each work-item (thread) runs; bandwidth
                               local: the kernel's `rounds` argument; else 0 */
    uint64_t elements;      /* bandwidth: per array (the streams; 0 for local) */
    unsigned width;         /* peak: the kernel's vector width (WIDTH; int8dot: 1, a
                               packed uint) */
    unsigned chains;        /* peak: independent chains per work-item, the kernel's CHAINS
                               (clb_peak_chains; host: accumulators) */
    char options[160];      /* peak on OpenCL: the kernel's build options; else "" */
    bool fills_device;      /* peak on OpenCL: global_size holds CLB_PEAK_GROUPS_PER_CU
                               work-groups per compute unit (clb_peak_fills_device); false:
                               the figure may be of part of the device (a launch the
                               device's room or the test hook held smaller) */
};

/*
 * One measured figure, whichever benchmark measured it: what it is (benchmark,
 * precision, device, backend, case), its status, every timed call and the
 * figures from them, what it ran and the datasheet figure it is held against;
 * then one part per family, which only that family's rows fill (zero
 * elsewhere). Benchmarks fill it (clbench/bench/gemm_run.h, micro.h), writers
 * draw it (clbench/output/). Rows own times_s and alt_times_s.
 */
struct clb_row {
    enum clb_benchmark benchmark;
    enum clb_precision precision;  /* peak: any; gemm: fp32, fp64, fp16; bandwidth: fp32,
                                      fp64; else NONE (clb_micro_add's) */
    const struct clb_device *device; /* NULL: the host CPU (a host backend, the host peak) */
    char backend[64];           /* who measured: "clblast", "clblast-untuned", "openblas";
                                   "host" (the host peak); "" for clbench's own micro kernels */
    char case_[160];            /* micro and file rows: "fp32 x8", "fp32 triad", "h2d pinned 16
                                   MiB"; measured gemm rows name theirs from shape and mode
                                   (clb_gemm_row_label) */
    const char *metric;         /* "gflops", "giops", "gbps", "us" */
    enum clb_row_status status;
    char reason[512];           /* for every status but OK */

    double *times_s;            /* every timed call, in order */
    size_t n_times, times_cap;  /* times_cap: room in times_s (micro rows, clb_micro_push) */
    struct clb_stats time_s;    /* over times_s */
    char kernel[96];            /* what ran: gemm, the backend's describe ("Xgemm", "packed
                                   TM=12 ..."); bandwidth, the stream kernel ("triad", "dot
                                   chunked", "local"); else "" */
    const char *code_path;      /* the kernel variant, "cpu" or "gpu", where there are both
                                   (a GEMM backend's code_path hook; bandwidth's streams); else
                                   NULL. Static. */
    struct clb_datasheet_ref datasheet; /* gemm, peak: the vector peak; bandwidth: memory */

    /* gemm (clbench/bench/gemm_run.h) */
    const struct clb_gemm_backend *backend_ops; /* the backend itself */
    bool untuned;              /* run with the built-in parameters of its tuning part */
    struct clb_gemm_shape shape;
    struct clb_gemm_mode mode; /* the run's */
    double first_call_s;       /* 0 when it never ran */
    double gflops;             /* 2mnk / median time / 1e9 */
    double gflops_max;         /* 2mnk / min time / 1e9 */
    struct clb_stats e2e_s;    /* with --transfers, else n == 0 */
    double e2e_gflops;
    struct clb_verify_result verify; /* the worst of the checks made */
    unsigned n_verified;             /* results checked (first call, last call, ...) */
    double speedup;            /* gflops over the baseline row's; 0 when there is none */
    bool baseline_handicapped; /* speedup (the baseline's own row: its figure) is against a
                                  baseline slower than this CPU can be (results'
                                  baseline_handicap says why) */
    double device_peak_gflops; /* the device's peak in this precision, measured with
                                  clbench's OpenCL kernel (clb_peak_run); 0: unknown */
    bool device_peak_partial;  /* that peak's launch held fewer than 4 work-groups a compute
                                  unit (clb_micro_launch.fills_device false): part of it */
    double host_peak_gflops;   /* the host CPU's own FMA peak in this precision
                                  (clb_host_peak_run) on every available CPU, for OpenCL CPU
                                  devices; for host backends its share for the threads they
                                  ran; 0: unknown or not this row's silicon */
    char host_peak_isa[16];    /* the host peak's instruction set ("avx512f"), the CPU's best;
                                  "" when no host peak */
    bool host_peak_of_kernels; /* a handicapped host backend: host_peak is that of the older
                                  set its kernels use (clb_host_peak_for_level) */
    bool tuned;                /* the backend ran with stored tuned parameters */
    uint64_t tuned_at;         /* the size they were tuned at (tuned rows) */
    char tuning_note[256];     /* why stored parameters were not applied, else "" */
    struct clb_shape_role role;         /* role NULL: a plain size */
    size_t order;              /* position in problem order (precision, shape, backend, device):
                                  seeds the fault hook */

    /* peak, bandwidth, transfer, latency, collective (clbench/bench/micro.h) */
    unsigned width;             /* peak: vector width (int8dot: 4, one packed dot); else 0 */
    bool headline;              /* peak: the best width of its precision */
    double work;                /* per timed call: operations or bytes (0: latency) */
    double value;               /* headline figure: median or best, as stat_best says */
    double median;              /* from the median call */
    double best;                /* from the fastest call (latency: the lowest) */
    bool stat_best;             /* value is best (--stat best); else the median */
    double measured_s;          /* the sum of times_s */
    char check[256];            /* what was verified, e.g. "max rel err 2e-7" */
    /* collective (clbench/mpi/collective.h) only: */
    int ranks;                  /* ranks that took part */
    double algbw;               /* GB/s from the median call; value is busbw */
    double path_median_s;       /* device buffers: median whole path (read, MPI, write); else 0 */
    double clock_ghz;           /* host peak: the cores' clock measured during its FMA run
                                   (0: none; clb_host_fma_clock_ghz) */
    double clock_under_fma;     /* host peak: the share of that clock call the threads spent
                                   in the FMA kernel (0..1) */
    struct clb_micro_launch launch; /* the timed kernel's, as run */
    /* bandwidth of the three stream arrays only (set by clb_bandwidth_run, then the attach
     * step of clbench/commands' common.h): */
    uint64_t array_bytes;       /* bytes of each of the three arrays (0: not of them) */
    uint64_t llc_bytes;         /* the last-level cache they were held against (0: unknown) */
    bool cache_resident;        /* 3 x array_bytes <= llc_bytes: cache, not DRAM, fed it */
    bool datasheet_withheld;    /* a memory figure exists but, cache-resident, is not applied */
    /*
     * The clock times_s is from: "host" (clb_now_s around the call; what
     * clb_micro_row_summarize sets where a benchmark names none) or "device" (the
     * command's profiling events: latency's enqueue to start and kernel run; bandwidth, as
     * follows). NULL while the row has no calls.
     * bandwidth: the clock times_s is from, "device" (each call the
     * kernel's profiling event, CL_PROFILING_COMMAND_START to END) or "host" (clb_now_s
     * around the enqueue and its clFinish, as BabelStream times), and the other clock's
     * times of the same calls beside it (alt_timer, alt_times_s: call i of each the same
     * launch; never the headline). A GPU's headline is its device clock: the host's adds
     * the driver's round trip over the bus. A CPU device's is the host clock where its own
     * reads more than CLB_CLOCK_AGREE faster (clb_bandwidth_host_clock): there the device
     * clock leaves out the device's own cores waking up, work a program launching the
     * kernel waits for. Without profiling info the host clock is all there is. timer_why says why
     * a row is on the host's clock.
     */
    const char *timer;
    char timer_why[200];        /* "host" only: why not the device's clock */
    const char *alt_timer;      /* bandwidth: "host" or "device", alt_times_s's clock; NULL:
                                   none */
    double *alt_times_s;        /* owned; n_alt_times == n_times, or 0 */
    size_t n_alt_times, alt_times_cap;
    double alt_value;           /* from alt_times_s, by the headline's statistic (GB/s) */
    const char *isa;            /* host peak: the variant's instruction set, "avx2+fma"; else
                                   NULL. Static. */

    /*
     * Rows read back from a result document (clbench/results/resultfile.h;
     * docs/result-schema.md), strings borrowed from it (case_, backend and
     * kernel above are copied in: a file's longer ones are refused); NULL and 0
     * in a row just measured. Beside them the reader fills the parts above the file
     * holds: benchmark, precision, backend, case_, metric, status, reason-less
     * figures (value, best, speedup, headline, width), shape and role of gemm
     * rows, times_s (ascending, owned by the file) and time_s's n, min,
     * median and max with measured_s their sum, kernel, work, array_bytes,
     * llc_bytes and the datasheet (name: its accelerator).
     */
    const char *benchmark_name; /* as the file names it, "gemm" (benchmark OTHER: unknown) */
    const char *precision_name; /* NULL when absent (precision NONE: absent or unknown) */
    const char *status_name;    /* "ok", "failed", ... as the file says */
    const char *device_name;    /* "host CPU" for host backends */
    const char *device_id;      /* "P:D", "host"; "" when absent */
    bool has_value;             /* status ok and the figure present */
    bool baseline;              /* the CPU baseline's own row */
    const char *baseline_handicap; /* why that baseline is slower than its CPU can be; NULL:
                                      it is not (or the file does not say) */
    /*
     * The row's "config" object, what must match for another run's figure to
     * be comparable (borrowed: owned by the file). Files written before
     * "config" existed get one derived from the rest of the document, equal
     * to what the writer would have written: gemm {tuned, alpha, beta,
     * transfers} from the row and "options", plus {threads, blas_core} from
     * "libraries" for host rows; peak {width}; bandwidth {bytes_per_call}
     * from work_per_call; {} else.
     */
    struct json_t *config;
    /*
     * Fleet files only (a run under mpirun/srun): the rank that measured the
     * row, its node and its rank on that node; host NULL and rank,
     * local_rank -1 in a single run's file.
     */
    const char *host;
    int rank, local_rank;
    int slot;                   /* its device's place among its rank's devices; -1: none */
    const char *host_cpu;       /* a host row's CPU model; NULL otherwise */
    bool straggler;             /* judged beyond the run's threshold from its figure's median */
    bool judged;                /* false: beyond the threshold, but its calls too few, too short
                                   or too spread to tell it from noise; true when absent */
    double fleet_median;        /* that median over the ranks' verified figures; 0: none */
    bool has_datasheet;         /* the row carries a datasheet object (whatever its status) */
    bool sized;                 /* a bandwidth row whose case names its size: one size of a
                                   `bandwidth --sizes` sweep (measured rows set it too) */
    double median_s;            /* the median timed call, s (0: none) */
};

#endif
