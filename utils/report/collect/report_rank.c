/*
 * papi-mpit-report: the rank's state that the files of its measurement
 * share (report_rank.h), and the few helpers they all use.
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "report_env.h"
#include "report_rank.h"

enum state rank_state = ST_NONE;
int rank_id, rank_nprocs;
double rank_t_start_mono;
double rank_t_finish_mono;
char rank_started_iso[64];
pthread_mutex_t rank_state_mu = PTHREAD_MUTEX_INITIALIZER;
int rank_sets_stopped;
int rank_window_closed;

void rank_note(const char *fmt, ...)
{
    /* one write per line: a launcher forwarding stderr (PRRTE) may file a
     * fragment without its newline with the next line of stdout */
    char line[REPORT_NAME_LEN + REPORT_REASON_LEN + 256]; /* an event, its reason and the words around */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, PFX "%s\n", line);
}

/* -q: nothing on the terminal unless something fails */
int rank_quiet(void) { return report_bool_env("PAPI_MPIT_REPORT_QUIET", 0); }

void rank_clean_text(char *s)
{
    for (; *s; s++)
        if (*s == '\t' || *s == '\n' || *s == '\r') *s = ' ';
}

double rank_monotonic_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
