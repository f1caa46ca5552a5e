#ifndef CLBENCH_UTIL_CPU_H
#define CLBENCH_UTIL_CPU_H

/*
 * The host CPU: what it can compute (src/util/cpu.c: instruction sets, FMA
 * width, clock), which processor it is (cpu_id.c), the CPUs and cores this
 * process may use (cpu_topology.c) and its caches (cpu_cache.c).
 *
 * The host CPU's instruction sets, as this process may use them: on x86-64
 * libgcc's CPUID reading, which also checks that the OS saves the AVX and
 * AVX-512 register state (a VM or kernel that disables AVX-512 reads as no
 * AVX-512); on aarch64 NEON is baseline and SVE comes from AT_HWCAP; other
 * architectures report no SIMD at all.
 *
 * Test hook, from the environment (never set in normal use), in the manner of
 * the CLBENCH_FAULT_* hooks in clbench/cl/fault.h:
 *   CLBENCH_FAKE_CPU_ISA=NAME  NAME is a level name below ("sse2", "scalar",
 *                              ...): detection reports at most that level,
 *                              clearing every flag above it. It only lowers:
 *                              a level the CPU lacks is never invented, and a
 *                              name of another architecture, or an unknown
 *                              one, is ignored.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct clb_cpu_isa {
    /* x86-64 */
    bool sse2, sse3, ssse3, sse4_2, avx, avx2, fma;
    bool avx512f, avx512bw, avx512dq, avx512vl, avx512bf16;
    bool amx_tile;      /* CPU and OS state; Linux still wants arch_prctl before use */
    /* aarch64 */
    bool neon, sve;
    unsigned sve_bits;  /* SVE's vector length for this process (Linux prctl PR_SVE_GET_VL),
                           in bits: 128 to 2048; 0 without SVE */
};

/*
 * Highest SIMD level, ordered within one architecture: compare levels of the
 * same architecture only (x86: SCALAR < SSE2 < ... < AVX512_BF16; arm:
 * SCALAR < NEON < SVE). SSSE3 and SSE4.1 have no level of their own: they
 * sit between SSE3 and SSE4_2.
 */
enum clb_cpu_level {
    CLB_CPU_SCALAR,
    CLB_CPU_SSE2,
    CLB_CPU_SSE3,
    CLB_CPU_SSE4_2,
    CLB_CPU_AVX,
    CLB_CPU_AVX2_FMA,   /* AVX2 and FMA3 together, as Haswell brought them */
    CLB_CPU_AVX512,     /* AVX-512F */
    CLB_CPU_AVX512_BF16,
    CLB_CPU_NEON,
    CLB_CPU_SVE,
};

/* Fills isa for this CPU, honouring CLBENCH_FAKE_CPU_ISA. */
void clb_cpu_isa_detect(struct clb_cpu_isa *isa);

/* The highest level whose flags are all set in isa. */
enum clb_cpu_level clb_cpu_isa_level(const struct clb_cpu_isa *isa);

/* "scalar", "sse2", "sse3", "sse4.2", "avx", "avx2+fma", "avx512f",
 * "avx512bf16", "neon", "sve"; static strings. */
const char *clb_cpu_level_name(enum clb_cpu_level level);

/* The level called name (as clb_cpu_level_name spells it); false if none. */
bool clb_cpu_level_parse(const char *name, enum clb_cpu_level *level);

/*
 * Which processor this is, as x86 CPUID leaves 0 and 1 tell it: the vendor
 * string ("GenuineIntel", "AuthenticAMD") and the display family and model
 * (extended fields folded in the way Intel and AMD document: family 0x19,
 * model 0x11 for an EPYC 9004).
 *
 * On aarch64 Linux, as MIDR_EL1 tells it (midr true), so that the same
 * (vendor, family, model) picks the core design in the datasheet:
 *   vendor   the implementer's name as Linux's arch/arm64/include/asm/cputype.h
 *            calls it: "ARM" (0x41: Arm's own designs, whoever builds the chip:
 *            Graviton2/3/4, Grace, Ampere Altra), "Broadcom" 0x42, "Cavium" 0x43,
 *            "Fujitsu" 0x46, "HiSilicon" 0x48, "NVIDIA" 0x4e, "APM" 0x50,
 *            "Qualcomm" 0x51, "Apple" 0x61, "Microsoft" 0x6d, "Ampere" 0xc0;
 *            "unknown" for any other code (0 is qemu's "max" CPU)
 *   family   the implementer code (0x41)
 *   model    the part number (0xd0c: Neoverse N1; 0xd4f: Neoverse V2)
 *   variant, revision  the part's rNpN (r4p1: variant 4, revision 1)
 * It is read with MRS where the kernel emulates the read at EL0 (HWCAP_CPUID),
 * else from cpu0's /sys/.../regs/identification/midr_el1, else from
 * /proc/cpuinfo's "CPU implementer" and "CPU part": the core this thread runs
 * on, or cpu0's, which on a part of mixed cores is one kind of them. known is
 * false when none of them can be read, and on other architectures.
 *
 * Test hook, from the environment: CLBENCH_FAKE_CPU_ID=VENDOR:FAMILY:MODEL
 * (decimal or 0x hex) stands for the CPU's own, on any architecture; for a
 * hybrid part's P- and E-cores see CLBENCH_FAKE_CPU_TYPES below.
 *
 * Test hook, from the environment: CLBENCH_FAKE_MIDR=0xVALUE (a 32-bit
 * MIDR_EL1 in hex, "0x410fd4f0" for a Neoverse V2) stands for the MIDR,
 * decoded as above, on any architecture (an x86 build too).
 * CLBENCH_FAKE_CPU_ID wins over it; a malformed value is ignored.
 *
 * Test hook, from the environment: CLBENCH_FAKE_CPU_TOPOLOGY=CPUS:PER_CORE
 * (decimal, both >= 1, PER_CORE <= CPUS) stands for the topology below:
 * this process may run on CPUS logical CPUs (clb_cpu_count_available), of
 * which PER_CORE are the SMT siblings of one physical core
 * (clb_cpu_count_cores: CPUS / PER_CORE, rounded up). "8:2" is an SMT-2
 * machine of 4 cores on a machine of any size, its cores of one kind
 * (clb_cpu_count_core_types) unless CLBENCH_FAKE_CPU_TYPES names the kinds
 * of its CPUs. A malformed value is ignored.
 */
