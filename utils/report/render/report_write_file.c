/*
 * papi-mpit-report: a rendering into its file, whole or not at all (a
 * temporary file that cannot be guessed, then a rename), and the output
 * directory made.
 */
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* ---- files */
int report_mkdir_p(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(path, 0777) && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(path, 0777) && errno != EEXIST) return -1;
    return 0;
}

/* A new file dir/.FILE.tmp.PID.<six random characters>: created with O_EXCL,
 * so that neither a symbolic link someone left there (in a directory shared
 * with other users) nor an existing file is followed or reused, and named
 * so that it cannot be guessed in advance.  Permissions as fopen's (0666
 * less the umask): the final file keeps them. */
FILE *report_open_temp(const char *dir, const char *file, char *tmp, size_t len)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned char r[6];
        if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
            /* no entropy yet (early boot): the clock's nanoseconds */
            struct timespec t;
            clock_gettime(CLOCK_REALTIME, &t);
            unsigned long x = (unsigned long)t.tv_nsec * 2654435761u ^ (unsigned long)attempt << 20;
            for (size_t i = 0; i < sizeof r; i++) r[i] = (unsigned char)(x >> (5 * i));
        }
        char suffix[sizeof r + 1];
        for (size_t i = 0; i < sizeof r; i++) suffix[i] = letters[r[i] % (sizeof letters - 1)];
        suffix[sizeof r] = '\0';
        if (snprintf(tmp, len, "%s/.%s.tmp.%ld.%s", dir, file, (long)getpid(), suffix) >= (int)len) {
            errno = ENAMETOOLONG;
            return NULL;
        }
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno == EEXIST) continue; /* taken (or a link): another name */
        if (fd < 0) return NULL;
        FILE *f = fdopen(fd, "w");
        if (!f) {
            int err = errno;
            close(fd);
            unlink(tmp);
            errno = err;
        }
        return f;
    }
    errno = EEXIST;
    return NULL;
}

/* Written whole or not at all: into a new temporary file in the same
 * directory (report_open_temp), renamed over the final name only once
 * complete.  On failure errno tells why and nothing is left behind; the
 * caller says so (once). */
int report_write_file(const char *dir, const char *file, const report_job_t *job,
                      int (*render)(FILE *, const report_job_t *))
{
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = report_open_temp(dir, file, tmp, sizeof tmp);
    if (!f) return -1;
    /* a write that fails inside render (the buffer flushed on the way)
     * leaves its errno: say that one (EFBIG, ENOSPC), not a generic EIO */
    errno = 0;
    int rc = render(f, job), err = rc ? (errno ? errno : EIO) : 0;
    if (fflush(f) && !err) err = errno;
    if (fsync(fileno(f)) && !err && errno != EINVAL) err = errno;
    if (fclose(f) && !err) err = errno;
    if (!err && rename(tmp, path)) err = errno;
    if (err) {
        unlink(tmp);
        errno = err;
        return -1;
    }
    return 0;
}
