/*
 * The tuning cache: what is stored reads back for the same device and
 * versions only, and for problems near the size it was tuned at; a corrupt
 * file, an old one, another CLBlast or clbench version, or another device is
 * never applied. And CLBlast's Xgemm constraints.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "clbench/backends/backend.h"
#include "clbench/core/gemm_data.h"
#include "clbench/tune/cache.h"
#include "config.h"
#include "src/backends/clblast_params.h"

static struct clb_device dev;
static char dir[64];   /* a private folder for the cache file and its lock, removed at the end */
static char path[128]; /* dir/tuning.json */
static char lock[160]; /* path.lock, the store's lock file */

static void set_prop(enum clb_prop_id id, const char *str, uint64_t num)
{
    dev.props[id].applicable = true;
    dev.props[id].str = (char *)str;
    dev.props[id].num[0] = num;
    dev.props[id].n_num = 1;
}

static int setup(void **state)
{
    (void)state;
    memset(&dev, 0, sizeof(dev));
    set_prop(CLB_PROP_NAME, "Test GPU 9000", 0);
    set_prop(CLB_PROP_DRIVER_VERSION, "1.2.3", 0);
    set_prop(CLB_PROP_MAX_WORK_GROUP_SIZE, NULL, 1024);
    set_prop(CLB_PROP_LOCAL_MEM_BYTES, NULL, 65536);
    snprintf(dir, sizeof(dir), "/tmp/clbench-test-tune-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, sizeof(path), "%s/tuning.json", dir);
    snprintf(lock, sizeof(lock), "%s.lock", path);
    setenv("CLBENCH_TUNING_FILE", path, 1);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(path);
    unlink(lock);
    return rmdir(dir);
}

static void write_file(const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static const struct clb_gemm_shape N1024 = { 1024, 1024, 1024 };

static bool found(const char *kernel, enum clb_precision prec, struct clb_gemm_shape shape,
                  struct clb_tune_params *got, struct clb_tune_match *m)
{
    return clb_tuning_lookup(&dev, kernel, prec, shape, NULL, got, m);
}

static void store_then_lookup(void **state)
{
    struct clb_tune_params p = { 0 }, got;
    struct clb_tune_match m;
    struct clb_error e;

    (void)state;
    unlink(path);
    assert_false(found("Xgemm", CLB_FP32, N1024, &got, &m)); /* no file */
    assert_string_equal(m.note, "");
    clb_tune_set(&p, "KWG", 32);
    clb_tune_set(&p, "VWM", 4);
    assert_int_equal(clb_tuning_store(&dev, "Xgemm", CLB_FP32, 1024, &p, 12.5, 10.0, &e), 0);
    assert_true(found("Xgemm", CLB_FP32, N1024, &got, &m));
    assert_int_equal(clb_tune_get(&got, "KWG", 0), 32);
    assert_int_equal(clb_tune_get(&got, "VWM", 0), 4);
    assert_int_equal(m.size, 1024);
    /* Another precision or kernel is another entry. */
    assert_false(found("Xgemm", CLB_FP64, N1024, &got, &m));
    assert_false(found("clbench-gemm", CLB_FP32, N1024, &got, &m));
    /* Storing again at the same size replaces the entry; another size adds one. */
    clb_tune_set(&p, "KWG", 16);
    assert_int_equal(clb_tuning_store(&dev, "Xgemm", CLB_FP32, 1024, &p, 20.0, 10.0, &e), 0);
    clb_tune_set(&p, "KWG", 64);
    assert_int_equal(clb_tuning_store(&dev, "Xgemm", CLB_FP32, 4096, &p, 30.0, 10.0, &e), 0);
    assert_true(found("Xgemm", CLB_FP32, N1024, &got, &m));
    assert_int_equal(clb_tune_get(&got, "KWG", 0), 16);
    FILE *f = fopen(path, "r");
    char text[8192];
    assert_non_null(f);
    size_t n = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    text[n] = '\0';
    assert_non_null(strstr(text, "\"default_gflops\": 10"));
    const char *at = strstr(text, "\"size\": 1024");
    assert_non_null(at);
    assert_null(strstr(at + 1, "\"size\": 1024")); /* replaced */
}

/* The nearest size class applies within a factor of 2, never beyond; the note says why. */
static void size_classes(void **state)
{
    struct clb_tune_params p = { 0 }, got;
    struct clb_tune_match m;
    struct clb_error e;

    (void)state;
    unlink(path);
    clb_tune_set(&p, "KWG", 1);
    assert_int_equal(clb_tuning_store(&dev, "Xgemm", CLB_FP32, 256, &p, 2.0, 1.0, &e), 0);
    clb_tune_set(&p, "KWG", 2);
    assert_int_equal(clb_tuning_store(&dev, "Xgemm", CLB_FP32, 2048, &p, 2.0, 1.0, &e), 0);
    static const struct {
        struct clb_gemm_shape shape;
        uint64_t size; /* 0: none applies */
    } cases[] = {
        { { 256, 256, 256 }, 256 },     { { 300, 300, 300 }, 256 },
        { { 512, 512, 512 }, 256 },     { { 700, 700, 700 }, 0 },
        { { 1024, 1024, 1024 }, 2048 }, { { 4096, 4096, 4096 }, 2048 },
        { { 4200, 4200, 4200 }, 0 },    { { 100, 100, 100 }, 0 },
        { { 2048, 1448, 2896 }, 2048 }, /* square (2x): the geometric mean, 2048 */
        { { 362, 362, 362 }, 256 },     { { 1500, 1500, 1500 }, 2048 },
        { { 724, 724, 724 }, 0 },       /* halfway in ratio: 2.8x from either */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const bool hit = found("Xgemm", CLB_FP32, cases[i].shape, &got, &m);
        assert_int_equal(hit, cases[i].size != 0);
        assert_int_equal(m.size, cases[i].size);
        if (hit) {
            assert_int_equal(clb_tune_get(&got, "KWG", 0), cases[i].size == 256 ? 1 : 2);
            assert_string_equal(m.note, "");
        } else {
            assert_int_equal(got.n, 0);
            assert_non_null(strstr(m.note, "not applied"));
        }
    }
}

/*
 * Entries are measured on square NN row-major problems (tune's only class) and
 * apply to that class only: a tall, wide or skinny problem of the same
 * geometric mean, a transpose or column-major storage gets none, and a note
 * naming both classes. An entry without a class (files before classes) is of
 * tune's class; one of another class applies to that class only.
 */
static void shape_classes(void **state)
{
    static const struct clb_gemm_mode nn = { 0 }, tn = { .trans_a = true },
                                      nt = { .trans_b = true }, col = { .col_major = true },
                                      padded = { .ld_pad = 3, .offset = 16 };
    struct clb_tune_params p = { 0 }, got;
    struct clb_tune_match m;
    struct clb_error e;
    char cls[32];

    (void)state;
    clb_tune_shape_class((struct clb_gemm_shape){ 256, 256, 256 }, NULL, cls, sizeof(cls));
    assert_string_equal(cls, "square NN row");
    clb_tune_shape_class((struct clb_gemm_shape){ 200, 400, 300 }, &tn, cls, sizeof(cls));
    assert_string_equal(cls, "square TN row");
    clb_tune_shape_class((struct clb_gemm_shape){ 200, 401, 300 }, &col, cls, sizeof(cls));
    assert_string_equal(cls, "non-square NN col");
    clb_tune_shape_class((struct clb_gemm_shape){ 4096, 16, 256 }, &nt, cls, sizeof(cls));
    assert_string_equal(cls, "non-square NT row");

    unlink(path);
    clb_tune_set(&p, "KWG", 8);
    assert_int_equal(clb_tuning_store(&dev, "Xgemm", CLB_FP32, 256, &p, 2.0, 1.0, &e), 0);
    FILE *f = fopen(path, "r");
    char text[4096];
    assert_non_null(f);
    text[fread(text, 1, sizeof(text) - 1, f)] = '\0';
    fclose(f);
    assert_non_null(strstr(text, "\"class\": \"square NN row\""));
    /* Its class: square (2x apart at most), NN, row-major; padding and offsets do not matter. */
    static const struct clb_gemm_shape square = { 256, 256, 256 }, square2 = { 181, 362, 256 },
                                       tall = { 4096, 16, 256 }, wide = { 128, 512, 256 };
    assert_true(clb_tuning_lookup(&dev, "Xgemm", CLB_FP32, square, &nn, &got, &m));
    assert_int_equal(m.size, 256);
    assert_true(clb_tuning_lookup(&dev, "Xgemm", CLB_FP32, square2, &padded, &got, &m));
    assert_true(clb_tuning_lookup(&dev, "Xgemm", CLB_FP32, square, NULL, &got, &m));
    /* 4096x16x256's geometric mean is 256, yet it was never measured: not applied. */
    assert_false(clb_tuning_lookup(&dev, "Xgemm", CLB_FP32, tall, &nn, &got, &m));
    assert_int_equal(m.size, 0);
    assert_int_equal(got.n, 0);
    assert_string_equal(m.note, "tuned on square NN row problems only (nearest size 256), this "
                                "4096x16x256 is non-square NN row: not applied");
    assert_false(clb_tuning_lookup(&dev, "Xgemm", CLB_FP32, wide, &nn, &got, &m));
    assert_non_null(strstr(m.note, "128x512x256 is non-square NN row"));
    assert_false(clb_tuning_lookup(&dev, "Xgemm", CLB_FP32, square, &tn, &got, &m));
    assert_non_null(strstr(m.note, "is square TN row: not applied"));
    assert_false(clb_tuning_lookup(&dev, "Xgemm", CLB_FP32, square, &nt, &got, &m));
    assert_false(clb_tuning_lookup(&dev, "Xgemm", CLB_FP32, square, &col, &got, &m));
    assert_non_null(strstr(m.note, "is square NN col: not applied"));

    /* A file from before classes: its entries are tune's class, and still apply to it. */
    char old[2048];
    snprintf(old, sizeof(old),
             "{\"schema\": \"clbench-tuning/2\", \"entries\": [{\"device\": \"Test GPU 9000\", "
             "\"driver\": \"1.2.3\", \"clblast\": \"%s\", \"clbench\": \"%s\", \"kernel\": "
             "\"Xgemm\", \"precision\": \"fp32\", \"size\": 256, \"params\": {\"KWG\": 4}, "
             "\"gflops\": 2, \"default_gflops\": 1%s}]}",
             HAVE_CLBLAST ? CLBENCH_CLBLAST_VERSION : "not built", CLBENCH_VERSION, "");
    write_file(old);
    assert_true(clb_tuning_lookup(&dev, "Xgemm", CLB_FP32, square, &nn, &got, &m));
    assert_int_equal(clb_tune_get(&got, "KWG", 0), 4);
    assert_false(clb_tuning_lookup(&dev, "Xgemm", CLB_FP32, tall, &nn, &got, &m));
    assert_non_null(strstr(m.note, "tuned on square NN row problems only"));
    /* An entry of another class applies to that class, and not to tune's. */
    snprintf(old, sizeof(old),
             "{\"schema\": \"clbench-tuning/2\", \"entries\": [{\"device\": \"Test GPU 9000\", "
             "\"driver\": \"1.2.3\", \"clblast\": \"%s\", \"clbench\": \"%s\", \"kernel\": "
             "\"Xgemm\", \"precision\": \"fp32\", \"size\": 256, \"params\": {\"KWG\": 4}, "
             "\"gflops\": 2, \"default_gflops\": 1%s}]}",
             HAVE_CLBLAST ? CLBENCH_CLBLAST_VERSION : "not built", CLBENCH_VERSION,
             ", \"class\": \"square TN row\"");
    write_file(old);
    assert_true(clb_tuning_lookup(&dev, "Xgemm", CLB_FP32, square, &tn, &got, &m));
    assert_false(clb_tuning_lookup(&dev, "Xgemm", CLB_FP32, square, &nn, &got, &m));
    assert_string_equal(m.note, "tuned on square TN row problems only (nearest size 256), this "
                                "256x256x256 is square NN row: not applied");
}

/* Where tuning found the built-in choice best, a nearby run keeps it, not a farther win. */
static void builtin_won_is_kept(void **state)
{
    struct clb_tune_params p = { 0 }, none = { 0 }, got;
    struct clb_tune_match m;
    struct clb_error e;

    (void)state;
    unlink(path);
    clb_tune_set(&p, "KWG", 2);
    assert_int_equal(clb_tuning_store(&dev, "Xgemm", CLB_FP32, 2048, &p, 2.0, 1.0, &e), 0);
    assert_int_equal(clb_tuning_store(&dev, "Xgemm", CLB_FP32, 1024, &none, 1.0, 1.0, &e), 0);
    /* 1200 is within 2x of both: the nearer, 1024, says built-in. */
    assert_false(found("Xgemm", CLB_FP32, (struct clb_gemm_shape){ 1200, 1200, 1200 }, &got, &m));
    assert_int_equal(got.n, 0);
    assert_int_equal(m.size, 0);
    assert_non_null(strstr(m.note, "tuned at size 1024: the built-in choice won"));
    /* Nearer 2048, its parameters apply. */
    assert_true(found("Xgemm", CLB_FP32, (struct clb_gemm_shape){ 1800, 1800, 1800 }, &got, &m));
    assert_int_equal(m.size, 2048);
    assert_int_equal(clb_tune_get(&got, "KWG", 0), 2);
    /* Storing at 1024 again replaces the marker. */
    assert_int_equal(clb_tuning_store(&dev, "Xgemm", CLB_FP32, 1024, &p, 2.0, 1.0, &e), 0);
    assert_true(found("Xgemm", CLB_FP32, (struct clb_gemm_shape){ 1200, 1200, 1200 }, &got, &m));
    assert_int_equal(m.size, 1024);
}

static void unreadable_file_is_not_overwritten(void **state)
{
    struct clb_tune_params p = { 0 };
    struct clb_error e;
    char buf[64] = "";

    (void)state;
    write_file("{\"schema\": \"clbench-tuning/2\", \"entries\": [],}");
    clb_tune_set(&p, "KWG", 32);
    assert_int_equal(clb_tuning_store(&dev, "Xgemm", CLB_FP32, 64, &p, 1.0, 1.0, &e), -1);
    assert_non_null(strstr(e.msg, "not overwritten"));
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(buf, sizeof(buf), f));
    fclose(f);
    assert_non_null(strstr(buf, "[],}")); /* untouched */
}

/* A cache of the previous format (no size classes) is ignored, and replaced by a store. */
static void old_format_is_stale(void **state)
{
    struct clb_tune_params p = { 0 }, got;
    struct clb_tune_match m;
    struct clb_error e;
    char buf[1024];

    (void)state;
    snprintf(buf, sizeof(buf),
             "{\"schema\": \"clbench-tuning/1\", \"entries\": [{\"device\": \"Test GPU 9000\", "
             "\"driver\": \"1.2.3\", \"clblast\": \"%s\", \"clbench\": \"%s\", \"kernel\": "
             "\"Xgemm\", \"precision\": \"fp32\", \"params\": {\"KWG\": 32}, \"gflops\": 1.0}]}",
             CLBENCH_CLBLAST_VERSION, CLBENCH_VERSION);
    write_file(buf);
    assert_false(found("Xgemm", CLB_FP32, N1024, &got, &m));
    clb_tune_set(&p, "KWG", 8);
    assert_int_equal(clb_tuning_store(&dev, "Xgemm", CLB_FP32, 1024, &p, 2.0, 1.0, &e), 0);
    assert_true(found("Xgemm", CLB_FP32, N1024, &got, &m));
    assert_int_equal(clb_tune_get(&got, "KWG", 0), 8);
}

static void corrupt_file_is_ignored(void **state)
{
    struct clb_tune_params got;
    struct clb_tune_match m;
    static const char *const bad[] = {
        "", "{", "not json at all", "[1, 2]", "{\"schema\": \"clbench-tuning/9\", \"entries\": []}",
        "{\"schema\": \"clbench-tuning/2\", \"entries\": {}}",
    };

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        write_file(bad[i]);
        assert_false(found("Xgemm", CLB_FP32, N1024, &got, &m));
    }
}

