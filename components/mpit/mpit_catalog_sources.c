/*
 * A portable metric's source on the running MPI: the first of its sources
 * the MPI has and maintains, picked again once MPI runs, or why it has none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpit_catalog_internal.h"
#include "mpit_events.h"
#include "mpit_loader.h"
#include "mpit_semantics.h"

/* ---- portable metrics ------------------------------------------------- */

int catalog_pick_metric_source(const mpit_metric_t *m, const unsigned char *collecting, int per_peer,
                               mpit_entry_t *e)
{
    for (int s = 0; s < MPIT_METRIC_SOURCES && m->sources[s].kind != MPIT_SOURCE_NONE; s++) {
        const mpit_metric_source_t *src = &m->sources[s];
        if (per_peer && !src->per_peer) continue;
        if (src->kind == MPIT_SOURCE_EVENT) {
            int id = mpit_events_find(src->name);
            if (id < 0) continue;
            catalog_fill_event_entry(e, id);
        } else {
            int v = catalog_find_variable(src->name, -1);
            if (v < 0 || catalog_entries[v]->unusable[0]) continue;
            /* an Open MPI SPC that is not attached would read zeros, one the MPI does not maintain a constant */
            if (!collecting[s]) continue;
            e->mended = 0;
            if (src->length) {
                int l = catalog_find_variable(src->level, -1), n = catalog_find_variable(src->length, -1);
                if (l < 0 || n < 0 || catalog_entries[l]->unusable[0] || catalog_entries[n]->unusable[0])
                    continue;
                e->mended = 1;
                e->mend_code[0] = l;
                e->mend_code[1] = n;
            }
            e->info = catalog_entries[v]->info;
            e->cls = catalog_entries[v]->cls;
            e->source = MPIT_SOURCE_PVAR;
            e->is_float = 0; /* portable metrics are integers: a double is rounded in its unit */
            e->read_kind = m->read_kind;
        }
        e->scale = src->scale;
        e->units = m->units;
        /* a maximum kept over a level the MPI publishes: seen at reads only */
        int sampled = src->kind == MPIT_SOURCE_PVAR && m->read_kind == MPIT_READ_HIGH &&
                      mpit_class_semantics(e->cls)->read_kind == MPIT_READ_CURRENT;
        if (src->length)
            snprintf(
                e->description, sizeof e->description,
                "%s (portable metric; here from the MPI_T watermark %s, which sees every peak, mended by %s "
                "where the level it follows, %s, is off)",
                m->desc, src->name, src->length, src->level);
        else
            snprintf(
                e->description, sizeof e->description, "%s (portable metric; here from %s %s%s)", m->desc,
                src->kind == MPIT_SOURCE_EVENT ? "the MPI_T event counter" : "the MPI_T variable", src->name,
                sampled ? ", the largest value seen when read (sampled): this MPI publishes the current "
                          "length only, so a peak between reads is missed"
                        : "");
        const char *caveat = mpit_metric_source_caveat(src->name);
        size_t used = strlen(e->description);
        if (caveat) snprintf(e->description + used, sizeof e->description - used, ". %s.", caveat);
        catalog_note_counting_start(e);
        return 0;
    }
    return -1;
}

/* 1 when the running library can never give this source, as known
 * before MPI_Init (mpit_backend_t.never_gives). */
int catalog_source_never(const mpit_metric_source_t *src)
{
    const mpit_backend_t *b = mpit_backend();
    char why[MPIT_WHY_LEN];
    return b && b->never_gives &&
           b->never_gives(src->kind == MPIT_SOURCE_EVENT ? NULL : src->name, why, sizeof why);
}

/* 1 when no source of m can ever come: MPI_Init (or MPI_Session_init) would
 * not bring one, so the name is refused now, not left to read 0. */
int catalog_metric_never(const mpit_metric_t *m)
{
    for (int s = 0; s < MPIT_METRIC_SOURCES && m->sources[s].kind != MPIT_SOURCE_NONE; s++)
        if (!catalog_source_never(&m->sources[s])) return 0;
    return 1;
}

/* The known defect of the running release that rules out a metric's
 * variables, else "": the reason to give instead of what the metric needs,
 * which the release has but must not use.  A variable the MPI publishes
 * first; then any (a variable that would appear only once the component
 * switched something on, which the defect forbids). */
