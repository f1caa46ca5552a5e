#include "clbench/results/prices.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/util/parse.h"

/* s[0..len) without the spaces around it, into buf (cut to fit). */
static void trimmed(const char *s, size_t len, char *buf, size_t cap)
{
    while (len && isspace((unsigned char)*s))
        s++, len--;
    while (len && isspace((unsigned char)s[len - 1]))
        len--;
    snprintf(buf, cap, "%.*s", (int)len, s);
}

int clb_price_parse(const char *text, struct clb_price *out, struct clb_error *e)
{
    const char *eq = strrchr(text, '=');
    char value[64];

    memset(out, 0, sizeof(*out));
    trimmed(text, strlen(text), out->text, sizeof(out->text));
    if (!eq) {
        clb_error_set(e, "'%s': expected DEVICE=USD_PER_HOUR", out->text);
        return -1;
    }
    trimmed(text, (size_t)(eq - text), out->device, sizeof(out->device));
    trimmed(eq + 1, strlen(eq + 1), value, sizeof(value));
    if (!out->device[0]) {
        clb_error_set(e, "'%s': no device before '=' (expected DEVICE=USD_PER_HOUR)", out->text);
        return -1;
    }
    if (!value[0]) {
        clb_error_set(e, "'%s': no price after '=' (expected USD per hour, e.g. %s=2.50)",
                      out->text, out->device);
        return -1;
    }
    char *end;
    errno = 0;
    const double v = strtod(value, &end);
    if (end == value || *end || errno == ERANGE || !isfinite(v)) {
        clb_error_set(e, "'%s': price '%s' is not a number of USD per hour", out->text, value);
        return -1;
    }
    if (v < 0 || signbit(v)) {
        clb_error_set(e, "'%s': price %s is negative (0 for a device that costs nothing)",
                      out->text, value);
        return -1;
    }
    out->usd_per_hour = v;
    return 0;
}

static int append(struct clb_prices *l, const struct clb_price *p, struct clb_error *e)
{
    if (l->n == CLB_PRICES_MAX) {
        clb_error_set(e, "'%s': more than %d prices", p->text, CLB_PRICES_MAX);
        return -1;
    }
    l->v[l->n++] = *p;
    return 0;
}

int clb_prices_add(struct clb_prices *l, const char *text, struct clb_error *e)
{
    struct clb_price p;

    if (clb_price_parse(text, &p, e))
        return -1;
    snprintf(p.source, sizeof(p.source), "--price");
    return append(l, &p, e);
}

