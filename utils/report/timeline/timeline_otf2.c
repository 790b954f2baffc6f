/*
 * papi-mpit-merge: the timeline as an OTF2 archive through libotf2
 * (DIR/timeline-otf2/traces.otf2: Vampir and otf2-print read it).  A rank
 * is a location group (a process), a thread slot a location; a call an
 * Enter and a Leave of the region named after it, with attributes: its
 * number in the thread, peer, tag, bytes (sent, received), communicator
 * and site; the call in progress an Enter with no Leave, marked
 * in_progress.  Timestamps: Unix ns (the clock properties' resolution).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ftw.h>
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site_current.h"
#include "site_fn.h"
#include "timeline.h"

#define PFX "papi-mpit-report: --merge: timeline: "

enum { A_CALL, A_PEER, A_TAG, A_BYTES, A_SENT, A_RECEIVED, A_COMM, A_SITE, A_IN_PROGRESS, A_N };
static const struct {
    const char *name, *what;
    OTF2_Type type;
} attrs[A_N] = {
    {"call", "the call's number in its thread, from 1", OTF2_TYPE_UINT64},
    {"peer", "world rank of the peer or root", OTF2_TYPE_INT32},
    {"tag", "the message tag", OTF2_TYPE_INT32},
    {"bytes", "bytes sent and received", OTF2_TYPE_INT64},
    {"sent", "bytes sent", OTF2_TYPE_INT64},
    {"received", "bytes received", OTF2_TYPE_INT64},
    {"comm", "the communicator", OTF2_TYPE_STRING},
    {"site", "the call site (file:line)", OTF2_TYPE_STRING},
    {"in_progress", "1: the call had not returned when the rank's state was last written", OTF2_TYPE_UINT8},
};

/* the strings, each defined once: reference = index */
typedef struct strings {
    char **s;
    int n;
} strings_t;

static uint32_t intern(strings_t *t, const char *s)
{
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->s[i], s) == 0) return (uint32_t)i;
    char **more = realloc(t->s, sizeof *more * (size_t)(t->n + 1));
    if (!more) return 0;
    t->s = more;
    t->s[t->n] = strdup(s);
    return t->s[t->n] ? (uint32_t)t->n++ : 0;
}

static OTF2_FlushType pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc, void *caller,
                                bool final)
{
    (void)user, (void)type, (void)loc, (void)caller, (void) final;
    return OTF2_FLUSH;
}
static OTF2_TimeStamp post_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc)
{
    (void)user, (void)type, (void)loc;
    return 0;
}
static OTF2_FlushCallbacks flush = {.otf2_pre_flush = pre_flush, .otf2_post_flush = post_flush};

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static OTF2_LocationRef location(const tl_thread_t *t)
{
    return (OTF2_LocationRef)t->rank * 65536 + (OTF2_LocationRef)t->slot;
}

static void call_events(OTF2_EvtWriter *w, OTF2_AttributeList *a, strings_t *str, const timeline_t *tl,
                        const tl_call_t *c)
{
    OTF2_AttributeList_AddUint64(a, A_CALL, c->number);
    if (c->peer >= 0 && !c->any_source) OTF2_AttributeList_AddInt32(a, A_PEER, c->peer);
    if (c->tag != SITES_NO_TAG && !c->any_tag) OTF2_AttributeList_AddInt32(a, A_TAG, c->tag);
    if (!c->open) {
        OTF2_AttributeList_AddInt64(a, A_BYTES, c->sent + c->received);
        OTF2_AttributeList_AddInt64(a, A_SENT, c->sent);
        OTF2_AttributeList_AddInt64(a, A_RECEIVED, c->received);
    }
    OTF2_AttributeList_AddStringRef(a, A_COMM, intern(str, c->comm));
    OTF2_AttributeList_AddStringRef(a, A_SITE, intern(str, c->site >= 0 ? tl->sites[c->site].label : "?"));
    if (c->open) OTF2_AttributeList_AddUint8(a, A_IN_PROGRESS, 1);
    OTF2_EvtWriter_Enter(w, a, (OTF2_TimeStamp)c->t0, (OTF2_RegionRef)c->fn);
    if (!c->open) OTF2_EvtWriter_Leave(w, NULL, (OTF2_TimeStamp)c->t1, (OTF2_RegionRef)c->fn);
}