static void entry(char *buf, size_t len, const char *device, const char *driver,
                  const char *clblast, const char *size, const char *params)
{
    snprintf(buf, len,
             "{\"schema\": \"clbench-tuning/2\", \"entries\": [{\"device\": \"%s\", "
             "\"driver\": \"%s\", \"clblast\": \"%s\", \"clbench\": \"%s\", \"kernel\": "
             "\"Xgemm\", \"precision\": \"fp32\", \"size\": %s, \"params\": %s, "
             "\"gflops\": 1.0}]}",
             device, driver, clblast, CLBENCH_VERSION, size, params);
}

static void mismatches_are_not_applied(void **state)
{
    char buf[1024];
    struct clb_tune_params got;
    struct clb_tune_match m;
    static const char *const v = CLBENCH_CLBLAST_VERSION, *const me = "Test GPU 9000";

    (void)state;
    entry(buf, sizeof(buf), me, "1.2.3", v, "1024", "{\"KWG\": 32}");
    write_file(buf);
    assert_true(found("Xgemm", CLB_FP32, N1024, &got, &m));
    entry(buf, sizeof(buf), me, "1.2.3", "0.0.1", "1024", "{\"KWG\": 32}");
    write_file(buf);
    assert_false(found("Xgemm", CLB_FP32, N1024, &got, &m)); /* other CLBlast */
    entry(buf, sizeof(buf), "Other GPU", "1.2.3", v, "1024", "{\"KWG\": 32}");
    write_file(buf);
    assert_false(found("Xgemm", CLB_FP32, N1024, &got, &m)); /* other device */
    entry(buf, sizeof(buf), me, "9.9.9", v, "1024", "{\"KWG\": 32}");
    write_file(buf);
    assert_false(found("Xgemm", CLB_FP32, N1024, &got, &m)); /* other driver */
    entry(buf, sizeof(buf), me, "1.2.3", v, "1024", "{\"KWG\": -1}");
    write_file(buf);
    assert_false(found("Xgemm", CLB_FP32, N1024, &got, &m)); /* bad value */
    entry(buf, sizeof(buf), me, "1.2.3", v, "1024", "\"KWG\"");
    write_file(buf);
    assert_false(found("Xgemm", CLB_FP32, N1024, &got, &m)); /* bad type */
    entry(buf, sizeof(buf), me, "1.2.3", v, "\"1024\"", "{\"KWG\": 32}");
    write_file(buf);
    assert_false(found("Xgemm", CLB_FP32, N1024, &got, &m)); /* size not a number */
    entry(buf, sizeof(buf), me, "1.2.3", v, "0", "{\"KWG\": 32}");
    write_file(buf);
    assert_false(found("Xgemm", CLB_FP32, N1024, &got, &m)); /* no size */
}

