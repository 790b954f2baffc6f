/*
 * libFuzzer target for the event rule engine (mpit_engine_*.c) bound to the
 * built-in rule table (mpit_rules.c).
 *   clang -fsanitize=fuzzer,address,undefined -I../.. fuzz_engine.c \
 *         ../../mpit_engine_*.c ../../mpit_rules.c
 *
 * The input describes a running MPI (event types whose names and element
 * names come from the rule table, with Open MPI's prefixes, or not), then is
 * a stream of operations: dispatches with arbitrary timestamps and elements
 * (often small, so keys collide and pairs match), reads, look-ups, rearms,
 * resets. Elements are passed in heap arrays of the exact length given, so
 * ASan sees any read past them. Besides memory safety and UB it checks what
 * the interface promises (see REQUIRE lines): counts per event type are
 * exact, names found resolve back to themselves, a reset zeroes everything,
 * queue levels balance.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpit_engine.h"

#define REQUIRE(c)                                                                                           \
    do {                                                                                                     \
        if (!(c)) {                                                                                          \
            fprintf(stderr, "fuzz_engine: %s:%d: %s\n", __FILE__, __LINE__, #c);                             \
            abort();                                                                                         \
        }                                                                                                    \
    } while (0)

#define MAX_EV   10
#define MAX_EL   6
#define MAX_OPS  1000
#define MAX_POOL 256
#define MAX_IDS  64

/* ------------------------------------------------------- input bytes */

typedef struct src {
    const uint8_t *p;
    size_t n;
} src_t;

static unsigned u8(src_t *s)
{
    if (!s->n) return 0;
    s->n--;
    return *s->p++;
}

static uint64_t u64(src_t *s)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | u8(s);
    return v;
}

/* ------------------------------------------- names from the rule table */

static char *ev_pool[MAX_POOL], *el_pool[MAX_POOL];
static int n_ev_pool, n_el_pool;

static void pool_add(char **pool, int *n, const char *a, size_t len, const char *prefix)
{
    size_t pl = strlen(prefix);
    char *s;

    if (*n >= MAX_POOL || !(s = malloc(pl + len + 1))) return;
    memcpy(s, prefix, pl);
    memcpy(s + pl, a, len);
    s[pl + len] = '\0';
    for (int i = 0; i < *n; i++)
        if (!strcmp(pool[i], s)) {
            free(s);
            return;
        }
    pool[(*n)++] = s;
}

/* Each '|' alternative of pat, once per prefix. */
static void pool_split(char **pool, int *n, const char *pat, const char *const *prefixes)
{
    while (pat && *pat) {
        const char *bar = strchr(pat, '|');
        size_t len = bar ? (size_t)(bar - pat) : strlen(pat);
        if (len && pat[0] != '#')
            for (int i = 0; prefixes[i]; i++) pool_add(pool, n, pat, len, prefixes[i]);
        pat = bar ? bar + 1 : NULL;
    }
}

static void build_pools(void)
{
    static const char *const ev_pre[] = {"", "ompi.", "ompi_", NULL};
    static const char *const none[] = {"", NULL};
    static const char *const extra_ev[] = {"other_event", "ompi.", "x", NULL};
    static const char *const extra_el[] = {"tag", "other", "#0", NULL};

    for (int r = 0; r < mpit_num_rules; r++)
        for (int k = 0; k < 2; k++) {
            const mpit_rule_ref_t *ref = &mpit_rules[r].ref[k];
            pool_split(ev_pool, &n_ev_pool, ref->event, ev_pre);
            for (int i = 0; i < MPIT_RULE_MAX_ELEMS && ref->elems[i]; i++)
                pool_split(el_pool, &n_el_pool, ref->elems[i], none);
        }
    for (int i = 0; extra_ev[i]; i++) pool_add(ev_pool, &n_ev_pool, extra_ev[i], strlen(extra_ev[i]), "");
    for (int i = 0; extra_el[i]; i++) pool_add(el_pool, &n_el_pool, extra_el[i], strlen(extra_el[i]), "");
}

/* --------------------------------------------------------------- model */

typedef struct model {
    mpit_engine_t *e;
    int nev, nctr, rearmed, wild; /* wild: a timestamp jumped anywhere */
    int described[MAX_EV], nelem[MAX_EV];
    const char *elname[MAX_EV][MAX_EL];
    uint64_t count[MAX_EV], unknown, last_dropped;
    int ids[MAX_IDS], nids; /* counter ids handed out: derived and raw */
} model_t;

