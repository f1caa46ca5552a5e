/* OpenBLAS's kernels against the CPU: the table of cores, the decision, the restart. */
/* dlsym's RTLD_DEFAULT is a GNU extension. */
#define _GNU_SOURCE
#include "clbench/backends/blascore.h"

#include <cblas.h>
#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* Set for the restarted process only: what OpenBLAS had picked, and who switched. */
#define ENV_FROM "CLBENCH_BLAS_CORE_FROM"
#define ENV_BY "CLBENCH_BLAS_CORE_BY"

static const struct {
    const char *name;
    enum clb_cpu_level level;
} cores[] = {
    /* x86-64: the level of the kernels each core's table uses for GEMM */
    { "Katmai", CLB_CPU_SSE2 },        { "Coppermine", CLB_CPU_SSE2 },
    { "Northwood", CLB_CPU_SSE2 },     { "Banias", CLB_CPU_SSE2 },
    { "Athlon", CLB_CPU_SSE2 },        { "Opteron", CLB_CPU_SSE2 },
    { "Prescott", CLB_CPU_SSE3 },      { "Opteron_SSE3", CLB_CPU_SSE3 },
    { "Opteron(SSE3)", CLB_CPU_SSE3 }, { "Nano", CLB_CPU_SSE3 },
    { "Barcelona", CLB_CPU_SSE3 },     { "Core2", CLB_CPU_SSE3 },
    { "Penryn", CLB_CPU_SSE3 },        { "Dunnington", CLB_CPU_SSE3 },
    { "Atom", CLB_CPU_SSE3 },          { "Bobcat", CLB_CPU_SSE3 },
    { "Nehalem", CLB_CPU_SSE4_2 },     { "Sandybridge", CLB_CPU_AVX },
    { "Bulldozer", CLB_CPU_AVX },      { "Piledriver", CLB_CPU_AVX },
    { "Steamroller", CLB_CPU_AVX },    { "Excavator", CLB_CPU_AVX2_FMA },
    { "Haswell", CLB_CPU_AVX2_FMA },   { "Zen", CLB_CPU_AVX2_FMA },
    { "SkylakeX", CLB_CPU_AVX512 },    { "Cooperlake", CLB_CPU_AVX512_BF16 },
    { "SapphireRapids", CLB_CPU_AVX512_BF16 },
    /* aarch64 */
    { "ARMV8", CLB_CPU_NEON },         { "CortexA53", CLB_CPU_NEON },
    { "CortexA55", CLB_CPU_NEON },     { "CortexA57", CLB_CPU_NEON },
    { "CortexA72", CLB_CPU_NEON },     { "CortexA73", CLB_CPU_NEON },
    { "CortexX1", CLB_CPU_NEON },      { "Falkor", CLB_CPU_NEON },
    { "ThunderX", CLB_CPU_NEON },      { "ThunderX2T99", CLB_CPU_NEON },
    { "ThunderX3T110", CLB_CPU_NEON }, { "TSV110", CLB_CPU_NEON },
    { "EMAG8180", CLB_CPU_NEON },      { "NeoverseN1", CLB_CPU_NEON },
    { "VORTEX", CLB_CPU_NEON },        { "NeoverseV1", CLB_CPU_SVE },
    { "NeoverseN2", CLB_CPU_SVE },     { "NeoverseV2", CLB_CPU_SVE },
    { "A64FX", CLB_CPU_SVE },          { "ARMV8SVE", CLB_CPU_SVE },
};

bool clb_blas_core_level(const char *core, enum clb_cpu_level *level)
{
    for (size_t i = 0; core && i < sizeof(cores) / sizeof(cores[0]); i++) {
        if (!strcasecmp(core, cores[i].name)) {
            *level = cores[i].level;
            return true;
        }
    }
    return false;
}

const char *clb_blas_core_for(enum clb_cpu_level cpu)
{
    switch (cpu) {
    case CLB_CPU_SSE2:
    case CLB_CPU_SSE3:
        return "Prescott";
    case CLB_CPU_SSE4_2:
        return "Nehalem";
    case CLB_CPU_AVX:
        return "Sandybridge";
    case CLB_CPU_AVX2_FMA:
        return "Haswell";
    case CLB_CPU_AVX512:
    case CLB_CPU_AVX512_BF16: /* Cooperlake's bf16 kernels do nothing for fp32/fp64 GEMM, and
                                 SkylakeX is in more OpenBLAS builds */
        return "SkylakeX";
    case CLB_CPU_SVE:
        return "NeoverseV1";
    case CLB_CPU_SCALAR:
    case CLB_CPU_NEON: /* no core uses more than NEON without SVE */
        break;
    }
    return NULL;
}

