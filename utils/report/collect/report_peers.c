/*
 * papi-mpit-report: each rank's row of the communication matrix.  The
 * vectors (papi_mpit_peers_*, one element per rank of MPI_COMM_WORLD) are
 * read when the counting window opens and when it closes; the row is the
 * difference, so the tool's own start-up and collection messages stay out
 * of it.  They are read once more just before MPI_Finalize so that the
 * self-check can say what the tool itself sent outside the window (Open
 * MPI's own printout at MPI_Finalize covers the whole run).
 */
#include <mpi.h>
#include <papi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi_mpit.h"
#include "report.h"
#include "report_env.h"
#include "report_handles.h"
#include "report_peers.h"

#define PFX "papi-mpit-report: "

/* where each kind of the matrix comes from: the vectors of its messages
 * (-1: none kept) and bytes; reversed: the peer is the sender (gets) */
static const struct {
    int msgs, bytes, reversed;
} source[REPORT_MATRIX_KINDS] = {
    [REPORT_MATRIX_P2P] = {PAPI_MPIT_PEERS_MSGS, PAPI_MPIT_PEERS_BYTES, 0},
    [REPORT_MATRIX_COLL] = {PAPI_MPIT_PEERS_COLL_MSGS, PAPI_MPIT_PEERS_COLL_BYTES, 0},
    [REPORT_MATRIX_RMA_PUT] = {-1, PAPI_MPIT_PEERS_RMA_BYTES_SENT, 0},
    [REPORT_MATRIX_RMA_GET] = {-1, PAPI_MPIT_PEERS_RMA_BYTES_RECEIVED, 1},
};

enum { AT_OPEN, AT_CLOSE, AT_END, MOMENTS };

static int on, my_rank, n;
static char note[REPORT_REASON_LEN];                     /* why no kind at all */
static char why[REPORT_MATRIX_KINDS][REPORT_REASON_LEN]; /* why a kind is absent */
static int have[REPORT_MATRIX_KINDS];
static long long *val[REPORT_MATRIX_KINDS][2][MOMENTS]; /* [kind][msgs, bytes][moment][peer] */

/* Open MPI's monitoring, which the matrix reads, is asked for (--matrix):
 * off by default, since it slows every message (+10 to +15 % on an 8-byte round
 * trip) and some releases crash with it (4.1 at MPI_Comm_disconnect after
 * MPI_Comm_spawn, 6.0.0~rc2 in MPI_Init); doc/performance.md. */
static int wanted(void) { return report_bool_env("PAPI_MPIT_REPORT_MATRIX", 0); }

/* The component turns the monitoring on for a monitoring-backed name looked
 * up before MPI_Init, unless pml_monitoring_enable is set: the tool's own
 * look-ups (the default metrics) run with it set to 0, then unset again, so
 * that Open MPI starts as the user set it. */
#define ENABLE_ENV "OMPI_MCA_pml_monitoring_enable"
static int held_off;

void peers_hold_off(int on)
{
    if (on && !wanted() && !getenv(ENABLE_ENV)) {
        setenv(ENABLE_ENV, "0", 1);
        held_off = 1;
    } else if (!on && held_off == 1) {
        unsetenv(ENABLE_ENV);
        held_off = 2; /* the answer of peers_held_off from now on */
    }
}

int peers_held_off(void) { return held_off != 0; }

int peers_wanted(void) { return wanted(); }

void peers_announce(void)
{
    int code;
    if (!wanted()) return;
    /* a monitoring-backed name looked up before MPI_Init makes the component
     * turn Open MPI's monitoring on, whatever the event list says */
    int was_quiet = papi_mpit_quiet(1);
    PAPI_event_name_to_code("mpit:::COLL_MSGS_SENT", &code);
    papi_mpit_quiet(was_quiet);
}

static int is_family(const char *prefix, int major)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    PMPI_Get_library_version(v, &len);
    size_t p = strlen(prefix);
    return strncmp(v, prefix, p) == 0 && (major < 0 || atoi(v + p) == major);
}

static void one_line(char *s)
{
    for (; *s; s++)
        if (*s == '\n' || *s == '\t') *s = ' ';
}

static int read_at(int moment)
{
    int ok = 0;
    for (int k = 0; k < REPORT_MATRIX_KINDS; k++) {
        if (!have[k]) continue;
        for (int w = 0; w < 2; w++) {
            int v = w ? source[k].bytes : source[k].msgs;
            if (v < 0) continue;
            int rc = papi_mpit_peers_read(v, val[k][w][moment], n);
            if (rc != PAPI_OK) {
                have[k] = 0;
                snprintf(why[k], sizeof why[k], "papi_mpit_peers_read: %s", PAPI_strerror(rc));
            }
        }
        ok |= have[k];
    }
    return ok;
}

