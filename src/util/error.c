#include "clbench/util/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void clb_error_set(struct clb_error *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
    va_end(ap);
}

void clb_error_prefix(struct clb_error *e, const char *fmt, ...)
{
    char prefix[256];
    size_t cap = sizeof(e->msg);
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(prefix, sizeof(prefix), fmt, ap);
    va_end(ap);
    /* prefix (< 256) plus ": " always fits in msg (512); the old text may be cut. */
    size_t plen = strlen(prefix) + 2;
    size_t mlen = strnlen(e->msg, cap - 1);
    if (mlen > cap - 1 - plen)
        mlen = cap - 1 - plen;
    memmove(e->msg + plen, e->msg, mlen);
    e->msg[plen + mlen] = '\0';
    memcpy(e->msg, prefix, plen - 2);
    e->msg[plen - 2] = ':';
    e->msg[plen - 1] = ' ';
}
