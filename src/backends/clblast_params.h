#ifndef CLBENCH_BACKENDS_CLBLAST_PARAMS_H
#define CLBENCH_BACKENDS_CLBLAST_PARAMS_H

/*
 * The parameters CLBlast holds in force for one of its kernels, read through
 * its C++-only clblast::RetrieveParameters (clblast_params.cpp): its
 * database's values for the device, or the last CLBlastOverrideParameters.
 */
#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "clbench/core/types.h"

/*
 * Fills *out with kernel's ("Xgemm", "GemmRoutine", ...) parameters on dev
 * in `precision` (a CLBlastPrecision value), sorted by name. Returns 0, or
 * CLBlast's status code (negative) when it cannot tell.
 */
int clb_clblast_retrieve(cl_device_id dev, const char *kernel, int precision,
                         struct clb_tune_params *out);

/*
 * How CLBlast's built-in database covers a device. CLBlast looks a device up
 * by vendor and type, then architecture (NVIDIA: "SM" + compute capability;
 * AMD: the device name up to its first ':', "gfx942"; others: none), then device name (AMD: the
 * board name; cut to 50 characters, compared exactly), and falls back to the
 * architecture's, then the vendor's default. CLBlast has no query for which
 * it took, so clbench looks the names up in the loaded library itself, where
 * its database keeps each device name as 50 characters padded with spaces
 * and a NUL, and each architecture as a NUL-delimited string.
 */
enum clb_clblast_entry {
    CLB_CLBLAST_UNKNOWN,      /* the library could not be read */
    CLB_CLBLAST_DEVICE,       /* the device's name is in the database */
    CLB_CLBLAST_ARCHITECTURE, /* not the device, but its architecture */
    CLB_CLBLAST_NONE,         /* neither: CLBlast runs its vendor default */
};

/*
 * The lookup itself, on `len` bytes of the library's image: name (NULL or
 * "": none) and architecture (NULL or "": none) as CLBlast names the device.
 */
enum clb_clblast_entry clb_clblast_match(const char *image, size_t len, const char *name,
                                         const char *architecture);

/* CLBlast's names for a device, as its GetDeviceName and GetDeviceArchitecture make them. */
void clb_clblast_names(const char *vendor_ext, const char *device_name, const char *board_name,
                       unsigned nv_cc_major, unsigned nv_cc_minor, char *name, size_t name_len,
                       char *architecture, size_t arch_len);

/*
 * The lookup in the loaded CLBlast (the library file CLBlastSgemm came from),
 * read once per process. *why (may be NULL) gets a line for the row: "" for
 * DEVICE, else "vendor default: no CLBlast entry for this device" or
 * "architecture default (SM8.0): no CLBlast entry for this device".
 */
enum clb_clblast_entry clb_clblast_lookup(const char *name, const char *architecture,
                                          char *why, size_t why_len);

#ifdef __cplusplus
}
#endif

#endif
