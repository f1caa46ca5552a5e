#include "clbench/cl/icd.h"
#include "clbench/cl/pocl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool pocl_registered(void)
{
    struct clb_icd icds[32];
    const size_t n = clb_icd_list(icds, sizeof(icds) / sizeof(icds[0]));

    for (size_t i = 0; i < n; i++)
        if (strstr(icds[i].library, "pocl") || strstr(icds[i].file, "pocl"))
            return true;
    return false;
}

/*
 * Whether `path` exists as a writable folder or could be made: the deepest
 * part of it that exists must be a folder we may write in. errno says why not.
 */
static bool creatable(const char *path)
{
    char p[4096];
    struct stat st;

    if (snprintf(p, sizeof(p), "%s", path) >= (int)sizeof(p)) {
        errno = ENAMETOOLONG;
        return false;
    }
    for (;;) {
        if (stat(p, &st) == 0) {
            if (!S_ISDIR(st.st_mode)) {
                errno = ENOTDIR;
                return false;
            }
            return access(p, W_OK | X_OK) == 0;
        }
        if (errno != ENOENT)
            return false;
        char *slash = strrchr(p, '/');
        if (!slash || slash == p)
            return access("/", W_OK | X_OK) == 0;
        *slash = '\0';
    }
}

/*
 * A folder of our own under $TMPDIR or /tmp, for pocl's compiled kernels
 * (which it loads as code): "clbench-pocl-UID" made 0700, or reused when it
 * is a real folder we own (opened without following a link, made 0700 again
 * if someone loosened it); else a fresh mkdtemp folder.
 */
static int private_folder(char *out, size_t len)
{
    const char *tmp = getenv("TMPDIR");
    struct stat st;
    int fd, ok = -1;

    if (!tmp || !*tmp)
        tmp = "/tmp";
    if (snprintf(out, len, "%s/clbench-pocl-%lu", tmp, (unsigned long)getuid()) >= (int)len)
        return -1;
    if (mkdir(out, 0700) != 0 && errno != EEXIST)
        goto fresh;
    if ((fd = open(out, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)) < 0)
        goto fresh;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == getuid() &&
        ((st.st_mode & 077) == 0 || fchmod(fd, 0700) == 0))
        ok = 0;
    close(fd);
    if (ok == 0 && access(out, W_OK | X_OK) == 0)
        return 0;
fresh:
    if (snprintf(out, len, "%s/clbench-pocl-XXXXXX", tmp) >= (int)len)
        return -1;
    return mkdtemp(out) ? 0 : -1;
}

int clb_pocl_cache_prepare(char *note, size_t len)
{
    const char *dir = getenv("POCL_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char want[4096], mine[4096];

    note[0] = '\0';
    if (dir && *dir)
        return 0; /* the user's choice, kept even if it fails (the device check says so) */
    if (!pocl_registered())
        return 0;
    /* pocl's own order; an empty variable counts as unset (an empty POCL_CACHE_DIR
     * makes pocl abort). */
    if (xdg && *xdg)
        snprintf(want, sizeof(want), "%s/pocl/kcache", xdg);
    else if (home && *home)
        snprintf(want, sizeof(want), "%s/.cache/pocl/kcache", home);
    else
        return 0; /* pocl falls back to a temporary folder itself */
    if (creatable(want)) {
        if (dir)
            unsetenv("POCL_CACHE_DIR");
        return 0;
    }
    const int why = errno;
    if (private_folder(mine, sizeof(mine)) != 0) {
        snprintf(note, len,
                 "pocl cannot make its kernel cache in %s (%s) and no private folder could be "
                 "made under $TMPDIR or /tmp: set POCL_CACHE_DIR to a writable folder",
                 want, strerror(why));
        return -1;
    }
    setenv("POCL_CACHE_DIR", mine, 1);
    snprintf(note, len,
             "note: pocl cannot make its kernel cache in %s (%s); using %s (set POCL_CACHE_DIR "
             "to choose)",
             want, strerror(why), mine);
    return 1;
}
