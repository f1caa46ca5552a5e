/*
 * The backend registry, as fio checks its engines: every backend fills the
 * hooks it must, names are unique, and a tuning part is whole and offers
 * candidates that use only the parameters it lists. CLBlast and OpenBLAS
 * keep one identity whether built with their library or as the stand-ins
 * without it (the minimal build runs this test too).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "clbench/backends/backend.h"
#include "clbench/backends/clbench_gemm.h"

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

/* Candidate `index` of clbench's tuning part on dev as its kernel and build options. */
static void own_program(enum clb_precision p, size_t index, char *kernel, char *options)
{
    const struct clb_gemm_tuning *tu = clb_gemm_backend_find("clbench")->tuning;
    struct clb_tune_params t;
    uint64_t rng = 1;

    assert_true(tu->next_candidate(&dev, p, index, &rng, &t));
    assert_true(tu->valid(&dev, p, &t));
    assert_true(clb_clbench_gemm_program(&t, p, kernel, 64, options, 192));
}

/*
 * clbench's GPU defaults follow what the device reports: 16 x 16 work-items
 * where the work-group limit allows (8 x 8 at 64), slices of 16 k halved
 * until they fit in half of local memory (NVIDIA's 48 KiB: fp64 gets 8),
 * 8 x 8 fp32 tiles of float4 and 4 x 8 fp64 ones of double2; a CPU gets
 * the packed panels. The GPU candidates are a finite list, every valid one
 * within the kernel's register and local-memory limits.
 */
static void clbench_gpu_defaults(void **state)
{
    const struct clb_gemm_tuning *tu = clb_gemm_backend_find("clbench")->tuning;
    char kernel[64], options[192];
    struct clb_tune_params t;
    uint64_t rng = 1;
    size_t n = 0;

    (void)state;
    set_prop(CLB_PROP_TYPE, CL_DEVICE_TYPE_GPU);
    set_prop(CLB_PROP_MAX_WORK_GROUP_SIZE, 1024);
    set_prop(CLB_PROP_LOCAL_MEM_BYTES, 48 * 1024);
    own_program(CLB_FP32, 0, kernel, options);
    assert_string_equal(kernel, "clb_gemm_gpu");
    assert_string_equal(options, "-DTM=8 -DVW=4 -DNV=2 -DLX=16 -DLY=16 -DKW=16");
    own_program(CLB_FP64, 0, kernel, options);
    assert_string_equal(options, "-DTM=4 -DVW=2 -DNV=4 -DLX=16 -DLY=16 -DKW=8 -DUSE_FP64");
    set_prop(CLB_PROP_MAX_WORK_GROUP_SIZE, 64);
    set_prop(CLB_PROP_LOCAL_MEM_BYTES, 8 * 1024);
    own_program(CLB_FP32, 0, kernel, options);
    assert_string_equal(options, "-DTM=8 -DVW=4 -DNV=2 -DLX=8 -DLY=8 -DKW=4");
    set_prop(CLB_PROP_MAX_WORK_GROUP_SIZE, 256);
    set_prop(CLB_PROP_LOCAL_MEM_BYTES, 65536);
    while (tu->next_candidate(&dev, CLB_FP32, n, &rng, &t))
        assert_true(++n < 64);
    assert_true(n > 8);
    set_prop(CLB_PROP_TYPE, CL_DEVICE_TYPE_CPU);
    own_program(CLB_FP32, 0, kernel, options);
    assert_string_equal(kernel, "clb_gemm");
    assert_null(strstr(options, "-DKW="));
    clb_tune_set(&t, "VARIANT", 1); /* the old local-memory variant: no longer built */
    assert_false(clb_clbench_gemm_program(&t, CLB_FP32, kernel, 64, options, 192));
    assert_string_equal(options, "");
}

/* Literal here, not from src/backends/identity.h: a rename in either build fails. */
static void library_identity(void **state)
{
    static const char *const xgemm[] = { "GEMMK", "KREG", "KWG",  "KWI",  "MDIMA", "MDIMC",
                                         "MWG",   "NDIMB", "NDIMC", "NWG", "SA",    "SB",
                                         "STRM",  "STRN", "VWM",  "VWN",  NULL };
    const struct clb_gemm_backend *clblast = clb_gemm_backend_find("clblast");
    const struct clb_gemm_backend *openblas = clb_gemm_backend_find("openblas");
    struct clb_library_info info;

    (void)state;
    assert_non_null(clblast);
    assert_non_null(openblas);
    assert_true(clblast->on_device);
    assert_false(openblas->on_device);
    assert_non_null(strstr(clblast->summary, "CLBlast's GEMM on each selected device"));
    assert_non_null(strstr(openblas->summary, "OpenBLAS on the host CPU, the baseline"));
    memset(&info, 0, sizeof(info));
    clblast->info(&info);
    assert_string_equal(info.library, "CLBlast");
    memset(&info, 0, sizeof(info));
    openblas->info(&info);
    assert_string_equal(info.library, "OpenBLAS");
    assert_non_null(clblast->tuning);
    assert_string_equal(clblast->tuning->kernel, "Xgemm");
    assert_string_equal(clblast->tuning->label, "CLBlast Xgemm");
    size_t i = 0;
    for (; xgemm[i]; i++) {
        assert_non_null(clblast->tuning->params[i]);
        assert_string_equal(clblast->tuning->params[i], xgemm[i]);
    }
    assert_null(clblast->tuning->params[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(required_hooks),
        cmocka_unit_test(tuning_parts),
        cmocka_unit_test(clbench_gpu_defaults),
        cmocka_unit_test(library_identity),
    };

    set_prop(CLB_PROP_MAX_WORK_GROUP_SIZE, 1024);
    set_prop(CLB_PROP_LOCAL_MEM_BYTES, 65536);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
