#include "clbench/util/record.h"

#include <stdio.h>
#include <string.h>

/* Copies s into dst of len bytes, cut short if it must be, always terminated. */
static void copy(char *dst, size_t len, const char *s)
{
    size_t n = strlen(s);
    if (n >= len)
        n = len - 1;
    memcpy(dst, s, n);
    dst[n] = '\0';
}

static struct clb_field *add(struct clb_library_info *l, const char *key,
                             enum clb_field_type type)
{
    if (l->n_fields == CLB_LIBRARY_MAX_FIELDS)
        return NULL;
    struct clb_field *f = &l->fields[l->n_fields++];
    memset(f, 0, sizeof(*f));
    copy(f->key, sizeof(f->key), key);
    f->type = type;
    return f;
}

void clb_library_str(struct clb_library_info *l, const char *key, const char *value)
{
    struct clb_field *f = add(l, key, value ? CLB_FIELD_STRING : CLB_FIELD_NULL);
    if (f && value)
        copy(f->str, sizeof(f->str), value);
}

void clb_library_int(struct clb_library_info *l, const char *key, long long value)
{
    struct clb_field *f = add(l, key, CLB_FIELD_INT);
    if (f)
        f->i = value;
}

void clb_library_bool(struct clb_library_info *l, const char *key, bool value)
{
    struct clb_field *f = add(l, key, CLB_FIELD_BOOL);
    if (f)
        f->b = value;
}

const struct clb_field *clb_library_field(const struct clb_library_info *l, const char *key)
{
    for (size_t i = 0; i < l->n_fields; i++)
        if (!strcmp(l->fields[i].key, key))
            return &l->fields[i];
    return NULL;
}

const struct clb_library_info *clb_run_record_library(const struct clb_run_record *r,
                                                      const char *id)
{
    for (size_t i = 0; i < r->n_libs; i++)
        if (!strcmp(r->libs[i].id, id))
            return &r->libs[i];
    return NULL;
}
