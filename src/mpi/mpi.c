#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clbench/mpi/mpi.h"
#include "clbench/util/cpu.h"
#include "clbench/util/interrupt.h"
#include "clbench/util/parse.h"
#include "config.h"

static int env_count(const char *name)
{
    const char *v = getenv(name);
    uint64_t n;
    struct clb_error e;

    return v && !clb_parse_u64(v, 0, INT_MAX, &n, &e) ? (int)n : 0;
}

int clb_mpi_launched(void)
{
    int n = env_count("OMPI_COMM_WORLD_SIZE");

    if (!n)
        n = env_count("PMI_SIZE");
    if (!n && getenv("PMIX_RANK"))
        n = env_count("SLURM_STEP_NUM_TASKS");
    return n > 1 ? n : 0;
}

size_t clb_mpi_pick_devices(size_t n, int local_size, int local_rank, size_t *idx)
{
    size_t k = 0;

    if (!n)
        return 0;
    if (local_size < 1 || local_rank < 0 || local_rank >= local_size) {
        local_size = 1;
        local_rank = 0;
    }
    if (n < (size_t)local_size) {
        idx[0] = (size_t)local_rank % n;
        return 1;
    }
    for (size_t d = (size_t)local_rank; d < n; d += (size_t)local_size)
        idx[k++] = d;
    return k;
}

void clb_mpi_gather_free(char **parts, size_t *lens, int *locals, int n)
{
    for (int i = 0; parts && i < n; i++)
        free(parts[i]);
    free(parts);
    free(lens);
    free(locals);
}

/* A lone process: its own bytes back. */
static int gather_alone(const char *buf, size_t len, char ***parts, size_t **lens, int **locals,
                        struct clb_error *e)
{
    *parts = calloc(1, sizeof(**parts));
    *lens = calloc(1, sizeof(**lens));
    *locals = calloc(1, sizeof(**locals));
    if (*parts && *lens && *locals && ((*parts)[0] = malloc(len + 1))) {
        memcpy((*parts)[0], buf, len);
        (*parts)[0][len] = '\0';
        (*lens)[0] = len;
        return 0;
    }
    clb_mpi_gather_free(*parts, *lens, *locals, 1);
    *parts = NULL;
    *lens = NULL;
    *locals = NULL;
    clb_error_set(e, "out of host memory gathering the results");
    return -1;
}

#if HAVE_MPI
#include <mpi.h>
#include <stdio.h>
#include <time.h>

static bool started;
static struct clb_mpi_world world;

/*
 * A signal reaches the ranks of one node: mpirun forwards Ctrl-C to its own
 * node's ranks, a user may signal one rank. The stopped rank tells every
 * other, on a communicator of its own, so that they stop at their next call
 * too rather than at the end of a row (a launcher kills the signalled ranks a
 * second later: Open MPI's odls_base_sigkill_timeout).
 */
static MPI_Comm stop_comm = MPI_COMM_NULL;
static MPI_Request stop_recv = MPI_REQUEST_NULL, *stop_sends;
static int stop_in, stop_out, stop_heard;

static int stop_link(int received)
{
    if (received && !stop_out) {
        stop_out = received;
        for (int r = 0; r < world.size; r++)
            if (r != world.rank)
                MPI_Isend(&stop_out, 1, MPI_INT, r, 0, stop_comm, &stop_sends[r]);
    }
    if (!stop_heard && stop_recv != MPI_REQUEST_NULL) {
        int done = 0;
        MPI_Test(&stop_recv, &done, MPI_STATUS_IGNORE);
        if (done)
            stop_heard = stop_in ? stop_in : 1;
    }
    return stop_heard;
}

static void stop_link_open(void)
{
    if (stop_comm != MPI_COMM_NULL || world.size < 2 ||
        !(stop_sends = malloc((size_t)world.size * sizeof(*stop_sends))))
        return;
    for (int r = 0; r < world.size; r++)
        stop_sends[r] = MPI_REQUEST_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &stop_comm);
    MPI_Irecv(&stop_in, 1, MPI_INT, MPI_ANY_SOURCE, 0, stop_comm, &stop_recv);
    clb_interrupt_link(stop_link);
}

/* Small messages: the sends complete without a receiver; one never received is cancelled. */
static void stop_link_close(void)
{
    if (stop_comm == MPI_COMM_NULL)
        return;
    clb_interrupt_link(NULL);
    MPI_Waitall(world.size, stop_sends, MPI_STATUSES_IGNORE);
    if (stop_recv != MPI_REQUEST_NULL) {
        MPI_Cancel(&stop_recv);
        MPI_Wait(&stop_recv, MPI_STATUS_IGNORE);
    }
    MPI_Comm_free(&stop_comm);
    free(stop_sends);
    stop_sends = NULL;
}

bool clb_mpi_built(void)
{
    return true;
}

void clb_mpi_library_version(char *buf, size_t len)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int n = 0;

    if (MPI_Get_library_version(v, &n) != MPI_SUCCESS)
        n = 0;
    v[n < (int)sizeof(v) ? n : (int)sizeof(v) - 1] = '\0';
    snprintf(buf, len, "%.*s", (int)strcspn(v, "\n,"), v);
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
    w->local_size = 1;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, w->rank, MPI_INFO_NULL,
                            &node) == MPI_SUCCESS) {
        MPI_Comm_rank(node, &w->local_rank);
        MPI_Comm_size(node, &w->local_size);
        MPI_Comm_free(&node);
    }
    if (gethostname(w->host, sizeof(w->host) - 1))
        strcpy(w->host, "unknown");
    world = *w;
    stop_link_open();
    return 0;
}

