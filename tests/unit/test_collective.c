/*
 * The arithmetic behind `clbench collective` (clbench/mpi/collective.h):
 * nccl-tests' bus bandwidth factors, the bytes an operation moves for a
 * requested size, and the input values whose fp32 sums over up to
 * CLB_COLLECTIVE_MAX_RANKS ranks, in any order, are exact (so every element
 * can be checked with ==) and whose blocks show when taken from the wrong
 * rank or offset.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "clbench/mpi/collective.h"

static void bus_factors(void **state)
{
    (void)state;
    assert_true(clb_collective_bus_factor("allreduce", 1) == 0.0);
    assert_true(clb_collective_bus_factor("allreduce", 2) == 1.0);
    assert_true(clb_collective_bus_factor("allreduce", 4) == 1.5);
    assert_true(clb_collective_bus_factor("allgather", 4) == 0.75);
    assert_true(clb_collective_bus_factor("reduce-scatter", 8) == 0.875);
    assert_true(clb_collective_bus_factor("broadcast", 8) == 1.0);
    assert_true(clb_collective_bus_factor("sendrecv", 3) == 1.0);
    assert_true(clb_collective_bus_factor("alltoall", 3) == 0.0);
    assert_true(clb_collective_bus_factor("allreduce", 0) == 0.0);
    size_t n = 0;
    for (; clb_collective_ops[n]; n++)
        assert_true(clb_collective_bus_factor(clb_collective_ops[n], 2) > 0.0);
    assert_int_equal(n, 5);
}

static void shapes(void **state)
{
    uint64_t count, moved;

    (void)state;
    clb_collective_shape("allreduce", 4000012, 3, &count, &moved);
    assert_int_equal(count, 1000003);
    assert_int_equal(moved, 4000012);
    clb_collective_shape("allreduce", 7, 3, &count, &moved); /* whole floats */
    assert_int_equal(count, 1);
    assert_int_equal(moved, 4);
    clb_collective_shape("allgather", 4000012, 3, &count, &moved); /* n equal parts */
    assert_int_equal(count, 333334);
    assert_int_equal(moved, 4000008);
    clb_collective_shape("reduce-scatter", 4, 3, &count, &moved); /* at least one each */
    assert_int_equal(count, 1);
    assert_int_equal(moved, 12);
    clb_collective_shape("broadcast", 1 << 30, 64, &count, &moved);
    assert_int_equal(count, 1 << 28);
    assert_int_equal(moved, 1 << 30);
}

/* Summed in rank order and in reverse, the fp32 sums agree and equal the exact one. */
static void sums_are_exact(void **state)
{
    (void)state;
    for (int n = 1; n <= CLB_COLLECTIVE_MAX_RANKS; n = n < 8 ? n + 1 : n * 2) {
        for (uint64_t i = 0; i < 3000; i += n < 256 ? 7 : 331) {
            float up = 0.0f, down = 0.0f;
            double exact = 0.0;
            for (int r = 0; r < n; r++) {
                up += clb_collective_value(r, i);
                down += clb_collective_value(n - 1 - r, i);
                exact += (double)(r + 1) + (double)((i + 7 * (uint64_t)r) % 1021) * 0.25;
            }
            assert_true(up == down);
            assert_true((double)up == exact);
        }
    }
}

/*
 * Rank r's block shifted by s equals rank q's over even 8 elements only when
 * s = -11 (r - q) mod 1021 (the header's claim): a block from the wrong
 * rank, or from the right one at a wrong offset, shows.
 */
static void blocks_do_not_alias(void **state)
{
    (void)state;
    for (int r = 0; r < 5; r++)
        for (int q = 0; q < 5; q++)
            for (uint64_t s = 0; s < 1021; s++) {
                const uint64_t alias = (uint64_t)((1021 * 64 - 11 * (r - q)) % 1021);
                bool same = true;
                for (uint64_t i = 0; i < 8 && same; i++)
                    same = clb_collective_value(r, i + s) == clb_collective_value(q, i);
                if (s != alias)
                    assert_false(same);
            }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bus_factors),
        cmocka_unit_test(shapes),
        cmocka_unit_test(sums_are_exact),
        cmocka_unit_test(blocks_do_not_alias),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
