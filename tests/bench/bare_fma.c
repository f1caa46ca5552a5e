/*
 * The yardstick for `clbench peak` on a CPU: a plain AVX2 FMA loop in C,
 * one thread per core, 12 independent 8-wide accumulators each (enough to
 * cover FMA latency times throughput). Prints GFLOP/s (best of 5).
 * Usage: bare_fma [THREADS]
 */
#include <immintrin.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

enum { ITERS = 20000000 / 8, ACC = 12 };

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : omp_get_num_procs();
    double best = 0.0;
    float sink = 0.0f;

    for (int rep = 0; rep < 5; rep++) {
        double t0 = omp_get_wtime();
#pragma omp parallel num_threads(threads) reduction(+ : sink)
        {
            /* Named registers, not an array: the chains must stay in registers. */
            const __m256 a = _mm256_set1_ps(0.999f), b = _mm256_set1_ps(0.001f);
            __m256 x0 = _mm256_set1_ps(0), x1 = _mm256_set1_ps(1), x2 = _mm256_set1_ps(2),
                   x3 = _mm256_set1_ps(3), x4 = _mm256_set1_ps(4), x5 = _mm256_set1_ps(5),
                   x6 = _mm256_set1_ps(6), x7 = _mm256_set1_ps(7), x8 = _mm256_set1_ps(8),
                   x9 = _mm256_set1_ps(9), x10 = _mm256_set1_ps(10), x11 = _mm256_set1_ps(11);
            for (long i = 0; i < ITERS; i++) {
                x0 = _mm256_fmadd_ps(x0, a, b), x1 = _mm256_fmadd_ps(x1, a, b);
                x2 = _mm256_fmadd_ps(x2, a, b), x3 = _mm256_fmadd_ps(x3, a, b);
                x4 = _mm256_fmadd_ps(x4, a, b), x5 = _mm256_fmadd_ps(x5, a, b);
                x6 = _mm256_fmadd_ps(x6, a, b), x7 = _mm256_fmadd_ps(x7, a, b);
                x8 = _mm256_fmadd_ps(x8, a, b), x9 = _mm256_fmadd_ps(x9, a, b);
                x10 = _mm256_fmadd_ps(x10, a, b), x11 = _mm256_fmadd_ps(x11, a, b);
            }
            float out[8];
            __m256 s = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(x0, x1), _mm256_add_ps(x2, x3)),
                                     _mm256_add_ps(_mm256_add_ps(x4, x5), _mm256_add_ps(x6, x7)));
            s = _mm256_add_ps(s, _mm256_add_ps(_mm256_add_ps(x8, x9), _mm256_add_ps(x10, x11)));
            _mm256_storeu_ps(out, s);
            sink += out[0];
        }
        double t = omp_get_wtime() - t0;
        double gflops = (double)threads * ITERS * ACC * 8 * 2 / t * 1e-9;
        if (gflops > best)
            best = gflops;
    }
    printf("%.2f\n", best);
    return sink == 12345.0f; /* keeps the loop alive */
}