static bool arm(enum clb_cpu_level l)
{
    return l == CLB_CPU_NEON || l == CLB_CPU_SVE;
}

/*
 * Parts as Linux's arch/arm64/include/asm/cputype.h names them; cores as OpenBLAS's
 * dynamic_arm64.c picks them for each part (NeoverseN1 where the kernel has SVE off).
 */
static const struct clb_blas_design designs[] = {
    { "Neoverse N1", 0x41, 0xd0c, { "NeoverseN1" } },
    { "Neoverse V1", 0x41, 0xd40, { "NeoverseV1", "NeoverseN1" } },
    { "Neoverse V2", 0x41, 0xd4f, { "NeoverseV2", "NeoverseV1", "NeoverseN1" } },
    { "Neoverse N2", 0x41, 0xd49, { "NeoverseN2", "NeoverseN1" } },
    { "A64FX", 0x46, 0x001, { "A64FX", "ARMV8SVE" } },
};

const struct clb_blas_design *clb_blas_design_for(const struct clb_cpu_id *id)
{
    for (size_t i = 0; id && id->known && id->midr && i < sizeof(designs) / sizeof(designs[0]);
         i++)
        if (designs[i].implementer == id->family && designs[i].part == id->model)
            return &designs[i];
    return NULL;
}

const char *clb_blas_design_core(const struct clb_blas_design *d, enum clb_cpu_level cpu,
                                 bool (*has)(const char *core))
{
    enum clb_cpu_level level;

    for (size_t i = 0; d && d->cores[i]; i++)
        if (clb_blas_core_level(d->cores[i], &level) && arm(level) && arm(cpu) && level <= cpu &&
            (!has || has(d->cores[i])))
            return d->cores[i];
    return NULL;
}

/* core's place in d's cores; -1 when it is none of them. */
static int design_rank(const struct clb_blas_design *d, const char *core)
{
    for (int i = 0; d->cores[i]; i++)
        if (!strcasecmp(d->cores[i], core))
            return i;
    return -1;
}

bool clb_blas_core_older_on(const struct clb_blas_design *d, const char *best, const char *core,
                            enum clb_cpu_level core_level, enum clb_cpu_level cpu)
{
    if (clb_blas_core_older(core_level, cpu))
        return true;
    if (!d || !best || !core || !arm(core_level) || !strcasecmp(core, best))
        return false;
    const int rank = design_rank(d, core);
    return rank < 0 || rank > design_rank(d, best);
}

bool clb_blas_core_older(enum clb_cpu_level core, enum clb_cpu_level cpu)
{
    /* bf16 instructions do nothing for fp32 and fp64 GEMM. */
    if (core == CLB_CPU_AVX512_BF16)
        core = CLB_CPU_AVX512;
    if (cpu == CLB_CPU_AVX512_BF16)
        cpu = CLB_CPU_AVX512;
    if (cpu == CLB_CPU_SCALAR || arm(core) != arm(cpu))
        return false;
    return core < cpu;
}

const char *clb_blas_core_source_name(enum clb_blas_core_source s)
{
    static const char *const names[] = { [CLB_BLAS_CORE_OPENBLAS] = "openblas",
                                         [CLB_BLAS_CORE_USER] = "user",
                                         [CLB_BLAS_CORE_OPTION] = "option",
                                         [CLB_BLAS_CORE_CLBENCH] = "clbench" };
    return names[s];
}

