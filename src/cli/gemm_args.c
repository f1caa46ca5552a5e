#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "clbench/cli/gemm_args.h"
#include "clbench/util/parse.h"

/* Copies the comma-separated item at *s into buf; advances *s past it. */
static int next_item(const char **s, char *buf, size_t len, struct clb_error *e)
{
    size_t n = strcspn(*s, ",");

    if (n == 0) {
        clb_error_set(e, "empty item in list");
        return -1;
    }
    if (n >= len) {
        clb_error_set(e, "item '%.20s...' is too long", *s);
        return -1;
    }
    memcpy(buf, *s, n);
    buf[n] = '\0';
    *s += n + ((*s)[n] == ',');
    return 0;
}

static int parse_dim(const char *s, uint64_t *v, struct clb_error *e)
{
    return clb_parse_u64(s, 1, CLB_MAX_DIM, v, e);
}

static int add_shape(struct clb_shape_list *l, uint64_t m, uint64_t n, uint64_t k,
                     struct clb_error *e)
{
    if (l->n == CLB_MAX_SHAPES) {
        clb_error_set(e, "more than %d sizes", CLB_MAX_SHAPES);
        return -1;
    }
    l->v[l->n++] = (struct clb_gemm_shape){ m, n, k };
    return 0;
}

static int parse_range(char *item, struct clb_shape_list *l, struct clb_error *e)
{
    char *c1 = strchr(item, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    uint64_t lo, hi, step;
    bool geometric;

    if (!c2 || strchr(c2 + 1, ':')) {
        clb_error_set(e, "bad range '%s', expected FROM:TO:xFACTOR or FROM:TO:STEP", item);
        return -1;
    }
    *c1 = *c2 = '\0';
    geometric = c2[1] == 'x';
    if (parse_dim(item, &lo, e) || parse_dim(c1 + 1, &hi, e) ||
        clb_parse_u64(c2 + 1 + geometric, geometric ? 2 : 1, CLB_MAX_DIM, &step, e))
        return -1;
    if (lo > hi) {
        clb_error_set(e, "range %s:%s is empty (FROM > TO)", item, c1 + 1);
        return -1;
    }
    for (uint64_t v = lo; v <= hi; v = geometric ? v * step : v + step)
        if (add_shape(l, v, v, v, e))
            return -1;
    return 0;
}

int clb_opt_sizes(const char *arg, void *field, struct clb_error *e)
{
    struct clb_shape_list *l = field;
    char item[128];

    l->n = 0;
    if (!*arg) {
        clb_error_set(e, "empty value, expected sizes like 512,1024 or 256:4096:x2");
        return -1;
    }
    for (const char *s = arg; *s;) {
        uint64_t v;
        if (next_item(&s, item, sizeof(item), e))
            return -1;
        if (strchr(item, ':')) {
            if (parse_range(item, l, e))
                return -1;
        } else if (parse_dim(item, &v, e) || add_shape(l, v, v, v, e)) {
            return -1;
        }
    }
    if (arg[strlen(arg) - 1] == ',') {
        clb_error_set(e, "empty item in list");
        return -1;
    }
    return 0;
}

int clb_opt_mnk(const char *arg, void *field, struct clb_error *e)
{
    uint64_t d[3];
    char item[64];
    const char *s = arg;
    int i;

    for (i = 0; i < 3 && *s; i++) {
        if (next_item(&s, item, sizeof(item), e) || parse_dim(item, &d[i], e)) {
            clb_error_prefix(e, "M,N,K");
            return -1;
        }
    }
    if (i < 3 || *s || arg[strlen(arg) - 1] == ',') {
        clb_error_set(e, "expected M,N,K (three positive integers), got '%s'", arg);
        return -1;
    }
    return add_shape(field, d[0], d[1], d[2], e);
}

int clb_opt_precisions(const char *arg, void *field, struct clb_error *e)
{
    struct clb_precision_list *l = field;
    char item[32];

    l->n = 0;
    if (!*arg || arg[strlen(arg) - 1] == ',') {
        clb_error_set(e, "empty item in list, expected fp32, fp64, fp16 or all");
        return -1;
    }
    for (const char *s = arg; *s;) {
        if (next_item(&s, item, sizeof(item), e))
            return -1;
        bool all = strcmp(item, "all") == 0, found = all;
        for (int p = 0; p < CLB_GEMM_PRECISIONS; p++) {
            if (!all && clb_precision_from_name(item) != (enum clb_precision)p)
                continue;
            found = true;
            bool dup = false;
            for (size_t i = 0; i < l->n; i++)
                dup |= l->v[i] == (enum clb_precision)p;
            if (!dup)
                l->v[l->n++] = (enum clb_precision)p;
        }
        if (!found) {
            clb_error_set(e, "unknown precision '%s', expected fp32, fp64, fp16 or all", item);
            return -1;
        }
    }
    return 0;
}

/* Adds (be, untuned) to l unless it is there already. */
static void add_backend(struct clb_backend_list *l, const struct clb_gemm_backend *be,
                        bool untuned)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->v[i] == be && l->untuned[i] == untuned)
            return;
    if (l->n < sizeof(l->v) / sizeof(l->v[0])) {
        l->untuned[l->n] = untuned;
        l->v[l->n++] = be;
    }
}

