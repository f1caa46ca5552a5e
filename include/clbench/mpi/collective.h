#ifndef CLBENCH_MPI_COLLECTIVE_H
#define CLBENCH_MPI_COLLECTIVE_H

/*
 * MPI collectives timed across the ranks of a world, fp32 sum, every result
 * verified on every rank. Figures follow nccl-tests: the size S of a row is
 * the buffer the operation moves (allreduce, broadcast, sendrecv: the
 * message; allgather: the gathered output; reduce-scatter: the input),
 * algbw = S / time and busbw = algbw x a per-operation factor (allreduce
 * 2(n-1)/n, allgather and reduce-scatter (n-1)/n, broadcast and sendrecv 1),
 * time being the slowest rank's for each call.
 */
#include <stddef.h>
#include <stdint.h>

#include "clbench/bench/micro.h"
#include "clbench/cl/cl.h"
#include "clbench/cl/env.h"
#include "clbench/mpi/mpi.h"

/* The operations, in their run order; NULL-terminated. */
extern const char *const clb_collective_ops[];

/* busbw / algbw for op on n ranks; 0 for an unknown op. */
double clb_collective_bus_factor(const char *op, int n);

/*
 * Elements (fp32) per rank's contribution and the bytes S actually moved for
 * a requested size in bytes on n ranks (rounded down to whole elements, and
 * for allgather and reduce-scatter to n equal parts; at least one element
 * per part).
 */
void clb_collective_shape(const char *op, uint64_t bytes, int n, uint64_t *count,
                          uint64_t *moved);

/*
 * The value rank r contributes at element i: r + 1 + ((i + 7 r) mod 1021) / 4.
 * Its fp32 sums over up to CLB_COLLECTIVE_MAX_RANKS ranks are exact in any
 * order (multiples of 1/4 below 2^22); rank r's values shifted by s elements
 * match rank q's only for s = -11 (r - q) mod 1021 (and then not across a
 * wrap of the pattern), so a block from the wrong rank or offset shows.
 */
#define CLB_COLLECTIVE_MAX_RANKS 2048
float clb_collective_value(int r, uint64_t i);

struct clb_collective_options {
    const char *const *ops;  /* names from clb_collective_ops; borrowed */
    size_t n_ops;
    const uint64_t *bytes;   /* requested sizes S, bytes */
    size_t n_sizes;
    unsigned runs, warmup;   /* timed and untimed calls per row */
    /*
     * Device buffers: each call reads the device buffer to host memory, runs
     * the operation there and writes the result back (clFinish); the row
     * times that whole path and the MPI part alone. NULL: host buffers only.
     */
    const struct clb_device *device;
    const struct clb_cl_env *env;
};

/*
 * Runs every (op, size) on every rank of w, which must all call it with the
 * same options; appends one row per (op, size) on every rank (benchmark
 * "collective", backend "mpi", metric "gbps" = busbw, from the slowest
 * rank's time of each call; sizes that round to the same shape run once).
 * After the timed calls, one more call on outputs reset to NaN is the one
 * every rank checks. Faults land in rows, agreed on by every rank; an MPI
 * error ends the job (MPI's default handler), as a dead rank does.
 */
void clb_collective_run(const struct clb_mpi_world *w, const struct clb_collective_options *opt,
                        struct clb_micro_results *out);

#endif