void clb_blas_core_decide(const char *mode, const char *current, const char *user_coretype,
                          enum clb_cpu_level cpu, const struct clb_blas_design *design,
                          bool (*has)(const char *core), struct clb_blas_core_decision *out)
{
    enum clb_cpu_level level;
    const char *better;

    memset(out, 0, sizeof(*out));
    out->source = user_coretype ? CLB_BLAS_CORE_USER : CLB_BLAS_CORE_OPENBLAS;
    if (!strcmp(mode, "as-is"))
        return;
    if (strcmp(mode, "auto") != 0) {
        out->source = CLB_BLAS_CORE_OPTION;
        if (strcasecmp(mode, current) != 0) {
            out->switch_core = true;
            snprintf(out->want, sizeof(out->want), "%s", mode);
        }
        return;
    }
    better = design ? clb_blas_design_core(design, cpu, has) : clb_blas_core_for(cpu);
    if (user_coretype || !clb_blas_core_level(current, &level) || !better ||
        !clb_blas_core_older_on(design, better, current, level, cpu) ||
        !strcasecmp(better, current))
        return;
    out->switch_core = true;
    out->source = CLB_BLAS_CORE_CLBENCH;
    snprintf(out->want, sizeof(out->want), "%s", better);
}

/* Only a DYNAMIC_ARCH build carries several cores and reads OPENBLAS_CORETYPE. */
static bool dynamic_arch(void)
{
    return strstr(openblas_get_config(), "DYNAMIC_ARCH") != NULL;
}

/* A DYNAMIC_ARCH OpenBLAS exports each core's kernel table as gotoblas_CORE ("gotoblas_NEOVERSEV1"). */
static bool openblas_has(const char *core)
{
    char sym[48] = "gotoblas_";
    size_t n = strlen(sym);

    for (const char *c = core; *c && n + 1 < sizeof(sym); c++)
        sym[n++] = (char)toupper((unsigned char)*c);
    sym[n] = '\0';
    return dlsym(RTLD_DEFAULT, sym) != NULL;
}

/* The probe, where the library's tables can be seen at all (its generic core's); else any core. */
static bool (*core_probe(void))(const char *)
{
    return openblas_has("ARMV8") || openblas_has("PRESCOTT") ? openblas_has : NULL;
}

/* The host's Arm design (clbench/util/cpu.h's MIDR, or its test hook). */
static const struct clb_blas_design *host_design(void)
{
    struct clb_cpu_id id;

    clb_cpu_id_detect(&id);
    return clb_blas_design_for(&id);
}

static struct clb_blas_core_state state;
static bool state_ready;

/* Fills the level fields and the note from core, source, picked, requested. */
static void finish_state(const char *mode)
{
    struct clb_blas_core_state *s = &state;
    const struct clb_blas_design *design = host_design();
    char cpu[64];
    const char *better;

    s->design = design ? design->name : NULL;
    better = design ? clb_blas_design_core(design, s->cpu_level, core_probe())
                    : clb_blas_core_for(s->cpu_level);
    snprintf(s->best, sizeof(s->best), "%s", better ? better : "");
    if (design)
        snprintf(cpu, sizeof(cpu), "%s (%s)", design->name, clb_cpu_level_name(s->cpu_level));
    else
        snprintf(cpu, sizeof(cpu), "%s", clb_cpu_level_name(s->cpu_level));
    s->core_known = clb_blas_core_level(s->core, &s->core_level);
    s->older = s->core_known &&
               clb_blas_core_older_on(design, better, s->core, s->core_level, s->cpu_level);
    s->warn = s->older;
    state_ready = true;
    if (s->requested[0] && strcasecmp(s->requested, s->core) != 0) {
        s->warn = true;
        snprintf(s->note, sizeof(s->note),
                 "warning: OpenBLAS did not take core %.31s (OPENBLAS_CORETYPE) and runs %.31s; "
                 "--blas-core NAME names a core it knows",
                 s->requested, s->core);
        return;
    }
    if (s->picked[0] && s->source == CLB_BLAS_CORE_CLBENCH) {
        enum clb_cpu_level was = CLB_CPU_SCALAR;
        clb_blas_core_level(s->picked, &was);
        snprintf(s->note, sizeof(s->note),
                 "note: OpenBLAS picked core %.31s (%s kernels) on this %s CPU; clbench "
                 "restarted it with OPENBLAS_CORETYPE=%.31s (--blas-core as-is keeps %.31s)",
                 s->picked, clb_cpu_level_name(was), cpu, s->core, s->picked);
        return;
    }
    if (s->older && !dynamic_arch()) {
        snprintf(s->note, sizeof(s->note),
                 "warning: OpenBLAS runs core %.31s (%s kernels) on this %s CPU and is built for "
                 "that one target (no DYNAMIC_ARCH): the CPU baseline is slower than this CPU "
                 "can be; a DYNAMIC_ARCH OpenBLAS (Debian's libopenblas0-pthread) would switch",
                 s->core, clb_cpu_level_name(s->core_level), cpu);
        return;
    }
    if (!s->core_known) {
        snprintf(s->note, sizeof(s->note),
                 "note: OpenBLAS core %.31s is not in clbench's table: not checked against this %s "
                 "CPU",
                 s->core, cpu);
        return;
    }
    if (!s->older)
        return;
    if (s->source == CLB_BLAS_CORE_USER)
        snprintf(s->note, sizeof(s->note),
                 "warning: OPENBLAS_CORETYPE=%.31s from the environment runs %s kernels on this %s "
                 "CPU: the CPU baseline is slower than this CPU can be%s%s",
                 s->core, clb_cpu_level_name(s->core_level), cpu,
                 better ? "; unset it, or --blas-core " : "", better ? better : "");
    else
        snprintf(s->note, sizeof(s->note),
                 "warning: OpenBLAS runs core %.31s (%s kernels) on this %s CPU: the CPU baseline "
                 "is slower than this CPU can be%s%s%s",
                 s->core, clb_cpu_level_name(s->core_level), cpu,
                 better && !strcmp(mode, "as-is") ? "; --blas-core auto picks " : "",
                 better && !strcmp(mode, "as-is") ? better : "",
                 !better ? "; no better core is known to clbench" : "");
}

