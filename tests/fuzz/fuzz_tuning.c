/* libFuzzer target: the tuning-cache reader, for a device named as in the seeds. */
#include <stdint.h>
#include <string.h>

#include "clbench/tune/cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct clb_device dev;
    struct clb_tune_params p;
    struct clb_tune_match m;
    const struct clb_gemm_shape shape = { 1000, 1000, 1000 };

    dev.props[CLB_PROP_NAME].applicable = true;
    dev.props[CLB_PROP_NAME].str = "Fuzz GPU";
    dev.props[CLB_PROP_DRIVER_VERSION].applicable = true;
    dev.props[CLB_PROP_DRIVER_VERSION].str = "1.0";
    if (clb_tuning_lookup_text((const char *)data, size, &dev, "Xgemm", CLB_FP32, shape, NULL, &p, &m) &&
        (p.n > CLB_TUNE_MAX_PARAMS || m.size < 500 || m.size > 2000))
        __builtin_trap();
    return 0;
}
