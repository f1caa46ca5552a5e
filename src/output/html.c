#include "clbench/output/html.h"

#include <string.h>

#include "src/output/report/sections.h"
#include "src/output/report/svg.h"

/* The page, top to bottom: each section writes nothing when it has nothing to show. */
static const struct report_section sections[] = {
    { "fleet", "Fleet", report_fleet },
    { "gemm", "GEMM throughput", report_gemm },
    { "speedup", "Speedup over the CPU baseline (OpenBLAS), at the largest size measured",
      report_speedup },
    { "roofline", "Roofline", report_roofline },
    { "sweep", "Bandwidth by array size", report_sweep },
    { "datasheet", "Datasheet vs measured", report_datasheet },
    { "estimates", "Estimates", report_estimates },
    { "runs", "Runs", report_runs },
    { "devices", "Devices", report_devices },
    { "results", "All results", report_results },
};

void report_device_title(FILE *out, const struct clb_result_file *f, const char *device,
                         const struct clb_row *of_rank, size_t n_files)
{
    svg_esc(out, device);
    if (of_rank->host) {
        fputs(" · ", out);
        svg_esc(out, of_rank->host);
        fprintf(out, " r%d", of_rank->rank);
    }
    if (n_files > 1) {
        fputs(" · ", out);
        svg_esc(out, svg_base(f->path));
    }
}

static void page_head(FILE *out)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<title>clbench report</title>\n<style>\n"
          "body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; color: #222;"
          " max-width: 1000px; margin: 1.5em auto; padding: 0 1em; }\n"
          "h1 { font-size: 1.6em; } h2 { font-size: 1.2em; margin-top: 1.8em; }\n"
          "svg.chart { width: 100%; height: auto; display: block; }\n"
          "svg text { fill: #222; font-family: inherit; }\n"
          "table { border-collapse: collapse; font-size: 13px; width: 100%; }\n"
          "th, td { padding: 3px 8px; border-bottom: 1px solid #ddd; text-align: left; }\n"
          "td.num { text-align: right; white-space: nowrap; }\n"
          "p.caption { margin-top: 0; font-size: 13px; color: #444; }\n"
          "span.straggler-mark { color: #d62728; font-weight: 600; }\n"
          "</style>\n</head>\n<body>\n<h1>clbench report</h1>\n<p>", out);
}

/* "From a.json, b.json. Every figure drawn was verified ...": what the page is from. */
static void page_intro(FILE *out, struct clb_result_file *const *files, size_t n_files)
{
    for (size_t f = 0; f < n_files; f++) {
        fputs(f ? ", " : "From ", out);
        svg_esc(out, svg_base(files[f]->path));
    }
    size_t n_failed = 0;
    for (size_t f = 0; f < n_files; f++)
        for (size_t i = 0; i < files[f]->n_rows; i++)
            n_failed += !strcmp(files[f]->rows[i].status_name, "failed");
    fputs(". Every figure drawn was verified against a higher-precision reference", out);
    if (n_failed)
        fprintf(out, "; %zu result%s failed verification and %s shown as unverified, not drawn",
                n_failed, n_failed == 1 ? "" : "s", n_failed == 1 ? "is" : "are");
    fputs("; see the runs' JSON for each call's time.</p>\n", out);
}

int clb_html_report(FILE *out, struct clb_result_file *const *files, size_t n_files,
                    const struct clb_html_estimates *estimates)
{
    const struct report rep = { files, n_files, estimates };

    page_head(out);
    page_intro(out, files, n_files);
    for (size_t s = 0; s < sizeof(sections) / sizeof(sections[0]); s++)
        sections[s].write(out, &rep, &sections[s]);
    fputs("</body>\n</html>\n", out);
    return ferror(out) ? -1 : 0;
}
