#include "clbench/cl/kernels.h"

#include <string.h>

const char *clb_kernel_source(const char *name)
{
    for (const struct clb_kernel_source *k = clb_kernel_sources; k->name; k++)
        if (strcmp(k->name, name) == 0)
            return k->source;
    return NULL;
}
