#include "version.h"

#include <jansson.h>
#include <string.h>

#include "clbench/backends/backend.h"
#include "clbench/cl/cl.h"
#include "clbench/cl/icd.h"
#include "clbench/mpi/mpi.h"
#include "clbench/util/record.h"
#include "commit.h"
#include "config.h"


static void line(FILE *out, const char *what, const char *built, const char *running)
{
    fprintf(out, "  %-18s %-12s %s\n", what, built && *built ? built : "-",
            running && *running ? running : "-");
}

/* A backend's library as its info hook names it: "0.3.21", or the stand-in's reason. */
static void backend_line(FILE *out, const char *what, const char *backend, const char *built)
{
    const struct clb_gemm_backend *be = clb_gemm_backend_find(backend);
    struct clb_library_info lib = { 0 };
    const struct clb_field *config;

    if (!be)
        return;
    be->info(&lib);
    config = clb_library_field(&lib, "config");
    if (!built || !*built) {
        line(out, what, "not built", "(clbench was built without it)");
        return;
    }
    if (config && config->type == CLB_FIELD_STRING)
        line(out, what, built, config->str);
    else if (clb_library_field(&lib, "version_source"))
        line(out, what, built, "(no run-time query: the version built against)");
    else
        line(out, what, built, lib.version);
}

int clb_version_write(FILE *out)
{
    char loader[64] = "", loader_version[64] = "", running[256];

    fprintf(out, "clbench %s (commit %s)\n", CLBENCH_VERSION, CLBENCH_COMMIT);
    fprintf(out, "  %-18s %-12s %s\n", "library", "built with", "running");
    snprintf(running, sizeof(running), "(API target %d.%d)", CL_TARGET_OPENCL_VERSION / 100,
             CL_TARGET_OPENCL_VERSION / 10 % 10);
    line(out, "OpenCL headers", CLBENCH_OPENCL_HEADERS_VERSION, running);
    clb_icd_loader_info(loader, sizeof(loader), loader_version, sizeof(loader_version));
    snprintf(running, sizeof(running), "%s %s", loader, loader_version);
    line(out, "OpenCL ICD loader", "OpenCL " CLBENCH_OPENCL_PC_VERSION, loader[0] ? running : NULL);
#if HAVE_CLBLAST
    backend_line(out, "CLBlast", "clblast", CLBENCH_CLBLAST_VERSION);
#else
    backend_line(out, "CLBlast", "clblast", "");
#endif
    backend_line(out, "OpenBLAS", "openblas", CLBENCH_OPENBLAS_BUILD_VERSION);
#if JANSSON_VERSION_HEX >= 0x020d00
    line(out, "jansson", CLBENCH_JANSSON_BUILD_VERSION, jansson_version_str());
#else
    line(out, "jansson", CLBENCH_JANSSON_BUILD_VERSION, JANSSON_VERSION " (no run-time query)");
#endif
    if (clb_mpi_built()) {
        clb_mpi_library_version(running, sizeof(running));
        line(out, "MPI", CLBENCH_MPI_BUILD_VERSION, running);
    } else {
        line(out, "MPI", "not built", "(clbench was built without it)");
    }
    line(out, "compiler", CLBENCH_COMPILER, NULL);
    return ferror(out) ? -1 : 0;
}
