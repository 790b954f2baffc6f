/*
 * Setting the engine up: creating it, describing the running MPI's event
 * types, and binding the rule rows to them (which rows can work here, their
 * state and counters, and each event type's action list for the hot path).
 * Single-threaded, before the first callback; may allocate.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpit_engine_internal.h"

#define DEFAULT_SLOTS    4096
#define MAX_SLOTS        (1 << 24)
#define PROBE            32  /* slots looked at per key operation: bounded work */
#define MPIT_ROW_WHY_LEN 256 /* why a rule row is (un)available */

/* ------------------------------------------------------------------ util */

static char *dupstr(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

static char *joinstr(const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
    char *d = malloc(n);
    if (d) snprintf(d, n, "%s%s%s", a, b, c);
    return d;
}

/* ----------------------------------------------------------------- setup */

mpit_engine_t *mpit_engine_create(int num_event_types, int table_slots)
{
    mpit_engine_t *e;
    int slots = DEFAULT_SLOTS;

    if (num_event_types < 0 || num_event_types > (INT32_MAX - RAW_BASE) / RAW_STRIDE || table_slots < 0 ||
        table_slots > MAX_SLOTS)
        return NULL;
    if (table_slots > 0)
        for (slots = 1; slots < table_slots; slots <<= 1)
            ;
    e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->nev = num_event_types;
    e->slots = slots;
    e->ev = calloc(num_event_types ? (size_t)num_event_types : 1, sizeof *e->ev);
    if (!e->ev) {
        free(e);
        return NULL;
    }
    return e;
}

static void free_event(evstate_t *E)
{
    if (E->raw_name)
        for (int i = 0; i < RAW_STRIDE; i++) free(E->raw_name[i]);
    if (E->elem)
        for (int i = 0; i < E->nelem; i++) free(E->elem[i]);
    free(E->raw_name);
    free(E->elem);
    free(E->name);
    free(E->kind);
    free((void *)E->esum);
    free((void *)E->emax);
    free(E->act);
    memset(E, 0, sizeof *E);
}

void mpit_engine_destroy(mpit_engine_t *e)
{
    if (!e) return;
    for (int i = 0; i < e->nev; i++) free_event(&e->ev[i]);
    for (int i = 0; i < e->nrows; i++) {
        if (e->rs && e->rs[i]) {
            free(e->rs[i]->slots);
            free(e->rs[i]->groups);
            free(e->rs[i]);
        }
        if (e->row_why) free(e->row_why[i]);
    }
    for (int i = 0; i < e->nctr; i++) {
        free(e->ctr[i].name);
        free(e->ctr[i].desc);
    }
    free(e->ctr);
    free(e->rs);
    free(e->row_why);
    free(e->row_active);
    free(e->ev);
    free(e);
}

void mpit_engine_forbid_reading(mpit_engine_t *e, int id)
{
    if (e && !e->bound && id >= 0 && id < e->nev) e->ev[id].noread = 1;
}

int mpit_engine_describe_event(mpit_engine_t *e, int id, const char *name, int nelem,
                               const char *const *elem_names, const int *elem_kinds)
{
    evstate_t *E;
    char num[24];
    int ok = 1;

    if (!e || e->bound || id < 0 || id >= e->nev || !name || !*name || nelem < 0 || nelem > MAX_ELEMS ||
        (nelem && !elem_kinds))
        return -1;
    E = &e->ev[id];
    free_event(E);
    E->nelem = nelem;
    E->name = dupstr(name);
    E->elem = calloc((size_t)nelem + 1, sizeof *E->elem);
    E->kind = calloc((size_t)nelem + 1, sizeof *E->kind);
    E->esum = calloc((size_t)nelem + 1, sizeof *E->esum);
    E->emax = calloc((size_t)nelem + 1, sizeof *E->emax);
    E->raw_name = calloc(RAW_STRIDE, sizeof *E->raw_name);
    if (!E->name || !E->elem || !E->kind || !E->esum || !E->emax || !E->raw_name) {
        free_event(E);
        return -1;
    }
    E->raw_name[0] = dupstr(name);
    ok = E->raw_name[0] != NULL;
    for (int i = 0; i < nelem; i++) {
        const char *en = elem_names ? elem_names[i] : NULL;
        if (!en || !*en) {
            snprintf(num, sizeof num, "%d", i);
            en = num;
        }
        E->kind[i] = elem_kinds[i];
        if (E->kind[i] != MPIT_ELEM_SIGNED && E->kind[i] != MPIT_ELEM_UNSIGNED) E->kind[i] = MPIT_ELEM_OTHER;
        E->elem[i] = dupstr(en);
        E->raw_name[1 + 2 * i] = joinstr(name, ":sum=", en);
        E->raw_name[2 + 2 * i] = joinstr(name, ":max=", en);
        ok = ok && E->elem[i] && E->raw_name[1 + 2 * i] && E->raw_name[2 + 2 * i];
    }
    if (!ok) {
        free_event(E);
        return -1;
    }
    E->described = 1;
    return 0;
}

/* Drops the "ompi." / "ompi_" prefix Open MPI versions differ in. */
static const char *canon(const char *s, size_t *len)
{
    if (*len > 5 && (!strncmp(s, "ompi.", 5) || !strncmp(s, "ompi_", 5))) {
        s += 5;
        *len -= 5;
    }
    return s;
}

/* Does one of the '|' alternatives in pat name `actual`? */
static int alt_match(const char *pat, const char *actual, int is_event)
{
    size_t alen = strlen(actual);
    const char *a = is_event ? canon(actual, &alen) : actual;

    while (pat && *pat) {
        const char *bar = strchr(pat, '|');
        size_t plen = bar ? (size_t)(bar - pat) : strlen(pat);
        const char *p = is_event ? canon(pat, &plen) : pat;
        if (plen == alen && !strncmp(p, a, plen)) return 1;
        pat = bar ? bar + 1 : NULL;
    }
    return 0;
}

static int find_event(const mpit_engine_t *e, const char *pat)
{
    for (int i = 0; i < e->nev; i++)
        if (e->ev[i].described && alt_match(pat, e->ev[i].name, 1)) return i;
    return -1;
}

static int find_elem(const evstate_t *E, const char *pat)
{
    for (int i = 0; i < E->nelem; i++) {
        char pos[24];
        snprintf(pos, sizeof pos, "#%d", i);
        if (alt_match(pat, E->elem[i], 0) || alt_match(pat, pos, 0)) return i;
    }
    return -1;
}

/* Counter suffixes of each kind. ns: units are "ns"; ev: units "events";
 * else the row's units. */
typedef struct sfx {
    const char *sfx;
    int field, vkind, ns, ev;
    const char *what;
} sfx_t;

#define RUN MPIT_VALUE_RUNNING
#define ABS MPIT_VALUE_ABSOLUTE

static const sfx_t sfx_count[] = {{"", F_VALUE, RUN, 0, 0, "occurrences"}, {NULL, 0, 0, 0, 0, NULL}};
static const sfx_t sfx_sum[] = {{"", F_VALUE, RUN, 0, 0, "sum"}, {NULL, 0, 0, 0, 0, NULL}};
static const sfx_t sfx_max[] = {{"", F_VALUE, ABS, 0, 0, "largest value"}, {NULL, 0, 0, 0, 0, NULL}};
static const sfx_t sfx_group[] = {
    {"", F_VALUE, RUN, 0, 0, "occurrences (by value through the component's sender interface)"},
    {"other", F_UNMATCHED, RUN, 0, 0, "occurrences whose value or scope has no slot of its own"},
    {NULL, 0, 0, 0, 0, NULL}};
static const sfx_t sfx_seq[] = {
    {"", F_OOS, RUN, 0, 0, "arrivals whose sequence number was not the next expected"},
    {"arrivals", F_ARRIVALS, RUN, 0, 0, "arrivals checked"},
    {NULL, 0, 0, 0, 0, NULL}};
static const sfx_t sfx_pair[] = {
    {"count", F_COUNT, RUN, 0, 0, "matched begin/end pairs"},
    {"total", F_TOTAL, RUN, 1, 0, "total duration"},
    {"min", F_MIN, ABS, 1, 0, "shortest duration"},
    {"max", F_MAX, ABS, 1, 0, "longest duration"},
    {"mean", F_MEAN, ABS, 1, 0, "mean duration (total/count)"},
    {"unmatched", F_UNMATCHED, RUN, 0, 1, "ends without a begin, begins never ended"},
    {NULL, 0, 0, 0, 0, NULL}};
static const sfx_t sfx_level_common[] = {
    {"inserts", F_INSERTS, RUN, 0, 0, "items inserted"},
    {"removes", F_REMOVES, RUN, 0, 0, "items removed"},
    {"depth", F_DEPTH, ABS, 0, 0, "current depth"},
    {"max", F_HWM, ABS, 0, 0, "high-water mark of depth"},
    {"time", F_TIME, RUN, 1, 0, "total residence time (integral of depth over time)"},
    {"mean", F_LMEAN, ABS, 1, 0, "residence time per inserted item (time/inserts)"},
    {NULL, 0, 0, 0, 0, NULL}};
static const sfx_t sfx_level_count[] = {
    {"unmatched", F_UNMATCHED, RUN, 0, 1,
     "removals from an empty queue (items queued before start, counted from start)"},
    {NULL, 0, 0, 0, 0, NULL}};
static const sfx_t sfx_level_keyed[] = {
    {"wait_min", F_MIN, ABS, 1, 0, "shortest wait of an item (remove - insert)"},
    {"wait_max", F_MAX, ABS, 1, 0, "longest wait of an item (remove - insert)"},
    {"unmatched", F_UNMATCHED, RUN, 0, 1, "removals of items whose insert was not seen"},
    {NULL, 0, 0, 0, 0, NULL}};

/* A row resolved against the running MPI. */
typedef struct resolved {
    int nref, ev[2], nk[2], idx[2][MPIT_RULE_MAX_ELEMS];
} resolved_t;

static int nelems_of(const mpit_rule_ref_t *ref)
{
    int n = 0;
    while (n < MPIT_RULE_MAX_ELEMS && ref->elems[n]) n++;
    return n;
}

/* Fills why and returns 0 when the row cannot work here. */
static int resolve_row(const mpit_engine_t *e, const mpit_rule_t *row, resolved_t *rv, char *why, size_t len)
{
    int kind = row->kind;
    int n0 = nelems_of(&row->ref[0]), n1 = nelems_of(&row->ref[1]);

    rv->nref = (kind == MPIT_RULE_PAIR || kind == MPIT_RULE_LEVEL) ? 2 : 1;
    if (!row->name || !*row->name || kind < MPIT_RULE_COUNT || kind > MPIT_RULE_GROUP)
        return snprintf(why, len, "malformed row: name or kind"), 0;
    if ((kind == MPIT_RULE_SUM || kind == MPIT_RULE_MAX) && n0 != 1)
        return snprintf(why, len, "malformed row: %s needs one value element", row->name), 0;
    if (kind == MPIT_RULE_GROUP && (n0 < 1 || n0 > 2))
        return snprintf(why, len, "malformed row: %s needs a value element and at most a scope", row->name),
               0;
    if (kind == MPIT_RULE_PAIR && (n0 < 1 || n0 != n1))
        return snprintf(why, len, "malformed row: %s needs matching keys", row->name), 0;
    if (kind == MPIT_RULE_LEVEL && n0 != n1)
        return snprintf(why, len, "malformed row: %s key counts differ", row->name), 0;
    if (kind == MPIT_RULE_SEQUENCE && (n0 < 2 || row->seq_bits < 8 || row->seq_bits > 32))
        return snprintf(why, len, "malformed row: %s needs keys, a sequence and seq_bits 8..32", row->name),
               0;
    for (int r = 0; r < rv->nref; r++) {
        const mpit_rule_ref_t *ref = &row->ref[r];
        const evstate_t *E;
        int ne = nelems_of(ref);

        if (!ref->event) return snprintf(why, len, "malformed row: %s lacks an event", row->name), 0;
        if ((ref->flags & MPIT_REF_NOREAD) && ne)
            return snprintf(why, len, "malformed row: %s reads unreadable %s", row->name, ref->event), 0;
        rv->ev[r] = find_event(e, ref->event);
        if (rv->ev[r] < 0) return snprintf(why, len, "event %s not provided by this MPI", ref->event), 0;
        E = &e->ev[rv->ev[r]];
        if (ne && E->noread) return snprintf(why, len, "data of event %s must not be read", E->name), 0;
        rv->nk[r] = kind == MPIT_RULE_SEQUENCE ? ne - 1 : ne;
        for (int i = 0; i < ne; i++) {
            int k = find_elem(E, ref->elems[i]);
            if (k < 0) return snprintf(why, len, "event %s has no element %s", E->name, ref->elems[i]), 0;
            if (E->kind[k] == MPIT_ELEM_OTHER)
                return snprintf(why, len, "element %s of event %s is not an integer", E->elem[k], E->name), 0;
            rv->idx[r][i] = k;
        }
    }
    return 1;
}

static int counter_exists(const mpit_engine_t *e, const char *name)
{
    for (int i = 0; i < e->nctr; i++)
        if (!strcmp(e->ctr[i].name, name)) return 1;
    return 0;
}

static int add_counter(mpit_engine_t *e, const char *name, const char *desc, const char *units, int vkind,
                       int field, rstate_t *r)
{
    counter_t *c = &e->ctr[e->nctr];

    c->name = dupstr(name);
    c->desc = dupstr(desc);
    if (!c->name || !c->desc) {
        free(c->name);
        free(c->desc);
        return -1;
    }
    c->units = units;
    c->vkind = vkind;
    c->field = field;
    c->r = r;
    e->nctr++;
    return 0;
}

/* The suffix lists of an active row, NULL-terminated. */
static void sfx_lists(const mpit_rule_t *row, int keyed, const sfx_t *l[3])
{
    l[1] = l[2] = NULL;
    switch (row->kind) {
    case MPIT_RULE_COUNT: l[0] = sfx_count; break;
    case MPIT_RULE_SUM: l[0] = sfx_sum; break;
    case MPIT_RULE_MAX: l[0] = sfx_max; break;
    case MPIT_RULE_PAIR: l[0] = sfx_pair; break;
    case MPIT_RULE_SEQUENCE: l[0] = sfx_seq; break;
    case MPIT_RULE_GROUP: l[0] = sfx_group; break;
    default: l[0] = sfx_level_common; l[1] = keyed ? sfx_level_keyed : sfx_level_count;
    }
}

static char *counter_name(const mpit_rule_t *row, const sfx_t *s)
{
    return joinstr(row->name, *s->sfx ? "." : "", s->sfx);
}

/* Creates the rule state and counters of an available row: 0, 1 when its
 * counter names clash (why set), -1 when out of memory. */
static int activate_row(mpit_engine_t *e, int ri, const resolved_t *rv, char *why, size_t len)
{
    const mpit_rule_t *row = &e->rows[ri];
    int keyed = row->kind == MPIT_RULE_PAIR || row->kind == MPIT_RULE_SEQUENCE ||
                (row->kind == MPIT_RULE_LEVEL && rv->nk[0] > 0);
    const sfx_t *lists[3];
    rstate_t *r;

    sfx_lists(row, keyed, lists);
    for (int l = 0; lists[l]; l++)
        for (const sfx_t *s = lists[l]; s->sfx; s++) {
            char *nm = counter_name(row, s);
            int clash = !nm || counter_exists(e, nm);
            free(nm);
            if (clash) return snprintf(why, len, "counter names of %s clash with another rule", row->name), 1;
        }
    r = calloc(1, sizeof *r);
    if (!r) return -1;
    r->row = row;
    r->keyed = keyed;
    r->seq_bits = row->seq_bits;
    if (row->kind == MPIT_RULE_MAX) r->val_signed = e->ev[rv->ev[0]].kind[rv->idx[0][0]] == MPIT_ELEM_SIGNED;
    if (keyed) {
        r->slots = calloc((size_t)e->slots, sizeof *r->slots);
        if (!r->slots) {
            free(r);
            return -1;
        }
        r->mask = (uint64_t)e->slots - 1;
        r->probe = e->slots < PROBE ? e->slots : PROBE;
    }
    if (row->kind == MPIT_RULE_GROUP && !(r->groups = calloc(MPIT_GROUP_SLOTS, sizeof *r->groups))) {
        free(r);
        return -1;
    }
    atomic_store(&r->min, UINT64_MAX);
    if (row->kind == MPIT_RULE_COUNT || (row->kind == MPIT_RULE_LEVEL && !keyed))
        for (int ref = 0; ref < rv->nref; ref++) r->src[ref] = &e->ev[rv->ev[ref]].count;
    e->rs[ri] = r;
    for (int l = 0; lists[l]; l++)
        for (const sfx_t *s = lists[l]; s->sfx; s++) {
            char *nm = counter_name(row, s);
            char *desc = joinstr(row->desc ? row->desc : row->name, ": ", s->what);
            int rc = (nm && desc) ? add_counter(e, nm, desc,
                                                s->ns        ? "ns"
                                                : s->ev      ? "events"
                                                : row->units ? row->units
                                                             : "",
                                                s->vkind, s->field, r)
                                  : -1;
            free(nm);
            free(desc);
            if (rc) return -1;
        }
    return 0;
}

static int op_of(int kind, int ref)
{
    switch (kind) {
    case MPIT_RULE_COUNT: return OP_NONE; /* its event type's count */
    case MPIT_RULE_SUM: return OP_SUM;
    case MPIT_RULE_MAX: return OP_MAX;
    case MPIT_RULE_PAIR: return ref ? OP_END : OP_BEGIN;
    case MPIT_RULE_LEVEL: return ref ? OP_REMOVE : OP_INSERT;
    case MPIT_RULE_GROUP: return OP_GROUP;
    default: return OP_ARRIVE;
    }
}

static void add_action(mpit_engine_t *e, int ri, const resolved_t *rv, int ref)
{
    evstate_t *E = &e->ev[rv->ev[ref]];
    action_t *a = &E->act[E->nact++];
    int ne = e->rows[ri].kind == MPIT_RULE_SEQUENCE ? rv->nk[ref] + 1 : rv->nk[ref];

    a->op = op_of(e->rows[ri].kind, ref);
    a->nk = (a->op == OP_SUM || a->op == OP_MAX || a->op == OP_GROUP) ? 0 : rv->nk[ref];
    a->nval = rv->nk[ref];
    a->r = e->rs[ri];
    a->need = 0;
    for (int i = 0; i < ne; i++) {
        a->idx[i] = rv->idx[ref][i];
        if (a->idx[i] + 1 > a->need) a->need = a->idx[i] + 1;
    }
    if (a->need > E->need) E->need = a->need;
}

int mpit_engine_bind(mpit_engine_t *e, const mpit_rule_t *rules, int nrules, uint64_t t0)
{
    resolved_t *rv;
    char why[MPIT_ROW_WHY_LEN];

    if (!e || e->bound || e->rows || nrules < 0 || (nrules && !rules)) return -1;
    e->rows = rules;
    e->nrows = nrules;
    e->row_active = calloc((size_t)nrules + 1, sizeof *e->row_active);
    e->row_why = calloc((size_t)nrules + 1, sizeof *e->row_why);
    e->rs = calloc((size_t)nrules + 1, sizeof *e->rs);
    rv = calloc((size_t)nrules + 1, sizeof *rv);
    e->ctr = calloc((size_t)nrules * 12 + 1, sizeof *e->ctr); /* >= suffixes per row */
    if (!e->row_active || !e->row_why || !e->rs || !rv || !e->ctr) goto fail;

    /* Unreadable events first: a row needing their elements is unavailable,
     * and the front end must pass them without data whatever rows remain. */
    for (int ri = 0; ri < nrules; ri++)
        for (int r = 0; r < 2; r++)
            if (rules[ri].ref[r].event && (rules[ri].ref[r].flags & MPIT_REF_NOREAD))
                for (int i = 0; i < e->nev; i++)
                    if (e->ev[i].described && alt_match(rules[ri].ref[r].event, e->ev[i].name, 1))
                        e->ev[i].noread = 1;

    if (add_counter(e, MPIT_ENGINE_DROPPED,
                    "Events the engine could not account: key table full, "
                    "too few elements, unknown type, sequence gap beyond its window",
                    "events", MPIT_VALUE_RUNNING, F_DROPPED, NULL))
        goto fail;

    for (int ri = 0; ri < nrules; ri++) {
        int shadowed = 0;
        for (int j = 0; j < ri && !shadowed; j++)
            shadowed =
                e->row_active[j] && rules[j].name && rules[ri].name && !strcmp(rules[j].name, rules[ri].name);
        if (shadowed) {
            snprintf(why, sizeof why, "shadowed by an earlier available row of %s", rules[ri].name);
        } else if (resolve_row(e, &rules[ri], &rv[ri], why, sizeof why)) {
            int rc = activate_row(e, ri, &rv[ri], why, sizeof why);
            if (rc < 0) goto fail;
            if (rc == 0) {
                e->row_active[ri] = 1;
                snprintf(why, sizeof why, "available");
            }
        }
        if (!(e->row_why[ri] = dupstr(why))) goto fail;
    }

    /* Per-event action lists (why: the hot path walks only what applies). */
    for (int pass = 0; pass < 2; pass++) {
        for (int ri = 0; ri < nrules; ri++) {
            if (!e->row_active[ri]) continue;
            for (int r = 0; r < rv[ri].nref; r++) {
                if (op_of(rules[ri].kind, r) == OP_NONE) continue;
                if (pass == 0)
                    e->ev[rv[ri].ev[r]].nact++;
                else
                    add_action(e, ri, &rv[ri], r);
            }
        }
        if (pass == 0)
            for (int i = 0; i < e->nev; i++) {
                evstate_t *E = &e->ev[i];
                if (!E->nact) continue;
                E->act = calloc((size_t)E->nact, sizeof *E->act);
                if (!E->act) goto fail;
                E->nact = 0;
            }
    }
    free(rv);
    mpit_engine_reset(e, t0);
    for (int i = 0; i < e->nev; i++) {
        evstate_t *E = &e->ev[i];
        for (int k = 0; k < E->nact && k < 64; k++)
            if ((E->act[k].op == OP_INSERT || E->act[k].op == OP_REMOVE) && E->act[k].nk == 0)
                E->bare |= 1ull << k;
        if (E->described) engine_refresh_plan(e, i); /* every action runs until gated */
    }
    e->bound = 1;
    return e->nctr;

fail:
    free(rv);
    return -1;
}

int mpit_engine_rule_available(const mpit_engine_t *e, const char *name, char *why, size_t len)
{
    const char *first = NULL;

    if (why && len) *why = 0;
    if (!e || !name) return 0;
    for (int i = 0; i < e->nrows; i++) {
        if (!e->rows[i].name || strcmp(e->rows[i].name, name)) continue;
        if (e->row_active && e->row_active[i]) return 1;
        if (!first && e->row_why) first = e->row_why[i];
    }
    if (why && len) snprintf(why, len, "%s", first ? first : e->bound ? "no rule of that name" : "not bound");
    return 0;
}
