/*
 * papi-mpit-merge: a rank's communicators from its mapped state file
 * (merge_map_comms.h).  A cell is taken when its sequence count is even
 * and did not move while it was copied: a rank killed while recording a
 * communicator leaves that one unknown, never half of it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge_map_comms.h"

int map_comms_read(const char *base, size_t size, const state_map_head_t *h, map_comms_t *out)
{
    *out = (map_comms_t){0};
    int n = __atomic_load_n(&h->ncomms, __ATOMIC_ACQUIRE);
    if (n <= 0 || h->off_comms + sizeof(sites_comm_cell_t) * (uint64_t)n > size) return 0; /* none kept */
    const sites_comm_cell_t *cells = (const void *)(base + h->off_comms);
    out->cell = malloc(sizeof *out->cell * (size_t)n);
    if (!out->cell) return -1;
    for (int i = 0; i < n; i++) {
        const sites_comm_cell_t *c = &cells[i];
        for (int tries = 0; tries < 100; tries++) {
            unsigned a = __atomic_load_n(&c->seq, __ATOMIC_ACQUIRE);
            if (a & 1) continue;
            out->cell[out->n] = *c;
            __atomic_thread_fence(__ATOMIC_ACQUIRE);
            if (__atomic_load_n(&c->seq, __ATOMIC_RELAXED) != a) continue;
            if (out->cell[out->n].key) out->n++;
            break;
        }
    }
    return 0;
}

void map_comm_name(const map_comms_t *c, uint64_t key, char *id, size_t idlen, char *members, size_t mlen)
{
    snprintf(id, idlen, "?");
    snprintf(members, mlen, "-");
    for (int i = 0; key && i < c->n; i++) {
        const sites_comm_cell_t *e = &c->cell[i];
        if (e->key != key) continue;
        if (e->world)
            snprintf(id, idlen, "world");
        else
            snprintf(id, idlen, "%lx.%d", (unsigned long)e->hash, e->ordinal);
        if (strnlen(e->members, sizeof e->members) < sizeof e->members && e->members[0])
            snprintf(members, mlen, "%s", e->members);
        return;
    }
}

void map_comms_free(map_comms_t *c)
{
    free(c->cell);
    *c = (map_comms_t){0};
}
