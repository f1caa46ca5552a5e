#ifndef CLBENCH_BACKENDS_BACKEND_H
#define CLBENCH_BACKENDS_BACKEND_H

/*
 * The GEMM backend interface every implementation (CLBlast, OpenBLAS,
 * clbench's own kernel) sits behind, with its optional tuning part, and the
 * registry that lists them.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/cl/device.h"
#include "clbench/cl/env.h"
#include "clbench/core/gemm_data.h"
#include "clbench/core/types.h"
#include "clbench/util/error.h"
#include "clbench/util/cpu.h"
#include "clbench/util/record.h"

/*
 * The tunable part of a device backend: its parameter space, for `clbench
 * tune` (src/tune/search.c, which knows no backend by name) to search.
 * Every hook must be set.
 */
struct clb_gemm_tuning {
    const char *kernel; /* its name in the tuning cache: "Xgemm", "clbench-gemm" */
    const char *label;  /* in the tune summary: "CLBlast Xgemm" */
    /* The parameters it takes, NULL-terminated; candidates use no others. */
    const char *const *params;
    /*
     * The share of the tune budget (0 < share <= 1) of one search (a device,
     * precision and size), counted from its start, by which this backend's
     * part ends when another backend is searched after it. Backends are
     * searched in increasing share; the last one runs until the whole
     * budget is spent.
     */
    double budget_share;

    /*
     * Candidate `index` (0, 1, ...) for dev in precision p into *out; false
     * when there are no more. Index 0 is the built-in choice (n == 0 where the
     * library has its own), then known-good starts chosen by device type, then
     * random ones drawn from *rng (the search seeds it). A candidate may be
     * invalid: the search asks valid() and skips it.
     */
    bool (*next_candidate)(const struct clb_device *dev, enum clb_precision p, size_t index,
                           uint64_t *rng, struct clb_tune_params *out);
    /* Whether the parameters obey the kernel's constraints on dev (n == 0: always). */
    bool (*valid)(const struct clb_device *dev, enum clb_precision p,
                  const struct clb_tune_params *params);
    /*
     * As the backend's create, with exactly these parameters (n == 0: the
     * built-in choice), never the stored tuning; a state for its run,
     * download and destroy. NULL with e set when they cannot be applied.
     */
    void *(*create_with)(const struct clb_device *dev, const struct clb_cl_env *env,
                         const struct clb_gemm_data *data, const struct clb_tune_params *params,
                         struct clb_error *e);
};

/*
 * A GEMM implementation. Each one is a file under src/backends/ holding one
 * const instance, listed in src/backends/backend.c. Where clbench is built
 * without a backend's library, a stand-in file (src/backends/missing.h)
 * defines it instead, its supports() refusing every row with the reason.
 */
struct clb_gemm_backend {
    const char *name;      /* "clblast", "openblas": what -b/--backend takes */
    const char *summary;   /* what it runs, for --help: "CLBlast's GEMM on each device" */
    bool on_device;        /* runs on each selected OpenCL device; false: once, on the host */

    /*
     * The library behind it, for the run record: fills library, version and
     * what else matters ("core", "threads"); out arrives zeroed with its id set.
     */
    void (*info)(struct clb_library_info *out);

    /*
     * Whether it can run precision p on dev (NULL for a host backend).
     * Returns false with `why` filled ("device has no cl_khr_fp64") when not.
     */
    bool (*supports)(const struct clb_device *dev, enum clb_precision p, char *why,
                     size_t why_len);

    /*
     * Allocates what one problem needs and copies the inputs there (untimed):
     * every backend runs every mode (data->mode: transposes, row- or
     * column-major, leading dimensions data->la.ld..., offsets), or says why
     * not in e.
     * Device backends get the device and its context and queue, which live
     * across problems (so compiled kernels are reused); host backends get NULLs.
     * `stored`: the tuning cache's parameters for this device, backend,
     * precision and the nearest size class (stored->size; only ever for a
     * backend with a tuning part), or NULL; the backend applies them where
     * they hold (tuned() says whether it did) and otherwise runs its
     * defaults, saying why in e->msg though it succeeds. Borrowed for the call.
     * Returns the backend's own state, or NULL with e set.
     */
    void *(*create)(const struct clb_device *dev, const struct clb_cl_env *env,
                    const struct clb_gemm_data *data, const struct clb_tune_params *stored,
                    struct clb_error *e);
    /* Copies A, B and C0 from the host again (for end-to-end timing). */
    int (*upload)(void *state, struct clb_error *e);
    /* One GEMM call; returns only when the result is complete (clFinish). */
    int (*run)(void *state, struct clb_error *e);
    /*
     * Copies C's whole buffer to host memory `c`: data->lc.elems elements of
     * the precision (its offset and padding included; m*n in the default mode).
     */
    int (*download)(void *state, void *c, struct clb_error *e);
    void (*destroy)(void *state); /* accepts NULL */

    /*
     * Device buffers beyond A, B and C this backend allocates for a problem
     * on dev (bytes in all, and the largest), for the fit check before
     * allocating.
     * May be NULL: none.
     */
    void (*extra_device_bytes)(const struct clb_device *dev, struct clb_gemm_shape s,
                               enum clb_precision p, uint64_t *total, uint64_t *largest);
    /*
     * Device bytes one call allocates on its own (CLBlast's temporary buffer),
     * known only on the device's queue and for the whole mode (leading
     * dimensions, offsets, transposes); counted in the fit check with the
     * above, as one allocation. May be NULL: none.
     */
    uint64_t (*call_device_bytes)(const struct clb_cl_env *env, struct clb_gemm_shape s,
                                  enum clb_precision p, const struct clb_gemm_mode *mode);

    /*
     * Whether create applied the stored parameters it was given (the row is
     * shown as "NAME (tuned @SIZE)"). May be NULL: never.
     */
    bool (*tuned)(void *state);
    /*
     * What runs for this state, into buf: CLBlast's kernel ("Xgemm",
     * "XgemmDirect"), the own kernel's variant and parameters. May be NULL.
     */
    void (*describe)(void *state, char *buf, size_t len);
    /*
     * The kernel variant running for this state, "cpu" or "gpu" (--code-path), where the
     * backend has one of each (static string). May be NULL: a single variant.
     */
    const char *(*code_path)(void *state);

    /* Host backends: threads to use (0: all cores). May be NULL. */
    void (*set_threads)(unsigned n);
    /* Host backends: threads they will use. May be NULL. */
    unsigned (*get_threads)(void);
    /*
     * Host backends: whether the library runs kernels older than this CPU
     * can (a handicapped baseline): true with `why` filled (one line: what
     * runs, and what would use the whole CPU) and *level the instruction-set
     * level its kernels use. May be NULL: never.
     */
    bool (*handicap)(char *why, size_t len, enum clb_cpu_level *level);

    /*
     * Device backends with parameters `clbench tune` can search; NULL: none.
     * Such a backend can also run "untuned" (NAME-untuned, or beside its
     * tuned rows with --untuned: its create given no stored parameters,
     * the built-in choice).
     */
    const struct clb_gemm_tuning *tuning;
};

/* The registry, NULL-terminated; the first host backend is the baseline. */
extern const struct clb_gemm_backend *const clb_gemm_backends[];
const struct clb_gemm_backend *clb_gemm_backend_find(const char *name);

#endif
