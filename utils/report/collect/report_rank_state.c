/*
 * papi-mpit-report: the rank's state written without any MPI call, by the
 * helper thread, on the triggers of report_snapshot.c.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>
#include <papi.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report_env.h"
#include "report_handles.h" /* Open MPI's handles without its data symbols */
#include "report_rank.h"
#include "report_snapshot.h"
#include "report_state_map.h"
#include "site_comm_cells.h"
#include "site_comms.h"
#include "site_fn.h"
#include "site_table.h"
#include "site_timeline.h"

/* The program's arguments, quoted as a shell needs them (a 'b c'). */
void rank_read_command(char *buf, size_t len)
{
    char args[8192];
    FILE *f = fopen("/proc/self/cmdline", "r");
    buf[0] = '\0';
    if (!f) return;
    size_t n = fread(args, 1, sizeof args, f);
    fclose(f);
    report_fmt_command(buf, len, args, n);
}

/* ---- the rank's state without any MPI call (report_snapshot.h): written
 * by the helper thread into DIR/snapshot.RANK.txt: an R line (rank, size,
 * why, the signal, when), the record as serialize writes it (the values
 * read now), the calls in progress (A lines) and the communicators (B). */
static char snap_path[4200];
static int map_on; /* DIR/state.RANK.map holds the tables (report_state_map.h) */

/* the helper's stamp: alive, and the wrappers' clock to read the slots by */
static void map_beat(void)
{
    long long ticks, ns;
    double ns_tick;
    sites_clock(&ticks, &ns, &ns_tick);
    state_map_beat(ticks, ns, ns_tick);
    state_map_modules(); /* a module loaded since (dlopen) */
}

/* Before the call-site tables exist: the rank's mapped state file, where
 * they are to live; wherever snapshots would be written (DIR, snapshots
 * on), unless PAPI_MPIT_REPORT_STATE_MAP=0.  Said once (rank 0, or the
 * rank that failed) when it cannot be had: then snapshots only, as before. */
void rank_map_start(void)
{
    map_on = 0;
    const char *dir = getenv("PAPI_MPIT_REPORT_DIR");
    if (!dir || !*dir || !report_bool_env("PAPI_MPIT_REPORT_SNAPSHOTS", 1) ||
        !report_bool_env("PAPI_MPIT_REPORT_STATE_MAP", 1))
        return;
    sites_layout_t l;
    size_t comms_at = (sites_state_layout(rank_nprocs, &l) + 63) & ~(size_t)63;
    size_t area = comms_at + sizeof(sites_comm_cell_t) * SITES_COMMS_MAX;
    char why[4400];
    if (state_map_open(dir, rank_id, rank_nprocs, area, why, sizeof why)) {
        rank_note("rank %d: no mapped state file (%s): its state is left only by snapshots, on signals and "
                  "periodically",
                  rank_id, why);
        return;
    }
    state_map_layout(l.slots, l.sites, l.colls, l.p2p_msgs, l.p2p_bytes, l.nslots, l.nsites, l.ncolls);
    state_map_rings(l.rings, SITES_RING_CALLS, (int)sizeof(sites_ring_t));
    state_map_overflows(l.overflows);
    state_map_py_lines(l.py_lines, l.npy_lines, (int)sizeof(sites_py_line_t));
    state_map_modules();
    sites_place(state_map_area(), comms_at);
    sites_comms_place((sites_comm_cell_t *)((char *)state_map_area() + comms_at));
    state_map_comms(comms_at, SITES_COMMS_MAX);
    snap_every_second(map_beat);
    map_on = 1;
}

/* The wrappers count from now on: the clock's anchors in the file, before any slot says a time. */
void rank_map_window_open(void)
{
    if (map_on) map_beat();
}
static char library_version[256], command_line[1024]; /* for the merge, read at the start */
static long snap_seq;

void rank_snap_start(void)
{
    rank_snap_on = 0;
    if (!snap_wanted(map_on)) return;
    int vlen = 0;
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    PMPI_Get_library_version(version, &vlen);
    version[strcspn(version, "\n")] = '\0';
    snprintf(library_version, sizeof library_version, "%s", version);
    rank_clean_text(library_version);
    rank_read_command(command_line, sizeof command_line);
    rank_clean_text(command_line);
    if (map_on) {
        MPI_Comm world = MPI_COMM_WORLD, self = MPI_COMM_SELF;
        state_map_describe(rank_started_iso, library_version, command_line, sites_key(world),
                           sites_key(self));
    }
    const char *dir = getenv("PAPI_MPIT_REPORT_DIR");
    snprintf(snap_path, sizeof snap_path, "%s/snapshot.%d.txt", dir, rank_id);
    unlink(snap_path); /* an earlier run's */
    char why[256];
    if (snap_install(why, sizeof why) == 0)
        rank_snap_on = 1;
    else if (rank_id == 0)
        rank_note("no snapshots of the ranks' state (%s)", why);
}

void rank_snap_remove(void)
{
    if (snap_path[0]) unlink(snap_path);
    state_map_remove();
}

/* "A\ttid\tcall\tkind\tmodule\toffset\tseconds\tpeer\ttag\tany_source\tany_tag\tcomm\tmembers"
 * per thread in a wrapped call (peer: world rank, -1 none; tag: - for none) */
