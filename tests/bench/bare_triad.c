/*
 * The yardstick for `clbench bandwidth`'s triad on a CPU: a plain OpenMP
 * triad, a[i] = b[i] + s * c[i], over three float arrays of BYTES each.
 * Prints GB/s (bytes read plus written) from the median of RUNS.
 * Usage: bare_triad BYTES RUNS
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    const long n = atol(argv[1]) / 4;
    const int runs = atoi(argv[2]);
    float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float)),
          *c = malloc(n * sizeof(float));
    double *t = malloc(runs * sizeof(double));
    const float s = 0.4f;

    if (!a || !b || !c || !t || runs < 1)
        return 1;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++)
        a[i] = 0.1f, b[i] = 0.2f, c[i] = 0.0f;
    for (int r = -1; r < runs; r++) {
        double t0 = omp_get_wtime();
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++)
            a[i] = b[i] + s * c[i];
        if (r >= 0)
            t[r] = omp_get_wtime() - t0;
    }
    qsort(t, runs, sizeof(double), cmp);
    double med = runs % 2 ? t[runs / 2] : 0.5 * (t[runs / 2 - 1] + t[runs / 2]);
    printf("%.2f\n", 3.0 * n * sizeof(float) / med * 1e-9);
    return a[n / 2] == 12345.0f;
}