static int64_t read_named(model_t *m, const char *rule, const char *sfx, uint64_t now, int *found)
{
    char name[160];
    int id;

    snprintf(name, sizeof name, "%s%s%s", rule, *sfx ? "." : "", sfx);
    id = mpit_engine_find_counter(m->e, name);
    *found = id >= 0;
    return id >= 0 ? mpit_engine_read(m->e, id, now) : 0;
}

/* Invariants between the counters of each active rule, and the exact
 * per-type counts. */
static void check_all(model_t *m, uint64_t now)
{
    int dropped = mpit_engine_find_counter(m->e, "dropped");
    uint64_t d;

    REQUIRE(dropped >= 0);
    d = (uint64_t)mpit_engine_read(m->e, dropped, now);
    REQUIRE(d >= m->unknown && d >= m->last_dropped);
    m->last_dropped = d;
    for (int i = 0; i < m->nev; i++) {
        int n = mpit_engine_elements_to_read(m->e, i);
        if (!m->described[i]) {
            REQUIRE(mpit_engine_raw_counter(m->e, i, MPIT_RAW_COUNT, -1) < 0 && n == 0);
            continue;
        }
        REQUIRE(n >= 0 && n <= m->nelem[i]);
        REQUIRE((uint64_t)mpit_engine_read(m->e, mpit_engine_raw_counter(m->e, i, MPIT_RAW_COUNT, -1), now) ==
                m->count[i]);
    }
    for (int r = 0; r < mpit_num_rules; r++) {
        const char *nm = mpit_rules[r].name;
        int f1, f2, f3, f4;
        char why[256];

        if (!mpit_engine_rule_available(m->e, nm, why, sizeof why)) {
            REQUIRE(why[0] != '\0');
            continue;
        }
        switch (mpit_rules[r].kind) {
        case MPIT_RULE_LEVEL: {
            int64_t ins = read_named(m, nm, "inserts", now, &f1);
            int64_t rem = read_named(m, nm, "removes", now, &f2);
            int64_t dep = read_named(m, nm, "depth", now, &f3);
            int64_t unm = read_named(m, nm, "unmatched", now, &f4);
            int keyed;
            REQUIRE(f1 && f2 && f3 && f4);
            read_named(m, nm, "wait_min", now, &keyed);
            /* keyed: a removal of an unseen key changes nothing else;
             * by count: a removal from empty is an item from before t0 */
            REQUIRE(dep == ins - rem + (keyed ? 0 : unm));
            REQUIRE(read_named(m, nm, "max", now, &f1) >= dep && f1);
            break;
        }
        case MPIT_RULE_PAIR: {
            int64_t cnt = read_named(m, nm, "count", now, &f1);
            int64_t tot = read_named(m, nm, "total", now, &f2);
            int64_t mn = read_named(m, nm, "min", now, &f3);
            int64_t mx = read_named(m, nm, "max", now, &f4);
            int64_t mean = read_named(m, nm, "mean", now, &f1);
            REQUIRE(f1 && f2 && f3 && f4);
            if (cnt > 0 && !m->rearmed && !m->wild) /* else durations may wrap */
                REQUIRE(mn <= mean && mean <= mx && (uint64_t)mx <= (uint64_t)tot);
            break;
        }
        case MPIT_RULE_SEQUENCE: {
            int64_t oos = read_named(m, nm, "", now, &f1);
            int64_t arr = read_named(m, nm, "arrivals", now, &f2);
            REQUIRE(f1 && f2 && (uint64_t)oos <= (uint64_t)arr);
            break;
        }
        default: read_named(m, nm, "", now, &f1); REQUIRE(f1);
        }
    }
}

/* Is name taken: by an event before `upto` (ev < 0), else by an element of
 * event ev before `upto`? (Pools are larger than what one input uses.) */
static int used(const model_t *m, int ev, int upto, const char *name)
{
    mpit_counter_info_t ci;

    for (int i = 0; i < upto; i++) {
        if (ev >= 0) {
            if (m->elname[ev][i] && !strcmp(m->elname[ev][i], name)) return 1;
        } else if (m->described[i] &&
                   mpit_engine_counter_info(m->e, mpit_engine_raw_counter(m->e, i, MPIT_RAW_COUNT, -1),
                                            &ci) == 0 &&
                   !strcmp(ci.name, name)) {
            return 1;
        }
    }
    return 0;
}

static void remember(model_t *m, int id)
{
    if (id >= 0 && m->nids < MAX_IDS) m->ids[m->nids++] = id;
}

static int pick_id(model_t *m, src_t *s)
{
    unsigned b = u8(s);

    if (b < 128 && m->nids) return m->ids[b % (unsigned)m->nids];
    if (b < 240) return (int)(b % (unsigned)(m->nctr + 1));
    return (int)(uint32_t)u64(s); /* anything, negative included */
}

