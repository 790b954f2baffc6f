/*
 * papi-mpit-merge: a rank's mapped state file as snapshot lines
 * (merge_state_map.h).  The file is mapped read-only and each thread's slot
 * copied by its sequence count (site_current.h): a rank killed in the
 * middle of an update leaves its last complete call, never a torn one.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "merge_map_comms.h"
#include "merge_map_sites.h"
#include "merge_state_map.h"
#include "report_state_map.h"
#include "site_current.h"
#include "site_fn.h"

#define PFX "papi-mpit-report: --merge: "

/* the modules, copied by their sequence count (they change at safe points only) */
static int copy_modules(const state_map_head_t *h, state_map_module_t *mods)
{
    for (int tries = 0; tries < 100; tries++) {
        unsigned a = __atomic_load_n(&h->mod_seq, __ATOMIC_ACQUIRE);
        if (a & 1) continue;
        unsigned n = h->nmods < STATE_MAP_MODULES ? h->nmods : STATE_MAP_MODULES;
        memcpy(mods, h->mods, sizeof *mods * n);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (__atomic_load_n(&h->mod_seq, __ATOMIC_RELAXED) == a) return (int)n;
    }
    return 0;
}

/* a text field of the head, without tabs or newlines (the lines' separators) */
static void field(char *dst, size_t len, const char *src, size_t srclen)
{
    snprintf(dst, len, "%.*s", (int)strnlen(src, srclen), src);
    for (char *p = dst; *p; p++)
        if (*p == '\t' || *p == '\n') *p = ' ';
}

