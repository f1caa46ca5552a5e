#ifndef CLBENCH_MPI_MPI_H
#define CLBENCH_MPI_MPI_H

/*
 * The one door to MPI (Open MPI from Debian, or any MPI the meson feature
 * `mpi` finds). clbench runs alone, or as one rank of `mpirun -np N clbench
 * COMMAND` / `srun clbench COMMAND`; built without MPI, clb_mpi_start fails
 * with a message saying so and everything else is a no-op.
 */
#include <stdbool.h>

#include "clbench/util/error.h"

struct clb_mpi_world {
    int rank, size;             /* in MPI_COMM_WORLD */
    int local_rank;             /* among the ranks on this node (shared memory) */
    int local_size;             /* ranks on this node */
    char host[256];             /* this rank's node name */
};

/* Whether this clbench was built with MPI. */
bool clb_mpi_built(void);

/*
 * The MPI library this process runs with, as MPI_Get_library_version names it
 * (its first line; callable before MPI starts), into buf; "" without MPI.
 */
void clb_mpi_library_version(char *buf, size_t len);

/*
 * Whether a launcher started this process as one of several ranks: the
 * world size its environment announces (mpirun: OMPI_COMM_WORLD_SIZE;
 * PMI/PMIx launchers such as srun: PMI_SIZE, SLURM_STEP_NUM_TASKS with
 * PMIX_RANK), or 0 when none does or it announces one rank. Built with or
 * without MPI: a build without it uses this to refuse to run N times.
 */
int clb_mpi_launched(void);

/*
 * The world of a fleet run: started, with more than one rank; else NULL.
 * (Commands measure as one rank of a fleet exactly when this is not NULL.)
 */
const struct clb_mpi_world *clb_mpi_fleet(void);

/*
 * How many ranks share each of this node's CPUs: a fleet's ranks on one node
 * that see the same CPUs (the launcher did not bind each to its own, so
 * available CPUs x local ranks > online CPUs) split its cores; else 1.
 */
int clb_mpi_cpu_sharers(void);

/*
 * MPI_Init once per process (a lone process is a world of one) and fills
 * *w. -1 with e set when built without MPI or when MPI cannot start.
 */
int clb_mpi_start(struct clb_mpi_world *w, struct clb_error *e);

/* MPI_Finalize when started; safe to call anyway. */
void clb_mpi_stop(void);

/* Logical and over every rank of `ok` (this rank's alone without MPI started). */
bool clb_mpi_all(bool ok);

/* The largest `v` over every rank (this rank's alone without MPI started). */
int clb_mpi_max(int v);
/*
 * The same, waiting asleep (polls every 0.2 ms) instead of spinning: for the
 * barriers between measurements, where a spinning rank would take CPU time
 * from ranks still measuring on its node.
 */
int clb_mpi_max_idle(int v);

/*
 * Where this rank cannot go on with the others (out of memory before a
 * collective call they wait in): in a fleet, ends every rank through the
 * launcher (MPI_Abort, after `why` on stderr) rather than leave them
 * waiting; alone, does nothing and returns.
 */
void clb_mpi_abort_fleet(const char *why);

/* Rank 0's `v` on every rank (`v` itself without MPI started). */
int clb_mpi_bcast_int(int v);

/*
 * Gathers every rank's `len` bytes at rank 0: there, *parts gets
 * world->size malloc()ed buffers (each NUL-terminated; parts[r] from rank
 * r, NULL when that rank sent nothing), lens their lengths and locals each
 * rank's local_rank, all freed by clb_mpi_gather_free; elsewhere they stay
 * NULL. Every rank must call it. A lone process gets its own bytes back.
 * -1 with e set when rank 0 ran out of memory (after the collective calls:
 * the ranks stay in step) or a part is 2 GiB or more.
 */
int clb_mpi_gather(const char *buf, size_t len, char ***parts, size_t **lens, int **locals,
                   struct clb_error *e);
void clb_mpi_gather_free(char **parts, size_t *lens, int *locals, int n);

/*
 * Which of the n selected devices a rank takes: with at least as many
 * devices as ranks on the node, rank local_rank takes devices local_rank,
 * local_rank + local_size, ... (one each when equal); with fewer, ranks
 * share: it takes device local_rank mod n. Writes the indices to idx (room
 * for n) in order and returns how many.
 */
size_t clb_mpi_pick_devices(size_t n, int local_size, int local_rank, size_t *idx);

#endif
