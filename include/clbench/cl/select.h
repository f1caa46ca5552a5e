#ifndef CLBENCH_CL_SELECT_H
#define CLBENCH_CL_SELECT_H

/*
 * The device selector every command takes as -d/--device SEL: a comma list of
 * terms, each one of
 *   all | cpu | gpu | accelerator   by type ("all" is the default)
 *   P:D                             platform P, device D, as `clbench devices` numbers them
 *   TEXT                            a case-insensitive substring of the device name
 * A device is selected when any term matches it.
 */
#include <stdbool.h>
#include <stddef.h>

#include "clbench/cl/device.h"
#include "clbench/cl/inventory.h"

struct clb_selector;

/* NULL with e set on a malformed selector (an empty term, "1:x", a bare "3"). */
struct clb_selector *clb_selector_parse(const char *text, struct clb_error *e);
void clb_selector_destroy(struct clb_selector *sel);

bool clb_selector_match(const struct clb_selector *sel, unsigned platform, unsigned device,
                        cl_device_type type, const char *name);

/*
 * The devices of inv that sel selects, in P:D order, as a new array of
 * borrowed pointers (*out; free() it). When none matches, returns -1 with e
 * naming the selector and listing the devices that exist.
 */
int clb_inventory_select(const struct clb_inventory *inv, const struct clb_selector *sel,
                         const char *text, struct clb_device ***out, size_t *n_out,
                         struct clb_error *e);

#endif
