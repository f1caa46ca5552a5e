#include "prices.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/util/parse.h"
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

int clb_cmd_prices_hold(const char *cmd, const struct clb_prices *l,
                        const struct clb_priced_device *d, size_t n, const char *where)
{
    char lines[16][CLB_PRICES_LINE];
    struct clb_error e;

    if (clb_prices_check(l, d, n, where, &e)) {
        fprintf(stderr, "clbench %s: %s\n", cmd, e.msg);
        return CLB_EXIT_USAGE;
    }
    const size_t n_lines = clb_prices_matched(l, d, n, lines, 16);
    for (size_t i = 0; i < n_lines; i++)
        fprintf(stderr, "clbench %s: %s\n", cmd, lines[i]);
    return CLB_EXIT_OK;
}

/* Whether the device of id in f's "devices" is an OpenCL CPU device. */
static bool file_device_is_cpu(const struct clb_result_file *f, const char *id)
{
    for (size_t i = 0; i < f->n_devices; i++)
        if (!strcmp(f->device_list[i].id, id))
            return clb_contains_nocase(f->device_list[i].type, "CPU");
    return false;
}

int clb_cmd_prices_hold_files(const char *cmd, const struct clb_prices *l,
                              struct clb_result_file *const *files, size_t n_files)
{
    size_t cap = 1, n = 0, used = 0;
    char where[1024] = "";

    for (size_t f = 0; f < n_files; f++)
        cap += files[f]->n_rows;
    struct clb_priced_device *d = calloc(cap, sizeof(*d));
    if (!d) {
        fprintf(stderr, "clbench: out of host memory\n");
        return CLB_EXIT_FAILURE;
    }
    for (size_t f = 0; f < n_files; f++) {
        if (used < sizeof(where))
            used += (size_t)snprintf(where + used, sizeof(where) - used, "%s%s", f ? ", " : "",
                                     files[f]->path);
        for (size_t i = 0; i < files[f]->n_rows; i++) {
            const struct clb_row *r = &files[f]->rows[i];
            size_t k = 0;
            while (k < n && (strcmp(d[k].name, r->device_name) || strcmp(d[k].id, r->device_id)))
                k++;
            if (k == n)
                d[n++] = (struct clb_priced_device){
                    r->device_name, r->device_id,
                    clb_price_device_cpu(r->device_id, r->device_name,
                                         file_device_is_cpu(files[f], r->device_id),
                                         r->host_cpu ? r->host_cpu : files[f]->host_info.cpu)
                };
        }
    }
    const int rc = clb_cmd_prices_hold(cmd, l, d, n, where);
    free(d);
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

int clb_cmd_file_costs(const struct clb_prices *l, const struct clb_result_file *f,
                       const struct clb_fit_speed *speeds, size_t n, struct clb_speed_cost **out)
{
    double *run_s = clb_cmd_file_run_s(f, speeds, n);

    *out = NULL;
    if (!run_s) {
        fprintf(stderr, "clbench: out of host memory\n");
        return CLB_EXIT_FAILURE;
    }
    const int rc = clb_cmd_speed_costs(l, speeds, n, run_s, out);
    free(run_s);
    return rc;
}