static struct clb_tune_params xgemm(size_t kwg, size_t kwi, size_t mdima, size_t mdimc,
                                    size_t mwg, size_t ndimb, size_t ndimc, size_t nwg,
                                    size_t sa, size_t sb, size_t vwm, size_t vwn)
{
    struct clb_tune_params p = { 0 };
    clb_tune_set(&p, "KWG", kwg);
    clb_tune_set(&p, "KWI", kwi);
    clb_tune_set(&p, "MDIMA", mdima);
    clb_tune_set(&p, "MDIMC", mdimc);
    clb_tune_set(&p, "MWG", mwg);
    clb_tune_set(&p, "NDIMB", ndimb);
    clb_tune_set(&p, "NDIMC", ndimc);
    clb_tune_set(&p, "NWG", nwg);
    clb_tune_set(&p, "SA", sa);
    clb_tune_set(&p, "SB", sb);
    clb_tune_set(&p, "VWM", vwm);
    clb_tune_set(&p, "VWN", vwn);
    return p;
}

/* CLBlast's Xgemm constraints, as its backend's tuning part states them. */
static bool xgemm_valid(const struct clb_device *d, enum clb_precision p,
                        const struct clb_tune_params *t)
{
    const struct clb_gemm_backend *be = clb_gemm_backend_find("clblast");

    assert_non_null(be);
    assert_non_null(be->tuning);
    return be->tuning->valid(d, p, t);
}