/* A name to look up: a counter's own, an event's raw ones, or junk. */
static void pick_name(model_t *m, src_t *s, char *buf, size_t len)
{
    unsigned b = u8(s), ev = u8(s) % MAX_EV, k = u8(s);
    mpit_counter_info_t ci;

    switch (b % 5) {
    case 0:
        if (mpit_engine_counter_info(m->e, pick_id(m, s), &ci) == 0) {
            snprintf(buf, len, "%s", ci.name);
            return;
        }
        /* fall through */
    case 1: snprintf(buf, len, "%s", ev_pool[k % (unsigned)n_ev_pool]); return;
    case 2:
    case 3:
        if ((int)ev < m->nev && m->described[ev] && m->nelem[ev]) {
            const char *en = m->elname[ev][k % (unsigned)m->nelem[ev]];
            char num[8];
            if (!en || !*en) {
                snprintf(num, sizeof num, "%u", k % (unsigned)m->nelem[ev]);
                en = num;
            }
            snprintf(buf, len, "%s:%s=%s",
                     mpit_engine_counter_info(
                         m->e, mpit_engine_raw_counter(m->e, (int)ev, MPIT_RAW_COUNT, -1), &ci) == 0
                         ? ci.name
                         : "?",
                     b & 8 ? "sum" : "max", b & 16 ? en : el_pool[k % (unsigned)n_el_pool]);
            return;
        }
        /* fall through */
    default: {
        size_t n = u8(s) % 24;
        if (n >= len) n = len - 1;
        for (size_t i = 0; i < n; i++) {
            unsigned c = u8(s);
            buf[i] = c ? (char)c : ':';
        }
        buf[n] = '\0';
    }
    }
}

static void dispatch(model_t *m, src_t *s, uint64_t *ts)
{
    unsigned b = u8(s), t = u8(s), how = u8(s);
    int id = b == 255 ? -1 : (int)(b % (unsigned)(m->nev + 1));
    int n = mpit_engine_elements_to_read(m->e, id);
    int64_t *el;

    /* a step past 0 or 2^64 wraps the clock, a jump as wild as a random one */
    switch (t >> 6) {
    case 0: m->wild |= __builtin_add_overflow(*ts, (uint64_t)(t & 63), ts); break;
    case 1: m->wild |= __builtin_add_overflow(*ts, (uint64_t)(t & 63) << 20, ts); break;
    case 2: /* clocks of two threads disagree */
        m->wild |= __builtin_sub_overflow(*ts, (uint64_t)(t & 63), ts);
        break;
    default: *ts = u64(s); m->wild = 1;
    }
    if (how % 4 == 3) n = (int)(how >> 2) % 9; /* a front end passing too few or too many */
    el = malloc(n ? (size_t)n * sizeof *el : 1);
    REQUIRE(el != NULL);
    for (int i = 0; i < n; i++) {
        unsigned v = u8(s);
        el[i] = v < 200 ? (int64_t)(v % 6) : (int64_t)u64(s);
    }
    mpit_engine_dispatch(m->e, id, *ts, how % 16 == 14 ? NULL : el, n);
    free(el);
    if (id >= 0 && id < m->nev && m->described[id])
        m->count[id]++;
    else
        m->unknown++;
}

