#ifndef CLBENCH_OUTPUT_DEVICES_H
#define CLBENCH_OUTPUT_DEVICES_H

/*
 * The device list (`clbench devices`): table, JSON, CSV; device labels for every writer.
 * Writers only read.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "clbench/bench/check.h"
#include "clbench/cl/device.h"
#include "clbench/cl/inventory.h"
#include "clbench/cli/cli.h"
#include "clbench/datasheet/datasheet.h"
#include "clbench/util/record.h"

struct clb_devices_report {
    const struct clb_inventory *inv;
    struct clb_device *const *devices; /* the selected ones */
    size_t n_devices;
    const struct clb_check_result *checks; /* n_devices entries, or NULL without --check */
    bool verbose;
    const struct clb_run_record *record;   /* the ICDs (json, -v), borrowed */
    /* Per device, its row of the datasheet table (NULL: none); NULL: not looked up. */
    const struct clb_ds_row *const *datasheet;
    /* The host CPU's core design (a CPU device without a row shows it), or NULL. */
    const struct clb_ds_core *host_core;
};

/*
 * A device as people read it, "0:1 NAME", and as files name it, "0:1"; NULL
 * is the host CPU itself: "host CPU" and "host".
 */
void clb_device_label(const struct clb_device *dev, char *buf, size_t len);
void clb_device_id(const struct clb_device *dev, char *buf, size_t len);

/* Returns 0, or -1 when writing failed (e.g. out of memory). */
int clb_devices_write(FILE *out, enum clb_format fmt, const struct clb_devices_report *r);

/*
 * One device as a JSON object: "id" ("P:D"), "platform", every applicable
 * property under its key (raw numbers: bytes, MHz), null for one that could
 * not be read, with its error name under "unavailable". New reference.
 */
json_t *clb_device_json(const struct clb_device *dev);

#endif
