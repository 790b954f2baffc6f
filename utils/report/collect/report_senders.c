/*
 * papi-mpit-report: unexpected messages by sender (papi_mpit.h), read in
 * the counting window and written into the rank's record (M or N line).
 */
#include <papi.h>

#include <stdio.h>
#include <stdlib.h>

#include "papi_mpit.h"
#include "report_env.h"
#include "report_rank.h"

int rank_senders_wanted(void) { return report_bool_env("PAPI_MPIT_REPORT_SENDERS", 1); }

/* ---- unexpected messages by sender (papi_mpit.h), read by the
 * application's thread: started once counting starts, read and stopped
 * before the collection communicates. */
static int senders_on, senders_kind, senders_cols;
static long long *senders_counts, senders_other;
static char senders_why[REPORT_REASON_LEN]; /* why not, for the report */

void rank_senders_begin(void)
{
    if (!rank_senders_wanted()) return; /* turned off: no note either */
    senders_cols = rank_nprocs < PAPI_MPIT_SENDERS_MAX ? rank_nprocs : PAPI_MPIT_SENDERS_MAX;
    senders_counts = calloc((size_t)senders_cols, sizeof *senders_counts);
    if (!senders_counts) {
        snprintf(senders_why, sizeof senders_why, "out of memory");
        return;
    }
    char reason[REPORT_REASON_LEN] = "";
    int was_quiet = papi_mpit_quiet(1); /* rank 0's report says why, once */
    int rc = papi_mpit_senders_start();
    papi_mpit_quiet(was_quiet);
    if (rc == PAPI_OK) {
        senders_on = 1;
        return;
    }
    if (papi_mpit_why("senders", reason, sizeof reason)) /* its own words say more than the code */
        snprintf(senders_why, sizeof senders_why, "senders: %s", reason);
    else
        snprintf(senders_why, sizeof senders_why, "papi_mpit_senders_start: %s", PAPI_strerror(rc));
    rank_clean_text(senders_why);
}

/* A look at the queues (MPI_Pcontrol), values discarded: the component
 * keeps the largest queue per peer seen at any read. */
void rank_senders_look(void)
{
    long long other;
    int kind;
    if (senders_on) papi_mpit_senders_read(senders_counts, senders_cols, &other, &kind);
}

void rank_senders_end(void)
{
    if (!senders_on) return;
    int rc = papi_mpit_senders_read(senders_counts, senders_cols, &senders_other, &senders_kind);
    papi_mpit_senders_stop();
    senders_on = 0;
    if (rc != PAPI_OK ||
        (senders_kind != PAPI_MPIT_SENDERS_COUNT && senders_kind != PAPI_MPIT_SENDERS_QUEUE_MAX)) {
        snprintf(senders_why, sizeof senders_why, "papi_mpit_senders_read: %s",
                 rc != PAPI_OK ? PAPI_strerror(rc) : "unknown kind");
        senders_kind = 0;
    }
}

size_t rank_senders_record_cap(void) { return (size_t)senders_cols * 32 + REPORT_REASON_LEN; }

/* "M\tkind\tother\tcolumns\tsender:value,..." (nonzero ones only: the
 * record travels in tags, a few bytes per message) or "N\treason" */
size_t rank_senders_record(char *buf, size_t cap)
{
    size_t n = 0;
    if (senders_kind) {
        n += (size_t)snprintf(buf + n, cap - n, "M\t%d\t%lld\t%d\t", senders_kind, senders_other,
                              senders_cols);
        const char *sep = "";
        for (int c = 0; c < senders_cols; c++)
            if (senders_counts[c]) {
                n += (size_t)snprintf(buf + n, cap - n, "%s%d:%lld", sep, c, senders_counts[c]);
                sep = ",";
            }
        n += (size_t)snprintf(buf + n, cap - n, "\n");
    } else if (senders_why[0]) {
        n += (size_t)snprintf(buf + n, cap - n, "N\t%s\n", senders_why);
    }
    return n;
}

void rank_senders_free(void)
{
    free(senders_counts);
    senders_counts = NULL;
}