int clb_opt_backends(const char *arg, void *field, struct clb_error *e)
{
    static const char suffix[] = "-untuned";
    struct clb_backend_list *l = field;
    char item[48];

    l->n = 0;
    if (!*arg || arg[strlen(arg) - 1] == ',') {
        clb_error_set(e, "empty item in list");
        return -1;
    }
    for (const char *s = arg; *s;) {
        if (next_item(&s, item, sizeof(item), e))
            return -1;
        if (strcmp(item, "all") == 0) {
            for (size_t b = 0; clb_gemm_backends[b]; b++)
                add_backend(l, clb_gemm_backends[b], false);
            continue;
        }
        const size_t len = strlen(item), sl = sizeof(suffix) - 1;
        const bool untuned = len > sl && strcmp(item + len - sl, suffix) == 0;
        if (untuned)
            item[len - sl] = '\0';
        const struct clb_gemm_backend *be = clb_gemm_backend_find(item);
        if (be && untuned && !be->tuning) {
            clb_error_set(e, "backend '%s' has no tuning: there is no '%s%s'", item, item,
                          suffix);
            return -1;
        }
        if (!be) {
            char names[256] = "";
            for (size_t b = 0; clb_gemm_backends[b]; b++) {
                strncat(names, clb_gemm_backends[b]->name, sizeof(names) - strlen(names) - 1);
                strncat(names, clb_gemm_backends[b]->tuning ? " (or -untuned), " : ", ",
                        sizeof(names) - strlen(names) - 1);
            }
            clb_error_set(e, "unknown backend '%s%s', expected %sor all", item,
                          untuned ? suffix : "", names);
            return -1;
        }
        add_backend(l, be, untuned);
    }
    return 0;
}

int clb_opt_uint(const char *arg, void *field, struct clb_error *e)
{
    uint64_t v;
    if (clb_parse_u64(arg, 0, 1000000, &v, e))
        return -1;
    *(unsigned *)field = (unsigned)v;
    return 0;
}

int clb_opt_positive(const char *arg, void *field, struct clb_error *e)
{
    uint64_t v;
    if (clb_parse_u64(arg, 1, 1000000, &v, e))
        return -1;
    *(unsigned *)field = (unsigned)v;
    return 0;
}

int clb_opt_u64(const char *arg, void *field, struct clb_error *e)
{
    return clb_parse_u64(arg, 0, UINT64_MAX, field, e);
}

int clb_opt_seconds(const char *arg, void *field, struct clb_error *e)
{
    char buf[64];
    size_t n = strlen(arg);

    /* "2", "2s" and "2.5s" all mean seconds. */
    if (n > 1 && n < sizeof(buf) && arg[n - 1] == 's') {
        memcpy(buf, arg, n - 1);
        buf[n - 1] = '\0';
        arg = buf;
    }
    return clb_parse_double(arg, 0.0, 86400.0, field, e);
}

