#ifndef CLBENCH_REPORT_H
#define CLBENCH_REPORT_H

/*
 * Output writers. They only read measurement structs and never measure.
 */
#include <jansson.h>
#include <stdio.h>

#include "clbench/check.h"
#include "clbench/cli.h"
#include "clbench/device.h"

struct clb_devices_report {
    const struct clb_inventory *inv;
    struct clb_device *const *devices; /* the selected ones */
    size_t n_devices;
    const struct clb_check_result *checks; /* n_devices entries, or NULL without --check */
    bool verbose;
};

/* Returns 0, or -1 when writing failed (e.g. out of memory). */
int clb_devices_write(FILE *out, enum clb_format fmt, const struct clb_devices_report *r);

/*
 * One device as a JSON object: "id" ("P:D"), "platform", every applicable
 * property under its key (raw numbers: bytes, MHz), null for one that could
 * not be read, with its error name under "unavailable". New reference.
 */
json_t *clb_device_json(const struct clb_device *dev);

#endif
