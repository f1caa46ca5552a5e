/* Device selection: -d applied to the inventory, and a fleet rank's share of it. */
#include "selection.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/cl/icd.h"
#include "clbench/cl/inventory.h"
#include "clbench/cl/pocl.h"
#include "clbench/cl/select.h"
#include "emit.h"

static int open_local(const struct clb_common *common, struct clb_selection *sel)
{
    struct clb_error e;
    struct clb_selector *s = NULL;
    int rc = CLB_EXIT_USAGE;

    memset(sel, 0, sizeof(*sel));
    const char *icd = common->icd ? common->icd : getenv("CLBENCH_ICD");
    if (icd && *icd && clb_icd_add(icd, &e)) {
        clb_report_error(&e);
        goto out;
    }
    char note[600];
    /* When it fails, the device check below reports the missing device and the fix. */
    if (clb_pocl_cache_prepare(note, sizeof(note)) > 0)
        fprintf(stderr, "clbench: %s\n", note);
    /* A malformed selector is a usage error even on a machine without OpenCL. */
    if (!(s = clb_selector_parse(common->device, &e))) {
        clb_error_prefix(&e, "option --device");
        clb_report_error(&e);
        goto out;
    }
    rc = CLB_EXIT_FAILURE;
    if (!(sel->inv = clb_inventory_create(&e))) {
        clb_report_error(&e);
        goto out;
    }
    /* A platform without devices is a broken driver setup, not a bad selector. */
    struct clb_error broken;
    const bool some_broken = clb_inventory_empty_platforms(sel->inv, &broken);
    if (sel->inv->n_devices == 0) {
        fprintf(stderr, "clbench: no usable OpenCL device: %s\n", broken.msg);
        goto out;
    }
    if (clb_inventory_select(sel->inv, s, common->device, &sel->devices, &sel->n_devices,
                             &e) != 0) {
        /* What was asked for may be on the platform that lists nothing. */
        if (some_broken) {
            fprintf(stderr, "clbench: %s; and %s\n", e.msg, broken.msg);
        } else {
            clb_report_error(&e);
            rc = CLB_EXIT_USAGE;
        }
        goto out;
    }
    if (some_broken)
        fprintf(stderr, "clbench: note: %s\n", broken.msg);
    rc = CLB_EXIT_OK;
out:
    clb_selector_destroy(s);
    if (rc != CLB_EXIT_OK)
        clb_selection_close(sel);
    return rc;
}

int clb_selection_open(const struct clb_common *common, struct clb_selection *sel)
{
    const int rc = open_local(common, sel);

    sel->n_slots = sel->n_devices;
    return rc;
}

void clb_selection_close(struct clb_selection *sel)
{
    free(sel->devices);
    clb_inventory_destroy(sel->inv);
    memset(sel, 0, sizeof(*sel));
}
