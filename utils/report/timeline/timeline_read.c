/*
 * papi-mpit-merge: the timeline (timeline.h) from the ranks' mapped state
 * files.  Each ring is copied record by record by its sequence numbers
 * (site_timeline.h): a record torn when the rank died is left out and
 * counted.  Times go from the wrappers' ticks to CLOCK_MONOTONIC by the
 * head's anchor and rate (the helper's last stamp), then to Unix time by
 * the head's pair of clocks taken at MPI_Init, as the merge's snapshot
 * lines do; the sites are named through libdw (site_names.c).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_state_map.h"
#include "site_current.h"
#include "site_fn.h"
#include "site_job.h"
#include "site_timeline.h"
#include "timeline.h"

/* one rank's mapped file, read-only */
typedef struct map {
    const char *base;
    size_t size;
    const state_map_head_t *h;
    state_map_module_t *mods;
    int nmods;
} map_t;

static int map_open(const char *path, map_t *m)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0) return -1;
    if (fstat(fd, &st) || st.st_size < (off_t)sizeof(state_map_head_t)) {
        close(fd);
        return -1;
    }
    m->size = (size_t)st.st_size;
    m->base = mmap(NULL, m->size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (m->base == MAP_FAILED) return -1;
    m->h = (const void *)m->base;
    if (__atomic_load_n(&m->h->magic, __ATOMIC_ACQUIRE) != STATE_MAP_MAGIC ||
        m->h->version != STATE_MAP_VERSION) {
        munmap((void *)m->base, m->size);
        return -1;
    }
    return 0;
}

/* the modules, copied by their sequence count */
static void map_modules(map_t *m)
{
    m->mods = malloc(sizeof *m->mods * STATE_MAP_MODULES);
    m->nmods = 0;
    for (int tries = 0; m->mods && tries < 100; tries++) {
        unsigned a = __atomic_load_n(&m->h->mod_seq, __ATOMIC_ACQUIRE);
        if (a & 1) continue;
        unsigned n = m->h->nmods < STATE_MAP_MODULES ? m->h->nmods : STATE_MAP_MODULES;
        memcpy(m->mods, m->h->mods, sizeof *m->mods * n);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (__atomic_load_n(&m->h->mod_seq, __ATOMIC_RELAXED) == a) {
            m->nmods = (int)n;
            return;
        }
    }
}

/* the wrappers' ticks to Unix ns */
static long long wall_ns(const state_map_head_t *h, long long fs, long long ticks)
{
    long long mono = h->anchor_ns + (long long)((double)(ticks - h->anchor_ticks) * (double)fs * 1e-6);
    return h->real_ns + (mono - h->mono_ns);
}

/* the site of pc: the index of (module, offset) in tl's sites, added when new */
static int site_of(timeline_t *tl, const map_t *m, uint64_t pc)
{
    const char *mod = "?";
    unsigned long off = (unsigned long)pc;
    for (int i = 0; i < m->nmods; i++)
        if (pc >= m->mods[i].start && pc < m->mods[i].end) {
            if (m->mods[i].path[0]) mod = m->mods[i].path;
            off = (unsigned long)(pc - m->mods[i].base);
            break;
        }
    for (int i = 0; i < tl->nsites; i++)
        if (tl->sites[i].off == off && strcmp(tl->sites[i].module, mod) == 0) return i;
    tl_site_t *s = realloc(tl->sites, sizeof *s * (size_t)(tl->nsites + 1));
    if (!s) return -1;
    tl->sites = s;
    s = &s[tl->nsites];
    memset(s, 0, sizeof *s);
    s->module = strndup(mod, sizeof m->mods[0].path);
    s->off = off;
    return s->module ? tl->nsites++ : -1;
}

static void comm_name(char *dst, size_t len, const state_map_head_t *h, uint64_t comm)
{
    if (comm == h->world)
        snprintf(dst, len, "world");
    else if (comm == h->self)
        snprintf(dst, len, "self");
    else if (comm == 0)
        snprintf(dst, len, "-");
    else
        snprintf(dst, len, "0x%llx", (unsigned long long)comm);
}

