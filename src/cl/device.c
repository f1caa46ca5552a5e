#include "clbench/cl/device.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/util/units.h"

/* cl_nv_device_attribute_query values some headers lack. */
#ifndef CL_DEVICE_PCI_BUS_ID_NV
#define CL_DEVICE_PCI_BUS_ID_NV 0x4008
#endif
#ifndef CL_DEVICE_PCI_SLOT_ID_NV
#define CL_DEVICE_PCI_SLOT_ID_NV 0x4009
#endif
#ifndef CL_DEVICE_PCI_DOMAIN_ID_NV
#define CL_DEVICE_PCI_DOMAIN_ID_NV 0x400A
#endif

static char *read_string(cl_device_id dev, cl_device_info param, cl_int *err)
{
    size_t len = 0;

    *err = clGetDeviceInfo(dev, param, 0, NULL, &len);
    if (*err != CL_SUCCESS)
        return NULL;
    char *s = calloc(len + 1, 1);
    if (!s) {
        *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    *err = clGetDeviceInfo(dev, param, len, s, NULL);
    if (*err != CL_SUCCESS) {
        free(s);
        return NULL;
    }
    /* Some drivers pad names with spaces. */
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

static cl_int read_number(cl_device_id dev, cl_device_info param, unsigned size, uint64_t *out)
{
    union {
        cl_uint u32;
        cl_ulong u64;
    } v;
    cl_int err = clGetDeviceInfo(dev, param, size, &v, NULL);

    if (err == CL_SUCCESS)
        *out = size == sizeof(cl_uint) ? v.u32 : v.u64;
    return err;
}

static cl_int read_default(cl_device_id dev, const struct clb_prop_desc *d,
                           const char *ext, struct clb_prop *p)
{
    (void)ext;
    if (d->type == CLB_VAL_STRING) {
        cl_int err;
        p->str = read_string(dev, d->param, &err);
        return err;
    }
    p->n_num = 1;
    return read_number(dev, d->param, d->param_size, &p->num[0]);
}

static bool has_extension(const char *list, const char *name)
{
    size_t n = strlen(name);

    for (const char *s = list; s && (s = strstr(s, name)); s += n)
        if ((s == list || s[-1] == ' ') && (s[n] == ' ' || s[n] == '\0'))
            return true;
    return false;
}

static cl_int read_type(cl_device_id dev, const struct clb_prop_desc *d,
                        const char *ext, struct clb_prop *p)
{
    cl_device_type t;
    char buf[64];
    cl_int err = clGetDeviceInfo(dev, d->param, sizeof(t), &t, NULL);

    (void)ext;
    if (err != CL_SUCCESS)
        return err;
    p->num[0] = t;
    p->n_num = 1;
    clb_device_type_name(t, buf, sizeof(buf));
    p->str = strdup(buf);
    return p->str ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}

/* fp64 is optional in OpenCL 1.2: a non-zero CL_DEVICE_DOUBLE_FP_CONFIG or cl_khr_fp64. */
static cl_int read_fp64(cl_device_id dev, const struct clb_prop_desc *d,
                        const char *ext, struct clb_prop *p)
{
    cl_device_fp_config cfg = 0;
    cl_int err = clGetDeviceInfo(dev, d->param, sizeof(cfg), &cfg, NULL);

    p->n_num = 1;
    p->num[0] = (err == CL_SUCCESS && cfg != 0) || has_extension(ext, "cl_khr_fp64");
    return CL_SUCCESS;
}

/* CL_DEVICE_HALF_FP_CONFIG is only defined with cl_khr_fp16: the extension decides. */
static cl_int read_fp16(cl_device_id dev, const struct clb_prop_desc *d,
                        const char *ext, struct clb_prop *p)
{
    (void)dev;
    (void)d;
    p->n_num = 1;
    p->num[0] = has_extension(ext, "cl_khr_fp16");
    return CL_SUCCESS;
}

static cl_int read_work_item_sizes(cl_device_id dev, const struct clb_prop_desc *d,
                                   const char *ext, struct clb_prop *p)
{
    size_t sizes[3] = { 0 };
    size_t len = 0;
    cl_int err = clGetDeviceInfo(dev, d->param, sizeof(sizes), sizes, &len);

    (void)ext;
    if (err != CL_SUCCESS)
        return err;
    p->n_num = (unsigned)(len / sizeof(size_t));
    if (p->n_num > 3)
        p->n_num = 3;
    for (unsigned i = 0; i < p->n_num; i++)
        p->num[i] = sizes[i];
    return CL_SUCCESS;
}

static cl_int read_local_mem_type(cl_device_id dev, const struct clb_prop_desc *d,
                                  const char *ext, struct clb_prop *p)
{
    cl_device_local_mem_type t;
    cl_int err = clGetDeviceInfo(dev, d->param, sizeof(t), &t, NULL);

    (void)ext;
    if (err != CL_SUCCESS)
        return err;
    p->str = strdup(t == CL_LOCAL ? "local" : t == CL_GLOBAL ? "global" : "none");
    return p->str ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}

static cl_int read_nv_sm_count(cl_device_id dev, const struct clb_prop_desc *d,
                               const char *ext, struct clb_prop *p)
{
    /* NVIDIA's OpenCL maps one compute unit to one SM. */
    (void)ext;
    p->n_num = 1;
    return read_number(dev, d->param, sizeof(cl_uint), &p->num[0]);
}

static cl_int read_nv_pci(cl_device_id dev, const struct clb_prop_desc *d,
                          const char *ext, struct clb_prop *p)
{
    uint64_t bus, slot, domain = 0;
    char buf[32];
    cl_int err;

    (void)d;
    (void)ext;
    if ((err = read_number(dev, CL_DEVICE_PCI_BUS_ID_NV, sizeof(cl_uint), &bus)) ||
        (err = read_number(dev, CL_DEVICE_PCI_SLOT_ID_NV, sizeof(cl_uint), &slot)))
        return err;
    read_number(dev, CL_DEVICE_PCI_DOMAIN_ID_NV, sizeof(cl_uint), &domain);
    /* The slot id packs device << 3 | function. */
    snprintf(buf, sizeof(buf), "%04" PRIx64 ":%02" PRIx64 ":%02" PRIx64 ".%" PRIx64,
             domain, bus, slot >> 3, slot & 7);
    p->str = strdup(buf);
    return p->str ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}

static cl_int read_amd_topology(cl_device_id dev, const struct clb_prop_desc *d,
                                const char *ext, struct clb_prop *p)
{
    cl_device_topology_amd t;
    char buf[32];
    cl_int err = clGetDeviceInfo(dev, d->param, sizeof(t), &t, NULL);

    (void)ext;
    if (err != CL_SUCCESS)
        return err;
    if (t.raw.type != CL_DEVICE_TOPOLOGY_TYPE_PCIE_AMD)
        return CL_INVALID_VALUE;
    snprintf(buf, sizeof(buf), "%02x:%02x.%x", (unsigned)(unsigned char)t.pcie.bus,
             (unsigned)(unsigned char)t.pcie.device, (unsigned)(unsigned char)t.pcie.function);
    p->str = strdup(buf);
    return p->str ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}

static cl_int read_amd_free_mem(cl_device_id dev, const struct clb_prop_desc *d,
                                const char *ext, struct clb_prop *p)
{
    size_t kib[2] = { 0, 0 };
    cl_int err = clGetDeviceInfo(dev, d->param, sizeof(kib), kib, NULL);

    (void)ext;
    if (err != CL_SUCCESS)
        return err;
    /* The driver reports KiB. */
    p->n_num = 1;
    p->num[0] = (uint64_t)kib[0] * 1024u;
    return CL_SUCCESS;
}

#define U32 sizeof(cl_uint)
#define U64 sizeof(cl_ulong)
#define SZ sizeof(size_t)
#define NV "cl_nv_device_attribute_query"
#define AMD "cl_amd_device_attribute_query"
#define P(id_, key_, label_, param_, type_, unit_, size_)                                   \
    [id_] = { .id = id_, .key = key_, .label = label_, .param = param_, .type = type_,    \
              .unit = unit_, .param_size = size_ }

const struct clb_prop_desc clb_prop_descs[CLB_PROP_COUNT] = {
    P(CLB_PROP_NAME, "name", "Name", CL_DEVICE_NAME, CLB_VAL_STRING, CLB_UNIT_NONE, 0),
    [CLB_PROP_TYPE] = { .id = CLB_PROP_TYPE, .key = "type", .label = "Type",
                        .param = CL_DEVICE_TYPE, .type = CLB_VAL_STRING, .read = read_type },
    P(CLB_PROP_VENDOR, "vendor", "Vendor", CL_DEVICE_VENDOR, CLB_VAL_STRING, CLB_UNIT_NONE, 0),
    P(CLB_PROP_DRIVER_VERSION, "driver_version", "Driver version", CL_DRIVER_VERSION,
      CLB_VAL_STRING, CLB_UNIT_NONE, 0),
    P(CLB_PROP_VERSION, "opencl_version", "OpenCL version", CL_DEVICE_VERSION, CLB_VAL_STRING,
      CLB_UNIT_NONE, 0),
    P(CLB_PROP_COMPUTE_UNITS, "compute_units", "Compute units", CL_DEVICE_MAX_COMPUTE_UNITS,
      CLB_VAL_UINT, CLB_UNIT_NONE, U32),
    P(CLB_PROP_MAX_CLOCK_MHZ, "max_clock_mhz", "Max clock", CL_DEVICE_MAX_CLOCK_FREQUENCY,
      CLB_VAL_UINT, CLB_UNIT_MHZ, U32),
    P(CLB_PROP_GLOBAL_MEM_BYTES, "global_mem_bytes", "Global memory", CL_DEVICE_GLOBAL_MEM_SIZE,
      CLB_VAL_UINT, CLB_UNIT_BYTES, U64),
    P(CLB_PROP_MAX_ALLOC_BYTES, "max_alloc_bytes", "Largest allocation",
      CL_DEVICE_MAX_MEM_ALLOC_SIZE, CLB_VAL_UINT, CLB_UNIT_BYTES, U64),
    P(CLB_PROP_LOCAL_MEM_BYTES, "local_mem_bytes", "Local memory", CL_DEVICE_LOCAL_MEM_SIZE,
      CLB_VAL_UINT, CLB_UNIT_BYTES, U64),
    [CLB_PROP_FP64] = { .id = CLB_PROP_FP64, .key = "fp64", .label = "fp64 support",
                        .param = CL_DEVICE_DOUBLE_FP_CONFIG, .type = CLB_VAL_BOOL,
                        .read = read_fp64 },
    [CLB_PROP_FP16] = { .id = CLB_PROP_FP16, .key = "fp16", .label = "fp16 support",
                        .type = CLB_VAL_BOOL, .read = read_fp16 },
    P(CLB_PROP_C_VERSION, "opencl_c_version", "OpenCL C version", CL_DEVICE_OPENCL_C_VERSION,
      CLB_VAL_STRING, CLB_UNIT_NONE, 0),
    P(CLB_PROP_AVAILABLE, "available", "Available", CL_DEVICE_AVAILABLE, CLB_VAL_BOOL,
      CLB_UNIT_NONE, U32),
    P(CLB_PROP_COMPILER_AVAILABLE, "compiler_available", "Compiler available",
      CL_DEVICE_COMPILER_AVAILABLE, CLB_VAL_BOOL, CLB_UNIT_NONE, U32),
    P(CLB_PROP_MAX_WORK_GROUP_SIZE, "max_work_group_size", "Max work-group size",
      CL_DEVICE_MAX_WORK_GROUP_SIZE, CLB_VAL_UINT, CLB_UNIT_NONE, SZ),
    [CLB_PROP_MAX_WORK_ITEM_SIZES] = { .id = CLB_PROP_MAX_WORK_ITEM_SIZES,
                                       .key = "max_work_item_sizes",
                                       .label = "Max work-item sizes",
                                       .param = CL_DEVICE_MAX_WORK_ITEM_SIZES,
                                       .type = CLB_VAL_UINTS, .read = read_work_item_sizes },
    P(CLB_PROP_ADDRESS_BITS, "address_bits", "Address bits", CL_DEVICE_ADDRESS_BITS,
      CLB_VAL_UINT, CLB_UNIT_NONE, U32),
    [CLB_PROP_LOCAL_MEM_TYPE] = { .id = CLB_PROP_LOCAL_MEM_TYPE, .key = "local_mem_type",
                                  .label = "Local memory type",
                                  .param = CL_DEVICE_LOCAL_MEM_TYPE, .type = CLB_VAL_STRING,
                                  .read = read_local_mem_type },
    P(CLB_PROP_GLOBAL_CACHE_BYTES, "global_cache_bytes", "Global memory cache",
      CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, CLB_VAL_UINT, CLB_UNIT_BYTES, U64),
    P(CLB_PROP_GLOBAL_CACHELINE_BYTES, "global_cacheline_bytes", "Cache line",
      CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, CLB_VAL_UINT, CLB_UNIT_BYTES, U32),
    P(CLB_PROP_CONSTANT_BUFFER_BYTES, "constant_buffer_bytes", "Constant buffer",
      CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, CLB_VAL_UINT, CLB_UNIT_BYTES, U64),
    P(CLB_PROP_HOST_UNIFIED_MEMORY, "host_unified_memory", "Unified memory with host",
      CL_DEVICE_HOST_UNIFIED_MEMORY, CLB_VAL_BOOL, CLB_UNIT_NONE, U32),
    P(CLB_PROP_ECC, "ecc", "Error correction", CL_DEVICE_ERROR_CORRECTION_SUPPORT, CLB_VAL_BOOL,
      CLB_UNIT_NONE, U32),
    P(CLB_PROP_TIMER_RESOLUTION_NS, "timer_resolution_ns", "Profiling timer resolution",
      CL_DEVICE_PROFILING_TIMER_RESOLUTION, CLB_VAL_UINT, CLB_UNIT_NS, SZ),
    P(CLB_PROP_PREF_VEC_CHAR, "preferred_vector_width_char", "Preferred vector width char",
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, CLB_VAL_UINT, CLB_UNIT_NONE, U32),
    P(CLB_PROP_PREF_VEC_SHORT, "preferred_vector_width_short", "Preferred vector width short",
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, CLB_VAL_UINT, CLB_UNIT_NONE, U32),
    P(CLB_PROP_PREF_VEC_INT, "preferred_vector_width_int", "Preferred vector width int",
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, CLB_VAL_UINT, CLB_UNIT_NONE, U32),
    P(CLB_PROP_PREF_VEC_LONG, "preferred_vector_width_long", "Preferred vector width long",
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, CLB_VAL_UINT, CLB_UNIT_NONE, U32),
    P(CLB_PROP_PREF_VEC_FLOAT, "preferred_vector_width_float", "Preferred vector width float",
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, CLB_VAL_UINT, CLB_UNIT_NONE, U32),
    P(CLB_PROP_PREF_VEC_DOUBLE, "preferred_vector_width_double", "Preferred vector width double",
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, CLB_VAL_UINT, CLB_UNIT_NONE, U32),
    P(CLB_PROP_PREF_VEC_HALF, "preferred_vector_width_half", "Preferred vector width half",
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, CLB_VAL_UINT, CLB_UNIT_NONE, U32),
    P(CLB_PROP_NATIVE_VEC_CHAR, "native_vector_width_char", "Native vector width char",
      CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, CLB_VAL_UINT, CLB_UNIT_NONE, U32),
    P(CLB_PROP_NATIVE_VEC_SHORT, "native_vector_width_short", "Native vector width short",
      CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, CLB_VAL_UINT, CLB_UNIT_NONE, U32),
    P(CLB_PROP_NATIVE_VEC_INT, "native_vector_width_int", "Native vector width int",
      CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, CLB_VAL_UINT, CLB_UNIT_NONE, U32),
    P(CLB_PROP_NATIVE_VEC_LONG, "native_vector_width_long", "Native vector width long",
      CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, CLB_VAL_UINT, CLB_UNIT_NONE, U32),
    P(CLB_PROP_NATIVE_VEC_FLOAT, "native_vector_width_float", "Native vector width float",
      CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, CLB_VAL_UINT, CLB_UNIT_NONE, U32),
    P(CLB_PROP_NATIVE_VEC_DOUBLE, "native_vector_width_double", "Native vector width double",
      CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, CLB_VAL_UINT, CLB_UNIT_NONE, U32),
    P(CLB_PROP_NATIVE_VEC_HALF, "native_vector_width_half", "Native vector width half",
      CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, CLB_VAL_UINT, CLB_UNIT_NONE, U32),
    P(CLB_PROP_EXTENSIONS, "extensions", "Extensions", CL_DEVICE_EXTENSIONS, CLB_VAL_STRING,
      CLB_UNIT_NONE, 0),
    [CLB_PROP_NV_CC_MAJOR] = { .id = CLB_PROP_NV_CC_MAJOR, .key = "nv_compute_capability_major",
                               .label = "NVIDIA compute capability major",
                               .param = CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV,
                               .type = CLB_VAL_UINT, .param_size = U32, .extension = NV },
    [CLB_PROP_NV_CC_MINOR] = { .id = CLB_PROP_NV_CC_MINOR, .key = "nv_compute_capability_minor",
                               .label = "NVIDIA compute capability minor",
                               .param = CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV,
                               .type = CLB_VAL_UINT, .param_size = U32, .extension = NV },
    [CLB_PROP_NV_SM_COUNT] = { .id = CLB_PROP_NV_SM_COUNT, .key = "nv_sm_count",
                               .label = "NVIDIA SM count", .param = CL_DEVICE_MAX_COMPUTE_UNITS,
                               .type = CLB_VAL_UINT, .extension = NV, .read = read_nv_sm_count },
    [CLB_PROP_NV_WARP_SIZE] = { .id = CLB_PROP_NV_WARP_SIZE, .key = "nv_warp_size",
                                .label = "NVIDIA warp size", .param = CL_DEVICE_WARP_SIZE_NV,
                                .type = CLB_VAL_UINT, .param_size = U32, .extension = NV },
    [CLB_PROP_NV_REGISTERS_PER_BLOCK] = { .id = CLB_PROP_NV_REGISTERS_PER_BLOCK,
                                          .key = "nv_registers_per_block",
                                          .label = "NVIDIA registers per block",
                                          .param = CL_DEVICE_REGISTERS_PER_BLOCK_NV,
                                          .type = CLB_VAL_UINT, .param_size = U32,
                                          .extension = NV },
    [CLB_PROP_NV_PCI_BUS_ID] = { .id = CLB_PROP_NV_PCI_BUS_ID, .key = "nv_pci_bus_id",
                                 .label = "NVIDIA PCI bus id", .param = CL_DEVICE_PCI_BUS_ID_NV,
                                 .type = CLB_VAL_STRING, .extension = NV, .read = read_nv_pci },
    [CLB_PROP_AMD_BOARD_NAME] = { .id = CLB_PROP_AMD_BOARD_NAME, .key = "amd_board_name",
                                  .label = "AMD board name", .param = CL_DEVICE_BOARD_NAME_AMD,
                                  .type = CLB_VAL_STRING, .extension = AMD },
    [CLB_PROP_AMD_PCIE_ID] = { .id = CLB_PROP_AMD_PCIE_ID, .key = "amd_pcie_id",
                               .label = "AMD PCIe topology", .param = CL_DEVICE_TOPOLOGY_AMD,
                               .type = CLB_VAL_STRING, .extension = AMD,
                               .read = read_amd_topology },
    [CLB_PROP_AMD_FREE_MEM_BYTES] = { .id = CLB_PROP_AMD_FREE_MEM_BYTES,
                                      .key = "amd_free_mem_bytes", .label = "AMD free memory",
                                      .param = CL_DEVICE_GLOBAL_FREE_MEMORY_AMD,
                                      .type = CLB_VAL_UINT, .unit = CLB_UNIT_BYTES,
                                      .extension = AMD, .read = read_amd_free_mem },
    [CLB_PROP_AMD_WAVEFRONT_WIDTH] = { .id = CLB_PROP_AMD_WAVEFRONT_WIDTH,
                                       .key = "amd_wavefront_width",
                                       .label = "AMD wavefront width",
                                       .param = CL_DEVICE_WAVEFRONT_WIDTH_AMD,
                                       .type = CLB_VAL_UINT, .param_size = U32,
                                       .extension = AMD },
    [CLB_PROP_AMD_SIMD_PER_CU] = { .id = CLB_PROP_AMD_SIMD_PER_CU, .key = "amd_simd_per_cu",
                                   .label = "AMD SIMDs per compute unit",
                                   .param = CL_DEVICE_SIMD_PER_COMPUTE_UNIT_AMD,
                                   .type = CLB_VAL_UINT, .param_size = U32, .extension = AMD },
};

void clb_device_read_props(struct clb_device *dev)
{
    cl_int err;
    char *ext = read_string(dev->id, CL_DEVICE_EXTENSIONS, &err);

    for (int i = 0; i < CLB_PROP_COUNT; i++) {
        const struct clb_prop_desc *d = &clb_prop_descs[i];
        struct clb_prop *p = &dev->props[i];

        memset(p, 0, sizeof(*p));
        p->applicable = !d->extension || has_extension(ext, d->extension);
        if (!p->applicable)
            continue;
        p->err = (d->read ? d->read : read_default)(dev->id, d, ext, p);
    }
    free(ext);
}

void clb_device_free_props(struct clb_device *dev)
{
    for (int i = 0; i < CLB_PROP_COUNT; i++) {
        free(dev->props[i].str);
        dev->props[i].str = NULL;
    }
}

static bool prop_ok(const struct clb_device *dev, enum clb_prop_id id)
{
    return dev->props[id].applicable && dev->props[id].err == CL_SUCCESS;
}

uint64_t clb_device_u64(const struct clb_device *dev, enum clb_prop_id id)
{
    return prop_ok(dev, id) && dev->props[id].n_num ? dev->props[id].num[0] : 0;
}

const char *clb_device_str(const struct clb_device *dev, enum clb_prop_id id)
{
    return prop_ok(dev, id) && dev->props[id].str ? dev->props[id].str : "?";
}

bool clb_device_bool(const struct clb_device *dev, enum clb_prop_id id)
{
    return clb_device_u64(dev, id) != 0;
}

bool clb_device_is_cpu(const struct clb_device *dev)
{
    return (clb_device_u64(dev, CLB_PROP_TYPE) & CL_DEVICE_TYPE_CPU) != 0;
}

void clb_device_type_name(cl_device_type type, char *buf, size_t len)
{
    static const struct {
        cl_device_type bit;
        const char *name;
    } names[] = {
        { CL_DEVICE_TYPE_CPU, "CPU" },
        { CL_DEVICE_TYPE_GPU, "GPU" },
        { CL_DEVICE_TYPE_ACCELERATOR, "ACCELERATOR" },
        { CL_DEVICE_TYPE_CUSTOM, "CUSTOM" },
    };
    size_t used = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if ((type & names[i].bit) && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "|" : "",
                                     names[i].name);
    if (!buf[0])
        snprintf(buf, len, "UNKNOWN");
}

void clb_prop_format(const struct clb_prop_desc *d, const struct clb_prop *p, char *buf,
                     size_t len)
{
    if (!p->applicable) {
        snprintf(buf, len, "n/a (no %s)", d->extension);
        return;
    }
    if (p->err != CL_SUCCESS) {
        snprintf(buf, len, "unavailable (%s)", clb_cl_errname(p->err));
        return;
    }
    switch (d->type) {
    case CLB_VAL_STRING:
        snprintf(buf, len, "%s", p->str ? p->str : "");
        return;
    case CLB_VAL_BOOL:
        snprintf(buf, len, "%s", p->num[0] ? "yes" : "no");
        return;
    case CLB_VAL_UINTS: {
        size_t used = 0;
        buf[0] = '\0';
        for (unsigned i = 0; i < p->n_num && used < len; i++)
            used += (size_t)snprintf(buf + used, len - used, "%s%" PRIu64, i ? "x" : "",
                                     p->num[i]);
        return;
    }
    case CLB_VAL_UINT:
        break;
    }
    switch (d->unit) {
    case CLB_UNIT_BYTES:
        clb_format_bytes(p->num[0], buf, len);
        return;
    case CLB_UNIT_MHZ:
        snprintf(buf, len, "%" PRIu64 " MHz", p->num[0]);
        return;
    case CLB_UNIT_NS:
        snprintf(buf, len, "%" PRIu64 " ns", p->num[0]);
        return;
    case CLB_UNIT_NONE:
        snprintf(buf, len, "%" PRIu64, p->num[0]);
        return;
    }
}
