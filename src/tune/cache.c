#include "clbench/tune/cache.h"
#include "clbench/core/gemm_data.h"
#include "clbench/util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


#include "config.h"

#define TUNING_SCHEMA "clbench-tuning/2"
/* Entries without a size class: read as stale, replaced by the first store. */
#define OLD_SCHEMA "clbench-tuning/1"

/* Entries are kept per CLBlast version; a build without it has "not built", as its record says. */
#if HAVE_CLBLAST
#define CLBLAST_VERSION CLBENCH_CLBLAST_VERSION
#else
#define CLBLAST_VERSION "not built"
#endif

int clb_tuning_path(char *buf, size_t len)
{
    const char *env = getenv("CLBENCH_TUNING_FILE"), *xdg = getenv("XDG_CACHE_HOME"),
               *home = getenv("HOME");

    if (env && *env)
        snprintf(buf, len, "%s", env);
    else if (xdg && *xdg)
        snprintf(buf, len, "%s/clbench/tuning.json", xdg);
    else if (home && *home)
        snprintf(buf, len, "%s/.cache/clbench/tuning.json", home);
    else
        return -1;
    return 0;
}

/* One warning per distinct message per process: lookups repeat for every problem. */
static void warn_once(const char *msg)
{
    static char seen[16][256];
    static size_t n;

    for (size_t i = 0; i < n; i++)
        if (!strcmp(seen[i], msg))
            return;
    if (n < 16)
        snprintf(seen[n++], sizeof(seen[0]), "%.255s", msg);
    fprintf(stderr, "clbench: warning: %s\n", msg);
}

/*
 * root if it is a tuning cache, else NULL with a warning (root is released);
 * *old (may be NULL) is set when it is one of the previous format.
 */
static json_t *validated(json_t *root, const char *path, bool *old)
{
    json_t *entries = json_object_get(root, "entries");
    json_t *schema = json_object_get(root, "schema");
    char msg[8192];

    if (old)
        *old = false;
    if (root && json_is_string(schema) && !strcmp(json_string_value(schema), OLD_SCHEMA)) {
        snprintf(msg, sizeof(msg), "ignoring the tuning cache %s: its entries (%s) have no size "
                                   "class; run clbench tune again",
                 path, OLD_SCHEMA);
        warn_once(msg);
        if (old)
            *old = true;
        json_decref(root);
        return NULL;
    }
    if (!root || !json_is_string(schema) || strcmp(json_string_value(schema), TUNING_SCHEMA) ||
        !json_is_array(entries)) {
        snprintf(msg, sizeof(msg), "ignoring the tuning cache %s: not a %s file", path,
                 TUNING_SCHEMA);
        warn_once(msg);
        json_decref(root);
        return NULL;
    }
    return root;
}

/* The whole file, or NULL (missing: silently; unreadable, malformed or old: with a warning). */
static json_t *load(const char *path, bool *old)
{
    json_error_t je;
    struct stat st;

    if (old)
        *old = false;
    if (stat(path, &st) != 0)
        return NULL;
    return validated(S_ISREG(st.st_mode) && st.st_size < (64 << 20)
                         ? json_load_file(path, JSON_REJECT_DUPLICATES, &je)
                         : NULL,
                     path, old);
}

static const char *str(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : "";
}

static bool parse_params(json_t *o, struct clb_tune_params *out)
{
    const char *key;
    json_t *v;
    struct clb_tune_params p;

    memset(&p, 0, sizeof(p));
    /* An empty object is an entry too: tuning found the built-in choice best there. */
    if (!json_is_object(o) || json_object_size(o) > CLB_TUNE_MAX_PARAMS)
        return false;
    json_object_foreach(o, key, v) {
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) > 65536 || strlen(key) >= sizeof(out->name[0]))
            return false;
        clb_tune_set(&p, key, (size_t)json_integer_value(v));
    }
    *out = p; /* only a whole, valid entry replaces what the caller has */
    return true;
}

/* The problem's size: the geometric mean of its dimensions. */
static double shape_size(struct clb_gemm_shape s)
{
    return cbrt((double)s.m * (double)s.n * (double)s.k);
}

