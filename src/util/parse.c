#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/util/parse.h"

int clb_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out, struct clb_error *e)
{
    char *end;

    if (!s || !*s) {
        clb_error_set(e, "empty value, expected a number");
        return -1;
    }
    if (!isdigit((unsigned char)s[0])) {
        clb_error_set(e, "'%s' is not a non-negative integer", s);
        return -1;
    }
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end != '\0') {
        clb_error_set(e, "'%s' is not a number (trailing '%s')", s, end);
        return -1;
    }
    if (errno == ERANGE || v > max || v < min) {
        clb_error_set(e, "'%s' is out of range [%" PRIu64 ", %" PRIu64 "]", s, min, max);
        return -1;
    }
    *out = v;
    return 0;
}

int clb_parse_double(const char *s, double min, double max, double *out, struct clb_error *e)
{
    char *end;

    if (!s || !*s) {
        clb_error_set(e, "empty value, expected a number");
        return -1;
    }
    if (isspace((unsigned char)s[0])) {
        clb_error_set(e, "'%s' is not a number", s);
        return -1;
    }
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0') {
        clb_error_set(e, "'%s' is not a number", s);
        return -1;
    }
    if (errno == ERANGE || !isfinite(v) || v < min || v > max) {
        clb_error_set(e, "'%s' is out of range [%g, %g]", s, min, max);
        return -1;
    }
    *out = v;
    return 0;
}

int clb_parse_bytes(const char *s, uint64_t *out, struct clb_error *e)
{
    static const struct {
        const char *suffix;
        unsigned shift;
    } suffixes[] = { { "KiB", 10 }, { "MiB", 20 }, { "GiB", 30 }, { "TiB", 40 },
                     { "K", 10 },   { "M", 20 },   { "G", 30 },   { "T", 40 },   { "B", 0 } };
    char num[32];
    size_t n = strlen(s);
    unsigned shift = 0;
    uint64_t v;

    for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
        size_t l = strlen(suffixes[i].suffix);
        if (n > l && strcmp(s + n - l, suffixes[i].suffix) == 0) {
            shift = suffixes[i].shift;
            n -= l;
            break;
        }
    }
    if (n == 0 || n >= sizeof(num)) {
        clb_error_set(e, "'%s' is not a size like 4096, 64K, 256M or 1G", s);
        return -1;
    }
    memcpy(num, s, n);
    num[n] = '\0';
    if (clb_parse_u64(num, 1, UINT64_MAX >> shift, &v, e)) {
        clb_error_set(e, "'%s' is not a size like 4096, 64K, 256M or 1G (binary units)", s);
        return -1;
    }
    *out = v << shift;
    return 0;
}

bool clb_contains_nocase(const char *hay, const char *needle)
{
    const size_t n = strlen(needle);

    if (!n)
        return true;
    for (; hay && *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return true;
    }
    return false;
}
