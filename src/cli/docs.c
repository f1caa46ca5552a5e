#include "clbench/cli/docs.h"

const char clb_description[] =
    "clbench answers \"how fast is this OpenCL device, really, against this CPU?\" from one "
    "command. It lists every OpenCL platform and device, measures each device's arithmetic "
    "peak per precision, memory bandwidth, host-device transfers and launch latency, and runs "
    "GEMM through CLBlast and its own OpenCL kernel on every device against an OpenBLAS "
    "baseline on the host, checking every element of every result.\n\n"
    "Every figure is timed after a warm-up, repeated, and reported as a median with its "
    "spread; each table says which clock and which statistic it shows, and holds each figure "
    "against the device's published or derived limit. Results are written as tables, JSON or "
    "CSV, compared across runs and machines (compare), drawn as an HTML report (report), and "
    "read back to estimate what a model needs and how fast it runs (fit).\n\n"
    "Under mpirun or srun the measuring commands run as ranks of a fleet: one table and one "
    "result file from every rank.";

/*
 * Every variable the sources read (getenv, setenv) is here, or is one of the
 * test hooks of the last entry: tests/source/environment.sh checks.
 */
const struct clb_doc_item clb_environment[] = {
    { "CLBENCH_ICD", "OpenCL driver libraries to load besides those .icd files register, "
                     "':'-separated, as --icd." },
    { "CLBENCH_TUNING_FILE", "The tuning cache clbench tune writes and gemm and run read, "
                             "instead of the default path (see FILES)." },
    { "XDG_CACHE_HOME", "Where the tuning cache lives: $XDG_CACHE_HOME/clbench/tuning.json; "
                        "also pocl's kernel cache, as pocl reads it." },
    { "HOME", "Without XDG_CACHE_HOME: the tuning cache is ~/.cache/clbench/tuning.json." },
    { "TMPDIR", "Where --icd's private vendors folder and a fallback pocl kernel cache are made "
                "(default /tmp)." },
    { "OCL_ICD_VENDORS", "The ICD loader's folder of .icd files; --icd points it at a private "
                         "folder for clbench's own process only." },
    { "POCL_CACHE_DIR", "pocl's kernel cache; when it cannot be made, clbench uses a private "
                        "folder under TMPDIR and says so." },
    { "POCL_MAX_PTHREAD_COUNT", "pocl's threads; ranks sharing a node's CPUs each get their "
                                "share unless this is set." },
    { "OPENBLAS_CORETYPE", "OpenBLAS's kernels; --blas-core auto restarts clbench with it set "
                           "when OpenBLAS picked kernels older than the CPU, and warns when "
                           "one given runs older ones." },
    { "CLBENCH_BLAS_CORE_FROM, CLBENCH_BLAS_CORE_BY", "Set by clbench for the process it "
                                                      "restarts with other OpenBLAS kernels "
                                                      "(what OpenBLAS had picked, and who "
                                                      "switched); not for users." },
    { "OMPI_COMM_WORLD_SIZE, PMI_SIZE, PMIX_RANK, SLURM_STEP_NUM_TASKS",
      "Set by mpirun and srun: clbench is one rank of a fleet when they name more than one "
      "process." },
    { "CLBENCH_FAKE_*, CLBENCH_FAULT_*, CLBENCH_TEST*", "Hooks for clbench's own tests (a "
                                                        "CPU to pretend, a fault to inject); "
                                                        "never set them for a measurement." },
    { NULL, NULL },
};

const struct clb_doc_item clb_files[] = {
    { "$XDG_CACHE_HOME/clbench/tuning.json",
      "The tuning cache: the kernel parameters clbench tune found per device, precision and "
      "size, applied by later gemm and run calls (~/.cache/clbench/tuning.json without "
      "XDG_CACHE_HOME; CLBENCH_TUNING_FILE overrides both)." },
    { "/etc/OpenCL/vendors/*.icd", "The OpenCL drivers the ICD loader finds (clbench devices "
                                   "lists them)." },
    { NULL, NULL },
};

const struct clb_doc_item clb_examples[] = {
    { "clbench", "The headline job: devices, each device's peak and bandwidth, GEMM on every "
                 "device against OpenBLAS, a summary." },
    { "clbench devices", "Every OpenCL platform and device and what matters about it." },
    { "clbench gemm -n 1024,4096 -p fp32,fp16 -o gemm.json",
      "GEMM at two sizes and two precisions, kept in a result file." },
    { "clbench run --shapes llama-2-7b -o run.json",
      "A model layer's GEMMs and the bandwidth its decoding needs, with token-rate estimates." },
    { "clbench fit -m llama-2-7b --from run.json", "Whether the model fits on each device, and "
                                                   "its tokens/s from the measured figures." },
    { "clbench compare old.json new.json --threshold 5%",
      "Two runs side by side; exit status 1 when a figure regressed by more than 5%." },
    { "clbench report run.json -o report.html", "One HTML page of charts." },
    { "mpirun -n 4 clbench gemm -n 4096", "Four ranks, one table and one result file." },
    { NULL, NULL },
};
