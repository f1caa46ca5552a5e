/*
 * The backend registry, as fio checks its engines: every backend fills the
 * hooks it must, names are unique, and a tuning part is whole and offers
 * candidates that use only the parameters it lists.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "clbench/backends/backend.h"

static struct clb_device dev;

static void set_prop(enum clb_prop_id id, uint64_t num)
{
    dev.props[id].applicable = true;
    dev.props[id].num[0] = num;
    dev.props[id].n_num = 1;
}

static void required_hooks(void **state)
{
    size_t n = 0, hosts = 0;

    (void)state;
    for (const struct clb_gemm_backend *const *b = clb_gemm_backends; *b; b++, n++) {
        const struct clb_gemm_backend *be = *b;
        print_message("%s\n", be->name ? be->name : "(no name)");
        assert_non_null(be->name);
        assert_true(be->name[0] != '\0');
        assert_non_null(be->summary); /* --backend's help is made of them */
        assert_true(be->summary[0] != '\0');
        assert_non_null(be->info);
        assert_non_null(be->supports);
        assert_non_null(be->create);
        assert_non_null(be->upload);
        assert_non_null(be->run);
        assert_non_null(be->download);
        assert_non_null(be->destroy);
        if (!be->on_device) {
            hosts++;
            assert_non_null(be->set_threads);
            assert_non_null(be->get_threads);
            assert_null(be->tuning); /* tuning is per device */
        }
        assert_ptr_equal(clb_gemm_backend_find(be->name), be); /* names unique */
    }
    assert_true(n > 0);
    assert_true(hosts > 0); /* the baseline */
    assert_false(clb_gemm_backends[0]->on_device); /* the baseline comes first */
}

static bool listed(const char *const *names, const char *name)
{
    for (; *names; names++)
        if (!strcmp(*names, name))
            return true;
    return false;
}

/*
 * Each tuning part: all hooks, a parameter list, candidates within it, some
 * valid on a GPU and a CPU; a backend built without its library (supports()
 * refuses fp32) has the hooks and nothing to offer.
 */
static void tuning_parts(void **state)
{
    static const uint64_t types[] = { CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_CPU };
    size_t tunable = 0;
    char why[256];

    (void)state;
    for (const struct clb_gemm_backend *const *b = clb_gemm_backends; *b; b++) {
        const struct clb_gemm_tuning *tu = (*b)->tuning;
        if (!tu)
            continue;
        print_message("%s: %s\n", (*b)->name, tu->kernel ? tu->kernel : "(no kernel)");
        assert_non_null(tu->kernel);
        assert_non_null(tu->label);
        assert_non_null(tu->params);
        assert_true(tu->budget_share > 0 && tu->budget_share <= 1);
        assert_non_null(tu->next_candidate);
        assert_non_null(tu->valid);
        assert_non_null(tu->create_with);
        for (const struct clb_gemm_backend *const *o = clb_gemm_backends; *o != *b; o++)
            assert_true(!(*o)->tuning || strcmp((*o)->tuning->kernel, tu->kernel));
        if (!(*b)->supports(&dev, CLB_FP32, why, sizeof(why))) {
            print_message("%s: unavailable: %s\n", (*b)->name, why);
            assert_true(why[0] != '\0');
            continue;
        }
        tunable++;
        assert_non_null(tu->params[0]);
        for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
            struct clb_tune_params p;
            uint64_t rng = 1;
            size_t valid = 0;
            set_prop(CLB_PROP_TYPE, types[t]);
            for (size_t i = 0; i < 200 && tu->next_candidate(&dev, CLB_FP32, i, &rng, &p); i++) {
                assert_true(p.n <= CLB_TUNE_MAX_PARAMS);
                for (size_t k = 0; k < p.n; k++)
                    assert_true(listed(tu->params, p.name[k]));
                valid += tu->valid(&dev, CLB_FP32, &p);
            }
            assert_true(valid > 1); /* the built-in choice and more */
        }
    }
    assert_true(tunable > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(required_hooks),
        cmocka_unit_test(tuning_parts),
    };

    set_prop(CLB_PROP_MAX_WORK_GROUP_SIZE, 1024);
    set_prop(CLB_PROP_LOCAL_MEM_BYTES, 65536);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
