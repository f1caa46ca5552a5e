#include <stdlib.h>
#include <string.h>

#include "clbench/output/fit.h"
#include "clbench/output/table.h"
#include "clbench/util/units.h"

/* A per-dollar figure: "-" with no figure, "free" at price 0 (undefined), else 3 digits. */
static void per_usd(double figure, double per, const struct clb_price *p, char *buf, size_t len)
{
    if (!(figure > 0))
        snprintf(buf, len, "-");
    else if (!(p->usd_per_hour > 0))
        snprintf(buf, len, "free");
    else
        snprintf(buf, len, "%.3g", per);
}

void clb_fit_cost_cells(const struct clb_fit_speed *s, const struct clb_speed_cost *c,
                        struct clb_fit_cost_cells *out)
{
    const struct clb_speed_estimate *e = &s->estimate;
    char usd[32];

    *out = (struct clb_fit_cost_cells){ "no price given", "-", "-", "-", "-", "-", "-", "-", "-" };
    if (!c || !c->price)
        return;
    clb_format_usd(c->price->usd_per_hour, usd, sizeof(usd));
    snprintf(out->price, sizeof(out->price), "%s/h%s", usd,
             c->price->usd_per_hour > 0 ? "" : " (owned)");
    if (c->run_s > 0) {
        clb_format_seconds(c->run_s, out->run, sizeof(out->run));
        clb_format_usd(c->run_usd, out->run_cost, sizeof(out->run_cost));
    }
    if (e->prefill_tokens_s > 0)
        clb_format_usd(c->prefill_usd_per_mtokens, out->prefill, sizeof(out->prefill));
    if (e->decode_tokens_s > 0)
        clb_format_usd(c->decode_usd_per_mtokens, out->decode, sizeof(out->decode));
    if (e->train_s > 0)
        clb_format_usd(c->train_usd, out->train, sizeof(out->train));
    per_usd(s->measured.prefill_gflops, c->prefill_gflops_per_usd_hour, c->price, out->gflops,
            sizeof(out->gflops));
    per_usd(e->prefill_tokens_s, c->prefill_tokens_s_per_usd_hour, c->price, out->prefill_rate,
            sizeof(out->prefill_rate));
    per_usd(e->decode_tokens_s, c->decode_tokens_s_per_usd_hour, c->price, out->decode_rate,
            sizeof(out->decode_rate));
}

size_t clb_fit_cost_notes(const struct clb_fit_report *r, char lines[4][320])
{
    size_t n = 0;
    bool free_ = false;

    for (size_t i = 0; r->costs && i < r->n_speeds; i++)
        free_ |= r->costs[i].price && !(r->costs[i].price->usd_per_hour > 0);
    snprintf(lines[n++], 320, "%s", CLB_PRICES_NOTE);
    snprintf(lines[n++], 320, "%s", CLB_PRICES_RUN_CLOCK);
    snprintf(lines[n++], 320, "USD per million tokens = price / 3600 / estimated tokens/s x 1e6; "
                              "training = price x training time / 3600; per USD/h = figure / "
                              "price (tokens/s are upper bounds and times lower bounds, so these costs are lower "
                              "bounds)");
    if (free_)
        snprintf(lines[n++], 320, "free: a price of 0 (a device owned) costs nothing, and a "
                                  "figure per dollar is undefined");
    return n;
}

int clb_fit_write_costs(FILE *out, const struct clb_fit_report *r)
{
    static const char *const head[] = { "DEVICE",      "PRICE",           "RUN (TIMED)",
                                        "RUN COST",    "$/M PREFILL TOK", "$/M DECODE TOK",
                                        "TRAIN COST",  "GFLOP/S PER $/H", "PREFILL TOK/S PER $/H",
                                        "DECODE TOK/S PER $/H" };
    const bool train = r->train_tokens > 0;
    const char *h[10];
    size_t n_cols = 0;
    char lines[4][320];

    for (size_t c = 0; c < 10; c++)
        if (c != 6 || train)
            h[n_cols++] = head[c];
    struct clb_table *t = clb_table_create(h, n_cols);
    if (!t)
        return -1;
    for (size_t c = 1; c < n_cols; c++)
        clb_table_align_right(t, c);
    fprintf(out, "\nCosts at the prices given, of the timed calls in %s and of the estimates "
                 "above:\n", r->from);
    for (size_t i = 0; i < r->n_speeds; i++) {
        struct clb_fit_cost_cells c;
        clb_fit_cost_cells(&r->speeds[i], &r->costs[i], &c);
        const char *all[] = { r->speeds[i].measured.device, c.price, c.run, c.run_cost,
                              c.prefill, c.decode, c.train, c.gflops, c.prefill_rate,
                              c.decode_rate };
        const char *cells[10];
        size_t k = 0;
        for (size_t j = 0; j < 10; j++)
            if (j != 6 || train)
                cells[k++] = all[j];
        if (clb_table_add(t, cells)) {
            clb_table_destroy(t);
            return -1;
        }
    }
    clb_table_print(t, out);
    clb_table_destroy(t);
    const size_t n = clb_fit_cost_notes(r, lines);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s\n", lines[i]);
    return 0;
}

/* A figure for JSON: the number, or null where there is none. */
static json_t *real_or_null(bool has, double v)
{
    return has ? json_real(v) : json_null();
}

/* One device's "cost" object (null: no price given). */
static json_t *cost_json(const struct clb_fit_speed *s, const struct clb_speed_cost *c)
{
    const struct clb_speed_estimate *e = &s->estimate;

    if (!c->price)
        return json_null();
    const bool paid = c->price->usd_per_hour > 0;
    return json_pack("{s:f, s:s, s:s, s:f, s:f, s:o, s:o, s:o, s:o, s:o, s:o}",
                     "usd_per_hour", c->price->usd_per_hour, "price_entry", c->price->text,
                     "price_source", c->price->source, "run_seconds", c->run_s, "run_usd",
                     c->run_usd, "prefill_usd_per_mtokens",
                     real_or_null(e->prefill_tokens_s > 0, c->prefill_usd_per_mtokens),
                     "decode_usd_per_mtokens",
                     real_or_null(e->decode_tokens_s > 0, c->decode_usd_per_mtokens), "train_usd",
                     real_or_null(e->train_s > 0, c->train_usd), "prefill_gflops_per_usd_hour",
                     real_or_null(paid && s->measured.prefill_gflops > 0,
                                  c->prefill_gflops_per_usd_hour),
                     "prefill_tokens_per_s_per_usd_hour",
                     real_or_null(paid && e->prefill_tokens_s > 0,
                                  c->prefill_tokens_s_per_usd_hour),
                     "decode_tokens_per_s_per_usd_hour",
                     real_or_null(paid && e->decode_tokens_s > 0,
                                  c->decode_tokens_s_per_usd_hour));
}

void clb_fit_costs_json(const struct clb_fit_report *r, json_t *speed)
{
    json_t *devs = json_object_get(speed, "devices");

    for (size_t i = 0; i < r->n_speeds; i++) {
        json_t *d = json_array_get(devs, i);
        json_object_set_new(d, "cost", cost_json(&r->speeds[i], &r->costs[i]));
        if (!r->costs[i].price)
            json_object_set_new(d, "cost_note", json_string("no price given"));
    }
    json_object_set_new(speed, "prices", json_string(CLB_PRICES_NOTE));
    json_object_set_new(speed, "run_cost_clock", json_string(CLB_PRICES_RUN_CLOCK));
}