static void xgemm_constraints(void **state)
{
    struct clb_tune_params p;

    (void)state;
    p = xgemm(32, 2, 8, 8, 32, 16, 16, 32, 1, 1, 4, 2); /* CLBlast's generic default */
    assert_true(xgemm_valid(&dev, CLB_FP32, &p));
    p = xgemm(32, 2, 8, 8, 32, 16, 16, 32, 1, 1, 8, 2); /* MWG % (MDIMC * VWM) */
    assert_false(xgemm_valid(&dev, CLB_FP32, &p));
    p = xgemm(32, 3, 8, 8, 32, 16, 16, 32, 1, 1, 4, 2); /* KWG % KWI */
    assert_false(xgemm_valid(&dev, CLB_FP32, &p));
    p = xgemm(32, 2, 32, 32, 128, 32, 32, 128, 1, 1, 1, 1); /* 1024 work-items: fits */
    assert_true(xgemm_valid(&dev, CLB_FP32, &p));
    set_prop(CLB_PROP_MAX_WORK_GROUP_SIZE, NULL, 256);
    assert_false(xgemm_valid(&dev, CLB_FP32, &p)); /* too many work-items */
    set_prop(CLB_PROP_MAX_WORK_GROUP_SIZE, NULL, 1024);
    set_prop(CLB_PROP_LOCAL_MEM_BYTES, NULL, 4096);
    assert_false(xgemm_valid(&dev, CLB_FP32, &p)); /* local memory */
    set_prop(CLB_PROP_LOCAL_MEM_BYTES, NULL, 65536);
}