const struct clb_mpi_world *clb_mpi_fleet(void)
{
    return started && world.size > 1 ? &world : NULL;
}

void clb_mpi_stop(void)
{
    int finalized = 0;

    if (!started)
        return;
    MPI_Finalized(&finalized);
    if (!finalized) {
        stop_link_close();
        MPI_Finalize();
    }
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

int clb_mpi_max_idle(int v)
{
    const struct timespec nap = { 0, 200000 };
    MPI_Request req;
    int out = v, done = 0;

    if (!started)
        return v;
    /*
     * A blocking allreduce spins on a core while it waits: on a node whose
     * CPU the other ranks are still measuring with, that would slow them.
     */
    MPI_Iallreduce(&v, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &req);
    for (MPI_Test(&req, &done, MPI_STATUS_IGNORE); !done;
         MPI_Test(&req, &done, MPI_STATUS_IGNORE))
        nanosleep(&nap, NULL);
    return out;
}

void clb_mpi_abort_fleet(const char *why)
{
    if (!clb_mpi_fleet())
        return;
    fprintf(stderr, "clbench: rank %d on %s: %s; ending every rank\n", world.rank, world.host,
            why);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

int clb_mpi_bcast_int(int v)
{
    if (started)
        MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return v;
}

/* calloc, or the end of every rank (a few ints per rank: nothing to go on without). */
static void *must_calloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);

    if (!p) {
        fprintf(stderr, "clbench: out of host memory gathering the ranks' results\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

int clb_mpi_gather(const char *buf, size_t len, char ***parts, size_t **lens, int **locals,
                   struct clb_error *e)
{
    const int n = world.size, me = world.rank;
    /* A part too large to count in an int is sent as nothing, and said so at the end. */
    int mine[2] = { len < INT_MAX ? (int)len : -1, world.local_rank };
    int *all = NULL, *counts = NULL, *displs = NULL;
    char *flat = NULL;
    long long total = 0;
    bool ok;
    int rc = 0;

    *parts = NULL;
    *lens = NULL;
    *locals = NULL;
    if (!started)
        return gather_alone(buf, len, parts, lens, locals, e);
    if (me == 0) {
        all = must_calloc((size_t)n * 2, sizeof(int));
        counts = must_calloc((size_t)n, sizeof(int));
        displs = must_calloc((size_t)n, sizeof(int));
    }
    MPI_Gather(mine, 2, MPI_INT, all, 2, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 0; me == 0 && r < n; r++) {
        counts[r] = all[2 * r] > 0 && total + all[2 * r] <= INT_MAX ? all[2 * r] : 0;
        displs[r] = (int)total;
        total += counts[r];
    }
    if (me == 0 && !(flat = malloc((size_t)total + 1)))
        memset(counts, 0, (size_t)n * sizeof(int)); /* no room: every rank sends nothing */
    /* Each rank sends exactly what rank 0 has room for: send and receive counts agree. */
    int send = 0;
    MPI_Scatter(counts, 1, MPI_INT, &send, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Gatherv(buf, send, MPI_CHAR, flat, counts, displs, MPI_CHAR, 0, MPI_COMM_WORLD);
    ok = me != 0 || flat != NULL;
    if (me == 0 && ok) {
        *parts = must_calloc((size_t)n, sizeof(**parts));
        *lens = must_calloc((size_t)n, sizeof(**lens));
        *locals = must_calloc((size_t)n, sizeof(**locals));
        for (int r = 0; r < n; r++) {
            (*locals)[r] = all[2 * r + 1];
            if (counts[r] != all[2 * r]) {
                clb_error_set(e, "rank %d's results do not fit in one message (2 GiB)", r);
                rc = -1;
            }
            if (counts[r] && ((*parts)[r] = malloc((size_t)counts[r] + 1))) {
                memcpy((*parts)[r], flat + displs[r], (size_t)counts[r]);
                (*parts)[r][counts[r]] = '\0';
                (*lens)[r] = (size_t)counts[r];
            } else if (counts[r]) {
                ok = false;
            }
        }
    }
    if (me == 0 && !ok) {
        clb_mpi_gather_free(*parts, *lens, *locals, n);
        *parts = NULL;
        *lens = NULL;
        *locals = NULL;
        clb_error_set(e, "out of host memory gathering the ranks' results");
        rc = -1;
    }
    free(flat);
    free(all);
    free(counts);
    free(displs);
    return rc;
}

#else

bool clb_mpi_built(void)
{
    return false;
}

void clb_mpi_library_version(char *buf, size_t len)
{
    if (len)
        buf[0] = '\0';
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

int clb_mpi_bcast_int(int v)
{
    return v;
}

int clb_mpi_max_idle(int v)
{
    return v;
}

void clb_mpi_abort_fleet(const char *why)
{
    (void)why;
}

const struct clb_mpi_world *clb_mpi_fleet(void)
{
    return NULL;
}

int clb_mpi_gather(const char *buf, size_t len, char ***parts, size_t **lens, int **locals,
                   struct clb_error *e)
{
    return gather_alone(buf, len, parts, lens, locals, e);
}

#endif

int clb_mpi_cpu_sharers(void)
{
    const struct clb_mpi_world *w = clb_mpi_fleet();
    const long online = clb_cpu_count_online();

    if (w && w->local_size > 1 && online > 0 &&
        (long)clb_cpu_count_available() * w->local_size > online)
        return w->local_size;
    return 1;
}
