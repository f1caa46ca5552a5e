#include <stdio.h>

#include "clbench/cl/cl.h"

/* cl_icdl_info values of the clGetICDLoaderInfoOCLICD extension. */
enum { ICDL_VERSION = 2, ICDL_NAME = 3 };
typedef cl_int (*icdl_info_fn)(cl_uint param, size_t size, void *value, size_t *size_ret);

void clb_icd_loader_info(char *name, size_t name_len, char *version, size_t version_len)
{
    icdl_info_fn f = (icdl_info_fn)(void (*)(void))clGetExtensionFunctionAddress(
        "clGetICDLoaderInfoOCLICD");

    snprintf(name, name_len, "unknown");
    snprintf(version, version_len, "unknown");
    if (!f)
        return;
    if (f(ICDL_NAME, name_len, name, NULL) != CL_SUCCESS)
        snprintf(name, name_len, "unknown");
    if (f(ICDL_VERSION, version_len, version, NULL) != CL_SUCCESS)
        snprintf(version, version_len, "unknown");
}
