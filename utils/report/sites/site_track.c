/*
 * papi-mpit-report: the requests and messages whose message is charged
 * later (a nonblocking receive at its completion, a persistent send at each
 * MPI_Start, a matched probe's message at its receive): an open-addressed
 * table of fixed size, claimed with compare-and-swap; and the completion
 * calls' batches of them.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "site_count.h"
#include "site_hash.h"
#include "site_private.h"
#include "site_table.h"

#define TRACK_MAX 16384 /* requests and messages tracked at once */

/* ---- requests and messages whose message is charged later */
enum { TR_FREE, TR_RECV, TR_PRECV, TR_PSEND, TR_MESSAGE, TR_GONE };
typedef struct track {
    uintptr_t key;
    int state;                    /* TR_*: TR_FREE never used, TR_GONE removed (probing goes on past
                it) */
    int peer;                     /* psend: world rank; recv: the source's, -1 for none or any */
    int tag, any_source, any_tag; /* recv: what it waits for */
    sites_site_t *site;
    MPI_Comm comm;   /* recv, precv, message */
    long long bytes; /* psend */
} track_t;
static track_t *tracks;

/* ---- tracked requests */
static track_t *track_find(uintptr_t key)
{
    if (!tracks) return NULL;
    unsigned h = hash_ptr(key) & (TRACK_MAX - 1);
    for (int i = 0; i < TRACK_MAX; i++, h = (h + 1) & (TRACK_MAX - 1)) {
        track_t *t = &tracks[h];
        int st = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);
        if (st == TR_FREE) return NULL;
        if (st != TR_GONE && st > 0 && t->key == key) return t;
    }
    return NULL;
}

