#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/cl/device.h"
#include "clbench/cl/inventory.h"

static char *platform_string(cl_platform_id p, cl_platform_info param)
{
    size_t len = 0;
    char *s;

    if (clGetPlatformInfo(p, param, 0, NULL, &len) != CL_SUCCESS || !(s = calloc(len + 1, 1)))
        return strdup("?");
    if (clGetPlatformInfo(p, param, len, s, NULL) != CL_SUCCESS) {
        free(s);
        return strdup("?");
    }
    return s;
}

static const char no_platform_hint[] =
    "no OpenCL platform found: install an OpenCL driver (on Debian/Ubuntu "
    "`apt-get install pocl-opencl-icd` for the CPU, or your GPU vendor's ICD), and check "
    "that /etc/OpenCL/vendors (or the folder named by OCL_ICD_VENDORS) lists it";

struct clb_inventory *clb_inventory_create(struct clb_error *e)
{
    cl_uint n_plat = 0;
    cl_platform_id *plats = NULL;
    struct clb_inventory *inv = calloc(1, sizeof(*inv));

    if (!inv) {
        clb_error_set(e, "out of host memory");
        return NULL;
    }
    cl_int err = clGetPlatformIDs(0, NULL, &n_plat);
    if (err == CL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && n_plat == 0)) {
        clb_error_set(e, "%s", no_platform_hint);
        goto error;
    }
    if (clb_cl_check(e, "clGetPlatformIDs", err))
        goto error;
    plats = calloc(n_plat, sizeof(*plats));
    inv->platforms = calloc(n_plat, sizeof(*inv->platforms));
    if (!plats || !inv->platforms) {
        clb_error_set(e, "out of host memory");
        goto error;
    }
    if (CLB_CL(e, clGetPlatformIDs, n_plat, plats, NULL))
        goto error;

    for (cl_uint p = 0; p < n_plat; p++) {
        struct clb_platform *pl = &inv->platforms[inv->n_platforms++];
        cl_uint n_dev = 0;

        pl->id = plats[p];
        pl->index = p;
        pl->name = platform_string(plats[p], CL_PLATFORM_NAME);
        pl->vendor = platform_string(plats[p], CL_PLATFORM_VENDOR);
        pl->version = platform_string(plats[p], CL_PLATFORM_VERSION);
        pl->devices_err = clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &n_dev);
        if (pl->devices_err != CL_SUCCESS || n_dev == 0)
            continue;

        cl_device_id *ids = calloc(n_dev, sizeof(*ids));
        struct clb_device *grown =
            realloc(inv->devices, (inv->n_devices + n_dev) * sizeof(*inv->devices));
        if (!ids || !grown) {
            free(ids);
            clb_error_set(e, "out of host memory");
            goto error;
        }
        inv->devices = grown;
        pl->devices_err = clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, n_dev, ids, NULL);
        for (cl_uint d = 0; pl->devices_err == CL_SUCCESS && d < n_dev; d++) {
            struct clb_device *dev = &inv->devices[inv->n_devices++];

            memset(dev, 0, sizeof(*dev));
            dev->id = ids[d];
            dev->platform_index = p;
            dev->device_index = d;
            clb_device_read_props(dev);
        }
        free(ids);
    }
    /* Platforms are referenced by pointer only once the device array stops moving. */
    for (size_t i = 0; i < inv->n_devices; i++)
        inv->devices[i].platform = &inv->platforms[inv->devices[i].platform_index];
    free(plats);
    return inv;

error:
    free(plats);
    clb_inventory_destroy(inv);
    return NULL;
}

void clb_inventory_destroy(struct clb_inventory *inv)
{
    if (!inv)
        return;
    for (size_t i = 0; i < inv->n_devices; i++)
        clb_device_free_props(&inv->devices[i]);
    for (size_t i = 0; i < inv->n_platforms; i++) {
        free(inv->platforms[i].name);
        free(inv->platforms[i].vendor);
        free(inv->platforms[i].version);
    }
    free(inv->platforms);
    free(inv->devices);
    free(inv);
}

bool clb_inventory_empty_platforms(const struct clb_inventory *inv, struct clb_error *e)
{
    size_t used = 0;
    bool pocl = false, any = false;

    e->msg[0] = '\0';
    for (size_t i = 0; i < inv->n_platforms && used < sizeof(e->msg); i++) {
        const struct clb_platform *p = &inv->platforms[i];
        size_t devices = 0;
        for (size_t d = 0; d < inv->n_devices; d++)
            devices += inv->devices[d].platform_index == p->index;
        if (devices)
            continue;
        used += (size_t)snprintf(e->msg + used, sizeof(e->msg) - used,
                                 "%splatform %u '%s' lists no device (%s)", any ? "; " : "",
                                 p->index, p->name,
                                 clb_cl_errname(p->devices_err ? p->devices_err
                                                               : CL_DEVICE_NOT_FOUND));
        any = true;
        pocl |= strstr(p->name, "Portable Computing Language") || strstr(p->vendor, "pocl");
    }
    if (pocl && used < sizeof(e->msg))
        snprintf(e->msg + used, sizeof(e->msg) - used,
                 "; pocl lists no device when it cannot write its kernel cache: set "
                 "POCL_CACHE_DIR to a writable folder");
    return any;
}