void clb_tune_shape_class(struct clb_gemm_shape s, const struct clb_gemm_mode *mode, char *buf,
                          size_t len)
{
    const uint64_t hi = s.m > s.n ? (s.m > s.k ? s.m : s.k) : (s.n > s.k ? s.n : s.k);
    const uint64_t lo = s.m < s.n ? (s.m < s.k ? s.m : s.k) : (s.n < s.k ? s.n : s.k);
    const bool ta = mode && mode->trans_a, tb = mode && mode->trans_b;

    snprintf(buf, len, "%s %c%c %s",
             (double)hi <= CLB_TUNE_SIZE_REACH * (double)lo ? "square" : "non-square",
             ta ? 'T' : 'N', tb ? 'T' : 'N', mode && mode->col_major ? "col" : "row");
}

/* An entry's class; entries stored before classes were kept are of the one tune measures. */
static const char *entry_class(json_t *e)
{
    json_t *c = json_object_get(e, "class");
    return json_is_string(c) ? json_string_value(c) : CLB_TUNE_CLASS;
}

/*
 * The parameters (*p) and size of a cache entry of this device's kernel, false (warned
 * once) when it was made by another CLBlast or clbench or is malformed.
 */
static bool entry_params(json_t *e, const char *path, const char *kernel, const char *name,
                         struct clb_tune_params *p, double *size)
{
    char msg[8192];

    if (strcmp(str(e, "clblast"), CLBLAST_VERSION) ||
        strcmp(str(e, "clbench"), CLBENCH_VERSION)) {
        snprintf(msg, sizeof(msg), "ignoring tuning of %s for %s: made with CLBlast %s and "
                                   "clbench %s (this is CLBlast %s, clbench %s)",
                 kernel, name, str(e, "clblast"), str(e, "clbench"),
                 CLBLAST_VERSION, CLBENCH_VERSION);
        warn_once(msg);
        return false;
    }
    json_t *g = json_object_get(e, "gflops"), *sz = json_object_get(e, "size");
    if (!parse_params(json_object_get(e, "params"), p) || !json_is_number(g) ||
        !json_is_integer(sz) || json_integer_value(sz) < 1 ||
        json_integer_value(sz) > 1 << 24) {
        snprintf(msg, sizeof(msg), "ignoring a malformed tuning entry for %s in %s", name,
                 path);
        warn_once(msg);
        return false;
    }
    *size = (double)json_integer_value(sz);
    return true;
}

static bool lookup(json_t *root, const char *path, const struct clb_device *dev,
                   const char *kernel, enum clb_precision precision, struct clb_gemm_shape shape,
                   const struct clb_gemm_mode *mode, struct clb_tune_params *out,
                   struct clb_tune_match *match)
{
    char msg[8192];
    const char *name = clb_device_str(dev, CLB_PROP_NAME);
    const char *driver = clb_device_str(dev, CLB_PROP_DRIVER_VERSION);
    const double want = shape_size(shape);
    bool other_devices = false;
    double best_dist = INFINITY;
    json_t *best = NULL;
    uint64_t nearest = 0, other_class_size = 0;
    char cls[32], other_class[32] = "";
    size_t i;
    json_t *e;