static void track_put(uintptr_t key, int state, sites_site_t *site, MPI_Comm comm, int peer, long long bytes,
                      int tag, int any_source, int any_tag)
{
    if (!tracks || !site) return;
    track_t *old = track_find(key); /* a handle the MPI reuses: the old use is over */
    if (old) __atomic_store_n(&old->state, TR_GONE, __ATOMIC_RELEASE);
    unsigned h = hash_ptr(key) & (TRACK_MAX - 1);
    for (int i = 0; i < TRACK_MAX; i++, h = (h + 1) & (TRACK_MAX - 1)) {
        track_t *t = &tracks[h];
        int cur = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);
        if (cur != TR_FREE && cur != TR_GONE) continue;
        /* -1: being written */
        if (!__atomic_compare_exchange_n(&t->state, &cur, -1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            continue;
        t->key = key;
        t->site = site;
        t->comm = comm;
        t->peer = peer;
        t->bytes = bytes;
        t->tag = tag, t->any_source = any_source, t->any_tag = any_tag;
        __atomic_store_n(&t->state, state, __ATOMIC_RELEASE);
        return;
    }
    ADD(&sites_over->untracked, 1);
}

static void track_receive(sites_call_t *c, int state, MPI_Request req, MPI_Comm comm, int source, int tag)
{
    int any = source == MPI_ANY_SOURCE;
    track_put(sites_key(req), state, sites_site_of(c), comm, any ? -1 : sites_world_rank(comm, source), 0,
              tag, any, tag == MPI_ANY_TAG);
}

void sites_track_recv(sites_call_t *c, MPI_Request req, MPI_Comm comm, int source, int tag)
{
    track_receive(c, TR_RECV, req, comm, source, tag);
}

void sites_track_precv(sites_call_t *c, MPI_Request req, MPI_Comm comm, int source, int tag)
{
    track_receive(c, TR_PRECV, req, comm, source, tag);
}

void sites_mark_requests(sites_call_t *c, const MPI_Request reqs[], int n)
{
    sites_slot_t *s = sites_slot();
    if (!s) return;
    for (int i = 0; i < n; i++) {
        track_t *t = track_find(sites_key(reqs[i]));
        if (t && (t->state == TR_RECV || t->state == TR_PRECV)) {
            sites_set_slot(s, c->fn, sites_slot_pc(c), c->t0, t->peer, t->tag, t->any_source, t->any_tag,
                           sites_key(t->comm));
            return;
        }
    }
    sites_set_slot(s, c->fn, sites_slot_pc(c), c->t0, -1, SITES_NO_TAG, 0, 0, 0);
}

void sites_track_psend(sites_call_t *c, MPI_Request req, long long count, MPI_Datatype type, int peer,
                       MPI_Comm comm)
{
    if (peer == MPI_PROC_NULL) return;
    track_put(sites_key(req), TR_PSEND, sites_site_of(c), comm, sites_world_rank(comm, peer),
              sites_payload(count, type), SITES_NO_TAG, 0, 0);
}

void sites_track_message(MPI_Message msg, MPI_Comm comm)
{
    if (msg == MPI_MESSAGE_NULL || msg == MPI_MESSAGE_NO_PROC) return;
    /* no site of its own: the site is the receive's */
    static sites_site_t none;
    track_put(sites_key(msg), TR_MESSAGE, &none, comm, -1, 0, SITES_NO_TAG, 0, 0);
}

MPI_Comm sites_message_comm(MPI_Message msg)
{
    track_t *t = track_find(sites_key(msg));
    if (!t || t->state != TR_MESSAGE) return MPI_COMM_NULL;
    MPI_Comm comm = t->comm;
    __atomic_store_n(&t->state, TR_GONE, __ATOMIC_RELEASE);
    return comm;
}

void sites_forget(MPI_Request req)
{
    if (!__atomic_load_n(&sites_on, __ATOMIC_RELAXED)) return;
    track_t *t = track_find(sites_key(req));
    if (t) __atomic_store_n(&t->state, TR_GONE, __ATOMIC_RELEASE);
}

void sites_started(MPI_Request req)
{
    track_t *t = track_find(sites_key(req));
    if (t && t->state == TR_PSEND) sites_out_message(t->site, t->bytes, t->peer);
}

void sites_completed(uintptr_t key, const MPI_Status *st)
{
    track_t *t = track_find(key);
    if (!t) return;
    if (t->state == TR_RECV || t->state == TR_PRECV) {
        long long n = sites_in_message(t->site, st, t->comm);
        if (sites_call_now) sites_call_now->received += n; /* the completion's bytes */
    }
    if (t->state == TR_RECV) __atomic_store_n(&t->state, TR_GONE, __ATOMIC_RELEASE);
}

/* ---- a thread's arrays for completion calls of more requests than
 * SITES_BATCH: grown by the first call that needs more, reused after (no
 * allocation per call); freed when the thread ends */
static pthread_key_t scratch_key;
static int scratch_key_made;
static __thread struct scratch {
    void *p;
    size_t cap;
} scratch[SITES_SCRATCH_N] __attribute__((tls_model("initial-exec")));

static void scratch_free(void *arg)
{
    struct scratch *sc = arg;
    for (int i = 0; i < SITES_SCRATCH_N; i++) free(sc[i].p), sc[i].p = NULL, sc[i].cap = 0;
}

void *sites_scratch(int which, size_t bytes)
{
    struct scratch *sc = &scratch[which];
    if (bytes <= sc->cap) return sc->p;
    size_t cap = sc->cap ? sc->cap : 4096;
    while (cap < bytes) cap *= 2;
    void *p = realloc(sc->p, cap);
    if (!p) return NULL;
    sc->p = p, sc->cap = cap;
    if (scratch_key_made) pthread_setspecific(scratch_key, scratch);
    return p;
}

MPI_Status *sites_batch_begin(sites_batch_t *b, MPI_Request reqs[], int n, MPI_Status *statuses)
{
    b->n = 0;
    b->nreq = n;
    b->idx = b->idx_s;
    b->key = b->key_s;
    b->own = NULL;
    for (int i = 0; i < n; i++) {
        uintptr_t k = sites_key(reqs[i]);
        if (!track_find(k)) continue;
        if (b->n == SITES_BATCH && b->idx == b->idx_s) {
            /* more tracked requests than the stack holds: the thread's arrays */
            int *idx = sites_scratch(SITES_SCRATCH_IDX, sizeof *idx * (size_t)n);
            uintptr_t *key = sites_scratch(SITES_SCRATCH_KEY, sizeof *key * (size_t)n);
            if (!idx || !key) {
                ADD(&sites_over->untracked, 1);
                continue;
            }
            memcpy(idx, b->idx_s, sizeof b->idx_s);
            memcpy(key, b->key_s, sizeof b->key_s);
            b->idx = idx, b->key = key;
        }
        b->idx[b->n] = i;
        b->key[b->n++] = k;
    }
    if (statuses != MPI_STATUSES_IGNORE || b->n == 0) return statuses;
    if (n <= SITES_BATCH) return b->st_s;
    b->own = sites_scratch(SITES_SCRATCH_ST, sizeof *b->own * (size_t)n);
    if (!b->own) b->n = 0; /* the MPI then gets none, and the messages go uncharged */
    return b->own ? b->own : statuses;
}

void sites_batch_end(sites_batch_t *b) { b->idx = b->idx_s, b->key = b->key_s, b->own = NULL, b->n = 0; }

void sites_batch_all(sites_batch_t *b, MPI_Status *sts)
{
    for (int j = 0; j < b->n && sts != MPI_STATUSES_IGNORE; j++) sites_completed(b->key[j], &sts[b->idx[j]]);
}

void sites_batch_one(sites_batch_t *b, int index, MPI_Status *st)
{
    for (int j = 0; j < b->n && index != MPI_UNDEFINED; j++)
        if (b->idx[j] == index) sites_completed(b->key[j], st);
}

void sites_batch_some(sites_batch_t *b, int outcount, const int indices[], MPI_Status *sts)
{
    for (int k = 0; k < outcount && outcount != MPI_UNDEFINED && sts != MPI_STATUSES_IGNORE; k++)
        for (int j = 0; j < b->n; j++)
            if (b->idx[j] == indices[k]) sites_completed(b->key[j], &sts[k]);
}

int sites_track_begin(void)
{
    tracks = calloc(TRACK_MAX, sizeof *tracks); /* the MPI's handles: of no use outside the process */
    return tracks ? 0 : -1;
}

void sites_track_keys(void)
{
    if (!scratch_key_made && pthread_key_create(&scratch_key, scratch_free) == 0) scratch_key_made = 1;
}

void sites_track_end(void)
{
    free(tracks);
    tracks = NULL;
}
