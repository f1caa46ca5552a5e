#include "clbench/util/units.h"

#include <stdio.h>
#include <string.h>

void clb_format_bytes(uint64_t bytes, char *buf, size_t len)
{
    static const char *const names[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    double v = (double)bytes;
    unsigned u = 0;

    while (v >= 1024.0 && u + 1 < sizeof(names) / sizeof(names[0])) {
        v /= 1024.0;
        u++;
    }
    if (u == 0 || (v == (double)(uint64_t)v && v < 1000.0))
        snprintf(buf, len, "%.0f %s", v, names[u]);
    else
        snprintf(buf, len, "%.1f %s", v, names[u]);
}

void clb_format_flops(double gflops, char *buf, size_t len)
{
    if (gflops >= 1000.0)
        snprintf(buf, len, "%.2f TFLOP/s", gflops / 1000.0);
    else if (gflops >= 100.0)
        snprintf(buf, len, "%.1f GFLOP/s", gflops);
    else
        snprintf(buf, len, "%.2f GFLOP/s", gflops);
}

void clb_format_seconds(double s, char *buf, size_t len)
{
    if (s < 1e-6)
        snprintf(buf, len, "%.0f ns", s * 1e9);
    else if (s < 1e-3)
        snprintf(buf, len, "%.2f us", s * 1e6);
    else if (s < 1.0)
        snprintf(buf, len, "%.2f ms", s * 1e3);
    else
        snprintf(buf, len, "%.2f s", s);
}

const char *clb_metric_unit(const char *metric)
{
    static const struct {
        const char *metric, *unit;
    } units[] = {
        { "gflops", "GFLOP/s" }, { "giops", "GIOP/s" }, { "gbps", "GB/s" }, { "us", "us" },
    };
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
        if (strcmp(units[i].metric, metric) == 0)
            return units[i].unit;
    return metric;
}

bool clb_metric_lower_is_better(const char *metric)
{
    return strcmp(metric, "us") == 0;
}

void clb_format_metric(const char *metric, double v, char *buf, size_t len)
{
    if (!strcmp(metric, "gflops"))
        clb_format_flops(v, buf, len);
    else if (!strcmp(metric, "us"))
        snprintf(buf, len, "%.1f us", v);
    else
        snprintf(buf, len, "%.4g %s", v, clb_metric_unit(metric));
}

void clb_format_usd(double usd, char *buf, size_t len)
{
    if (usd >= 1000.0 && usd < 1e18) {
        char digits[32], out[48];
        size_t n = (size_t)snprintf(digits, sizeof(digits), "%.0f", usd), o = 0;
        out[o++] = '$';
        for (size_t i = 0; i < n; i++) {
            if (i && (n - i) % 3 == 0)
                out[o++] = ',';
            out[o++] = digits[i];
        }
        out[o] = '\0';
        snprintf(buf, len, "%s", out);
    } else if (usd >= 1.0) {
        snprintf(buf, len, "$%.2f", usd);
    } else {
        snprintf(buf, len, "$%.3g", usd);
    }
}
