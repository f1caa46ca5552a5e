#include "clbench/util/file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int clb_write_file_atomic(const char *path, int (*write)(FILE *out, const void *ctx),
                          const void *ctx, struct clb_error *e)
{
    size_t len = strlen(path) + 16;
    char *tmp = malloc(len);
    FILE *f = NULL;
    int fd;

    if (!tmp) {
        clb_error_set(e, "%s: out of host memory", path);
        return -1;
    }
    snprintf(tmp, len, "%s.XXXXXX", path);
    if ((fd = mkstemp(tmp)) < 0 || !(f = fdopen(fd, "w"))) {
        clb_error_set(e, "%s: cannot create a file there: %s", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        free(tmp);
        return -1;
    }
    /* mkstemp makes the file private; give it the mode a plain fopen would. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    int rc = write(f, ctx);
    if (fflush(f) != 0 || ferror(f) || fsync(fd) != 0)
        rc = -1;
    int saved = errno;
    if (fclose(f) != 0)
        rc = -1;
    if (rc == 0 && rename(tmp, path) != 0) {
        saved = errno;
        rc = -1;
    }
    if (rc != 0) {
        clb_error_set(e, "%s: writing failed: %s", path, strerror(saved));
        unlink(tmp);
    }
    free(tmp);
    return rc;
}