const char *catalog_metric_defect(const mpit_metric_t *m, char *buf, size_t len)
{
    const mpit_backend_t *b = mpit_backend();
    for (int published = 1; published >= 0; published--)
        for (int s = 0; b && b->pvar_unavailable && s < MPIT_METRIC_SOURCES; s++) {
            const char *name = m->sources[s].name;
            if (m->sources[s].kind != MPIT_SOURCE_PVAR || !name) continue;
            if (published && catalog_find_variable(name, -1) < 0) continue;
            if (b->pvar_unavailable(name, buf, len)) return buf;
        }
    buf[0] = '\0';
    return buf;
}

/* Why m cannot be added on the running MPI: the one sentence, before
 * MPI_Init, under a session, after MPI_Init and in the listing. */
void catalog_metric_unavailable(const mpit_metric_t *m, char *why, size_t why_len)
{
    char defect[MPIT_WHY_LEN];
    catalog_metric_defect(m, defect, sizeof defect);
    snprintf(why, why_len, "%s is not available on the running %s: %s%s", m->name, mpit_backend()->family,
             *defect ? defect : "it ", *defect ? "" : m->needs);
}

/* A metric listed before MPI_Init picked its source among what MPI_T showed
 * then, and MPI_Init replaces that (Open MPI closes the components it does
 * not select, and 4.1 its pml monitoring): once MPI runs it is picked again,
 * in place, so that its code and name keep one meaning; or it is refused
 * with the reason a name looked up after MPI_Init gets. */
static void repick_metric(int i, const scan_snapshot_t *snap)
{
    mpit_entry_t *e = catalog_entries[catalog_metric_code[i]],
                 *fresh = catalog_new_entry(MPIT_KIND_METRIC, mpit_metrics[i].name);
    if (!fresh) return;
    catalog_metric_settled[i] = 1;
    if (catalog_pick_metric_source(&mpit_metrics[i], snap->collecting[i], 0, fresh) == 0) {
        fresh->listed = 1;
        fresh->base = e->base;
        *e = *fresh;
    } else {
        catalog_metric_unavailable(&mpit_metrics[i], e->unusable, sizeof e->unusable);
    }
    free(fresh);
}

/* 1 when MPI_T lists a variable that is a source of m. */
static int shows_a_source(const mpit_metric_t *m)
{
    for (int s = 0; s < MPIT_METRIC_SOURCES && m->sources[s].kind != MPIT_SOURCE_NONE; s++)
        if (m->sources[s].kind == MPIT_SOURCE_PVAR && catalog_find_variable(m->sources[s].name, -1) >= 0)
            return 1;
    return 0;
}

void catalog_list_metrics(const scan_snapshot_t *snap)
{
    int running = mpit_mpi_live(snap->state);
    memcpy(catalog_metric_collecting, snap->collecting, sizeof catalog_metric_collecting);
    for (int i = 0; i < mpit_num_metrics && i < (int)sizeof catalog_metric_listed; i++) {
        if (catalog_metric_listed[i] && !catalog_metric_settled[i] && running) repick_metric(i, snap);
        if (catalog_metric_listed[i]) continue;
        mpit_entry_t *e = catalog_new_entry(MPIT_KIND_METRIC, mpit_metrics[i].name);
        if (!e) return;
        if (catalog_pick_metric_source(&mpit_metrics[i], snap->collecting[i], 0, e) != 0 &&
            !(snap->never[i] && shows_a_source(&mpit_metrics[i]))) {
            free(e);
            continue;
        }
        if (e->source == MPIT_SOURCE_NONE) {
            /* its variable is listed but can never count: the listing says why */
            e->units = mpit_metrics[i].units;
            snprintf(e->description, sizeof e->description, "%s (portable metric)", mpit_metrics[i].desc);
            catalog_metric_unavailable(&mpit_metrics[i], e->unusable, sizeof e->unusable);
        }
        catalog_metric_listed[i] = 1;
        catalog_metric_settled[i] = running;
        e->listed = 1;
        catalog_metric_code[i] = catalog_append(e);
    }
}