static void after_reset(model_t *m, uint64_t now)
{
    memset(m->count, 0, sizeof m->count);
    m->unknown = m->last_dropped = 0;
    m->rearmed = m->wild = 0;
    for (int id = 0; id < m->nctr; id++) REQUIRE(mpit_engine_read(m->e, id, now) == 0);
    for (int i = 0; i < m->nids; i++) REQUIRE(mpit_engine_read(m->e, m->ids[i], now) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int slot_choice[] = {1, 2, 8, 32, 64};
    src_t s = {data, size};
    model_t m;
    uint64_t ts, t0;
    int rc;

    if (!n_ev_pool) build_pools();
    memset(&m, 0, sizeof m);
    m.nev = 1 + (int)(u8(&s) % MAX_EV);
    m.e = mpit_engine_create(m.nev, slot_choice[u8(&s) % 5]);
    REQUIRE(m.e != NULL);
    t0 = u8(&s) & 1 ? 0 : u64(&s);
    ts = t0 ? t0 : 1000;

    /* ---- setup: describe the event types of an imaginary MPI. Names are
     * unique, as MPI_T has them: event names, and element names in an event. */
    for (int i = 0; i < m.nev; i++) {
        unsigned flags = u8(&s), pick = u8(&s);
        const char *name;
        int kinds[MAX_EL];

        if (flags % 8 == 7) continue; /* a type nobody describes */
        while (used(&m, -1, i, name = ev_pool[pick % (unsigned)n_ev_pool])) pick++;
        m.nelem[i] = (int)(u8(&s) % (MAX_EL + 1));
        for (int k = 0; k < m.nelem[i]; k++) {
            unsigned b = u8(&s), e = u8(&s);
            if (b % 16 < 14)
                while (used(&m, i, k, el_pool[e % (unsigned)n_el_pool])) e++;
            m.elname[i][k] = b % 16 == 15 ? NULL : b % 16 == 14 ? "" : el_pool[e % (unsigned)n_el_pool];
            /* mostly integers; sometimes not, or a kind the engine must not trust */
            kinds[k] = (b >> 4) % 4 == 3 ? (b & 0x80 ? MPIT_ELEM_OTHER : 9) : (int)(b >> 4) % 2;
        }
        rc = mpit_engine_describe_event(m.e, i, name, m.nelem[i], flags & 8 ? NULL : m.elname[i], kinds);
        REQUIRE(rc == 0);
        if (flags & 8) memset(m.elname[i], 0, sizeof m.elname[i]);
        m.described[i] = 1;
    }
    REQUIRE(mpit_engine_describe_event(m.e, m.nev, "x", 0, NULL, NULL) < 0);
    REQUIRE(mpit_engine_describe_event(m.e, 0, "x", 65, NULL, NULL) < 0);

    m.nctr = mpit_engine_bind(m.e, mpit_rules, mpit_num_rules, t0);
    mpit_counter_info_t last;
    REQUIRE(m.nctr >= 1 && mpit_engine_counter_info(m.e, m.nctr - 1, &last) == 0 &&
            mpit_engine_counter_info(m.e, m.nctr, &last) < 0);
    REQUIRE(mpit_engine_bind(m.e, mpit_rules, mpit_num_rules, t0) < 0);
    REQUIRE(mpit_engine_describe_event(m.e, 0, "x", 0, NULL, NULL) < 0);
    for (int id = 0; id < m.nctr; id++) {
        mpit_counter_info_t ci;
        REQUIRE(mpit_engine_counter_info(m.e, id, &ci) == 0);
        REQUIRE(ci.name && ci.desc && ci.units && *ci.name);
        REQUIRE(mpit_engine_find_counter(m.e, ci.name) == id);
    }
    check_all(&m, ts);

    /* ---- the stream */
    for (int op = 0; op < MAX_OPS && s.n; op++) {
        unsigned what = u8(&s) % 16;
        mpit_counter_info_t ci;
        char name[200];
        int id;

        if (what < 9) {
            dispatch(&m, &s, &ts);
        } else if (what < 11) {
            id = pick_id(&m, &s);
            (void)mpit_engine_read(m.e, id, what == 9 ? ts : u64(&s));
        } else if (what == 11) {
            pick_name(&m, &s, name, sizeof name);
            id = mpit_engine_find_counter(m.e, name);
            if (id >= 0) {
                REQUIRE(mpit_engine_counter_info(m.e, id, &ci) == 0 && !strcmp(ci.name, name));
                remember(&m, id);
            }
        } else if (what == 12) {
            int ev = (int)(u8(&s) % (MAX_EV + 1)) - 1, kind = (int)(u8(&s) % 4);
            id = mpit_engine_raw_counter(m.e, ev, kind, (int)(u8(&s) % 9) - 1);
            if (id >= 0) {
                REQUIRE(mpit_engine_counter_info(m.e, id, &ci) == 0);
                REQUIRE(mpit_engine_find_counter(m.e, ci.name) >= 0);
                remember(&m, id);
            }
        } else if (what == 13) {
            rc = mpit_engine_rearm(m.e, pick_id(&m, &s));
            REQUIRE(rc == 0 || rc == -1);
            m.rearmed |= rc == 0;
        } else if (what == 14) {
            check_all(&m, u8(&s) & 1 ? ts : u64(&s));
        } else if (u8(&s) % 4 == 0) {
            mpit_engine_reset(m.e, u8(&s) & 1 ? 0 : ts);
            after_reset(&m, u8(&s) & 1 ? ts : u64(&s));
        } else {
            char why[8]; /* short: the reason is cut, not overrun */
            pick_name(&m, &s, name, sizeof name);
            rc = mpit_engine_rule_available(m.e, name, why, sizeof why);
            REQUIRE((rc == 0 || rc == 1) && strlen(why) < sizeof why);
        }
    }
    check_all(&m, ts);
    mpit_engine_destroy(m.e);
    return 0;
}