static size_t current_record(char *buf, size_t cap, long long now_ns)
{
    sites_current_t cur[SITES_THREADS];
    int n = 0;
    size_t w = 0;
    sites_current(cur, SITES_THREADS, &n);
    for (int i = 0; i < n && w + 4500 < cap; i++) {
        const sites_current_t *c = &cur[i];
        if (c->fn < 0 || c->fn >= SITES_NFN) continue;
        char path[4096], id[64], members[256], tag[16] = "-";
        unsigned long off;
        sites_module_of(c->pc, path, sizeof path, &off);
        sites_comm_describe(c->comm, id, sizeof id, members, sizeof members);
        if (c->tag != SITES_NO_TAG && !c->any_tag) snprintf(tag, sizeof tag, "%d", c->tag);
        w += (size_t)snprintf(buf + w, cap - w, "A\t%ld\t%s\t%s\t%s\t%lx\t%.6f\t%d\t%s\t%d\t%d\t%s\t%s\n",
                              c->tid, sites_fn[c->fn].name, sites_fn[c->fn].kind, path[0] ? path : "?", off,
                              (double)(now_ns - c->since) * 1e-9, c->peer, tag, c->any_source, c->any_tag, id,
                              members[0] ? members : "-");
    }
    if (rank_state == ST_DONE && w + 256 < cap) /* the tool's collection in MPI_Finalize */
        w += (size_t)snprintf(buf + w, cap - w,
                              "A\t%ld\tMPI_Finalize\tfinalize\t-\t0\t%.6f\t-1\t-\t0\t0\tworld\t-\n",
                              (long)rank_main_tid, rank_monotonic_s() - rank_t_finish_mono);
    return w;
}

void rank_write_state(int reason, int signo, void *arg)
{
    (void)arg;
    double t0 = rank_monotonic_s();
    long long now_ns = sites_now_ns();
    pthread_mutex_lock(&rank_state_mu);
    if (!rank_sets_stopped) /* the values now: the helper's own sets (those of the program's thread wait) */
        for (int s = 0; s < rank_nsets; s++) {
            if (rank_sets[s].in_main || !rank_sets[s].running ||
                PAPI_read(rank_sets[s].es, rank_sets[s].values) != PAPI_OK)
                continue;
            for (int i = 0; i < rank_nev; i++)
                if (rank_evs[i].set == s) rank_evs[i].value = rank_sets[s].values[rank_evs[i].pos];
        }
    int len = 0;
    double elapsed = (rank_state == ST_DONE ? rank_t_finish_mono : t0) - rank_t_start_mono;
    char *rec = rank_serialize(elapsed, &len, 1);
    size_t extra = 8192 + (size_t)SITES_THREADS * 4600 + 1024 * 300;
    char *more = malloc(extra);
    size_t m = 0;
    if (more) {
        struct timespec wall;
        clock_gettime(CLOCK_REALTIME, &wall);
        m += (size_t)snprintf(more, extra, "R\t%d\t%d\t%s\t%d\t%lld.%09ld\t%ld\t%.6f\t%ld\n", rank_id,
                              rank_nprocs, snap_reason_name(reason), signo > 0 ? signo : 0,
                              (long long)wall.tv_sec, wall.tv_nsec, ++snap_seq, elapsed, (long)getpid());
        m += (size_t)snprintf(more + m, extra - m, "I\t%s\t%s\t%s\n", rank_started_iso, library_version,
                              command_line);
        m += current_record(more + m, extra - m, now_ns);
        m += sites_comms_record(more + m, extra - m);
    }
    pthread_mutex_unlock(&rank_state_mu);
    const char *dir = getenv("PAPI_MPIT_REPORT_DIR");
    char tmp[4400], file[64];
    snprintf(file, sizeof file, "snapshot.%d.txt", rank_id);
    FILE *f = rec && more ? report_open_temp(dir, file, tmp, sizeof tmp) : NULL;
    int err = f ? 0 : errno ? errno : ENOMEM;
    if (f) {
        fwrite(more, 1, m, f);
        fwrite(rec, 1, (size_t)len, f);
        /* what writing it took; on a signal, also the time from its arrival */
        if (reason == SNAP_SIGNAL)
            fprintf(f, "D\t%.6f\t%.6f\n", rank_monotonic_s() - t0, snap_since_signal_s());
        else
            fprintf(f, "D\t%.6f\n", rank_monotonic_s() - t0);
        /* no fsync: a killed process's writes are in the kernel already, and
         * the time counts when mpirun kills the other ranks once one ends */
        if (fflush(f)) err = errno;
        if (fclose(f) && !err) err = errno;
        if (!err && rename(tmp, snap_path)) err = errno;
        if (err) unlink(tmp);
    }
    free(rec);
    free(more);
    static int failed_said;
    if (err && !failed_said) {
        failed_said = 1;
        rank_note("rank %d: cannot write its state in %s: %s", rank_id, dir, strerror(err));
    } else if (!err && signo < 0) {
        rank_note(
            "rank %d: no MPI call returned for %g s while one was in progress: its state is in %s; the job "
            "goes on (said once)",
            rank_id, atof(getenv("PAPI_MPIT_REPORT_WATCHDOG_MS")) / 1000, snap_path);
    }
}
