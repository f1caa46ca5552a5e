#ifndef CLBENCH_BACKENDS_BLASCORE_H
#define CLBENCH_BACKENDS_BLASCORE_H

/*
 * OpenBLAS's choice of kernels (its "core") held against the CPU it runs on.
 *
 * A DYNAMIC_ARCH OpenBLAS picks its kernels from the CPU model when it loads.
 * A model newer than the library falls back to old kernels: Debian 12's
 * 0.3.21 runs "Prescott" (SSE3) on an Emerald Rapids Xeon, a 4-5x slower
 * CPU baseline, and says nothing. OpenBLAS reads OPENBLAS_CORETYPE only when
 * it loads, so a better core takes a fresh process: main() re-executes
 * clbench once with the variable set (clb_blas_core_apply), and the new
 * process checks that OpenBLAS took it.
 *
 * --blas-core MODE:
 *   auto     (default) switch when the core's instruction set is older than
 *            the CPU's, or on an Arm design clbench knows (Neoverse N1, V1,
 *            V2, N2, A64FX) the core is not the best this OpenBLAS has for
 *            it, and a better core is known; a user's own
 *            OPENBLAS_CORETYPE is kept (and flagged when it is older)
 *   as-is    keep what OpenBLAS picked; flag it when it is older
 *   NAME     ask OpenBLAS for core NAME ("SkylakeX", "Haswell", ...)
 *
 * Test hook, from the environment (never set in normal use):
 *   CLBENCH_FAKE_BLAS_CORE=NAME  clbench believes OpenBLAS picked NAME by
 *                                itself (the core in use is not changed
 *                                unless clbench switches it).
 */
#include <stdbool.h>
#include <stddef.h>

#include "clbench/util/cpu.h"

/* The instruction-set level of an OpenBLAS core's kernels; false for a name it does not know. */
bool clb_blas_core_level(const char *core, enum clb_cpu_level *level);

/* The core whose kernels use the best of `cpu` ("SkylakeX" for AVX-512F); NULL when none. */
const char *clb_blas_core_for(enum clb_cpu_level cpu);

/* Whether a core of level `core` uses less of a CPU of level `cpu` than it has. */
bool clb_blas_core_older(enum clb_cpu_level core, enum clb_cpu_level cpu);

/*
 * An Arm core design and OpenBLAS's cores for it, by MIDR (clb_cpu_id: family
 * the implementer, model the part). The instruction-set level alone cannot
 * tell a generic ARMV8 core from NeoverseN1's kernels on a Neoverse N1 (both
 * NEON); the design can. cores are best first: the design's own, then what an
 * older OpenBLAS has instead (0.3.21, Debian 12's, has no NeoverseV2: its
 * NeoverseV1 runs the same ARMV8SVE GEMM kernels the later NeoverseV2 does),
 * then NeoverseN1 where SVE is off (as OpenBLAS itself falls back).
 */
struct clb_blas_design {
    const char *name;          /* "Neoverse V2" */
    unsigned implementer, part;
    const char *cores[4];      /* OpenBLAS core names, best first; NULL-terminated */
};

/* The design id names (an Arm MIDR's), or NULL: not known, not Arm, not in the table. */
const struct clb_blas_design *clb_blas_design_for(const struct clb_cpu_id *id);

/*
 * The core to run on design d at instruction-set level cpu: the first of d's
 * cores whose kernels cpu can run and which has(core) says the OpenBLAS in
 * use holds (has NULL: any). NULL when d is NULL or none qualifies.
 */
const char *clb_blas_design_core(const struct clb_blas_design *d, enum clb_cpu_level cpu,
                                 bool (*has)(const char *core));

/*
 * Whether `core` (of level core_level) uses less of a CPU of level cpu and
 * design d than `best` (clb_blas_design_core) does: older by level
 * (clb_blas_core_older), or, with d and best known, an Arm core that is not
 * best and stands after it in d's cores or not among them at all (ARMV8 or
 * NeoverseN1 on a Neoverse V2). Level alone without d or best.
 */
