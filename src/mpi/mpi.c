#include <string.h>
#include <unistd.h>

#include "clbench/mpi/mpi.h"
#include "config.h"

#if HAVE_MPI
#include <mpi.h>

static bool started;

bool clb_mpi_built(void)
{
    return true;
}

int clb_mpi_start(struct clb_mpi_world *w, struct clb_error *e)
{
    char err[MPI_MAX_ERROR_STRING];
    int len = 0, rc, initialized = 0;
    MPI_Comm node;

    memset(w, 0, sizeof(*w));
    MPI_Initialized(&initialized);
    if (!initialized && (rc = MPI_Init(NULL, NULL)) != MPI_SUCCESS) {
        MPI_Error_string(rc, err, &len);
        clb_error_set(e, "MPI_Init: %.*s", len, err);
        return -1;
    }
    started = true;
    /*
     * MPI errors stay fatal (the default handler): the launcher then ends
     * every rank, where a returned error could leave the others waiting.
     */
    MPI_Comm_rank(MPI_COMM_WORLD, &w->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &w->size);
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, w->rank, MPI_INFO_NULL,
                            &node) == MPI_SUCCESS) {
        MPI_Comm_rank(node, &w->local_rank);
        MPI_Comm_free(&node);
    }
    if (gethostname(w->host, sizeof(w->host) - 1))
        strcpy(w->host, "unknown");
    return 0;
}

void clb_mpi_stop(void)
{
    int finalized = 0;

    if (!started)
        return;
    MPI_Finalized(&finalized);
    if (!finalized)
        MPI_Finalize();
    started = false;
}

bool clb_mpi_all(bool ok)
{
    int in = ok, out = ok;

    if (started)
        MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return out;
}

int clb_mpi_max(int v)
{
    int out = v;

    if (started)
        MPI_Allreduce(&v, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return out;
}

#else

bool clb_mpi_built(void)
{
    return false;
}

int clb_mpi_start(struct clb_mpi_world *w, struct clb_error *e)
{
    memset(w, 0, sizeof(*w));
    clb_error_set(e, "this clbench was built without MPI (install libopenmpi-dev and "
                     "rebuild: meson feature mpi)");
    return -1;
}

void clb_mpi_stop(void)
{
}

bool clb_mpi_all(bool ok)
{
    return ok;
}

int clb_mpi_max(int v)
{
    return v;
}

#endif
