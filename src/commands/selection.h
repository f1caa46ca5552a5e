#ifndef CLBENCH_COMMANDS_SELECTION_H
#define CLBENCH_COMMANDS_SELECTION_H

/* What every command that touches a device does first: find the platforms and apply -d. */
#include <stddef.h>

#include "clbench/cl/device.h"
#include "clbench/cl/inventory.h"
#include "clbench/cli/cli.h"

struct clb_selection {
    struct clb_inventory *inv;
    struct clb_device **devices; /* borrowed from inv */
    size_t n_devices;
    /*
     * Device steps every rank of a fleet takes together: the most devices
     * any rank has (>= n_devices); n_devices in a single run.
     */
    size_t n_slots;
};

/*
 * Reads the inventory and selects common->device. On failure prints one line
 * to stderr and returns the exit code (1: no platform, 2: bad selector);
 * returns 0 with *sel filled on success (n_slots = n_devices). In a fleet
 * run the runner then keeps this rank's share (fleet.h: clb_fleet_selection).
 */
int clb_selection_open(const struct clb_common *common, struct clb_selection *sel);
void clb_selection_close(struct clb_selection *sel);

#endif
