#ifndef CLBENCH_CL_INVENTORY_H
#define CLBENCH_CL_INVENTORY_H

/* Every OpenCL platform and device the loader offers, read once (src/cl/inventory.c). */
#include <stdbool.h>
#include <stddef.h>

#include "clbench/cl/device.h"
#include "clbench/util/error.h"

struct clb_inventory {
    struct clb_platform *platforms;
    size_t n_platforms;
    struct clb_device *devices; /* every device of every platform, in P:D order */
    size_t n_devices;
};

/*
 * Reads every platform and device. Fails (NULL, e set) only when there is no
 * platform at all, with a message that says how to install one. A platform
 * whose devices cannot be listed is kept with devices_err set.
 */
struct clb_inventory *clb_inventory_create(struct clb_error *e);
void clb_inventory_destroy(struct clb_inventory *inv);

/*
 * Whether some platform lists no device (a broken driver setup: pocl without
 * a writable kernel cache, a GPU driver without its device); if so, e gets
 * one line naming each such platform and why, with the fix where it is known.
 */
bool clb_inventory_empty_platforms(const struct clb_inventory *inv, struct clb_error *e);

#endif
