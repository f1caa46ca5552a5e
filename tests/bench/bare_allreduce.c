/*
 * The bare loop ci/bench-collective holds `clbench collective --op allreduce`
 * against: MPI_Allreduce of fp32 sums on host buffers, each call between a
 * barrier and the slowest rank's clock, warm-up first; prints the median
 * call's busbw (nccl-tests: algbw x 2(n-1)/n) on rank 0.
 * Usage: mpirun -np N bare_allreduce BYTES RUNS
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int rank, n;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    const size_t count = argc > 1 ? strtoull(argv[1], NULL, 0) / sizeof(float) : 1 << 24;
    const int runs = argc > 2 ? atoi(argv[2]) : 10;
    float *in = malloc(count * sizeof(float)), *out = malloc(count * sizeof(float));
    double *t = malloc((size_t)runs * sizeof(double));
    if (!in || !out || !t || runs < 1 || count < 1 || count > 0x7fffffff)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (size_t i = 0; i < count; i++)
        in[i] = (float)(rank + 1);
    for (int i = -2; i < runs; i++) {
        double t0, mine, slowest;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        MPI_Allreduce(in, out, (int)count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        mine = MPI_Wtime() - t0;
        MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (i >= 0)
            t[i] = slowest;
    }
    if (out[count - 1] != (float)n * (float)(n + 1) / 2.0f)
        MPI_Abort(MPI_COMM_WORLD, 1);
    qsort(t, (size_t)runs, sizeof(double), cmp);
    const double med = runs % 2 ? t[runs / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2.0;
    if (rank == 0)
        printf("%.6f\n", (double)count * sizeof(float) / med * 1e-9 * 2.0 * (n - 1) / n);
    free(in);
    free(out);
    free(t);
    MPI_Finalize();
    return 0;
}
