#include "prices.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"

bool clb_cmd_prices_given(const struct clb_prices *l, const char *file)
{
    return l->n > 0 || file;
}

int clb_cmd_prices_load(const char *cmd, struct clb_prices *l, const char *file)
{
    struct clb_error e;

    if (file && clb_prices_load(l, file, &e)) {
        fprintf(stderr, "clbench %s: option --prices: %s\n", cmd, e.msg);
        return CLB_EXIT_USAGE;
    }
    return CLB_EXIT_OK;
}

int clb_cmd_prices_hold(const char *cmd, const struct clb_prices *l, const char *const *names,
                        const char *const *ids, size_t n, const char *where)
{
    struct clb_error e;

    if (clb_prices_check(l, names, ids, n, where, &e)) {
        fprintf(stderr, "clbench %s: %s\n", cmd, e.msg);
        return CLB_EXIT_USAGE;
    }
    return CLB_EXIT_OK;
}

int clb_cmd_prices_hold_files(const char *cmd, const struct clb_prices *l,
                              struct clb_result_file *const *files, size_t n_files)
{
    size_t cap = 1, n = 0, used = 0;
    char where[1024] = "";

    for (size_t f = 0; f < n_files; f++)
        cap += files[f]->n_rows;
    const char **names = calloc(cap, sizeof(*names)), **ids = calloc(cap, sizeof(*ids));
    if (!names || !ids) {
        free(names);
        free(ids);
        fprintf(stderr, "clbench: out of host memory\n");
        return CLB_EXIT_FAILURE;
    }
    for (size_t f = 0; f < n_files; f++) {
        if (used < sizeof(where))
            used += (size_t)snprintf(where + used, sizeof(where) - used, "%s%s", f ? ", " : "",
                                     files[f]->path);
        for (size_t i = 0; i < files[f]->n_rows; i++) {
            const struct clb_result_row *r = &files[f]->rows[i];
            size_t k = 0;
            while (k < n && (strcmp(names[k], r->device) || strcmp(ids[k], r->device_id)))
                k++;
            if (k == n) {
                names[n] = r->device;
                ids[n++] = r->device_id;
            }
        }
    }
    const int rc = clb_cmd_prices_hold(cmd, l, names, ids, n, where);
    free(names);
    free(ids);
    return rc;
}

int clb_cmd_speed_costs(const struct clb_prices *l, const struct clb_fit_speed *speeds, size_t n,
                        const double *run_s, struct clb_speed_cost **out)
{
    struct clb_error e;

    if (!(*out = calloc(n + 1, sizeof(**out)))) {
        fprintf(stderr, "clbench: out of host memory\n");
        return CLB_EXIT_FAILURE;
    }
    for (size_t i = 0; i < n; i++) {
        const struct clb_price *p = NULL;
        /* Held already (clb_cmd_prices_hold): no conflict is left. */
        clb_price_find(l, speeds[i].measured.device, speeds[i].measured.device_id, &p, &e);
        clb_speed_cost(p, &speeds[i], run_s ? run_s[i] : 0, &(*out)[i]);
    }
    return CLB_EXIT_OK;
}

double *clb_cmd_file_run_s(const struct clb_result_file *f, const struct clb_fit_speed *speeds,
                           size_t n)
{
    double *s = calloc(n + 1, sizeof(*s));

    for (size_t i = 0; s && i < n; i++)
        s[i] = clb_file_device_timed_s(f, speeds[i].measured.device, speeds[i].measured.device_id,
                                       speeds[i].measured.rank);
    return s;
}
