/*
 * papi-mpit-report: the events a rank measures (PAPI_MPIT_REPORT_EVENTS,
 * "default" for the component's portable metrics) and the event sets that
 * count them, one per component (PAPI binds an event set to one
 * component); the reasons for those it skips.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <papi.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi_mpit.h"
#include "report_peers.h"
#include "report_rank.h"

ev_t *rank_evs;
int rank_nev;
static int cap_ev;
evset_t rank_sets[MAX_SETS];
int rank_nsets;

/* ---- the event list */
static int find_ev(const char *name)
{
    for (int i = 0; i < rank_nev; i++)
        if (strcmp(rank_evs[i].name, name) == 0) return i;
    return -1;
}

static void push_ev(const char *name, int quiet)
{
    if (!*name || find_ev(name) >= 0) return;
    if (rank_nev == cap_ev) {
        int cap = cap_ev ? 2 * cap_ev : 32;
        ev_t *e = realloc(rank_evs, (size_t)cap * sizeof *e);
        if (!e) return;
        rank_evs = e;
        cap_ev = cap;
    }
    ev_t *e = &rank_evs[rank_nev++];
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    rank_clean_text(e->name);
    e->quiet = quiet;
    e->set = -1;
}

/* "default": every portable metric of the component except those costly to
 * collect (each tried: one the running MPI lacks is named in one folded
 * line), the cycle counter where the hardware has it, and CPU time. */
static void push_defaults(void)
{
    const char *name, *cost;
    char full[REPORT_NAME_LEN];
    for (int i = 0; (name = papi_mpit_metric(i, &cost)) != NULL; i++) {
        if (cost) continue;
        snprintf(full, sizeof full, "mpit:::%s", name);
        push_ev(full, SAY_FOLDED);
    }
    push_ev("PAPI_TOT_CYC", SAY_NOTHING); /* where the hardware has it */
    push_ev("perf::TASK-CLOCK", SAY_EACH);
}

void rank_parse_events(const char *list)
{
    char *copy = strdup(list), *save = NULL;
    if (!copy) return;
    for (char *tok = strtok_r(copy, ", \t\n", &save); tok; tok = strtok_r(NULL, ", \t\n", &save)) {
        if (strcmp(tok, "default") == 0)
            push_defaults();
        else
            push_ev(tok, SAY_EACH);
    }
    free(copy);
}

/* ---- PAPI */
void rank_skip(ev_t *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->reason, sizeof e->reason, fmt, ap);
    va_end(ap);
    rank_clean_text(e->reason);
    e->set = -1;
}

/* Event sets live in the helper thread (see report_start).  A component that
 * can count another thread (perf_event) gets its set attached to the thread
 * that called MPI_Init; the mpit component counts process-wide MPI_T
 * variables wherever its set is.  Where attaching fails (PAPI 7.0 checks it
 * with a hardware instruction counter, absent on machines without a PMU),
 * the set is created and run by the application's thread instead. */
pid_t rank_main_tid;
static int attach_failed[MAX_SETS * 4]; /* by component index */

static int set_for_component(int cidx, int in_main, char *why, size_t len)
{
    for (int s = 0; s < rank_nsets; s++)
        if (rank_sets[s].cidx == cidx && rank_sets[s].in_main == in_main) return s;
    if (rank_nsets == MAX_SETS) {
        snprintf(why, len, "too many components");
        return -1;
    }
    evset_t *s = &rank_sets[rank_nsets];
    memset(s, 0, sizeof *s);
    s->es = PAPI_NULL;
    int rc = PAPI_create_eventset(&s->es);
    if (rc != PAPI_OK) {
        snprintf(why, len, "PAPI_create_eventset: %s", PAPI_strerror(rc));
        return -1;
    }
    const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
    rc = PAPI_assign_eventset_component(s->es, cidx);
    if (rc != PAPI_OK) {
        snprintf(why, len, "PAPI_assign_eventset_component: %s", PAPI_strerror(rc));
    } else if (!in_main && ci && ci->attach) {
        rc = PAPI_attach(s->es, (unsigned long)rank_main_tid);
        if (rc != PAPI_OK) {
            snprintf(why, len, "PAPI_attach: %s", PAPI_strerror(rc));
            if (cidx >= 0 && cidx < (int)(sizeof attach_failed / sizeof attach_failed[0]))
                attach_failed[cidx] = 1;
        }
    }
    if (rc != PAPI_OK) {
        PAPI_destroy_eventset(&s->es);
        return -1;
    }
    s->cidx = cidx;
    s->in_main = in_main;
    return rank_nsets++;
}

/* Units PAPI leaves empty for some well-known CPU events. */
static void default_units(ev_t *e)
{
    static const char *const known[][2] = {{"TASK-CLOCK", "ns"},       {"CPU-CLOCK", "ns"},
                                           {"PAPI_TOT_CYC", "cycles"}, {"PAPI_TOT_INS", "instructions"},
                                           {"CYCLES", "cycles"},       {"INSTRUCTIONS", "instructions"}};
    if (e->units[0]) return;
    const char *base = strrchr(e->name, ':');
    base = base ? base + 1 : e->name;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(base, known[i][0]) == 0) snprintf(e->units, sizeof e->units, "%s", known[i][1]);
}

/* The mpit component explains a name it refuses ("papi-mpit: NAME: reason"
 * on stderr, once per process).  While the tool adds its events the
 * component is quiet and the reasons are asked for (papi_mpit_why): they
 * become the skip reasons, reported once, by rank 0, with the note.  What it
 * says of an event that was added (a variable that reads 0) is printed as
 * the component would have, unless it was said before the events were added
 * (by announce_before_init, quietly). */
