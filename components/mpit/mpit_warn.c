#include "mpit_warn.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "papi_mpit.h"

#define REMEMBERED  64   /* messages said, and subjects whose reason is kept */
#define MESSAGE_LEN 1024 /* one line */
#define SUBJECT_LEN 320  /* an event name with its qualifiers */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long said[REMEMBERED];
static int nsaid;
/* the last reason per subject, the oldest subject replaced first */
static struct {
    char subject[SUBJECT_LEN];
    char reason[MESSAGE_LEN];
} reasons[REMEMBERED];
static int next_reason;
/* -1: as PAPI_MPIT_QUIET says; else set by papi_mpit_quiet */
static atomic_int quiet_override = -1;

static unsigned long hash(const char *s)
{
    unsigned long h = 5381;
    while (*s) h = h * 33 + (unsigned char)*s++;
    return h;
}

static int quiet_now(void)
{
    int q = atomic_load(&quiet_override);
    if (q >= 0) return q;
    const char *env = getenv("PAPI_MPIT_QUIET");
    return env && *env && strcmp(env, "0") != 0;
}

/* Keeps "reason" for "subject" from a message "subject: reason"; the lock is held. */
static void keep_reason(const char *msg)
{
    const char *sep = strstr(msg, ": ");
    if (!sep) return;
    size_t len = (size_t)(sep - msg);
    int slot = -1;
    for (int i = 0; i < REMEMBERED && slot < 0; i++)
        if (strlen(reasons[i].subject) == len && strncmp(reasons[i].subject, msg, len) == 0) slot = i;
    if (slot < 0) slot = next_reason++ % REMEMBERED;
    snprintf(reasons[slot].subject, sizeof reasons[slot].subject, "%.*s", (int)len, msg);
    snprintf(reasons[slot].reason, sizeof reasons[slot].reason, "%s", sep + 2);
}

/* PAPI calls return only codes; this tells the user which name failed and
 * why.  PAPI_MPIT_QUIET=1 (or papi_mpit_quiet) silences it. */
void mpit_warn(const char *fmt, ...)
{
    char msg[MESSAGE_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    unsigned long h = hash(msg);
    pthread_mutex_lock(&lock);
    keep_reason(msg);
    int seen = 0;
    for (int i = 0; i < nsaid && i < REMEMBERED; i++) seen |= said[i] == h;
    if (!seen) said[nsaid++ % REMEMBERED] = h;
    pthread_mutex_unlock(&lock);
    if (!seen && !quiet_now()) fprintf(stderr, "papi-mpit: %s\n", msg);
}

void mpit_note(const char *fmt, ...)
{
    char msg[MESSAGE_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&lock);
    keep_reason(msg);
    pthread_mutex_unlock(&lock);
}

int papi_mpit_why(const char *subject, char *why, size_t len)
{
    if (!subject || !why || !len) return 0;
    if (strncmp(subject, "mpit:::", 7) == 0) subject += 7;
    int found = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < REMEMBERED && !found; i++)
        if (reasons[i].subject[0] && strcmp(reasons[i].subject, subject) == 0) {
            snprintf(why, len, "%s", reasons[i].reason);
            found = 1;
        }
    pthread_mutex_unlock(&lock);
    return found;
}

int papi_mpit_quiet(int quiet)
{
    int before = quiet_now();
    atomic_store(&quiet_override, quiet ? 1 : 0);
    return before;
}
