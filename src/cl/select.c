#include "clbench/cl/select.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "clbench/cl/inventory.h"
#include "clbench/util/parse.h"

enum term_kind { TERM_ALL, TERM_TYPE, TERM_INDEX, TERM_NAME };

struct term {
    enum term_kind kind;
    cl_device_type type;
    unsigned platform, device;
    char *name; /* lower-cased */
};

struct clb_selector {
    struct term *terms;
    size_t n_terms;
};

static bool parse_index(const char *s, const char *end, unsigned *out)
{
    if (s == end || end - s > 6)
        return false;
    unsigned v = 0;
    for (; s < end; s++) {
        if (!isdigit((unsigned char)*s))
            return false;
        v = v * 10 + (unsigned)(*s - '0');
    }
    *out = v;
    return true;
}

static int parse_term(const char *s, size_t len, struct term *t, struct clb_error *e)
{
    static const struct {
        const char *word;
        enum term_kind kind;
        cl_device_type type;
    } words[] = {
        { "all", TERM_ALL, CL_DEVICE_TYPE_ALL },
        { "cpu", TERM_TYPE, CL_DEVICE_TYPE_CPU },
        { "gpu", TERM_TYPE, CL_DEVICE_TYPE_GPU },
        { "accelerator", TERM_TYPE, CL_DEVICE_TYPE_ACCELERATOR },
    };
    const char *colon = memchr(s, ':', len);
    size_t digits = 0;

    memset(t, 0, sizeof(*t));
    while (len > 0 && isspace((unsigned char)*s))
        s++, len--;
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    if (len == 0) {
        clb_error_set(e, "empty device selector term");
        return -1;
    }
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        if (strlen(words[i].word) == len && strncasecmp(s, words[i].word, len) == 0) {
            t->kind = words[i].kind;
            t->type = words[i].type;
            return 0;
        }
    }
    size_t lead = strspn(s, "0123456789");
    while (digits < len && (isdigit((unsigned char)s[digits]) || s[digits] == ':'))
        digits++;
    /*
     * "P:D" and anything shaped like it ("0:x", ":1") is an index; names may
     * hold colons too ("gfx90a:xnack-") but do not start with digits and one.
     */
    if (colon && (digits == len || (lead > 0 && s + lead == colon))) {
        if (!parse_index(s, colon, &t->platform) || !parse_index(colon + 1, s + len, &t->device)) {
            clb_error_set(e, "bad device index '%.*s': expected P:D, e.g. 0:1", (int)len, s);
            return -1;
        }
        t->kind = TERM_INDEX;
        return 0;
    }
    if (digits == len) {
        clb_error_set(e, "bad device selector '%.*s': a device index is P:D (platform:device), "
                      "e.g. 0:%.*s", (int)len, s, (int)len, s);
        return -1;
    }
    t->kind = TERM_NAME;
    t->name = strndup(s, len);
    if (!t->name) {
        clb_error_set(e, "out of host memory");
        return -1;
    }
    for (char *c = t->name; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    return 0;
}

struct clb_selector *clb_selector_parse(const char *text, struct clb_error *e)
{
    struct clb_selector *sel = calloc(1, sizeof(*sel));
    size_t n = 1;

    if (!sel)
        goto oom;
    for (const char *c = text; *c; c++)
        n += *c == ',';
    sel->terms = calloc(n, sizeof(*sel->terms));
    if (!sel->terms)
        goto oom;
    for (const char *s = text;;) {
        size_t len = strcspn(s, ",");
        if (parse_term(s, len, &sel->terms[sel->n_terms], e) != 0) {
            clb_selector_destroy(sel);
            return NULL;
        }
        sel->n_terms++;
        if (s[len] == '\0')
            break;
        s += len + 1;
    }
    return sel;

oom:
    clb_selector_destroy(sel);
    clb_error_set(e, "out of host memory");
    return NULL;
}

void clb_selector_destroy(struct clb_selector *sel)
{
    if (!sel)
        return;
    for (size_t i = 0; i < sel->n_terms; i++)
        free(sel->terms[i].name);
    free(sel->terms);
    free(sel);
}

bool clb_selector_match(const struct clb_selector *sel, unsigned platform, unsigned device,
                        cl_device_type type, const char *name)
{
    for (size_t i = 0; i < sel->n_terms; i++) {
        const struct term *t = &sel->terms[i];
        switch (t->kind) {
        case TERM_ALL:
            return true;
        case TERM_TYPE:
            if (type & t->type)
                return true;
            break;
        case TERM_INDEX:
            if (t->platform == platform && t->device == device)
                return true;
            break;
        case TERM_NAME:
            if (name && clb_contains_nocase(name, t->name))
                return true;
            break;
        }
    }
    return false;
}

int clb_inventory_select(const struct clb_inventory *inv, const struct clb_selector *sel,
                         const char *text, struct clb_device ***out, size_t *n_out,
                         struct clb_error *e)
{
    struct clb_device **list = calloc(inv->n_devices + 1, sizeof(*list));
    size_t n = 0;

    if (!list) {
        clb_error_set(e, "out of host memory");
        return -1;
    }
    for (size_t i = 0; i < inv->n_devices; i++) {
        struct clb_device *d = &inv->devices[i];
        if (clb_selector_match(sel, d->platform_index, d->device_index,
                               (cl_device_type)clb_device_u64(d, CLB_PROP_TYPE),
                               clb_device_str(d, CLB_PROP_NAME)))
            list[n++] = d;
    }
    if (n == 0) {
        size_t used = (size_t)snprintf(e->msg, sizeof(e->msg),
                                       "--device '%s' matches no device; available:", text);
        for (size_t i = 0; i < inv->n_devices && used < sizeof(e->msg); i++) {
            const struct clb_device *d = &inv->devices[i];
            used += (size_t)snprintf(e->msg + used, sizeof(e->msg) - used, "%s %u:%u %s (%s)",
                                     i ? "," : "", d->platform_index, d->device_index,
                                     clb_device_str(d, CLB_PROP_NAME),
                                     clb_device_str(d, CLB_PROP_TYPE));
        }
        if (inv->n_devices == 0 && used < sizeof(e->msg))
            snprintf(e->msg + used, sizeof(e->msg) - used, " none");
        free(list);
        return -1;
    }
    *out = list;
    *n_out = n;
    return 0;
}
