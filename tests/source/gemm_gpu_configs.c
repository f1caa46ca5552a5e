/*
 * The programs clbench's own GEMM builds for three GPUs, described by what
 * their OpenCL drivers report (no device needed): the defaults and every
 * valid tune candidate, each as the backend itself computes them (its tuning
 * part's next_candidate and valid, clb_clbench_gemm_program), one line each:
 *   TARGET<TAB>LABEL<TAB>PRECISION<TAB>KERNEL<TAB>BUILD-OPTIONS
 * TARGET: the clang target the code is checked for (sm_90, gfx942, gfx1100);
 * LABEL: "default" (candidate 0) or "candidate-N" (the N-th valid one after
 * it); BUILD-OPTIONS: exactly the -D options passed to clBuildProgram. The
 * codegen checks in tests/source compile each line's program and inspect it.
 * Takes no arguments; exit 1 when the backend offers nothing.
 */
#include <stdio.h>
#include <string.h>

#include "clbench/backends/backend.h"
#include "clbench/backends/clbench_gemm.h"

struct described {
    const char *target, *what;
    uint64_t cus, max_wg, local_bytes;
};

/* As their drivers report them: NVIDIA's OpenCL gives the H200 48 KiB of local memory. */
static const struct described gpus[] = {
    { "sm_90", "H200", 132, 1024, 48 * 1024 },
    { "gfx942", "MI300X", 304, 256, 64 * 1024 },
    { "gfx1100", "RX 7900 XTX", 96, 256, 64 * 1024 },
};

static void set_prop(struct clb_device *dev, enum clb_prop_id id, uint64_t num)
{
    dev->props[id].applicable = true;
    dev->props[id].err = CL_SUCCESS;
    dev->props[id].num[0] = num;
    dev->props[id].n_num = 1;
}

int main(int argc, char **argv)
{
    const struct clb_gemm_backend *be = clb_gemm_backend_find("clbench");
    const struct clb_gemm_tuning *tu = be ? be->tuning : NULL;
    static const enum clb_precision precs[] = { CLB_FP32, CLB_FP64 };
    size_t lines = 0;

    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "gemm-gpu-configs: takes no arguments\n");
        return 2;
    }
    if (!tu) {
        fprintf(stderr, "gemm-gpu-configs: no tunable backend named clbench\n");
        return 1;
    }
    for (size_t g = 0; g < sizeof(gpus) / sizeof(gpus[0]); g++) {
        struct clb_device dev;
        memset(&dev, 0, sizeof(dev));
        set_prop(&dev, CLB_PROP_TYPE, CL_DEVICE_TYPE_GPU);
        set_prop(&dev, CLB_PROP_COMPUTE_UNITS, gpus[g].cus);
        set_prop(&dev, CLB_PROP_MAX_WORK_GROUP_SIZE, gpus[g].max_wg);
        set_prop(&dev, CLB_PROP_LOCAL_MEM_BYTES, gpus[g].local_bytes);
        set_prop(&dev, CLB_PROP_FP64, 1);
        for (size_t p = 0; p < sizeof(precs) / sizeof(precs[0]); p++) {
            struct clb_tune_params t;
            uint64_t rng = 1;
            size_t n_valid = 0;
            for (size_t i = 0; tu->next_candidate(&dev, precs[p], i, &rng, &t); i++) {
                char kernel[64], options[192], label[32];
                if (!tu->valid(&dev, precs[p], &t))
                    continue;
                if (!clb_clbench_gemm_program(&t, precs[p], kernel, sizeof(kernel), options,
                                              sizeof(options))) {
                    fprintf(stderr, "gemm-gpu-configs: %s: candidate %zu names no variant\n",
                            gpus[g].what, i);
                    return 1;
                }
                if (i == 0)
                    snprintf(label, sizeof(label), "default");
                else
                    snprintf(label, sizeof(label), "candidate-%zu", n_valid);
                printf("%s\t%s\t%s\t%s\t%s\n", gpus[g].target, label,
                       clb_precision_name(precs[p]), kernel, options);
                n_valid++;
                lines++;
            }
        }
    }
    return lines ? 0 : 1;
}