/*
 * The marker a restart leaves: "PID:CORE", the pid (execv keeps it) so that a
 * stale or inherited variable is not taken for ours, and the core OpenBLAS
 * had picked ("" when unknown). Returns the core, or NULL when not ours.
 */
static const char *restarted_from(void)
{
    const char *from = getenv(ENV_FROM);
    char *end;
    unsigned long pid;

    if (!from)
        return NULL;
    pid = strtoul(from, &end, 10);
    if (*end != ':' || pid != (unsigned long)getpid()) {
        unsetenv(ENV_FROM);
        unsetenv(ENV_BY);
        return NULL;
    }
    return end + 1;
}

static void observe(const char *mode)
{
    struct clb_cpu_isa isa;
    const char *fake = getenv("CLBENCH_FAKE_BLAS_CORE");
    const char *user = getenv("OPENBLAS_CORETYPE");
    const char *from = restarted_from(), *by = getenv(ENV_BY);

    memset(&state, 0, sizeof(state));
    clb_cpu_isa_detect(&isa);
    state.cpu_level = clb_cpu_isa_level(&isa);
    if (from) {
        /* The restarted process: OpenBLAS loaded with the core clbench asked for. */
        snprintf(state.core, sizeof(state.core), "%s", openblas_get_corename());
        snprintf(state.picked, sizeof(state.picked), "%s", from);
        snprintf(state.requested, sizeof(state.requested), "%s", user ? user : "");
        state.source = by && !strcmp(by, "option") ? CLB_BLAS_CORE_OPTION
                                                   : CLB_BLAS_CORE_CLBENCH;
        unsetenv(ENV_FROM);
        unsetenv(ENV_BY);
    } else {
        snprintf(state.core, sizeof(state.core), "%s",
                 fake && *fake ? fake : openblas_get_corename());
        if (user && *user) {
            snprintf(state.requested, sizeof(state.requested), "%s", user);
            state.source = CLB_BLAS_CORE_USER;
        }
    }
    finish_state(mode);
}

/* A core whose kernels need more than this CPU has: OpenBLAS would die of SIGILL. */
static bool too_new(const char *core, enum clb_cpu_level cpu, char *why, size_t len)
{
    enum clb_cpu_level level;

    if (!clb_blas_core_level(core, &level) || arm(level) != arm(cpu) || level <= cpu)
        return false;
    snprintf(why, len, "core %.31s needs %s kernels and this CPU has %s: OpenBLAS would stop "
             "at an illegal instruction", core, clb_cpu_level_name(level),
             clb_cpu_level_name(cpu));
    return true;
}

/* The cores of this machine's instruction-set family, the names --blas-core takes. */
static bool this_family(enum clb_cpu_level level)
{
#if defined(__aarch64__)
    return arm(level);
#else
    return !arm(level);
#endif
}