/* one thread slot's ring and call in progress into a tl_thread_t */
static int read_thread(timeline_t *tl, const map_t *m, const sites_ring_t *ring, const sites_slot_t *slot,
                       int rank, int index, long long fs)
{
    const state_map_head_t *h = m->h;
    sites_current_t cur;
    if (!sites_slot_read(slot, &cur) || cur.tid <= 0) return 0; /* no thread's */
    tl_thread_t t = {.rank = rank, .slot = index, .tid = cur.tid};
    t.done = __atomic_load_n(&ring->done, __ATOMIC_ACQUIRE);
    uint64_t first = t.done > (uint64_t)SITES_RING_CALLS ? t.done - SITES_RING_CALLS : 0;
    t.calls = calloc((size_t)(t.done - first) + 1, sizeof *t.calls);
    if (!t.calls) return -1;
    for (uint64_t i = first; i < t.done; i++) {
        sites_ring_call_t r;
        if (!sites_ring_get(ring, i, &r) || r.fn < 0 || r.fn >= SITES_NFN) {
            t.lost++;
            continue;
        }
        tl_call_t *c = &t.calls[t.ncalls++];
        c->number = i + 1, c->fn = r.fn, c->site = site_of(tl, m, r.pc);
        c->peer = r.peer, c->tag = r.tag, c->any_source = r.any & 1, c->any_tag = (r.any >> 1) & 1;
        comm_name(c->comm, sizeof c->comm, h, r.comm);
        c->sent = r.sent, c->received = r.received;
        c->t0 = wall_ns(h, fs, r.t0), c->t1 = wall_ns(h, fs, r.t1);
    }
    /* the call in progress, unless the rank died between its ring record and its slot's update */
    const tl_call_t *last = t.ncalls ? &t.calls[t.ncalls - 1] : NULL;
    long long since = cur.fn >= 0 ? wall_ns(h, fs, cur.since) : 0;
    if (cur.fn >= 0 && cur.fn < SITES_NFN && !(last && last->fn == cur.fn && last->t0 == since)) {
        tl_call_t *c = &t.calls[t.ncalls++];
        c->number = t.done + 1, c->fn = cur.fn, c->site = site_of(tl, m, cur.pc);
        c->peer = cur.peer, c->tag = cur.tag, c->any_source = cur.any_source, c->any_tag = cur.any_tag;
        comm_name(c->comm, sizeof c->comm, h, cur.comm);
        c->t0 = since, c->open = 1;
    }
    tl_thread_t *all = realloc(tl->threads, sizeof *all * (size_t)(tl->nthreads + 1));
    if (!all) {
        free(t.calls);
        return -1;
    }
    tl->threads = all;
    all[tl->nthreads++] = t;
    return 0;
}

static void read_rank(timeline_t *tl, const char *dir, int rank)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/state.%d.map", dir, rank);
    map_t m;
    if (map_open(path, &m)) return;
    const state_map_head_t *h = m.h;
    int nslots = __atomic_load_n(&h->nslots, __ATOMIC_ACQUIRE);
    uint64_t rings = __atomic_load_n(&h->off_rings, __ATOMIC_ACQUIRE);
    long long fs = __atomic_load_n(&h->fs_per_tick, __ATOMIC_RELAXED);
    if (h->rank == rank && nslots > 0 && rings && fs > 0 && h->ring_calls == SITES_RING_CALLS &&
        h->ring_size == (int)sizeof(sites_ring_t) &&
        rings + sizeof(sites_ring_t) * (uint64_t)nslots <= m.size &&
        h->off_slots + sizeof(sites_slot_t) * (uint64_t)nslots <= m.size) {
        map_modules(&m);
        tl->hosts[rank] = strndup(h->host, sizeof h->host);
        const sites_ring_t *r = (const void *)(m.base + rings);
        const sites_slot_t *s = (const void *)(m.base + h->off_slots);
        for (int i = 0; i < nslots; i++) read_thread(tl, &m, &r[i], &s[i], rank, i, fs);
        long long alive = __atomic_load_n(&h->alive_ns, __ATOMIC_ACQUIRE);
        if (alive && h->real_ns + (alive - h->mono_ns) > tl->end) tl->end = h->real_ns + (alive - h->mono_ns);
        free(m.mods);
    }
    munmap((void *)m.base, m.size);
}

/* the sites' labels through site_names.c, each a site of the program's own line */
static void name_sites(timeline_t *tl)
{
    sites_job_t j;
    memset(&j, 0, sizeof j);
    j.sites = calloc((size_t)tl->nsites + 1, sizeof *j.sites);
    if (!j.sites) return;
    j.nsites = tl->nsites;
    for (int i = 0; i < tl->nsites; i++)
        j.sites[i].module = tl->sites[i].module, j.sites[i].off = tl->sites[i].off,
        j.sites[i].how = SITES_PROG_SELF;
    sites_name_all(&j);
    for (int i = 0; i < tl->nsites; i++)
        snprintf(tl->sites[i].label, sizeof tl->sites[i].label, "%s", j.sites[i].label);
    for (int i = 0; i < j.nnolines; i++) free(j.nolines[i]);
    free(j.nolines);
    free(j.sites);
}

int timeline_read(const char *dir, int nprocs, timeline_t *tl)
{
    memset(tl, 0, sizeof *tl);
    tl->nprocs = nprocs, tl->ring_calls = SITES_RING_CALLS;
    tl->hosts = calloc((size_t)nprocs + 1, sizeof *tl->hosts);
    if (!tl->hosts) return -1;
    for (int r = 0; r < nprocs; r++) read_rank(tl, dir, r);
    if (!tl->nthreads) return -1;
    tl->origin = 0;
    for (int i = 0; i < tl->nthreads; i++)
        for (int k = 0; k < tl->threads[i].ncalls; k++) {
            const tl_call_t *c = &tl->threads[i].calls[k];
            if (!tl->origin || c->t0 < tl->origin) tl->origin = c->t0;
            if (c->t1 > tl->end) tl->end = c->t1;
            if (c->t0 > tl->end) tl->end = c->t0;
        }
    name_sites(tl);
    return 0;
}

void timeline_free(timeline_t *tl)
{
    for (int r = 0; tl->hosts && r < tl->nprocs; r++) free(tl->hosts[r]);
    for (int i = 0; i < tl->nthreads; i++) free(tl->threads[i].calls);
    for (int i = 0; i < tl->nsites; i++) free(tl->sites[i].module);
    free(tl->hosts), free(tl->threads), free(tl->sites);
    memset(tl, 0, sizeof *tl);
}