    memset(match, 0, sizeof(*match));
    clb_tune_shape_class(shape, mode, cls, sizeof(cls));
    json_array_foreach(json_object_get(root, "entries"), i, e) {
        if (strcmp(str(e, "kernel"), kernel) ||
            clb_precision_from_name(str(e, "precision")) != precision)
            continue;
        if (strcmp(str(e, "device"), name) || strcmp(str(e, "driver"), driver)) {
            other_devices = true;
            continue;
        }
        struct clb_tune_params p;
        double size;
        if (!entry_params(e, path, kernel, name, &p, &size))
            continue;
        const double dist = fabs(log(size / want));
        /* Parameters measured on one class of shapes say nothing of another's speed. */
        if (strcmp(entry_class(e), cls)) {
            if (!other_class_size || dist < fabs(log((double)other_class_size / want))) {
                other_class_size = (uint64_t)size;
                snprintf(other_class, sizeof(other_class), "%.31s", entry_class(e));
            }
            continue;
        }
        /* Nearest in ratio; of two as near, the larger. */
        if (dist < best_dist - 1e-12 || (fabs(dist - best_dist) <= 1e-12 && size > nearest)) {
            best_dist = dist;
            best = e;
            nearest = (uint64_t)size;
            *out = p;
        }
    }
    if (best && best_dist <= log(CLB_TUNE_SIZE_REACH) + 1e-12 && out->n) {
        match->size = nearest;
        out->size = nearest;
        return true;
    }
    if (best && best_dist <= log(CLB_TUNE_SIZE_REACH) + 1e-12)
        snprintf(match->note, sizeof(match->note),
                 "tuned at size %" PRIu64 ": the built-in choice won there, so it runs", nearest);
    else if (!best && other_class_size)
        snprintf(match->note, sizeof(match->note),
                 "tuned on %s problems only (nearest size %" PRIu64 "), this %" PRIu64 "x%" PRIu64
                 "x%" PRIu64 " is %s: not applied",
                 other_class, other_class_size, shape.m, shape.n, shape.k, cls);
    else if (best)
        /* The hint names a size tune takes (16..16384). */
        snprintf(match->note, sizeof(match->note),
                 "tuned at size %" PRIu64 " at nearest, more than %gx from %.0f: not applied "
                 "(run clbench tune -n %.0f)",
                 nearest, CLB_TUNE_SIZE_REACH, want, fmin(fmax(round(want), 16), 16384));
    else if (other_devices) {
        snprintf(msg, sizeof(msg), "the tuning cache %s has %s %s entries for other devices "
                                   "only (none for %s, driver %s): not applied",
                 path, kernel, clb_precision_name(precision), name, driver);
        warn_once(msg);
    }
    memset(out, 0, sizeof(*out));
    return false;
}

/*
 * The file as the last lookup read it, reused while it is unchanged (a gemm
 * run looks up every row; a store replaces the file, so it is read again).
 * A file changed in the last second is read again anyway: file times are
 * coarser than a rewrite of the same size in place. Kept until exit.
 */
static json_t *load_for_lookup(const char *path)
{
    static struct {
        bool have;
        char path[4096];
        struct stat st;
        json_t *root; /* NULL: missing or not a tuning cache (warned once) */
    } memo;
    struct stat st;

    if (stat(path, &st) != 0)
        return NULL;
    if (memo.have && !strcmp(memo.path, path) && memo.st.st_dev == st.st_dev &&
        memo.st.st_ino == st.st_ino && memo.st.st_size == st.st_size &&
        memo.st.st_mtim.tv_sec == st.st_mtim.tv_sec &&
        memo.st.st_mtim.tv_nsec == st.st_mtim.tv_nsec && time(NULL) > st.st_mtim.tv_sec + 1)
        return memo.root;
    json_decref(memo.root);
    memo.root = load(path, NULL);
    memo.st = st;
    snprintf(memo.path, sizeof(memo.path), "%s", path);
    memo.have = true;
    return memo.root;
}

bool clb_tuning_lookup(const struct clb_device *dev, const char *kernel, enum clb_precision precision,
                       struct clb_gemm_shape shape, const struct clb_gemm_mode *mode,
                       struct clb_tune_params *out, struct clb_tune_match *match)
{
    char path[4096];

    memset(match, 0, sizeof(*match));
    if (clb_tuning_path(path, sizeof(path)))
        return false;
    json_t *root = load_for_lookup(path);
    return root && lookup(root, path, dev, kernel, precision, shape, mode, out, match);
}

bool clb_tuning_lookup_text(const char *text, size_t len, const struct clb_device *dev,
                            const char *kernel, enum clb_precision precision,
                            struct clb_gemm_shape shape, const struct clb_gemm_mode *mode,
                            struct clb_tune_params *out, struct clb_tune_match *match)
{
    json_error_t je;
    json_t *root = validated(json_loadb(text, len, JSON_REJECT_DUPLICATES, &je), "(text)", NULL);
    bool found = root && lookup(root, "(text)", dev, kernel, precision, shape, mode, out, match);
    json_decref(root);
    return found;
}

static int write_json(FILE *out, const void *ctx)
{
    return json_dumpf((const json_t *)ctx, out, JSON_INDENT(2)) == 0 ? 0 : -1;
}

