#ifndef CLBENCH_CL_DEVICE_H
#define CLBENCH_CL_DEVICE_H

/*
 * An OpenCL platform and device, and every device property clbench reports
 * (src/cl/device.c; the inventory of them all: clbench/cl/inventory.h). Properties are one table (struct clb_prop_desc), in the
 * manner of clinfo: each is read from the OpenCL API, and one that cannot be
 * read keeps its error code instead of a value.
 */
#include <stdbool.h>
#include <stdint.h>

#include "clbench/cl/cl.h"

enum clb_prop_id {
    /* The core set: the `clbench devices` table and CSV. */
    CLB_PROP_NAME,
    CLB_PROP_TYPE,
    CLB_PROP_VENDOR,
    CLB_PROP_DRIVER_VERSION,
    CLB_PROP_VERSION,
    CLB_PROP_COMPUTE_UNITS,
    CLB_PROP_MAX_CLOCK_MHZ,
    CLB_PROP_GLOBAL_MEM_BYTES,
    CLB_PROP_MAX_ALLOC_BYTES,
    CLB_PROP_LOCAL_MEM_BYTES,
    CLB_PROP_FP64,
    CLB_PROP_FP16,
    /* The rest, shown with -v and always in JSON. */
    CLB_PROP_C_VERSION,
    CLB_PROP_AVAILABLE,
    CLB_PROP_COMPILER_AVAILABLE,
    CLB_PROP_MAX_WORK_GROUP_SIZE,
    CLB_PROP_MAX_WORK_ITEM_SIZES,
    CLB_PROP_ADDRESS_BITS,
    CLB_PROP_LOCAL_MEM_TYPE,
    CLB_PROP_GLOBAL_CACHE_BYTES,
    CLB_PROP_GLOBAL_CACHELINE_BYTES,
    CLB_PROP_CONSTANT_BUFFER_BYTES,
    CLB_PROP_HOST_UNIFIED_MEMORY,
    CLB_PROP_ECC,
    CLB_PROP_TIMER_RESOLUTION_NS,
    CLB_PROP_PREF_VEC_CHAR,
    CLB_PROP_PREF_VEC_SHORT,
    CLB_PROP_PREF_VEC_INT,
    CLB_PROP_PREF_VEC_LONG,
    CLB_PROP_PREF_VEC_FLOAT,
    CLB_PROP_PREF_VEC_DOUBLE,
    CLB_PROP_PREF_VEC_HALF,
    CLB_PROP_NATIVE_VEC_CHAR,
    CLB_PROP_NATIVE_VEC_SHORT,
    CLB_PROP_NATIVE_VEC_INT,
    CLB_PROP_NATIVE_VEC_LONG,
    CLB_PROP_NATIVE_VEC_FLOAT,
    CLB_PROP_NATIVE_VEC_DOUBLE,
    CLB_PROP_NATIVE_VEC_HALF,
    CLB_PROP_EXTENSIONS,
    /* Vendor extras, read only when the device has the extension. */
    CLB_PROP_NV_CC_MAJOR,
    CLB_PROP_NV_CC_MINOR,
    CLB_PROP_NV_SM_COUNT,
    CLB_PROP_NV_WARP_SIZE,
    CLB_PROP_NV_REGISTERS_PER_BLOCK,
    CLB_PROP_NV_PCI_BUS_ID,
    CLB_PROP_AMD_BOARD_NAME,
    CLB_PROP_AMD_PCIE_ID,
    CLB_PROP_AMD_FREE_MEM_BYTES,
    CLB_PROP_AMD_WAVEFRONT_WIDTH,
    CLB_PROP_AMD_SIMD_PER_CU,
    CLB_PROP_COUNT,
};

/* What a property's value is. */
enum clb_value_type {
    CLB_VAL_STRING, /* prop.str */
    CLB_VAL_UINT,   /* prop.num[0] */
    CLB_VAL_BOOL,   /* prop.num[0] is 0 or 1 */
    CLB_VAL_UINTS,  /* prop.num[0 .. n_num) */
};

/* The unit of a numeric value; written into the JSON key as well. */
enum clb_unit {
    CLB_UNIT_NONE,
    CLB_UNIT_BYTES,
    CLB_UNIT_MHZ,
    CLB_UNIT_NS,
};

struct clb_prop {
    cl_int err;       /* CL_SUCCESS when read; else why it could not be */
    bool applicable;  /* false: the device lacks the extension it needs */
    char *str;        /* owned; CLB_VAL_STRING (and a display form for TYPE) */
    uint64_t num[3];
    unsigned n_num;
};

struct clb_prop_desc;
typedef cl_int (*clb_prop_reader)(cl_device_id dev, const struct clb_prop_desc *desc,
                                  const char *extensions, struct clb_prop *out);

struct clb_prop_desc {
    enum clb_prop_id id;
    const char *key;       /* JSON/CSV key, e.g. "global_mem_bytes" */
    const char *label;     /* human label, e.g. "Global memory" */
    cl_device_info param;  /* the clGetDeviceInfo parameter it reads */
    enum clb_value_type type;
    enum clb_unit unit;
    const char *extension; /* read only when the device lists this, or NULL */
    clb_prop_reader read;  /* NULL: the default reader for `type` and `param` */
    unsigned param_size;   /* default numeric reader: sizeof the C type (4, 8) */
};

/* The table, indexed by enum clb_prop_id. */
extern const struct clb_prop_desc clb_prop_descs[CLB_PROP_COUNT];

/* Writes the value (or "n/a (CL_INVALID_VALUE)") for people: "79.6 GiB", "yes". */
void clb_prop_format(const struct clb_prop_desc *desc, const struct clb_prop *p,
                     char *buf, size_t len);

struct clb_platform {
    cl_platform_id id;
    unsigned index;
    char *name, *vendor, *version; /* owned; "?" when unreadable */
    cl_int devices_err; /* clGetDeviceIDs's status (CL_DEVICE_NOT_FOUND: none) */
};

struct clb_device {
    cl_device_id id;
    unsigned platform_index, device_index; /* the "P:D" in selectors and output */
    const struct clb_platform *platform;   /* borrowed from the inventory */
    struct clb_prop props[CLB_PROP_COUNT];
};

/* Fills dev->props for dev->id; exposed for tests. */
void clb_device_read_props(struct clb_device *dev);
void clb_device_free_props(struct clb_device *dev);

/* Conveniences over props: 0 / "?" / false when the property is unavailable. */
uint64_t clb_device_u64(const struct clb_device *dev, enum clb_prop_id id);
/* Whether dev's type includes CL_DEVICE_TYPE_CPU (it runs on the host's cores). */
bool clb_device_is_cpu(const struct clb_device *dev);
const char *clb_device_str(const struct clb_device *dev, enum clb_prop_id id);
bool clb_device_bool(const struct clb_device *dev, enum clb_prop_id id);

/* "CPU", "GPU", "ACCELERATOR", "CUSTOM", "CPU|GPU"... into buf. */
void clb_device_type_name(cl_device_type type, char *buf, size_t len);

#endif
