/*
 * One planted bug per mode, for scripts/sanitize.sh: each sanitizer must
 * report its own, or a clean sanitizer run would prove nothing (flags lost
 * on the way, an options variable that turns detection off, a suppression
 * file that hides everything).
 *   canary heap | signed | leak    (built with ASan+UBSan)
 *   canary race                    (built with TSan)
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int shared;
static void *volatile dropped;

static void *bump(void *arg)
{
    (void)arg;
    for (int i = 0; i < 10000; i++) shared++; /* two threads, no lock */
    return NULL;
}

static __attribute__((noinline)) void leak(void)
{
    dropped = malloc(77);
    memset(dropped, 1, 77);
    dropped = NULL;
}

static __attribute__((noinline)) void scrub_stack(void)
{
    volatile char junk[8192];
    memset((char *)junk, 0, sizeof junk);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";

    if (!strcmp(mode, "heap")) {
        int *p = malloc(4 * sizeof *p);
        p[argc + 2] = 1; /* argc is 2: p[4], one past the end */
        printf("%d\n", p[0]);
        free(p);
    } else if (!strcmp(mode, "signed")) {
        int x = INT_MAX - 1;
        x += argc; /* INT_MAX + 1 */
        printf("%d\n", x);
    } else if (!strcmp(mode, "leak")) {
        leak();
        scrub_stack();
    } else if (!strcmp(mode, "race")) {
        pthread_t a, b;
        pthread_create(&a, NULL, bump, NULL);
        pthread_create(&b, NULL, bump, NULL);
        pthread_join(a, NULL);
        pthread_join(b, NULL);
        printf("%d\n", shared);
    } else {
        fprintf(stderr, "usage: canary heap|signed|leak|race\n");
        return 2;
    }
    return 0;
}