void peers_begin(int rank, int nprocs)
{
    my_rank = rank;
    n = nprocs;
    if (!wanted()) {
        snprintf(
            note, sizeof note, "%s",
            is_family("Open MPI", -1)
                ? "off: --matrix (PAPI_MPIT_REPORT_MATRIX=1) turns on Open MPI's monitoring, which counts "
                  "traffic by peer, at a cost (see papi-mpit-report(1), OPEN MPI'S MONITORING)"
                : "the MPI has no per-peer variables");
        return;
    }
    int was_quiet = papi_mpit_quiet(1); /* rank 0's report says why, once */
    int rc = papi_mpit_peers_start();
    papi_mpit_quiet(was_quiet);
    if (rc != PAPI_OK) {
        char reason[REPORT_REASON_LEN] = "";
        if (!papi_mpit_why("peers", reason, sizeof reason))
            snprintf(reason, sizeof reason, "papi_mpit_peers_start: %s", PAPI_strerror(rc));
        snprintf(note, sizeof note, "%s%s", is_family("MPICH", -1) ? "MPICH has no per-peer variables; " : "",
                 reason);
        one_line(note);
        return;
    }
    on = 1;
    for (int k = 0; k < REPORT_MATRIX_KINDS; k++) {
        int cb = papi_mpit_peers_count(source[k].bytes);
        int cm = source[k].msgs < 0 ? cb : papi_mpit_peers_count(source[k].msgs);
        if (cb != nprocs || cm != nprocs) {
            if (k == REPORT_MATRIX_P2P && is_family("Open MPI v", 4))
                snprintf(
                    why[k], sizeof why[k],
                    "Open MPI 4.1 hides the pml monitoring variables after MPI_Init: open-mpi/ompi#9260");
            else
                snprintf(why[k], sizeof why[k], "not given by this MPI");
            continue;
        }
        have[k] = 1;
        for (int w = 0; w < 2; w++)
            for (int m = 0; m < MOMENTS; m++)
                if (!(val[k][w][m] = calloc((size_t)nprocs, sizeof(long long)))) have[k] = 0;
        if (!have[k]) snprintf(why[k], sizeof why[k], "out of memory");
    }
}

void peers_window_open(void)
{
    if (on) read_at(AT_OPEN);
}

void peers_window_close(void)
{
    if (on) read_at(AT_CLOSE);
}

size_t peers_record_cap(void) { return 64 + REPORT_MATRIX_KINDS * ((size_t)n * 64 + REPORT_REASON_LEN + 16); }

/* what peer p saw of kind k between moments a and b: messages (w 0), bytes (w 1) */
static long long diff(int k, int w, int a, int b, int p)
{
    if (w == 0 && source[k].msgs < 0) return -1;
    return val[k][w][b][p] - val[k][w][a][p];
}

size_t peers_record(char *buf, size_t cap)
{
    size_t at = 0;
#define PUT(...) (at += (size_t)snprintf(buf + at, at < cap ? cap - at : 0, __VA_ARGS__))
    if (!on) {
        if (note[0]) PUT("W\t%s\n", note);
        return at < cap ? at : cap;
    }
    for (int k = 0; k < REPORT_MATRIX_KINDS; k++) {
        if (!have[k]) {
            PUT("Y\t%s\t%s\n", report_matrix_kind_name(k), why[k]);
            continue;
        }
        PUT("X\t%s\t", report_matrix_kind_name(k));
        const char *sep = "";
        for (int p = 0; p < n; p++) {
            long long m = diff(k, 0, AT_OPEN, AT_CLOSE, p), b = diff(k, 1, AT_OPEN, AT_CLOSE, p);
            if (m <= 0 && b == 0) continue;
            PUT("%s%d:%lld:%lld", sep, p, m, b);
            sep = ",";
        }
        PUT("\n");
    }
#undef PUT
    return at < cap ? at : cap;
}

/* One write per line: the ranks share stderr, and a line written piecewise
 * can be cut by another rank's. */
static void selfcheck_line(int k)
{
    size_t cap = 128 + (size_t)n * 64, at = 0;
    char *line = malloc(cap);
    if (!line) return;
    at += (size_t)snprintf(line, cap, PFX "self-check rank %d outside the matrix %s:", my_rank,
                           report_matrix_kind_name(k));
    for (int p = 0; p < n && at < cap; p++) {
        /* since peers_begin, less the window: the tool's own traffic */
        long long m = val[k][0][AT_END][p] - diff(k, 0, AT_OPEN, AT_CLOSE, p),
                  b = val[k][1][AT_END][p] - diff(k, 1, AT_OPEN, AT_CLOSE, p);
        if (source[k].msgs < 0) m = -1;
        if (m > 0 || b) at += (size_t)snprintf(line + at, cap - at, " %d:%lld:%lld", p, m, b);
    }
    if (at + 1 < cap) {
        line[at] = '\n';
        line[at + 1] = '\0';
        fputs(line, stderr);
    }
    free(line);
}

void peers_end(int selfcheck)
{
    if (!on) return;
    if (read_at(AT_END) && selfcheck)
        for (int k = 0; k < REPORT_MATRIX_KINDS; k++)
            if (have[k]) selfcheck_line(k);
    papi_mpit_peers_stop();
    on = 0;
    for (int k = 0; k < REPORT_MATRIX_KINDS; k++)
        for (int w = 0; w < 2; w++)
            for (int m = 0; m < MOMENTS; m++) {
                free(val[k][w][m]);
                val[k][w][m] = NULL;
            }
}
