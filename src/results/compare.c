#include "clbench/compare.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/cli.h"
#include "clbench/units.h"

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

static bool contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);

    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return true;
    }
    return false;
}

bool clb_devices_match(const char *first, const char *other, const struct clb_pair_list *pairs)
{
    if (strcmp(first, other) == 0)
        return true;
    for (size_t i = 0; pairs && i < pairs->n; i++)
        if (contains_nocase(first, pairs->v[i].first) && contains_nocase(other, pairs->v[i].other))
            return true;
    return false;
}

bool clb_compare_regressed(const char *metric, double ratio, double threshold)
{
    if (threshold <= 0 || ratio <= 0)
        return false;
    return clb_metric_lower_is_better(metric) ? ratio > 1.0 + threshold : ratio < 1.0 - threshold;
}

static bool same_problem(const struct clb_result_row *a, const struct clb_result_row *b)
{
    return !strcmp(a->benchmark, b->benchmark) && !strcmp(a->case_, b->case_) &&
           !strcmp(a->backend, b->backend) && !strcmp(a->metric, b->metric);
}

static struct clb_compare_group *group_for(struct clb_comparison *c, size_t file,
                                           const struct clb_result_row *r0,
                                           const struct clb_result_row *ri)
{
    for (size_t g = 0; g < c->n_groups; g++) {
        struct clb_compare_group *gr = &c->groups[g];
        if (gr->file == file && !strcmp(gr->device0, r0->device) &&
            !strcmp(gr->backend, r0->backend) && !strcmp(gr->device, ri->device))
            return gr;
    }
    struct clb_compare_group *gr = &c->groups[c->n_groups++];
    gr->file = file;
    gr->device0 = r0->device;
    gr->backend = r0->backend;
    gr->device = ri->device;
    return gr;
}

int clb_compare(struct clb_result_file *const *files, size_t n_files,
                const struct clb_pair_list *pairs, double threshold, struct clb_comparison *c,
                struct clb_error *e)
{
    const struct clb_result_file *f0 = files[0];

    memset(c, 0, sizeof(*c));
    c->files = files;
    c->n_files = n_files;
    c->threshold = threshold;
    c->rows = calloc(f0->n_rows + 1, sizeof(*c->rows));
    c->groups = calloc(f0->n_rows * n_files + 1, sizeof(*c->groups));
    if (!c->rows || !c->groups) {
        clb_comparison_finish(c);
        clb_error_set(e, "out of host memory");
        return -1;
    }
    /* Each row of another file pairs with one row of the first at most. */
    size_t max_rows = 0;
    for (size_t i = 1; i < n_files; i++)
        max_rows = files[i]->n_rows > max_rows ? files[i]->n_rows : max_rows;
    bool *used = calloc(n_files * (max_rows + 1), sizeof(*used));
    if (!used) {
        clb_comparison_finish(c);
        clb_error_set(e, "out of host memory");
        return -1;
    }
    for (size_t r = 0; r < f0->n_rows; r++) {
        const struct clb_result_row *r0 = &f0->rows[r];
        struct clb_compare_row *out = &c->rows[c->n_rows];
        bool matched = false;

        memset(out, 0, sizeof(*out));
        out->row[0] = r0;
        for (size_t i = 1; i < n_files; i++) {
            /* Same device name: prefer the same P:D (identical GPUs in one machine). */
            size_t pick = SIZE_MAX;
            for (size_t j = 0; j < files[i]->n_rows; j++) {
                const struct clb_result_row *ri = &files[i]->rows[j];
                if (used[i * max_rows + j] || !same_problem(r0, ri) ||
                    !clb_devices_match(r0->device, ri->device, pairs))
                    continue;
                if (pick == SIZE_MAX || !strcmp(ri->device_id, r0->device_id))
                    pick = j;
                if (!strcmp(ri->device_id, r0->device_id))
                    break;
            }
            if (pick == SIZE_MAX)
                continue;
            const struct clb_result_row *ri = &files[i]->rows[pick];
            used[i * max_rows + pick] = true;
            out->row[i] = ri;
            matched = true;
            if (r0->has_value && ri->has_value && r0->value > 0) {
                out->ratio[i] = ri->value / r0->value;
                struct clb_compare_group *g = group_for(c, i, r0, ri);
                g->geomean += log(out->ratio[i]); /* a log sum until the end */
                g->n++;
                if (clb_compare_regressed(r0->metric, out->ratio[i], threshold))
                    c->n_regressions++;
            } else if (threshold > 0 && r0->has_value && !ri->has_value) {
                /* Measured before, failed or missing now: the worst regression there is. */
                c->n_regressions++;
            }
        }
        if (matched)
            c->n_rows++;
    }
    free(used);
    if (c->n_rows == 0) {
        clb_comparison_finish(c);
        clb_error_set(e, "no results in common between the files (same benchmark, case and "
                         "backend on devices of the same name; --pair FIRST=OTHER pairs devices "
                         "of different names)");
        return -1;
    }
    for (size_t g = 0; g < c->n_groups; g++)
        c->groups[g].geomean = exp(c->groups[g].geomean / (double)c->groups[g].n);
    return 0;
}

void clb_comparison_finish(struct clb_comparison *c)
{
    free(c->rows);
    free(c->groups);
    memset(c, 0, sizeof(*c));
}
