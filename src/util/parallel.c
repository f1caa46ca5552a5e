#include "clbench/util/parallel.h"
#include "clbench/util/cpu.h"

#include <pthread.h>
#include <stdbool.h>

struct range_job {
    pthread_t tid;
    clb_range_fn fn;
    void *ctx;
    uint64_t begin, end;
};

static void *range_main(void *arg)
{
    struct range_job *j = arg;
    j->fn(j->ctx, j->begin, j->end);
    return NULL;
}

void clb_parallel_for(uint64_t n, uint64_t cost, clb_range_fn fn, void *ctx)
{
    enum { MAX_THREADS = 256 };
    struct range_job jobs[MAX_THREADS];
    bool started[MAX_THREADS] = { false };
    uint64_t threads = clb_cpu_count_available();

    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    if (threads > n)
        threads = n;
    if (n * cost < (UINT64_C(1) << 22) || threads < 2) {
        fn(ctx, 0, n);
        return;
    }
    for (uint64_t t = 0; t < threads; t++)
        jobs[t] = (struct range_job){ .fn = fn, .ctx = ctx, .begin = n * t / threads,
                                      .end = n * (t + 1) / threads };
    for (uint64_t t = 1; t < threads; t++)
        started[t] = pthread_create(&jobs[t].tid, NULL, range_main, &jobs[t]) == 0;
    for (uint64_t t = 0; t < threads; t++)
        if (!started[t])
            fn(ctx, jobs[t].begin, jobs[t].end);
    for (uint64_t t = 1; t < threads; t++)
        if (started[t])
            pthread_join(jobs[t].tid, NULL);
}
