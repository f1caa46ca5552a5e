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
    char host[256];             /* this rank's node name */
};

/* Whether this clbench was built with MPI. */
bool clb_mpi_built(void);

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

#endif
