#include "clbench/cl/icd.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clbench/cl/cl.h"

const char *clb_icd_vendors_dir(void)
{
    const char *env = getenv("OCL_ICD_VENDORS");
    return env && *env ? env : "/etc/OpenCL/vendors";
}

static int cmp_icd(const void *a, const void *b)
{
    return strcmp(((const struct clb_icd *)a)->file, ((const struct clb_icd *)b)->file);
}

size_t clb_icd_list(struct clb_icd *out, size_t cap)
{
    const char *dir = clb_icd_vendors_dir();
    DIR *d = opendir(dir);
    struct dirent *de;
    size_t n = 0;

    while (d && (de = readdir(d)) && n < cap) {
        size_t len = strlen(de->d_name);
        char path[1024];
        if (len < 5 || strcmp(de->d_name + len - 4, ".icd"))
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        snprintf(out[n].file, sizeof(out[n].file), "%s", de->d_name);
        if (!fgets(out[n].library, sizeof(out[n].library), f))
            out[n].library[0] = '\0';
        out[n].library[strcspn(out[n].library, "\r\n")] = '\0';
        fclose(f);
        n++;
    }
    if (d)
        closedir(d);
    qsort(out, n, sizeof(*out), cmp_icd);
    return n;
}

static int write_icd(const char *dir, const char *name, const char *lib, struct clb_error *e)
{
    char path[1024];
    FILE *f;

    snprintf(path, sizeof(path), "%.500s/%.255s", dir, name);
    if (!(f = fopen(path, "w")) || fprintf(f, "%s\n", lib) < 0 || fclose(f) != 0) {
        clb_error_set(e, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* The vendors folder clb_icd_add made; removed with what it holds when the process exits. */
static char icd_dir[512];

static void remove_icd_dir(void)
{
    DIR *d = opendir(icd_dir);
    struct dirent *de;

    while (d && (de = readdir(d))) {
        char path[1024];
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        snprintf(path, sizeof(path), "%.500s/%.255s", icd_dir, de->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(icd_dir);
}

int clb_icd_add(const char *libs, struct clb_error *e)
{
    char *dir = icd_dir;
    struct clb_icd existing[32];
    size_t n = clb_icd_list(existing, 32);
    const char *tmp = getenv("TMPDIR");

    static bool registered;

    if (dir[0])
        remove_icd_dir(); /* a second call (the argument fuzzer's) replaces the first folder */
    snprintf(dir, sizeof(icd_dir), "%s/clbench-icd-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        clb_error_set(e, "--icd: cannot make a vendors folder: %s", strerror(errno));
        dir[0] = '\0';
        return -1;
    }
    if (!registered)
        registered = atexit(remove_icd_dir) == 0;
    for (size_t i = 0; i < n; i++)
        if (write_icd(dir, existing[i].file, existing[i].library, e))
            return -1;
    for (const char *s = libs; *s;) {
        size_t len = strcspn(s, ":");
        char lib[512], name[64];
        if (len == 0 || len >= sizeof(lib)) {
            clb_error_set(e, "--icd: expected library paths separated by ':'");
            return -1;
        }
        memcpy(lib, s, len);
        lib[len] = '\0';
        if (access(lib, R_OK) != 0) {
            clb_error_set(e, "--icd: %s: %s", lib, strerror(errno));
            return -1;
        }
        snprintf(name, sizeof(name), "clbench-added-%zu.icd", n++);
        if (write_icd(dir, name, lib, e))
            return -1;
        s += len + (s[len] == ':');
    }
    /* The folder stays for the process's life (the loader reads it on first use), then goes
     * (remove_icd_dir; a process killed by a signal leaves it). */
    setenv("OCL_ICD_VENDORS", dir, 1);
    return 0;
}

/* cl_icdl_info values of the clGetICDLoaderInfoOCLICD extension. */
enum { ICDL_VERSION = 2, ICDL_NAME = 3 };
typedef cl_int (*icdl_info_fn)(cl_uint param, size_t size, void *value, size_t *size_ret);

void clb_icd_loader_info(char *name, size_t name_len, char *version, size_t version_len)
{
    icdl_info_fn f = (icdl_info_fn)(void (*)(void))clGetExtensionFunctionAddress(
        "clGetICDLoaderInfoOCLICD");

    snprintf(name, name_len, "unknown");
    snprintf(version, version_len, "unknown");
    if (!f)
        return;
    if (f(ICDL_NAME, name_len, name, NULL) != CL_SUCCESS)
        snprintf(name, name_len, "unknown");
    if (f(ICDL_VERSION, version_len, version, NULL) != CL_SUCCESS)
        snprintf(version, version_len, "unknown");
}
