#include "mpit_warn.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REMEMBERED 64

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long said[REMEMBERED];
static int nsaid;

static unsigned long hash(const char *s)
{
    unsigned long h = 5381;
    while (*s) h = h * 33 + (unsigned char)*s++;
    return h;
}

/* PAPI calls return only codes; this tells the user which name failed and
 * why.  PAPI_MPIT_QUIET=1 silences it. */
void mpit_warn(const char *fmt, ...)
{
    char msg[1024];
    const char *quiet = getenv("PAPI_MPIT_QUIET");
    if (quiet && *quiet && strcmp(quiet, "0") != 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    unsigned long h = hash(msg);
    pthread_mutex_lock(&lock);
    int seen = 0;
    for (int i = 0; i < nsaid && i < REMEMBERED; i++) seen |= said[i] == h;
    if (!seen) said[nsaid++ % REMEMBERED] = h;
    pthread_mutex_unlock(&lock);
    if (!seen) fprintf(stderr, "papi-mpit: %s\n", msg);
}
