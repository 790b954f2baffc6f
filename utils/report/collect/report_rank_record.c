/*
 * papi-mpit-report: the queue maxima sampled during the run
 * (report_sample.c) and the rank's record, the text its values travel in
 * to rank 0 and into its snapshots (read back by report_record_text.c).
 */
#include <papi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "papi_mpit.h"
#include "report_peers.h"
#include "report_rank.h"
#include "report_sample.h"
#include "site_report.h"
#include "site_table.h"

/* ---- the maxima kept over what reads see: read every period by a thread
 * of ours, so that a queue that fills and drains between MPI_Init and
 * MPI_Finalize shows its peak (report_sample.c) */
#define MAX_SAMPLED 16
static int sample_codes[MAX_SAMPLED];
static int series_codes[SAMPLE_SERIES], series_ev[SAMPLE_SERIES], nseries; /* queue lengths over time */
static double sample_ms;                                                   /* the period; 0: not sampled */
static long samples_taken;
static double sample_cpu_s; /* the sampler thread's CPU time */

void rank_sampling_begin(void)
{
    int n = 0, bad;
    double ms = sample_period_ms(&bad);
    if (bad && rank_id == 0)
        rank_note(
            "--sample-period (PAPI_MPIT_REPORT_SAMPLE_MS) '%s' is not a number of milliseconds from 0 to "
            "3600000: sampling every %g ms",
            getenv("PAPI_MPIT_REPORT_SAMPLE_MS"), ms);
    nseries = 0;
    for (int i = 0; i < rank_nev; i++) {
        size_t len = strlen(rank_evs[i].name);
        if (rank_evs[i].set >= 0 && n < MAX_SAMPLED && sample_needed(rank_evs[i].code)) {
            rank_evs[i].sampled = 1;
            sample_codes[n++] = rank_evs[i].code;
        } else if (rank_evs[i].set >= 0 && nseries < SAMPLE_SERIES && len > 13 &&
                   strcmp(rank_evs[i].name + len - 13, "_QUEUE_LENGTH") == 0) {
            series_ev[nseries] = i;
            series_codes[nseries++] = rank_evs[i].code;
        }
    }
    sample_series(series_codes, nseries);
    if ((!n && !nseries) || ms == 0) return;
    char why[256];
    if (sample_start(sample_codes, n, ms, why, sizeof why) == 0)
        sample_ms = ms;
    else if (rank_id == 0)
        rank_note("queue maxima not sampled (%s): they are the largest seen at start and end", why);
}

/* the sampler's end, before the sets it feeds stop */
void rank_sampling_end(void) { samples_taken = sample_stop(&sample_cpu_s); }

/* "Z\tname\tt:v,..." per queue length sampled over time (t: seconds
 * from MPI_Init) */
static size_t series_record(char *buf, size_t cap)
{
    static double t[SAMPLE_KEEP], v[SAMPLE_KEEP]; /* one writer at a time: rank_state_mu or the end */
    size_t n = 0;
    for (int k = 0; k < nseries; k++) {
        int m = sample_series_copy(k, t, v, SAMPLE_KEEP);
        if (!m || n + REPORT_NAME_LEN + 8 >= cap) continue;
        n += (size_t)snprintf(buf + n, cap - n, "Z\t%s\t", rank_evs[series_ev[k]].name);
        for (int i = 0; i < m && n + 48 < cap; i++)
            n += (size_t)snprintf(buf + n, cap - n, "%s%.3f:%.17g", i ? "," : "", t[i] - rank_t_start_mono,
                                  v[i]);
        n += (size_t)snprintf(buf + n, cap - n, "\n");
    }
    return n < cap ? n : cap;
}

/* Rank r's record: "H\thost\telapsed", then "E\tname\tunits\ti|f\tvalue" per
 * measured event (followed by "P\tname" when it is a sampled maximum) and
 * "S\tname\treason" per skipped one ("U\t..." for a default metric); "Q\tperiod_ms\tsamples" when some
 * maximum is sampled; then the senders,
 * "M\tkind\tother\tcolumns\tsender:value,..." (nonzero ones only: the record
 * travels in tags, a few bytes per message) or "N\treason"; then the
 * communication matrix's row (report_peers.h: X, Y or W lines). */
char *rank_serialize(double elapsed, int *len, int snapshot)
{
    size_t cap = 256 + (size_t)rank_nev * (2 * REPORT_NAME_LEN + REPORT_REASON_LEN + 64) +
                 rank_senders_record_cap() + peers_record_cap() + sites_record_cap() +
                 (size_t)nseries * (REPORT_NAME_LEN + 48 * SAMPLE_KEEP),
           n = 0;
    char *buf = malloc(cap), host[REPORT_HOST_LEN] = "";
    int sampled = 0;
    if (!buf) return NULL;
    gethostname(host, sizeof host - 1);
    rank_clean_text(host);
    n += (size_t)snprintf(buf + n, cap - n, "H\t%s\t%.9f\n", host, elapsed);
    for (int i = 0; i < rank_nev; i++) {
        ev_t *e = &rank_evs[i];
        if (e->set >= 0 && snapshot && !rank_sets_stopped && rank_sets[e->set].in_main)
            continue; /* not read now */
        if (e->set >= 0) {
            if (e->is_fp) {
                double d;
                memcpy(&d, &e->value, sizeof d);
                n += (size_t)snprintf(buf + n, cap - n, "E\t%s\t%s\tf\t%.17g\n", e->name, e->units, d);
            } else {
                n += (size_t)snprintf(buf + n, cap - n, "E\t%s\t%s\ti\t%lld\n", e->name, e->units, e->value);
            }
            if (e->sampled) {
                n += (size_t)snprintf(buf + n, cap - n, "P\t%s\n", e->name);
                sampled = 1;
            }
        } else if (e->quiet != SAY_NOTHING) { /* U: a default metric, said at the report's top */
            n += (size_t)snprintf(buf + n, cap - n, "%c\t%s\t%s\n", e->quiet == SAY_FOLDED ? 'U' : 'S',
                                  e->name, e->reason);
        }
    }
    if (sampled)
        n += (size_t)snprintf(buf + n, cap - n, "Q\t%g\t%.9f\t%ld\n", sample_ms, sample_cpu_s,
                              snapshot && !rank_sets_stopped ? papi_mpit_report_samples() : samples_taken);
    n += rank_senders_record(buf + n, cap - n);
    if (!snapshot || rank_window_closed) n += peers_record(buf + n, cap - n);
    n += sites_record(buf + n, cap - n);
    n += series_record(buf + n, cap - n);
    *len = (int)n;
    return buf;
}