void rank_take_component_reasons(void)
{
    char why[REPORT_REASON_LEN];
    for (int i = 0; i < rank_nev; i++) {
        ev_t *e = &rank_evs[i];
        if (!papi_mpit_why(e->name, why, sizeof why)) continue;
        rank_clean_text(why);
        if (e->set < 0)
            snprintf(e->reason, sizeof e->reason, "%s", why);
        else if (strcmp(why, e->reason) != 0)
            fprintf(stderr, "papi-mpit: %s: %s\n", e->name + (strncmp(e->name, "mpit:::", 7) ? 0 : 7), why);
    }
}

/* An event refused for want of Open MPI's monitoring, which the tool left
 * off: the reason says how to have it (the component's "added before
 * MPI_Init" does not hold then). */
void rank_say_monitoring_off(void)
{
    static const char hint[] = "; papi-mpit-report leaves the monitoring off unless --matrix is given";
    if (!peers_held_off()) return;
    for (int i = 0; i < rank_nev; i++) {
        ev_t *e = &rank_evs[i];
        size_t len = strlen(e->reason);
        if (e->set < 0 && strstr(e->reason, "pml_monitoring_enable") && len + sizeof hint <= sizeof e->reason)
            memcpy(e->reason + len, hint, sizeof hint);
    }
}

/* Reasons said before the tool's own adds (by announce_before_init) are
 * not news: remembered in reason, which a skip overwrites. */
void rank_note_earlier_reasons(void)
{
    for (int i = 0; i < rank_nev; i++)
        if (papi_mpit_why(rank_evs[i].name, rank_evs[i].reason, sizeof rank_evs[i].reason))
            rank_clean_text(rank_evs[i].reason);
}

static void add_event(ev_t *e, int in_main)
{
    char why[PAPI_MAX_STR_LEN];
    if (!in_main) {
        int rc = PAPI_event_name_to_code(e->name, &e->code);
        if (rc != PAPI_OK) {
            rank_skip(e, "%s", rc == PAPI_ENOEVNT ? "no such event here" : PAPI_strerror(rc));
            return;
        }
        e->cidx = PAPI_get_event_component(e->code);
        if (e->cidx < 0) {
            rank_skip(e, "no component for it");
            return;
        }
    }
    int s = set_for_component(e->cidx, in_main, why, sizeof why);
    if (s < 0) {
        if (!in_main && e->cidx < (int)(sizeof attach_failed / sizeof attach_failed[0]) &&
            attach_failed[e->cidx]) {
            e->deferred = 1; /* the application's thread adds it */
            return;
        }
        rank_skip(e, "%s", why);
        return;
    }
    int rc = PAPI_add_event(rank_sets[s].es, e->code);
    if (rc != PAPI_OK) {
        const PAPI_component_info_t *ci = PAPI_get_component_info(e->cidx);
        if (ci && ci->disabled)
            rank_skip(e, "component %s disabled: %s", ci->name, ci->disabled_reason);
        else
            rank_skip(e, "PAPI_add_event: %s", PAPI_strerror(rc));
        return;
    }
    e->set = s;
    e->pos = rank_sets[s].n++;
    PAPI_event_info_t info;
    if (PAPI_get_event_info(e->code, &info) == PAPI_OK) {
        snprintf(e->units, sizeof e->units, "%s", info.units);
        rank_clean_text(e->units);
        e->is_fp = info.data_type == PAPI_DATATYPE_FP64;
    }
    default_units(e);
}

/* Adds and starts the events of one thread: the helper's (in_main 0) or the
 * deferred ones of the application's thread (in_main 1). */
void rank_add_events(int in_main)
{
    for (int i = 0; i < rank_nev; i++) {
        ev_t *e = &rank_evs[i];
        if (in_main && !e->deferred) continue;
        if (in_main) e->deferred = 0;
        add_event(e, in_main);
    }
    for (int s = 0; s < rank_nsets; s++) {
        if (rank_sets[s].in_main != in_main || rank_sets[s].values) continue;
        rank_sets[s].values = calloc((size_t)rank_sets[s].n + 1, sizeof(long long));
        if (!rank_sets[s].n) continue;
        int rc = PAPI_start(rank_sets[s].es);
        if (rc == PAPI_OK) {
            rank_sets[s].running = 1;
            continue;
        }
        for (int i = 0; i < rank_nev; i++)
            if (rank_evs[i].set == s) rank_skip(&rank_evs[i], "PAPI_start: %s", PAPI_strerror(rc));
    }
}

void rank_stop_sets(int in_main)
{
    for (int s = 0; s < rank_nsets; s++) {
        if (rank_sets[s].in_main != in_main) continue;
        if (rank_sets[s].running) {
            int rc = PAPI_stop(rank_sets[s].es, rank_sets[s].values);
            rank_sets[s].running = 0;
            if (rc != PAPI_OK)
                for (int i = 0; i < rank_nev; i++)
                    if (rank_evs[i].set == s) rank_skip(&rank_evs[i], "PAPI_stop: %s", PAPI_strerror(rc));
        }
        for (int i = 0; i < rank_nev; i++)
            if (rank_evs[i].set == s) rank_evs[i].value = rank_sets[s].values[rank_evs[i].pos];
        PAPI_cleanup_eventset(rank_sets[s].es);
        PAPI_destroy_eventset(&rank_sets[s].es);
    }
}