/* A name --blas-core does not take: `why` lists the ones it does. */
static bool unknown_core(const char *mode, char *why, size_t len)
{
    enum clb_cpu_level level;
    size_t n;

    if (clb_blas_core_level(mode, &level) && this_family(level))
        return false;
    n = (size_t)snprintf(why, len, "unknown OpenBLAS core '%.31s': expected auto, as-is or one of",
                         mode);
    const char *sep = " ";
    for (size_t i = 0; i < sizeof(cores) / sizeof(cores[0]) && n < len; i++)
        if (this_family(cores[i].level)) {
            n += (size_t)snprintf(why + n, len - n, "%s%s", sep, cores[i].name);
            sep = ", ";
        }
    return true;
}

int clb_blas_core_apply(const char *mode, char **argv, char *why, size_t why_len)
{
    struct clb_blas_core_decision d;
    const char *user = getenv("OPENBLAS_CORETYPE");
    char self[4096], current[32], from[64];
    const bool named = strcmp(mode, "auto") != 0 && strcmp(mode, "as-is") != 0;

    if (user && !*user)
        user = NULL;
    if (named && unknown_core(mode, why, why_len))
        return -1;
    if (restarted_from()) {
        observe(mode);
        /* Asked for by name and not taken (a build without that core): not a run of another. */
        if (state.source == CLB_BLAS_CORE_OPTION && strcasecmp(state.requested, state.core)) {
            snprintf(why, why_len, "this OpenBLAS has no core %.31s (it runs %.31s)",
                     state.requested, state.core);
            return -1;
        }
        return 0;
    }
    observe(mode);
    if (named && too_new(mode, state.cpu_level, why, why_len))
        return -1;
    if (!named && user && too_new(user, state.cpu_level, why, why_len)) {
        strncat(why, " (OPENBLAS_CORETYPE in the environment)", why_len - strlen(why) - 1);
        return -1;
    }
    snprintf(current, sizeof(current), "%s", state.core);
    clb_blas_core_decide(mode, current, user, state.cpu_level, host_design(), core_probe(), &d);
    if (d.switch_core && !dynamic_arch()) {
        /* One target only: OPENBLAS_CORETYPE would be ignored; the note already says so. */
        d.switch_core = false;
        if (d.source == CLB_BLAS_CORE_OPTION)
            snprintf(state.note, sizeof(state.note),
                     "warning: this OpenBLAS is built for one target (no DYNAMIC_ARCH) and runs "
                     "core %.31s: --blas-core %.31s cannot change it", state.core, mode);
    }
    if (!d.switch_core) {
        if (d.source == CLB_BLAS_CORE_OPTION)
            state.source = CLB_BLAS_CORE_OPTION;
        return 0;
    }
    /* What OpenBLAS picked by itself, unless a user's OPENBLAS_CORETYPE chose it. */
    snprintf(from, sizeof(from), "%lu:%.31s", (unsigned long)getpid(), user ? "" : current);
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    self[n > 0 ? n : 0] = '\0';
    /* A binary replaced while it runs reads "... (deleted)": exec the open image instead. */
    if (n <= 0 || strstr(self, " (deleted)"))
        snprintf(self, sizeof(self), "/proc/self/exe");
    setenv("OPENBLAS_CORETYPE", d.want, 1);
    setenv(ENV_FROM, from, 1);
    setenv(ENV_BY, clb_blas_core_source_name(d.source), 1);
    unsetenv("CLBENCH_FAKE_BLAS_CORE");
    fflush(NULL);
    execv(self, argv);
    /* Still here: restore what the run will really use. */
    unsetenv(ENV_FROM);
    unsetenv(ENV_BY);
    if (user)
        setenv("OPENBLAS_CORETYPE", user, 1);
    else
        unsetenv("OPENBLAS_CORETYPE");
    state.warn = true;
    snprintf(state.note, sizeof(state.note),
             "warning: could not restart clbench with OPENBLAS_CORETYPE=%.31s: the CPU "
             "baseline runs core %.31s; set OPENBLAS_CORETYPE=%.31s yourself",
             d.want, state.core, d.want);
    return 0;
}

const struct clb_blas_core_state *clb_blas_core_state(void)
{
    if (!state_ready)
        observe("as-is");
    return &state;
}
