#include <string.h>

#include "clbench/cli/cli.h"

int clb_opt_string(const char *arg, void *field, struct clb_error *e)
{
    if (!*arg) {
        clb_error_set(e, "empty value");
        return -1;
    }
    *(const char **)field = arg;
    return 0;
}

int clb_opt_format(const char *arg, void *field, struct clb_error *e)
{
    static const char *const names[] = { [CLB_FORMAT_TABLE] = "table",
                                         [CLB_FORMAT_JSON] = "json",
                                         [CLB_FORMAT_CSV] = "csv" };

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (strcmp(arg, names[i]) == 0) {
            *(enum clb_format *)field = (enum clb_format)i;
            return 0;
        }
    }
    clb_error_set(e, "unknown format '%s', expected table, json or csv", arg);
    return -1;
}

int clb_opt_json(const char *arg, void *field, struct clb_error *e)
{
    (void)arg;
    (void)e;
    *(enum clb_format *)field = CLB_FORMAT_JSON;
    return 0;
}

int clb_format_from_path(const char *path)
{
    const char *dot = strrchr(path, '.');

    if (dot && strcmp(dot, ".json") == 0)
        return CLB_FORMAT_JSON;
    if (dot && strcmp(dot, ".csv") == 0)
        return CLB_FORMAT_CSV;
    return -1;
}