int timeline_write_otf2(const char *dir, const timeline_t *tl)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/timeline-otf2", dir);
    nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS); /* an earlier merge's */
    OTF2_Archive *ar = OTF2_Archive_Open(path, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                                         OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!ar) {
        fprintf(stderr, PFX "cannot create the OTF2 archive in %s\n", path);
        return -1;
    }
    OTF2_Archive_SetFlushCallbacks(ar, &flush, NULL);
    OTF2_Archive_SetSerialCollectiveCallbacks(ar);
    OTF2_Archive_SetCreator(ar, "papi-mpit-report --merge");
    strings_t str = {0};
    OTF2_AttributeList *a = OTF2_AttributeList_New();
    OTF2_Archive_OpenEvtFiles(ar);
    for (int i = 0; i < tl->nthreads; i++) {
        const tl_thread_t *t = &tl->threads[i];
        OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, location(t));
        for (int k = 0; w && k < t->ncalls; k++) call_events(w, a, &str, tl, &t->calls[k]);
        if (w) OTF2_Archive_CloseEvtWriter(ar, w);
    }
    OTF2_Archive_CloseEvtFiles(ar);
    OTF2_Archive_OpenDefFiles(ar);
    for (int i = 0; i < tl->nthreads; i++) {
        OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(ar, location(&tl->threads[i]));
        if (d) OTF2_Archive_CloseDefWriter(ar, d);
    }
    OTF2_Archive_CloseDefFiles(ar);
    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(ar);
    OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, (uint64_t)tl->origin,
                                              (uint64_t)(tl->end - tl->origin) + 1, (uint64_t)tl->origin);
    uint32_t job = intern(&str, "job"), machine = intern(&str, "machine");
    uint32_t regions[SITES_NFN] = {0}, attr_names[A_N], attr_whats[A_N];
    for (int i = 0; i < A_N; i++)
        attr_names[i] = intern(&str, attrs[i].name), attr_whats[i] = intern(&str, attrs[i].what);
    unsigned char used[SITES_NFN] = {0};
    for (int i = 0; i < tl->nthreads; i++)
        for (int k = 0; k < tl->threads[i].ncalls; k++) used[tl->threads[i].calls[k].fn] = 1;
    for (int f = 0; f < SITES_NFN; f++)
        if (used[f]) regions[f] = intern(&str, sites_fn[f].name);
    uint32_t *groups = calloc((size_t)tl->nprocs + 1, sizeof *groups);
    for (int r = 0; groups && r < tl->nprocs; r++) {
        char name[128];
        snprintf(name, sizeof name, "rank %d (%s)", r, tl->hosts[r] ? tl->hosts[r] : "?");
        groups[r] = intern(&str, name);
    }
    uint32_t *threads = calloc((size_t)tl->nthreads + 1, sizeof *threads);
    for (int i = 0; threads && i < tl->nthreads; i++) {
        char name[64];
        snprintf(name, sizeof name, "thread %d (tid %ld)", tl->threads[i].slot, tl->threads[i].tid);
        threads[i] = intern(&str, name);
    }
    for (int i = 0; i < str.n; i++) OTF2_GlobalDefWriter_WriteString(g, (OTF2_StringRef)i, str.s[i]);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, job, machine, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (int r = 0; groups && r < tl->nprocs; r++)
        if (tl->hosts[r])
            OTF2_GlobalDefWriter_WriteLocationGroup(g, (OTF2_LocationGroupRef)r, groups[r],
                                                    OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                    OTF2_UNDEFINED_LOCATION_GROUP);
    for (int i = 0; threads && i < tl->nthreads; i++) {
        const tl_thread_t *t = &tl->threads[i];
        uint64_t events = 0;
        for (int k = 0; k < t->ncalls; k++) events += t->calls[k].open ? 1 : 2;
        OTF2_GlobalDefWriter_WriteLocation(g, location(t), threads[i], OTF2_LOCATION_TYPE_CPU_THREAD, events,
                                           (OTF2_LocationGroupRef)t->rank);
    }
    for (int f = 0; f < SITES_NFN; f++)
        if (used[f])
            OTF2_GlobalDefWriter_WriteRegion(g, (OTF2_RegionRef)f, regions[f], regions[f], regions[f],
                                             OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI,
                                             OTF2_REGION_FLAG_NONE, OTF2_UNDEFINED_STRING, 0, 0);
    for (int i = 0; i < A_N; i++)
        OTF2_GlobalDefWriter_WriteAttribute(g, (OTF2_AttributeRef)i, attr_names[i], attr_whats[i],
                                            attrs[i].type);
    OTF2_AttributeList_Delete(a);
    OTF2_ErrorCode rc = OTF2_Archive_Close(ar);
    for (int i = 0; i < str.n; i++) free(str.s[i]);
    free(str.s), free(groups), free(threads);
    if (rc != OTF2_SUCCESS || !groups || !threads) {
        fprintf(stderr, PFX "writing the OTF2 archive in %s failed: %s\n", path, OTF2_Error_GetName(rc));
        return -1;
    }
    return 0;
}