static int make_parent(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s", path);
    for (char *s = dir + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(dir, 0755) != 0 && errno != EEXIST)
            return -1;
        *s = '/';
    }
    return 0;
}

static int store(const char *path, const struct clb_device *dev, const char *kernel,
                 enum clb_precision precision, uint64_t size, const struct clb_tune_params *p,
                 double gflops, double default_gflops, struct clb_error *e)
{
    char created[32];
    const char *name = clb_device_str(dev, CLB_PROP_NAME);
    const char *driver = clb_device_str(dev, CLB_PROP_DRIVER_VERSION);
    time_t now = time(NULL);
    struct tm tm;
    bool old;
    size_t i;
    json_t *prev;

    struct stat st;
    json_t *root = load(path, &old);
    if (!root && !old && stat(path, &st) == 0) {
        /* Never overwrite a file that could not be read: it may hold other devices' entries. */
        clb_error_set(e, "%s exists but is not a readable tuning cache: not overwritten", path);
        return -1;
    }
    if (!root)
        root = json_pack("{s:s, s:[]}", "schema", TUNING_SCHEMA, "entries");
    json_t *entries = json_object_get(root, "entries");
    json_t *params = json_object();
    for (size_t k = 0; k < p->n; k++)
        json_object_set_new(params, p->name[k], json_integer((json_int_t)p->value[k]));
    gmtime_r(&now, &tm);
    strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", &tm);
    json_t *entry = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:s, s:o, s:f, s:f, s:s}",
                              "device", name, "driver", driver, "clblast", CLBLAST_VERSION,
                              "clbench", CLBENCH_VERSION, "kernel", kernel, "precision",
                              clb_precision_name(precision), "size", (json_int_t)size, "class", CLB_TUNE_CLASS,
                              "params", params, "gflops",
                              gflops, "default_gflops", default_gflops, "created", created);
    if (!entry || !entries) {
        json_decref(entry);
        json_decref(root);
        clb_error_set(e, "cannot build the tuning entry (a device string that is not UTF-8?)");
        return -1;
    }
    /* Replace this device's entry for the kernel, precision and size; keep everything else. */
    json_array_foreach(entries, i, prev) {
        json_t *sz = json_object_get(prev, "size");
        if (!strcmp(str(prev, "kernel"), kernel) &&
            clb_precision_from_name(str(prev, "precision")) == precision &&
            !strcmp(str(prev, "device"), name) && !strcmp(str(prev, "driver"), driver) &&
            json_is_integer(sz) && (uint64_t)json_integer_value(sz) == size) {
            json_array_remove(entries, i);
            break;
        }
    }
    if (json_array_append_new(entries, entry)) {
        json_decref(root);
        clb_error_set(e, "out of host memory");
        return -1;
    }
    int rc = clb_write_file_atomic(path, write_json, root, e);
    json_decref(root);
    return rc;
}

int clb_tuning_store(const struct clb_device *dev, const char *kernel, enum clb_precision precision,
                     uint64_t size, const struct clb_tune_params *p, double gflops,
                     double default_gflops, struct clb_error *e)
{
    char path[4096], lock[4200];
    struct flock lk = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    int fd, rc;

    e->msg[0] = '\0';
    if (clb_tuning_path(path, sizeof(path))) {
        clb_error_set(e, "no place for the tuning cache: set HOME or CLBENCH_TUNING_FILE");
        return -1;
    }
    if (make_parent(path)) {
        clb_error_set(e, "%s: cannot create its folder: %s", path, strerror(errno));
        return -1;
    }
    /*
     * Read, change, replace under a lock: the ranks of a fleet on one node (or
     * two tune runs) store into one file, and neither may drop the other's entry.
     */
    snprintf(lock, sizeof(lock), "%s.lock", path);
    if ((fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0) {
        clb_error_set(e, "%s: %s", lock, strerror(errno));
        return -1;
    }
    while ((rc = fcntl(fd, F_SETLKW, &lk)) && errno == EINTR)
        ;
    if (rc)
        clb_error_set(e, "%s: cannot lock: %s", lock, strerror(errno));
    else
        rc = store(path, dev, kernel, precision, size, p, gflops, default_gflops, e);
    close(fd); /* releases the lock */
    return rc;
}