int clb_opt_scalar(const char *arg, void *field, struct clb_error *e)
{
    return clb_parse_double(arg, -1e30, 1e30, field, e);
}

int clb_opt_time_limit(const char *arg, void *field, struct clb_error *e)
{
    if (clb_opt_seconds(arg, field, e))
        return -1;
    /* 0 s would run nothing: every size skipped, yet an exit status of 0. */
    if (*(double *)field <= 0.0) {
        clb_error_set(e, "'%s' leaves no time to run anything: expected more than 0 seconds, "
                         "e.g. 60s, up to 86400", arg);
        return -1;
    }
    return 0;
}

int clb_opt_alpha(const char *arg, void *field, struct clb_error *e)
{
    if (clb_opt_scalar(arg, field, e))
        return -1;
    /* BLAS libraries (OpenBLAS among them) then only scale C: 2*M*N*K flops never run. */
    if (*(double *)field == 0.0) {
        clb_error_set(e, "alpha 0 leaves C = beta*C, and BLAS libraries then skip A*B: no "
                         "GEMM would be timed; expected a nonzero value (default: 1)");
        return -1;
    }
    return 0;
}

int clb_opt_blas_core(const char *arg, void *field, struct clb_error *e)
{
    size_t n = strlen(arg);

    if (n == 0 || n > 31 || strspn(arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                        "0123456789_-") != n) {
        clb_error_set(e, "expected auto, as-is or an OpenBLAS core name (e.g. SkylakeX), got "
                         "'%.40s'", arg);
        return -1;
    }
    *(const char **)field = arg;
    return 0;
}

void clb_precision_words(FILE *out)
{
    for (int p = 0; p < CLB_GEMM_PRECISIONS; p++)
        fprintf(out, "%s ", clb_precision_name((enum clb_precision)p));
    fputs("all ", out);
}

void clb_backend_words(FILE *out)
{
    for (size_t i = 0; clb_gemm_backends[i]; i++)
        fprintf(out, clb_gemm_backends[i]->tuning ? "%s %s-untuned " : "%s ",
                clb_gemm_backends[i]->name, clb_gemm_backends[i]->name);
    fputs("all ", out);
}

int clb_opt_trans(const char *arg, void *field, struct clb_error *e)
{
    static const char *const names[] = { "NN", "NT", "TN", "TT" };
    struct clb_gemm_mode *m = field;

    for (int i = 0; i < 4; i++) {
        if (!strcasecmp(arg, names[i])) {
            m->trans_a = i >= 2;
            m->trans_b = i % 2;
            return 0;
        }
    }
    clb_error_set(e, "unknown transposes '%.40s', expected NN, NT, TN or TT (A's then B's: "
                     "N as is, T transposed)", arg);
    return -1;
}

int clb_opt_layout(const char *arg, void *field, struct clb_error *e)
{
    struct clb_gemm_mode *m = field;

    if (strcmp(arg, "row") && strcmp(arg, "col")) {
        clb_error_set(e, "unknown layout '%.40s', expected row (row-major) or col "
                         "(column-major)", arg);
        return -1;
    }
    m->col_major = !strcmp(arg, "col");
    return 0;
}

int clb_opt_code_path(const char *arg, void *field, struct clb_error *e)
{
    for (int c = CLB_CODE_PATH_AUTO; c <= CLB_CODE_PATH_GPU; c++)
        if (!strcmp(arg, clb_code_path_name((enum clb_code_path)c))) {
            *(enum clb_code_path *)field = (enum clb_code_path)c;
            return 0;
        }
    clb_error_set(e, "unknown code path '%.40s', expected auto, cpu or gpu", arg);
    return -1;
}

int clb_opt_ld_pad(const char *arg, void *field, struct clb_error *e)
{
    return clb_parse_u64(arg, 0, CLB_GEMM_MAX_LD_PAD, &((struct clb_gemm_mode *)field)->ld_pad,
                         e);
}

int clb_opt_offset(const char *arg, void *field, struct clb_error *e)
{
    return clb_parse_u64(arg, 0, CLB_GEMM_MAX_OFFSET, &((struct clb_gemm_mode *)field)->offset,
                         e);
}
