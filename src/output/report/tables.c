#include <inttypes.h>
#include <string.h>

#include "clbench/results/compare.h"
#include "clbench/util/units.h"
#include "sections.h"
#include "svg.h"

void report_runs(FILE *out, const struct report *rep, const struct report_section *sec)
{
    fprintf(out, "<h2>%s</h2>\n<table class=\"runs\"><tr><th>file</th><th>created</th>"
                 "<th>clbench</th><th>host</th><th>CPU</th><th>OS</th><th>complete</th></tr>\n",
            sec->title);
    for (size_t f = 0; f < rep->n_files; f++) {
        const struct clb_result_file *file = rep->files[f];
        const char *cells[] = { svg_base(file->path), file->created, file->version,
                                file->host_info.hostname, file->host_info.cpu,
                                file->host_info.os };
        for (size_t k = 0; k < sizeof(cells) / sizeof(cells[0]); k++) {
            fputs(k ? "</td><td>" : "<tr><td>", out);
            svg_esc(out, cells[k]);
        }
        fprintf(out, "</td><td>%s</td></tr>\n", file->complete ? "yes" : "no (interrupted)");
    }
    fputs("</table>\n", out);
}

/* A count or size cell: nothing when the document has none. */
static void count_cell(FILE *out, int64_t v, bool bytes)
{
    char buf[32];

    fputs("</td><td class=\"num\">", out);
    if (v < 0)
        return;
    if (bytes) {
        clb_format_bytes((uint64_t)v, buf, sizeof(buf));
        fputs(buf, out);
    } else {
        fprintf(out, "%" PRId64, v);
    }
}

static const char *yes_no(int v)
{
    return v > 0 ? "yes" : v == 0 ? "no" : "";
}

void report_devices(FILE *out, const struct report *rep, const struct report_section *sec)
{
    fprintf(out, "<h2>%s</h2>\n<table class=\"devices\"><tr><th>file</th><th>id</th>"
                 "<th>name</th><th>type</th><th>vendor</th><th>driver</th><th>OpenCL</th>"
                 "<th>compute units</th><th>clock (MHz)</th><th>global memory</th>"
                 "<th>largest allocation</th><th>fp64</th><th>fp16</th></tr>\n", sec->title);
    for (size_t f = 0; f < rep->n_files; f++) {
        for (size_t i = 0; i < rep->files[f]->n_devices; i++) {
            const struct clb_result_device *d = &rep->files[f]->device_list[i];
            const char *strs[] = { d->id, d->name, d->type, d->vendor, d->driver_version,
                                   d->opencl_version };
            fputs("<tr><td>", out);
            svg_esc(out, svg_base(rep->files[f]->path));
            for (size_t k = 0; k < sizeof(strs) / sizeof(strs[0]); k++) {
                fputs("</td><td>", out);
                svg_esc(out, strs[k]);
            }
            count_cell(out, d->compute_units, false);
            count_cell(out, d->max_clock_mhz, false);
            count_cell(out, d->global_mem_bytes, true);
            count_cell(out, d->max_alloc_bytes, true);
            fprintf(out, "</td><td>%s</td><td>%s</td></tr>\n", yes_no(d->fp64), yes_no(d->fp16));
        }
    }
    fputs("</table>\n", out);
}

static bool any_fleet(struct clb_result_file *const *files, size_t n_files)
{
    for (size_t f = 0; f < n_files; f++)
        if (files[f]->fleet)
            return true;
    return false;
}

void report_results(FILE *out, const struct report *rep, const struct report_section *sec)
{
    struct clb_result_file *const *files = rep->files;
    const size_t n_files = rep->n_files;
    const bool fleet = any_fleet(files, n_files);

    fprintf(out, "<h2>%s</h2>\n<table class=\"results\"><tr><th>file</th>%s"
                 "<th>benchmark</th><th>case</th><th>device</th><th>backend</th><th>status</th>"
                 "<th>figure</th><th>speedup</th>%s</tr>\n",
            sec->title, fleet ? "<th>host</th><th>rank</th>" : "",
            fleet ? "<th>vs fleet median</th>" : "");
    for (size_t f = 0; f < n_files; f++) {
        for (size_t i = 0; i < files[f]->n_rows; i++) {
            const struct clb_row *r = &files[f]->rows[i];
            fputs("<tr><td>", out);
            svg_esc(out, svg_base(files[f]->path));
            if (fleet) {
                fputs("</td><td>", out);
                svg_esc(out, r->host);
                fputs("</td><td class=\"num\">", out);
                if (r->host)
                    fprintf(out, "%d", r->rank);
            }
            fputs("</td><td>", out);
            svg_esc(out, r->benchmark_name);
            fputs("</td><td>", out);
            svg_esc(out, r->case_);
            fputs("</td><td>", out);
            svg_esc(out, r->device_name);
            fputs("</td><td>", out);
            svg_esc(out, r->backend);
            fputs("</td><td>", out);
            svg_esc(out, r->status_name);
            /* A failed row was measured, but its figure is not one to read or to rank. */
            const bool failed = !strcmp(r->status_name, "failed");
            fputs("</td><td class=\"num\">", out);
            if (r->has_value)
                fprintf(out, "%.4g %s", r->value, clb_metric_unit(r->metric));
            else if (failed)
                fputs("unverified", out);
            fputs("</td><td class=\"num\">", out);
            if (r->has_value && r->speedup > 0)
                fprintf(out, "%.3gx%s", r->speedup, r->baseline_handicap ? " *" : "");
            else if (failed)
                fputs("unverified", out);
            if (fleet) {
                fputs("</td><td class=\"num\">", out);
                if (r->host && r->has_value && r->fleet_median > 0)
                    fprintf(out, "%+.1f%%%s", (r->value / r->fleet_median - 1.0) * 100.0,
                            r->straggler ? " straggler" : "");
            }
            fputs("</td></tr>\n", out);
        }
    }
    fputs("</table>\n", out);
    report_handicap_notes(out, rep);
}

void report_handicap_notes(FILE *out, const struct report *rep)
{
    /* Each distinct reason once, as the files name it. */
    for (size_t f = 0; f < rep->n_files; f++)
        for (size_t i = 0; i < rep->files[f]->n_rows; i++) {
            const char *why = rep->files[f]->rows[i].baseline_handicap;
            bool seen = !why;
            for (size_t g = 0; g <= f && !seen; g++)
                for (size_t j = 0; j < (g < f ? rep->files[g]->n_rows : i) && !seen; j++)
                    seen = rep->files[g]->rows[j].baseline_handicap &&
                           !strcmp(rep->files[g]->rows[j].baseline_handicap, why);
            if (seen)
                continue;
            fputs("<p class=\"note handicap\">* speedups marked * are against a handicapped "
                  "CPU baseline: ", out);
            svg_esc(out, why);
            fputs("</p>\n", out);
        }
}

