#include "common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/select.h"

void clb_report_error(const struct clb_error *e)
{
    fprintf(stderr, "clbench: %s\n", e->msg);
}

int clb_selection_open(const struct clb_common *common, struct clb_selection *sel)
{
    struct clb_error e;
    struct clb_selector *s;

    memset(sel, 0, sizeof(*sel));
    /* A malformed selector is a usage error even on a machine without OpenCL. */
    if (!(s = clb_selector_parse(common->device, &e))) {
        clb_error_prefix(&e, "option --device");
        clb_report_error(&e);
        return CLB_EXIT_USAGE;
    }
    if (!(sel->inv = clb_inventory_create(&e))) {
        clb_selector_destroy(s);
        clb_report_error(&e);
        return CLB_EXIT_FAILURE;
    }
    int rc = clb_inventory_select(sel->inv, s, common->device, &sel->devices, &sel->n_devices,
                                  &e);
    clb_selector_destroy(s);
    if (rc != 0) {
        clb_report_error(&e);
        clb_selection_close(sel);
        return CLB_EXIT_USAGE;
    }
    return CLB_EXIT_OK;
}

void clb_selection_close(struct clb_selection *sel)
{
    free(sel->devices);
    clb_inventory_destroy(sel->inv);
    memset(sel, 0, sizeof(*sel));
}

int clb_finish_stdout(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "clbench: writing the output failed: %s\n", strerror(errno));
        return CLB_EXIT_FAILURE;
    }
    return CLB_EXIT_OK;
}