/*
 * How CLBlast's database covers a device: a name matches only as its database keeps it (50
 * characters, space-padded, NUL), an architecture only whole; then against the CLBlast this
 * links, 1.5.3, whose database has the T4 and the A100 PCIe, SM8.0 at most, no gfx942, no Arc.
 */
static void clblast_database_entry(void **state)
{
    static const char image[] = "xx\0SM8.0\0gfx1030\0"
                                "Tesla T4                                          \0"
                                "A much longer device name, cut where CLBlast cuts \0";
    char name[128], arch[64], why[128];

    (void)state;
    assert_int_equal(clb_clblast_match(image, sizeof(image), "Tesla T4", "SM7.5"),
                     CLB_CLBLAST_DEVICE);
    assert_int_equal(clb_clblast_match(image, sizeof(image), "Tesla T", "SM7.5"),
                     CLB_CLBLAST_NONE); /* a prefix is another name */
    assert_int_equal(clb_clblast_match(image, sizeof(image), "esla T4", ""), CLB_CLBLAST_NONE);
    assert_int_equal(clb_clblast_match(image, sizeof(image),
                                       "A much longer device name, cut where CLBlast cuts it", ""),
                     CLB_CLBLAST_DEVICE);
    assert_int_equal(clb_clblast_match(image, sizeof(image), "NVIDIA A100-SXM4-80GB", "SM8.0"),
                     CLB_CLBLAST_ARCHITECTURE);
    assert_int_equal(clb_clblast_match(image, sizeof(image), "x", "SM8"), CLB_CLBLAST_NONE);
    assert_int_equal(clb_clblast_match(image, sizeof(image), "x", "gfx103"), CLB_CLBLAST_NONE);
    assert_int_equal(clb_clblast_match(image, sizeof(image), NULL, NULL), CLB_CLBLAST_NONE);
    assert_int_equal(clb_clblast_match(NULL, 0, "Tesla T4", ""), CLB_CLBLAST_UNKNOWN);

    /* CLBlast's names: NVIDIA's architecture from the compute capability, AMD's name from the
     * board and architecture from the device name, others no architecture. */
    clb_clblast_names("cl_khr_fp64 cl_nv_device_attribute_query", "NVIDIA H200", "", 9, 0, name,
                      sizeof(name), arch, sizeof(arch));
    assert_string_equal(name, "NVIDIA H200");
    assert_string_equal(arch, "SM9.0");
    clb_clblast_names("cl_amd_device_attribute_query cl_khr_fp64", "gfx942:sramecc+:xnack-",
                      "AMD Instinct MI300X", 0, 0, name, sizeof(name), arch, sizeof(arch));
    assert_string_equal(name, "AMD Instinct MI300X");
    assert_string_equal(arch, "gfx942");
    clb_clblast_names("cl_khr_fp16", "Intel(R) Arc(TM) A770 Graphics", "", 0, 0, name,
                      sizeof(name), arch, sizeof(arch));
    assert_string_equal(name, "Intel(R) Arc(TM) A770 Graphics");
    assert_string_equal(arch, "");

    if (strcmp(CLBENCH_CLBLAST_VERSION, "1.5.3")) {
        printf("skip: the database facts below are CLBlast 1.5.3's, this is %s\n",
               CLBENCH_CLBLAST_VERSION);
        return;
    }
    assert_int_equal(clb_clblast_lookup("Tesla T4", "SM7.5", why, sizeof(why)),
                     CLB_CLBLAST_DEVICE);
    assert_string_equal(why, "");
    assert_int_equal(clb_clblast_lookup("NVIDIA A100-SXM4-80GB", "SM8.0", why, sizeof(why)),
                     CLB_CLBLAST_ARCHITECTURE);
    assert_string_equal(why, "architecture default (SM8.0): no CLBlast entry for this device");
    assert_int_equal(clb_clblast_lookup("NVIDIA H200", "SM9.0", why, sizeof(why)),
                     CLB_CLBLAST_NONE);
    assert_string_equal(why, "vendor default: no CLBlast entry for this device");
    assert_int_equal(clb_clblast_lookup("AMD Instinct MI300X", "gfx942", why, sizeof(why)),
                     CLB_CLBLAST_NONE);
    assert_int_equal(clb_clblast_lookup("Intel(R) Arc(TM) A770 Graphics", "", why, sizeof(why)),
                     CLB_CLBLAST_NONE);
    assert_int_equal(clb_clblast_lookup("pthread-skylake-avx512-AMD EPYC 9B45", "", why,
                                        sizeof(why)),
                     CLB_CLBLAST_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(store_then_lookup),
        cmocka_unit_test(size_classes),
        cmocka_unit_test(shape_classes),
        cmocka_unit_test(builtin_won_is_kept),
        cmocka_unit_test(old_format_is_stale),
        cmocka_unit_test(corrupt_file_is_ignored),
        cmocka_unit_test(unreadable_file_is_not_overwritten),
        cmocka_unit_test(mismatches_are_not_applied),
        cmocka_unit_test(xgemm_constraints),
        cmocka_unit_test(clblast_database_entry),
    };
    int failed = cmocka_run_group_tests(tests, setup, teardown);
    /* cmocka does not count a failed group teardown: the folder must be gone. */
    if (dir[0] && access(dir, F_OK) == 0) {
        fprintf(stderr, "left %s behind\n", dir);
        failed++;
    }
    return failed;
}