struct clb_cpu_id {
    bool known;
    char vendor[16];
    unsigned family, model;
    bool midr;                  /* an Arm MIDR_EL1's: family the implementer, model the part */
    unsigned variant, revision; /* its rNpN; 0 unless midr */
};
void clb_cpu_id_detect(struct clb_cpu_id *id);

/* The CPU's model name as /proc/cpuinfo's first "model name" gives it ("AMD EPYC 7B13"), or
 * "unknown CPU", into buf (len bytes). */
void clb_cpu_name(char *buf, size_t len);

/*
 * The widest vector a level's fused multiply-add takes, in bits: 512 for
 * AVX-512, 256 for AVX2+FMA, 128 for NEON and SVE (its minimum: the
 * length this process has is clb_cpu_isa.sve_bits); 0 for levels without a
 * vector FMA (SSE, AVX: a multiply and an add).
 */
unsigned clb_cpu_level_fma_bits(enum clb_cpu_level level);

/* The highest clock any CPU here may run at, from Linux's cpufreq (kHz); 0 when not told
 * (virtual machines often are not). */
unsigned long clb_cpu_max_khz(void);

/*
 * Physical cores among the CPUs this process may run on: SMT siblings
 * (the same package and core_id in Linux's sysfs topology) count once.
 * clb_cpu_count_available() when the topology cannot be read.
 */
unsigned clb_cpu_count_cores(void);

/*
 * The physical cores of clb_cpu_count_cores() split by kind on a hybrid
 * part: P-cores (Linux's /sys/devices/cpu_core/cpus) and E-cores
 * (/sys/devices/cpu_atom/cpus), each counted at its first available SMT
 * sibling. Where Linux lists neither and CPUID does not call the part
 * hybrid, every core is a P-core. False (both 0) when the kinds are not
 * known: a hybrid part without the lists, a core neither list names, a
 * CPU in both.
 *
 * Test hook: CLBENCH_FAKE_CPU_TYPES=PLIST/ELIST (Linux CPU lists, "0-7/8-15",
 * either may be empty) stands for the two sysfs lists; a malformed value
 * makes the kinds unknown.
 */
bool clb_cpu_count_core_types(unsigned *p_cores, unsigned *e_cores);

/*
 * CPUs this process may run on (its affinity mask, so taskset and cgroup
 * cpusets count), else the CPUs online; >= 1.
 */
unsigned clb_cpu_count_available(void);

/* Logical CPUs online (sysconf), whichever this process may run on; >= 1. */
unsigned clb_cpu_count_online(void);

/*
 * The share of this CPU's FMA units that `threads` threads can keep busy:
 * threads / clb_cpu_count_cores(), at most 1 (SMT siblings share one core's
 * units, so one thread per physical core already has all of them); 1 for
 * threads 0 (none said). What a host backend on fewer threads than the host
 * peak ran on is held against, as a share of that peak.
 */
double clb_cpu_core_share(unsigned threads);

/*
 * Bytes of the data (or unified) cache of `level` (1, 2, 3) that CPU 0
 * has, from Linux's sysfs; 0 when not known. Per core for L1 and L2 on
 * today's CPUs; L3 is usually shared. Read once per process (first call
 * from the main thread).
 */
unsigned long clb_cpu_cache_bytes(unsigned level);

/*
 * Bytes of the last-level cache (the highest level of data or unified
 * cache sysfs lists) of all the CPUs online, each instance once: 12 x 32
 * MiB of L3 for an EPYC of 12 dies, however many CPUs share each. 0 when
 * not known. Read once per process (first call from the main thread).
 */
uint64_t clb_cpu_llc_total_bytes(void);

#endif
