/*
 * The plainest possible SGEMM timing loops, with no clbench code in them:
 * the yardstick ci/bench-overhead holds clbench's own figures against.
 *
 * Usage: bare_gemm openblas|clblast N RUNS
 * Prints the median GFLOP/s of RUNS timed calls after one warm-up call
 * (clblast: device 0 of platform 0, each call followed by clFinish).
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <cblas.h>
#include <clblast_c.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s openblas|clblast N RUNS\n", argv[0]);
        return 2;
    }
    const int clblast = argv[1][0] == 'c';
    const size_t n = (size_t)atol(argv[2]);
    const int runs = atoi(argv[3]);
    float *a = malloc(n * n * sizeof(float)), *b = malloc(n * n * sizeof(float)),
          *c = malloc(n * n * sizeof(float));
    double *t = malloc((size_t)runs * sizeof(double));
    cl_command_queue q = NULL;
    cl_mem da = NULL, db = NULL, dc = NULL;

    if (!a || !b || !c || !t || n == 0 || runs < 1)
        return 1;
    srand(1);
    for (size_t i = 0; i < n * n; i++) {
        a[i] = (float)rand() / (float)RAND_MAX * 2.0f - 1.0f;
        b[i] = (float)rand() / (float)RAND_MAX * 2.0f - 1.0f;
        c[i] = 0.0f;
    }
    if (clblast) {
        cl_platform_id p;
        cl_device_id d;
        cl_int err;
        if (clGetPlatformIDs(1, &p, NULL) || clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL))
            return 1;
        cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
        q = clCreateCommandQueue(ctx, d, 0, &err);
        da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * n * 4, a, &err);
        db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * n * 4, b, &err);
        dc = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * n * 4, c, &err);
        if (err != CL_SUCCESS)
            return 1;
    }
    for (int r = -1; r < runs; r++) {
        double t0 = now();
        if (clblast) {
            if (CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, n, n,
                             n, 1.0f, da, 0, n, db, 0, n, 0.0f, dc, 0, n, &q, NULL) ||
                clFinish(q))
                return 1;
        } else {
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (blasint)n, (blasint)n,
                        (blasint)n, 1.0f, a, (blasint)n, b, (blasint)n, 0.0f, c, (blasint)n);
        }
        if (r >= 0)
            t[r] = now() - t0;
    }
    qsort(t, (size_t)runs, sizeof(double), cmp);
    double med = runs % 2 ? t[runs / 2] : 0.5 * (t[runs / 2 - 1] + t[runs / 2]);
    printf("%.2f\n", 2.0 * (double)n * (double)n * (double)n / med * 1e-9);
    return 0;
}