bool clb_blas_core_older_on(const struct clb_blas_design *d, const char *best, const char *core,
                            enum clb_cpu_level core_level, enum clb_cpu_level cpu);

enum clb_blas_core_source {
    CLB_BLAS_CORE_OPENBLAS, /* OpenBLAS picked it */
    CLB_BLAS_CORE_USER,     /* OPENBLAS_CORETYPE from the user's environment */
    CLB_BLAS_CORE_OPTION,   /* --blas-core NAME */
    CLB_BLAS_CORE_CLBENCH,  /* clbench switched it (auto) */
};

const char *clb_blas_core_source_name(enum clb_blas_core_source s); /* "openblas", ... */

/* What to do before anything runs; pure, for tests. */
struct clb_blas_core_decision {
    bool switch_core;
    enum clb_blas_core_source source; /* of the core that will run */
    char want[32];                    /* the core to ask for, when switching */
};

/*
 * mode: "auto", "as-is" or a core name; current: the core OpenBLAS runs;
 * user_coretype: OPENBLAS_CORETYPE from the environment, or NULL; design: the
 * CPU's Arm design (clb_blas_design_for) or NULL, has: which cores the
 * library holds (clb_blas_design_core). auto switches to the design's best
 * core when current is older on it (clb_blas_core_older_on); without a
 * design, to clb_blas_core_for(cpu) when current is older by level; with a
 * design none of whose cores the library has, not at all (another design's
 * kernels may use instructions it lacks: NeoverseV1's Armv8.4 on an A64FX).
 */
void clb_blas_core_decide(const char *mode, const char *current, const char *user_coretype,
                          enum clb_cpu_level cpu, const struct clb_blas_design *design,
                          bool (*has)(const char *core), struct clb_blas_core_decision *out);

/* The record of the core in use (JSON "libraries.openblas.core_check"). */
struct clb_blas_core_state {
    char core[32];         /* in use, as OpenBLAS names it */
    char picked[32];       /* what OpenBLAS picked itself, when it was switched; else "" */
    char requested[32];    /* what OPENBLAS_CORETYPE asked for; else "" */
    enum clb_blas_core_source source;
    enum clb_cpu_level cpu_level;
    bool core_known;       /* core_level is meaningful */
    enum clb_cpu_level core_level;
    bool older;            /* the core uses less of the CPU than it has (clb_blas_core_older_on) */
    const char *design;    /* the CPU's Arm design ("Neoverse V2", static), or NULL */
    char best[32];         /* the core clbench would run there; "" when none is known */
    bool warn;             /* note is a warning: the baseline is not what this CPU can do */
    char note[512];        /* one line for people, "" when there is nothing to say */
};

/*
 * Applies --blas-core `mode` for a command that runs OpenBLAS: may replace
 * the process (execv of this binary with `argv`, OPENBLAS_CORETYPE set, and
 * a marker naming this pid so that only the restarted process reads it), and
 * returns only when it did not: 0, or -1 with `why` filled (one line, a usage
 * error) when NAME is no core of this machine's instruction-set family (`why`
 * lists those), when the core asked for (by NAME, or by the user's
 * OPENBLAS_CORETYPE) needs instructions this CPU lacks (OpenBLAS would die of
 * SIGILL), or when the restarted OpenBLAS did not take the NAME asked for (a
 * build without that core: the run would be of another). `why` takes 1024
 * bytes for the list. It prints nothing: the command prints the state's note
 * once its own arguments are accepted and the baseline is about to run. Only a
 * DYNAMIC_ARCH OpenBLAS can switch; another is flagged, not restarted.
 * `argv` is main's, NULL-terminated.
 */
int clb_blas_core_apply(const char *mode, char **argv, char *why, size_t why_len);

/* The record (filled by clb_blas_core_apply, else on first use). Static storage. */
const struct clb_blas_core_state *clb_blas_core_state(void);

#endif