int clb_prices_load(struct clb_prices *l, const char *path, struct clb_error *e)
{
    FILE *f = fopen(path, "r");
    char line[512];
    unsigned no = 0;
    int rc = 0;

    if (!f) {
        clb_error_set(e, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    while (!rc && fgets(line, sizeof(line), f)) {
        struct clb_price p;
        const char *s = line;
        no++;
        if (!strchr(line, '\n') && !feof(f)) {
            clb_error_set(e, "%s:%u: line longer than %zu bytes", path, no, sizeof(line) - 2);
            rc = -1;
            break;
        }
        while (isspace((unsigned char)*s))
            s++;
        if (!*s || *s == '#')
            continue;
        if (clb_price_parse(s, &p, e)) {
            clb_error_prefix(e, "%s:%u", path, no);
            rc = -1;
            break;
        }
        snprintf(p.source, sizeof(p.source), "%s:%u", path, no);
        p.catalogue = true;
        if (append(l, &p, e)) {
            clb_error_prefix(e, "%s:%u", path, no);
            rc = -1;
        }
    }
    if (!rc && ferror(f)) {
        clb_error_set(e, "%s: cannot read: %s", path, strerror(errno));
        rc = -1;
    }
    fclose(f);
    return rc;
}

/* "P:D" with digits on both sides, or "host": a device id rather than a name. */
static bool is_id(const char *s)
{
    const char *colon = strchr(s, ':');

    if (!strcmp(s, "host"))
        return true;
    if (!colon || colon == s || !colon[1])
        return false;
    for (const char *c = s; *c; c++)
        if (c != colon && !isdigit((unsigned char)*c))
            return false;
    return true;
}

bool clb_price_matches(const struct clb_price *p, const char *name, const char *id)
{
    if (is_id(p->device))
        return id && !strcmp(id, p->device);
    return name && clb_contains_nocase(name, p->device);
}

int clb_price_find(const struct clb_prices *l, const char *name, const char *id,
                   const struct clb_price **out, struct clb_error *e)
{
    *out = NULL;
    for (size_t i = 0; i < l->n; i++) {
        const struct clb_price *p = &l->v[i];
        if (!clb_price_matches(p, name, id))
            continue;
        if (!*out) {
            *out = p;
        } else if (p->usd_per_hour != (*out)->usd_per_hour) {
            clb_error_set(e, "%s (%s) has two prices: %s '%s' and %s '%s' both name it", name,
                          id ? id : "no id", (*out)->source, (*out)->text, p->source, p->text);
            return -1;
        }
    }
    return 0;
}

const char *clb_price_device_cpu(const char *id, const char *name, bool is_cpu,
                                 const char *host_cpu)
{
    if (!host_cpu || !host_cpu[0] || !strcmp(host_cpu, "unknown CPU"))
        return NULL;
    if (id && !strcmp(id, "host"))
        return host_cpu;
    return is_cpu && name && clb_contains_nocase(name, host_cpu) ? host_cpu : NULL;
}

int clb_prices_check(const struct clb_prices *l, const struct clb_priced_device *d, size_t n,
                     const char *where, struct clb_error *e)
{
    const struct clb_price *p;

    for (size_t i = 0; i < l->n; i++) {
        bool named = l->v[i].catalogue;
        for (size_t k = 0; k < n && !named; k++)
            named = clb_price_matches(&l->v[i], d[k].name, d[k].id);
        if (!named) {
            clb_error_set(e, "%s '%s': no device in %s is named like '%s'", l->v[i].source,
                          l->v[i].text, where, l->v[i].device);
            return -1;
        }
    }
    for (size_t k = 0; k < n; k++)
        if (clb_price_find(l, d[k].name, d[k].id, &p, e))
            return -1;
    return 0;
}

/* The price of d (held already: clb_prices_check), NULL when none. */
static const struct clb_price *price_of(const struct clb_prices *l,
                                        const struct clb_priced_device *d)
{
    const struct clb_price *p;
    struct clb_error e;

    return clb_price_find(l, d->name, d->id, &p, &e) ? NULL : p;
}

size_t clb_prices_matched(const struct clb_prices *l, const struct clb_priced_device *d, size_t n,
                          char lines[][CLB_PRICES_LINE], size_t cap)
{
    size_t out = 0;

    for (size_t i = 0; i < l->n && out < cap; i++) {
        size_t used = 0, matched = 0;
        char *s = lines[out];
        for (size_t k = 0; k < n; k++) {
            if (!clb_price_matches(&l->v[i], d[k].name, d[k].id))
                continue;
            if (!matched++)
                used = (size_t)snprintf(s, CLB_PRICES_LINE, "note: %s '%s' prices",
                                        l->v[i].source, l->v[i].text);
            if (used < CLB_PRICES_LINE)
                used += (size_t)snprintf(s + used, CLB_PRICES_LINE - used, "%s %s (%s)",
                                         matched > 1 ? "," : "", d[k].name, d[k].id);
        }
        out += matched > 0;
    }
    /* One CPU under two names (the host's rows, an OpenCL CPU device): priced as one only. */
    for (size_t k = 0; k < n && out < cap; k++) {
        const struct clb_price *p = price_of(l, &d[k]);
        for (size_t t = 0; p && d[k].cpu && t < n && out < cap; t++)
            if (t != k && d[t].cpu && !strcmp(d[k].cpu, d[t].cpu) && !price_of(l, &d[t]))
                snprintf(lines[out++], CLB_PRICES_LINE,
                         "warning: %s (%s) and %s (%s) are the same CPU, %s, but only the "
                         "first has a price (%s '%s'): give %s one too to cost it",
                         d[k].name, d[k].id, d[t].name, d[t].id, d[k].cpu, p->source, p->text,
                         d[t].id);
    }
    return out;
}

double clb_cost_usd(double usd_per_hour, double seconds)
{
    return seconds / 3600.0 * usd_per_hour;
}

double clb_cost_usd_per_mtokens(double usd_per_hour, double tokens_per_s)
{
    return tokens_per_s > 0 ? usd_per_hour / 3600.0 / tokens_per_s * 1e6 : 0;
}

double clb_per_usd_hour(double figure, double usd_per_hour)
{
    return usd_per_hour > 0 && figure > 0 ? figure / usd_per_hour : 0;
}

void clb_speed_cost(const struct clb_price *price, const struct clb_fit_speed *s, double run_s,
                    struct clb_speed_cost *out)
{
    memset(out, 0, sizeof(*out));
    if (!price)
        return;
    const double usd_h = price->usd_per_hour;
    out->price = price;
    out->run_s = run_s;
    out->run_usd = clb_cost_usd(usd_h, run_s);
    if (!s)
        return;
    const struct clb_speed_estimate *est = &s->estimate;
    out->prefill_usd_per_mtokens = clb_cost_usd_per_mtokens(usd_h, est->prefill_tokens_s);
    out->decode_usd_per_mtokens = clb_cost_usd_per_mtokens(usd_h, est->decode_tokens_s);
    out->train_usd = est->train_s > 0 ? clb_cost_usd(usd_h, est->train_s) : 0;
    out->prefill_gflops_per_usd_hour = clb_per_usd_hour(s->measured.prefill_gflops, usd_h);
    out->prefill_tokens_s_per_usd_hour = clb_per_usd_hour(est->prefill_tokens_s, usd_h);
    out->decode_tokens_s_per_usd_hour = clb_per_usd_hour(est->decode_tokens_s, usd_h);
}

double clb_file_device_timed_s(const struct clb_result_file *f, const char *name, const char *id,
                               int rank)
{
    double s = 0;

    for (size_t i = 0; i < f->n_rows; i++) {
        const struct clb_row *r = &f->rows[i];
        if (!strcmp(r->device_name, name) && !strcmp(r->device_id, id ? id : "") && r->rank == rank)
            s += r->measured_s;
    }
    return s;
}
