/*
 * The inventory against the OpenCL API read directly: what `clbench devices`
 * shows must be what the driver says.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "clbench/bench/check.h"
#include "clbench/cl/device.h"
#include "clbench/cl/inventory.h"
#include "require.h"

static int setup(void **state)
{
    struct clb_error e;

    *state = clb_inventory_create(&e);
    if (!*state)
        fprintf(stderr, "inventory: %s\n", e.msg);
    return *state ? 0 : -1;
}

static int teardown(void **state)
{
    clb_inventory_destroy(*state);
    return 0;
}

static void counts_match_api(void **state)
{
    struct clb_inventory *inv = *state;
    cl_uint n_plat = 0, total = 0;

    assert_int_equal(clGetPlatformIDs(0, NULL, &n_plat), CL_SUCCESS);
    assert_int_equal(inv->n_platforms, n_plat);
    cl_platform_id *p = calloc(n_plat, sizeof(*p));
    assert_int_equal(clGetPlatformIDs(n_plat, p, NULL), CL_SUCCESS);
    for (cl_uint i = 0; i < n_plat; i++) {
        cl_uint n = 0;
        if (clGetDeviceIDs(p[i], CL_DEVICE_TYPE_ALL, 0, NULL, &n) == CL_SUCCESS)
            total += n;
    }
    free(p);
    assert_int_equal(inv->n_devices, total);
    assert_true(inv->n_devices > 0);
}

static void props_match_api(void **state)
{
    struct clb_inventory *inv = *state;

    for (size_t i = 0; i < inv->n_devices; i++) {
        const struct clb_device *d = &inv->devices[i];
        cl_uint cu = 0, mhz = 0;
        cl_ulong global = 0, alloc = 0, local = 0;
        cl_device_type type = 0;
        char name[512] = "";

        assert_int_equal(clGetDeviceInfo(d->id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cu), &cu,
                                         NULL), CL_SUCCESS);
        assert_int_equal(clGetDeviceInfo(d->id, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof(mhz),
                                         &mhz, NULL), CL_SUCCESS);
        assert_int_equal(clGetDeviceInfo(d->id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(global),
                                         &global, NULL), CL_SUCCESS);
        assert_int_equal(clGetDeviceInfo(d->id, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(alloc),
                                         &alloc, NULL), CL_SUCCESS);
        assert_int_equal(clGetDeviceInfo(d->id, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(local), &local,
                                         NULL), CL_SUCCESS);
        assert_int_equal(clGetDeviceInfo(d->id, CL_DEVICE_TYPE, sizeof(type), &type, NULL),
                         CL_SUCCESS);
        assert_int_equal(clGetDeviceInfo(d->id, CL_DEVICE_NAME, sizeof(name) - 1, name, NULL),
                         CL_SUCCESS);

        assert_int_equal(clb_device_u64(d, CLB_PROP_COMPUTE_UNITS), cu);
        assert_int_equal(clb_device_u64(d, CLB_PROP_MAX_CLOCK_MHZ), mhz);
        assert_true(clb_device_u64(d, CLB_PROP_GLOBAL_MEM_BYTES) == global);
        assert_true(clb_device_u64(d, CLB_PROP_MAX_ALLOC_BYTES) == alloc);
        assert_true(clb_device_u64(d, CLB_PROP_LOCAL_MEM_BYTES) == local);
        assert_true(clb_device_u64(d, CLB_PROP_TYPE) == type);
        assert_non_null(strstr(name, clb_device_str(d, CLB_PROP_NAME)));
        assert_true(cu > 0 && global > 0 && alloc > 0 && alloc <= global);
    }
}

static void fp64_follows_extension(void **state)
{
    struct clb_inventory *inv = *state;

    for (size_t i = 0; i < inv->n_devices; i++) {
        const struct clb_device *d = &inv->devices[i];
        const char *ext = clb_device_str(d, CLB_PROP_EXTENSIONS);
        if (strstr(ext, "cl_khr_fp64"))
            assert_true(clb_device_bool(d, CLB_PROP_FP64));
        assert_int_equal(clb_device_bool(d, CLB_PROP_FP16), strstr(ext, "cl_khr_fp16") != NULL);
        /* Vendor extras are applicable exactly when the extension is listed. */
        assert_int_equal(d->props[CLB_PROP_NV_WARP_SIZE].applicable,
                         strstr(ext, "cl_nv_device_attribute_query") != NULL);
        assert_int_equal(d->props[CLB_PROP_AMD_BOARD_NAME].applicable,
                         strstr(ext, "cl_amd_device_attribute_query") != NULL);
    }
}

static void check_kernel_runs(void **state)
{
    struct clb_inventory *inv = *state;

    for (size_t i = 0; i < inv->n_devices; i++) {
        struct clb_check_result r;
        clb_device_check(&inv->devices[i], 1000, &r);
        if (!r.ok)
            fail_msg("device %zu: %s", i, r.error.msg);
        assert_true(r.seconds > 0);
    }
}

int main(void)
{
    int skip = clb_test_require_device();
    if (skip)
        return skip;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(counts_match_api),
        cmocka_unit_test(props_match_api),
        cmocka_unit_test(fp64_follows_extension),
        cmocka_unit_test(check_kernel_runs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
