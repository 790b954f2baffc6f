/* report_open_temp, report_write_file: the report's temporary files cannot
 * be redirected by a symbolic link another user left in a shared output
 * directory (they were .NAME.tmp.PID, opened with fopen "w", which follows
 * one), and a failed write leaves nothing behind. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "expect.h"
#include "report.h"

static int hello(FILE *out, const report_job_t *job)
{
    (void)job;
    return fputs("hello\n", out) < 0;
}

static int broken(FILE *out, const report_job_t *job)
{
    (void)job;
    fputs("half", out);
    return -1;
}

static char *slurp(const char *path)
{
    static char buf[256];
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* the entries of dir whose names start with a dot, but . and .. */
static int hidden(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    if (d) closedir(d);
    return n;
}

int main(void)
{
    char dir[] = "/tmp/test_files.XXXXXX", victim[4200], link[4200], path[4200], tmp[4200];
    if (!mkdtemp(dir)) return perror("mkdtemp"), 1;
    snprintf(victim, sizeof victim, "%s/victim", dir);
    FILE *v = fopen(victim, "w");
    fputs("precious\n", v);
    fclose(v);

    /* the name the tool used to take: a link there, to a file of the user */
    snprintf(link, sizeof link, "%s/.report.txt.tmp.%ld", dir, (long)getpid());
    EXPECT(symlink(victim, link) == 0, "symlink: %s", strerror(errno));
    EXPECT(report_write_file(dir, "report.txt", NULL, hello) == 0, "written: %s", strerror(errno));
    snprintf(path, sizeof path, "%s/report.txt", dir);
    const char *got = slurp(path);
    EXPECT(got && strcmp(got, "hello\n") == 0, "report.txt: %s", got ? got : "(none)");
    got = slurp(victim);
    EXPECT(got && strcmp(got, "precious\n") == 0, "the link's target untouched: %s", got ? got : "(none)");
    struct stat st;
    EXPECT(lstat(link, &st) == 0 && S_ISLNK(st.st_mode), "the link left as it was");
    unlink(link);
    EXPECT(hidden(dir) == 0, "no temporary left: %d", hidden(dir));
    /* permissions as fopen's: 0666 less the umask */
    mode_t mask = umask(022);
    umask(mask);
    EXPECT(stat(path, &st) == 0 && (st.st_mode & 0777) == (0666 & ~mask), "mode %o", st.st_mode & 0777);

    /* the temporary: new each time, never a name that exists */
    FILE *a = report_open_temp(dir, "x", tmp, sizeof tmp);
    char first[4200];
    snprintf(first, sizeof first, "%s", tmp);
    FILE *b = report_open_temp(dir, "x", tmp, sizeof tmp);
    EXPECT(a && b && strcmp(first, tmp) != 0, "two temporaries, two names: %s %s", first, tmp);
    char prefix[4200];
    snprintf(prefix, sizeof prefix, "%s/.x.tmp.%ld.", dir, (long)getpid());
    EXPECT(strncmp(tmp, prefix, strlen(prefix)) == 0 && strlen(tmp) == strlen(prefix) + 6, "named %s", tmp);
    if (a) fclose(a), unlink(first);
    if (b) fclose(b), unlink(tmp);
    /* a name too long for the buffer: refused, nothing created */
    char small[16];
    errno = 0;
    EXPECT(!report_open_temp(dir, "x", small, sizeof small) && errno == ENAMETOOLONG, "too long: %s",
           strerror(errno));

    /* a renderer that fails: nothing left, the previous file kept */
    EXPECT(report_write_file(dir, "report.txt", NULL, broken) == -1, "a failed write says so");
    got = slurp(path);
    EXPECT(got && strcmp(got, "hello\n") == 0, "the previous version kept: %s", got ? got : "(none)");
    EXPECT(hidden(dir) == 0, "no temporary left after a failure: %d", hidden(dir));

    unlink(path);
    unlink(victim);
    rmdir(dir);
    if (failures) return 1;
    printf("PASS report files: temporaries created exclusively, links not followed\n");
    return 0;
}
