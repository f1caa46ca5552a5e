/*
 * The yardstick for `clbench peak` on a CPU and for clbench's host peak: a
 * plain FMA loop in C, one thread per core, 12 independent accumulator
 * vectors each (enough to cover FMA latency times throughput). AVX-512 when
 * the CPU has it (checked at run time), else AVX2. Prints GFLOP/s (best of 5)
 * on stdout, the ISA used on stderr. Deliberately shares no code with clbench.
 * Usage: bare_fma [THREADS [fp32|fp64]]
 */
#include <immintrin.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ITERS = 20000000 / 8, ACC = 12 };

/*
 * One body for every ISA and precision. Named registers, not an array: the
 * chains must stay in registers. Returns a lane of their sum, to keep them alive.
 */
#define BODY(V, T, SET1, FMADD, ADD, STOREU, W)                                                   \
    {                                                                                             \
        const V a = SET1((T)0.999), b = SET1((T)0.001);                                          \
        V x0 = SET1(0), x1 = SET1(1), x2 = SET1(2), x3 = SET1(3), x4 = SET1(4), x5 = SET1(5),     \
          x6 = SET1(6), x7 = SET1(7), x8 = SET1(8), x9 = SET1(9), x10 = SET1(10), x11 = SET1(11); \
        for (long i = 0; i < iters; i++) {                                                        \
            x0 = FMADD(x0, a, b), x1 = FMADD(x1, a, b);                                           \
            x2 = FMADD(x2, a, b), x3 = FMADD(x3, a, b);                                           \
            x4 = FMADD(x4, a, b), x5 = FMADD(x5, a, b);                                           \
            x6 = FMADD(x6, a, b), x7 = FMADD(x7, a, b);                                           \
            x8 = FMADD(x8, a, b), x9 = FMADD(x9, a, b);                                           \
            x10 = FMADD(x10, a, b), x11 = FMADD(x11, a, b);                                       \
        }                                                                                         \
        T out[W];                                                                                 \
        V s = ADD(ADD(ADD(x0, x1), ADD(x2, x3)), ADD(ADD(x4, x5), ADD(x6, x7)));                  \
        s = ADD(s, ADD(ADD(x8, x9), ADD(x10, x11)));                                              \
        STOREU(out, s);                                                                           \
        return (double)out[0];                                                                    \
    }

__attribute__((target("avx512f"))) static double avx512_fp32(long iters)
BODY(__m512, float, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_add_ps, _mm512_storeu_ps, 16)
__attribute__((target("avx512f"))) static double avx512_fp64(long iters)
BODY(__m512d, double, _mm512_set1_pd, _mm512_fmadd_pd, _mm512_add_pd, _mm512_storeu_pd, 8)
static double avx2_fp32(long iters)
BODY(__m256, float, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_add_ps, _mm256_storeu_ps, 8)
static double avx2_fp64(long iters)
BODY(__m256d, double, _mm256_set1_pd, _mm256_fmadd_pd, _mm256_add_pd, _mm256_storeu_pd, 4)

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : omp_get_num_procs();
    const int fp64 = argc > 2 && !strcmp(argv[2], "fp64");
    const int avx512 = __builtin_cpu_supports("avx512f");
    double (*loop)(long) = avx512 ? (fp64 ? avx512_fp64 : avx512_fp32)
                                  : (fp64 ? avx2_fp64 : avx2_fp32);
    const int lanes = (avx512 ? 64 : 32) / (fp64 ? 8 : 4);
    /* The same number of FMA instructions per thread whatever the width. */
    const long iters = ITERS;
    double best = 0.0, sink = 0.0;

    if (threads < 1 || (argc > 2 && !fp64 && strcmp(argv[2], "fp32"))) {
        fprintf(stderr, "usage: bare_fma [THREADS [fp32|fp64]]\n");
        return 2;
    }
    for (int rep = 0; rep < 5; rep++) {
        double t0 = omp_get_wtime();
#pragma omp parallel num_threads(threads) reduction(+ : sink)
        sink += loop(iters);
        double t = omp_get_wtime() - t0;
        double gflops = (double)threads * iters * ACC * lanes * 2 / t * 1e-9;
        if (gflops > best)
            best = gflops;
    }
    fprintf(stderr, "bare_fma: %s %s, %d threads\n", avx512 ? "avx512f" : "avx2+fma",
            fp64 ? "fp64" : "fp32", threads);
    printf("%.2f\n", best);
    return sink == 12345.0; /* keeps the loops alive */
}
