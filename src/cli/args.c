/* Option parsers for compare and fit: text to the types their rooms define. */
#include "clbench/cli/args.h"
#include "clbench/fit/models.h"
#include "clbench/util/parse.h"

#include <stdio.h>
#include <string.h>

int clb_opt_pairs(const char *arg, void *field, struct clb_error *e)
{
    struct clb_pair_list *l = field;

    l->n = 0;
    for (const char *s = arg;;) {
        size_t len = strcspn(s, ","), eq;
        if (l->n == CLB_COMPARE_MAX_PAIRS) {
            clb_error_set(e, "more than %d pairs", CLB_COMPARE_MAX_PAIRS);
            return -1;
        }
        struct clb_device_pair *p = &l->v[l->n];
        eq = strcspn(s, "=");
        if (eq >= len || eq == 0 || eq + 1 == len || eq >= sizeof(p->first) ||
            len - eq - 1 >= sizeof(p->other)) {
            clb_error_set(e, "expected FIRST=OTHER device name parts, got '%.*s'", (int)len, s);
            return -1;
        }
        memcpy(p->first, s, eq);
        p->first[eq] = '\0';
        memcpy(p->other, s + eq + 1, len - eq - 1);
        p->other[len - eq - 1] = '\0';
        l->n++;
        if (!s[len])
            return 0;
        s += len + 1;
    }
}

int clb_opt_percent(const char *arg, void *field, struct clb_error *e)
{
    char buf[64];
    size_t n = strlen(arg);

    if (n == 0 || n >= sizeof(buf)) {
        clb_error_set(e, "expected a percentage like 5%%");
        return -1;
    }
    memcpy(buf, arg, n + 1);
    if (buf[n - 1] == '%')
        buf[n - 1] = '\0';
    if (clb_parse_double(buf, 0.0, 100.0, field, e))
        return -1;
    *(double *)field /= 100.0;
    return 0;
}

int clb_opt_straggler(const char *arg, void *field, struct clb_error *e)
{
    if (clb_opt_percent(arg, field, e))
        return -1;
    /* 0 % flags every rank off the median by any noise; 100 % below it is never reached. */
    if (*(double *)field <= 0.0 || *(double *)field >= 1.0) {
        clb_error_set(e, "'%s' flags every rank or none: expected more than 0%% and less than "
                         "100%%, e.g. 10%%", arg);
        return -1;
    }
    return 0;
}

int clb_opt_dtype(const char *arg, void *field, struct clb_error *e)
{
    if (clb_dtype_parse(arg, field))
        return 0;
    clb_error_set(e, "unknown dtype '%s', expected fp32, fp16, bf16, int8 or int4", arg);
    return -1;
}

int clb_opt_price(const char *arg, void *field, struct clb_error *e)
{
    return clb_prices_add(field, arg, e);
}

void clb_dtype_words(FILE *out)
{
    for (int d = 0; d < CLB_DT_COUNT; d++)
        fprintf(out, "%s ", clb_dtype_name((enum clb_dtype)d));
}

void clb_model_words(FILE *out)
{
    for (size_t i = 0; i < clb_n_models; i++)
        fprintf(out, "%s ", clb_models[i].name);
}

int clb_opt_byte_list(const char *arg, void *field, struct clb_error *e)
{
    struct clb_byte_list *l = field;

    l->n = 0;
    for (const char *s = arg;;) {
        char item[32];
        size_t len = strcspn(s, ",");
        if (len == 0 || len >= sizeof(item)) {
            clb_error_set(e, "expected sizes like 4K,1M,256M");
            return -1;
        }
        if (l->n == CLB_BYTE_LIST_MAX) {
            clb_error_set(e, "more than %d sizes", CLB_BYTE_LIST_MAX);
            return -1;
        }
        memcpy(item, s, len);
        item[len] = '\0';
        if (clb_parse_bytes(item, &l->v[l->n++], e))
            return -1;
        if (!s[len])
            return 0;
        s += len + 1;
    }
}