int map_text_read(const char *path, map_text_t *out)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) || st.st_size < (off_t)sizeof(state_map_head_t)) {
        fprintf(stderr, PFX "%s is not a rank's state: left out\n", path);
        if (fd >= 0) close(fd);
        return -1;
    }
    size_t size = (size_t)st.st_size;
    const char *base = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (base == MAP_FAILED) {
        fprintf(stderr, PFX "%s: %s: left out\n", path, strerror(errno));
        return -1;
    }
    const state_map_head_t *h = (const void *)base;
    if (__atomic_load_n(&h->magic, __ATOMIC_ACQUIRE) != STATE_MAP_MAGIC || h->version != STATE_MAP_VERSION ||
        h->nprocs <= 0 || h->rank < 0 || h->rank >= h->nprocs) {
        fprintf(stderr, PFX "%s is not a rank's state (or another version's): left out\n", path);
        munmap((void *)base, size);
        return -1;
    }
    int nslots = __atomic_load_n(&h->nslots, __ATOMIC_ACQUIRE);
    if (nslots > 0 && (h->off_slots + sizeof(sites_slot_t) * (uint64_t)nslots > size ||
                       h->off_p2p_bytes + sizeof(long long) * (uint64_t)h->nprocs > size))
        nslots = 0; /* a layout that does not fit: the head only */
    const sites_slot_t *slots = nslots > 0 ? (const void *)(base + h->off_slots) : NULL;
    /* the wrappers' ticks to CLOCK_MONOTONIC ns (the rate: the last stamp's) */
    long long fs = __atomic_load_n(&h->fs_per_tick, __ATOMIC_RELAXED);
    sites_current_t *cur = calloc((size_t)(nslots > 0 ? nslots : 1), sizeof *cur);
    long long *since = calloc((size_t)(nslots > 0 ? nslots : 1), sizeof *since);
    int ncur = 0;
    long long at = __atomic_load_n(&h->alive_ns, __ATOMIC_ACQUIRE); /* the state's time: the newest we know */
    if (!at) at = h->mono_ns;
    long long changed = 0;
    for (int i = 0; cur && since && i < nslots; i++) {
        if (!sites_slot_read(&slots[i], &cur[ncur]) || cur[ncur].tid <= 0) continue; /* no thread's */
        long long t =
            fs && cur[ncur].since
                ? h->anchor_ns + (long long)((double)(cur[ncur].since - h->anchor_ticks) * (double)fs * 1e-6)
                : 0;
        if (t > changed) changed = t;
        if (cur[ncur].fn < 0 || cur[ncur].fn >= SITES_NFN) continue; /* no call */
        since[ncur] = t;
        if (since[ncur] > at) at = since[ncur];
        ncur++;
    }
    state_map_module_t *mods = malloc(sizeof *mods * STATE_MAP_MODULES);
    int nmods = mods ? copy_modules(h, mods) : 0;
    for (int m = 0; m < nmods; m++) {
        char p[sizeof mods[m].path];
        field(p, sizeof p, mods[m].path, sizeof mods[m].path);
        memcpy(mods[m].path, p, sizeof p);
    }
    char *text = NULL;
    size_t tlen = 0;
    FILE *f = cur && since ? open_memstream(&text, &tlen) : NULL;
    if (!f) {
        fprintf(stderr, PFX "out of memory reading %s\n", path);
        exit(1);
    }
    double wall = (double)(h->real_ns + (at - h->mono_ns)) * 1e-9, elapsed = (double)(at - h->mono_ns) * 1e-9;
    char host[64], started[64], library[256], command[1024];
    field(host, sizeof host, h->host, sizeof h->host);
    field(started, sizeof started, h->started, sizeof h->started);
    field(library, sizeof library, h->library, sizeof h->library);
    field(command, sizeof command, h->command, sizeof h->command);
    fprintf(f, "R\t%d\t%d\tmapped\t0\t%.9f\t%lld\t%.6f\t%lld\n", h->rank, h->nprocs, wall,
            (long long)h->beats, elapsed, (long long)h->pid);
    fprintf(f, "I\t%s\t%s\t%s\n", started, library, command);
    fprintf(f, "H\t%s\t%.6f\n", host, elapsed);
    map_comms_t comms;
    if (map_comms_read(base, size, h, &comms)) {
        fprintf(stderr, PFX "out of memory reading %s\n", path);
        exit(1);
    }
    for (int i = 0; i < ncur; i++) {
        const sites_current_t *c = &cur[i];
        unsigned long off;
        const char *mod = map_module_of(mods, nmods, c->pc, &off);
        char tag[16] = "-";
        if (c->tag != SITES_NO_TAG && !c->any_tag) snprintf(tag, sizeof tag, "%d", c->tag);
        /* the communicator: as the rank recorded it (its cells), self by its key */
        char comm[64], members[256];
        map_comm_name(&comms, c->comm, comm, sizeof comm, members, sizeof members);
        if (c->comm == h->world && !strcmp(comm, "?")) snprintf(comm, sizeof comm, "world");
        if (c->comm == h->self && !strcmp(comm, "?")) snprintf(comm, sizeof comm, "self");
        double age = since[i] ? (double)(at - since[i]) * 1e-9 : 0;
        fprintf(f, "A\t%ld\t%s\t%s\t%s\t%lx\t%.6f\t%d\t%s\t%d\t%d\t%s\t%s\n", c->tid, sites_fn[c->fn].name,
                sites_fn[c->fn].kind, mod, off, age, c->peer, tag, c->any_source, c->any_tag, comm, members);
    }
    if (nslots > 0) map_sites_lines(f, base, size, h, mods, nmods);
    if (nslots > 0) { /* what the wrappers sent, by receiver (site_record.c's T line; "other" is not kept) */
        const long long *msgs = (const void *)(base + h->off_p2p_msgs),
                        *bytes = (const void *)(base + h->off_p2p_bytes);
        const char *sep = "";
        fputs("T\t", f);
        for (int r = 0; r < h->nprocs; r++) {
            long long m = __atomic_load_n(&msgs[r], __ATOMIC_RELAXED);
            if (m)
                fprintf(f, "%s%d:%lld:%lld", sep, r, m, __atomic_load_n(&bytes[r], __ATOMIC_RELAXED)),
                    sep = ",";
        }
        fprintf(f, "%s\t0\n", *sep ? "" : "-");
    }
    out->rank = h->rank, out->nprocs = h->nprocs, out->wall = wall;
    out->changed = changed ? (double)(h->real_ns + (changed - h->mono_ns)) * 1e-9 : 0;
    munmap((void *)base, size);
    free(cur), free(since), free(mods);
    map_comms_free(&comms);
    if (fclose(f) || !text) {
        fprintf(stderr, PFX "out of memory reading %s\n", path);
        exit(1);
    }
    out->text = text;
    return 0;
}
