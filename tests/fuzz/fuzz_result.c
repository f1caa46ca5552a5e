/* libFuzzer target: the result-file reader of `compare` and `report`. */
#include <stdint.h>

#include "clbench/results/resultfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct clb_error e;
    struct clb_result_file *f = clb_result_file_parse("fuzz.json", (const char *)data, size, &e);

    /* Touch what the commands read, so a wrong pointer shows. */
    for (size_t i = 0; f && i < f->n_rows; i++)
        if (f->rows[i].has_value && f->rows[i].value < 0)
            __builtin_trap();
    clb_result_file_destroy(f);
    return 0;
}
