/*
 * libFuzzer target: every parser of command-line text. The input is split
 * at newlines: the first line goes to each value parser, all lines together
 * form a `clbench gemm`-like argument vector for the option-table parser.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/cl/select.h"
#include "clbench/cli/args.h"
#include "clbench/cli/cli.h"
#include "clbench/cli/gemm_args.h"
#include "clbench/fit/fit.h"
#include "clbench/results/compare.h"
#include "clbench/util/parse.h"
#include "src/commands/registry.h"

static void values(const char *s)
{
    struct clb_error e;
    uint64_t u;
    double d;
    struct clb_shape_list shapes = { 0 };
    struct clb_precision_list precs = { 0 };
    struct clb_backend_list backends = { 0 };
    struct clb_pair_list pairs = { 0 };
    enum clb_dtype dt;

    clb_parse_u64(s, 0, UINT64_MAX, &u, &e);
    clb_parse_double(s, -1e300, 1e300, &d, &e);
    clb_parse_bytes(s, &u, &e);
    clb_parse_params(s, &u, &e);
    clb_opt_sizes(s, &shapes, &e);
    clb_opt_mnk(s, &shapes, &e);
    clb_opt_precisions(s, &precs, &e);
    clb_opt_backends(s, &backends, &e);
    clb_opt_pairs(s, &pairs, &e);
    clb_opt_percent(s, &d, &e);
    clb_opt_seconds(s, &d, &e);
    clb_opt_dtype(s, &dt, &e);
    clb_selector_destroy(clb_selector_parse(s, &e));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    char *argv[64];
    int argc = 1;

    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    argv[0] = "gemm";
    for (char *s = text; argc < 63;) {
        argv[argc++] = s;
        char *nl = strchr(s, '\n');
        if (!nl)
            break;
        *nl = '\0';
        s = nl + 1;
    }
    values(argv[1]);

    static const char *const commands[] = { "gemm", "fit", "compare", "bandwidth", "devices" };
    for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++) {
        const struct clb_command *cmd = clb_command_find(commands[c]);
        void *config = calloc(1, cmd->config_size);
        char *operands[64];
        int n_operands;
        struct clb_error e;
        if (!config)
            break;
        clb_options_parse(cmd, argc, argv, config, operands, &n_operands, &e);
        free(config);
    }
    free(text);
    return 0;
}
