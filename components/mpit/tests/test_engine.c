/*
 * Unit tests of the event rule engine: recorded streams (streams/NAME.stream)
 * fed through the real rule table, hand-built rows for edge cases, and a
 * concurrent stress test. Prints "N passed, N failed"; exits 1 on a failure.
 *
 * Stream format, one directive a line, '#' starts a comment:
 *   event <name> <elem>:<i|u|o> ...   describe the next event type (id 0, 1, ...);
 *                                     elem "-" = unnamed; i signed, u unsigned, o other
 *   bind [t0]                         bind the built-in rules (implicit, t0 0)
 *   <ts> <event> [<elem>=<value>...]  dispatch, passing as many elements as
 *                                     mpit_engine_elements_to_read says (a
 *                                     front end would read only those)
 *   expect <counter> <value> [@<now>] read (now defaults to 0)
 *   available <rule> | unavailable <rule> [<words of the reason>]
 *   absent <counter>                  no such counter
 *   reads <event> <n>                 mpit_engine_elements_to_read
 */
#include <dirent.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../mpit_engine.h"
#include "../mpit_metrics.h"

static int passed, failed;

static void check(int ok, const char *where, int line, const char *fmt, ...)
{
    va_list ap;

    if (ok) {
        passed++;
        return;
    }
    failed++;
    printf("FAIL %s:%d: ", where, line);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

#define CHECK(c, ...) check((c), __FILE__, __LINE__, __VA_ARGS__)
#define EQ(got, want, what)                                                                                  \
    do {                                                                                                     \
        long long g_ = (long long)(got), w_ = (long long)(want);                                             \
        CHECK(g_ == w_, "%s: got %lld, want %lld", (what), g_, w_);                                          \
    } while (0)

static int64_t rd(mpit_engine_t *e, const char *name, uint64_t now)
{
    int id = mpit_engine_find_counter(e, name);
    CHECK(id >= 0, "no counter %s", name);
    return id >= 0 ? mpit_engine_read(e, id, now) : -1;
}

/* ------------------------------------------------------------- streams */

#define MAXEV 32
#define MAXEL 16

typedef struct stream {
    mpit_engine_t *eng;
    int nev, bound;
    char name[MAXEV][128];
    char elem[MAXEV][MAXEL][64];
    int nelem[MAXEV];
} stream_t;

static int ev_id(const stream_t *s, const char *name)
{
    for (int i = 0; i < s->nev; i++)
        if (!strcmp(s->name[i], name)) return i;
    return -1;
}

static void run_stream(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024], where[1100];
    stream_t *s = calloc(1, sizeof *s);
    int lineno = 0;

    CHECK(f && s, "cannot open %s", path);
    if (!f || !s) {
        free(s);
        if (f) fclose(f);
        return;
    }
    s->eng = mpit_engine_create(MAXEV, 0);
    while (fgets(line, sizeof line, f)) {
        char *tok[MAXEL + 4], *save = NULL, *c = strchr(line, '#');
        int nt = 0;

        lineno++;
        snprintf(where, sizeof where, "%s line %d", path, lineno);
        if (c) *c = 0;
        for (char *t = strtok_r(line, " \t\r\n", &save); t && nt < MAXEL + 4;
             t = strtok_r(NULL, " \t\r\n", &save))
            tok[nt++] = t;
        if (!nt) continue;

        if (!strcmp(tok[0], "event")) {
            const char *names[MAXEL];
            int kinds[MAXEL], id = s->nev++;
            CHECK(!s->bound && nt >= 2 && id < MAXEV, "%s: bad event line", where);
            if (s->bound || nt < 2 || id >= MAXEV) break;
            snprintf(s->name[id], sizeof s->name[id], "%s", tok[1]);
            for (int i = 2; i < nt && i - 2 < MAXEL; i++) {
                char *colon = strchr(tok[i], ':');
                int k = i - 2;
                kinds[k] = !colon            ? MPIT_ELEM_SIGNED
                           : colon[1] == 'u' ? MPIT_ELEM_UNSIGNED
                           : colon[1] == 'o' ? MPIT_ELEM_OTHER
                                             : MPIT_ELEM_SIGNED;
                if (colon) *colon = 0;
                if (!strcmp(tok[i], "-"))
                    snprintf(s->elem[id][k], sizeof s->elem[id][k], "%d", k);
                else
                    snprintf(s->elem[id][k], sizeof s->elem[id][k], "%s", tok[i]);
                names[k] = strcmp(tok[i], "-") ? s->elem[id][k] : NULL;
                s->nelem[id]++;
            }
            CHECK(mpit_engine_describe_event(s->eng, id, s->name[id], s->nelem[id], names, kinds) == 0,
                  "%s: describe", where);
            continue;
        }
        if (!s->bound) {
            uint64_t t0 = (!strcmp(tok[0], "bind") && nt > 1) ? strtoull(tok[1], NULL, 0) : 0;
            CHECK(mpit_engine_bind(s->eng, mpit_rules, mpit_num_rules, t0) > 0, "%s: bind", where);
            s->bound = 1;
            if (!strcmp(tok[0], "bind")) continue;
        }

        if (tok[0][0] >= '0' && tok[0][0] <= '9') {
            int64_t el[MAXEL] = {0};
            int id = nt > 1 ? ev_id(s, tok[1]) : -1, n;
            CHECK(id >= 0, "%s: unknown event", where);
            if (id < 0) continue;
            for (int i = 2; i < nt; i++) {
                char *eq = strchr(tok[i], '=');
                int k;
                for (k = 0; eq && k < s->nelem[id]; k++)
                    if (strlen(s->elem[id][k]) == (size_t)(eq - tok[i]) &&
                        !strncmp(s->elem[id][k], tok[i], (size_t)(eq - tok[i])))
                        break;
                CHECK(eq && k < s->nelem[id], "%s: unknown element %s", where, tok[i]);
                if (eq && k < s->nelem[id]) el[k] = strtoll(eq + 1, NULL, 0);
            }
            n = mpit_engine_elements_to_read(s->eng, id);
            mpit_engine_dispatch(s->eng, id, strtoull(tok[0], NULL, 0), n ? el : NULL, n);
        } else if (!strcmp(tok[0], "expect") && nt >= 3) {
            uint64_t now = (nt > 3 && tok[3][0] == '@') ? strtoull(tok[3] + 1, NULL, 0) : 0;
            int id = mpit_engine_find_counter(s->eng, tok[1]);
            long long want = strtoll(tok[2], NULL, 0), got;
            CHECK(id >= 0, "%s: no counter %s", where, tok[1]);
            if (id < 0) continue;
            got = (long long)mpit_engine_read(s->eng, id, now);
            CHECK(got == want, "%s: %s = %lld, want %lld", where, tok[1], got, want);
        } else if (!strcmp(tok[0], "available") && nt == 2) {
            char why[256];
            CHECK(mpit_engine_rule_available(s->eng, tok[1], why, sizeof why) == 1, "%s: %s unavailable: %s",
                  where, tok[1], why);
        } else if (!strcmp(tok[0], "unavailable") && nt >= 2) {
            char why[256];
            CHECK(mpit_engine_rule_available(s->eng, tok[1], why, sizeof why) == 0, "%s: %s available", where,
                  tok[1]);
            for (int i = 2; i < nt; i++)
                CHECK(strstr(why, tok[i]) != NULL, "%s: reason \"%s\" lacks \"%s\"", where, why, tok[i]);
        } else if (!strcmp(tok[0], "absent") && nt == 2) {
            CHECK(mpit_engine_find_counter(s->eng, tok[1]) < 0, "%s: %s exists", where, tok[1]);
        } else if (!strcmp(tok[0], "reads") && nt == 3) {
            int id = ev_id(s, tok[1]);
            EQ(mpit_engine_elements_to_read(s->eng, id), atoi(tok[2]), where);
        } else {
            CHECK(0, "%s: cannot parse", where);
        }
    }
    fclose(f);
    mpit_engine_destroy(s->eng);
    free(s);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void run_streams(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char *files[64], path[1024];
    int n = 0;

    CHECK(d != NULL, "no stream directory %s", dir);
    if (!d) return;
    while ((de = readdir(d)) && n < 64) {
        size_t l = strlen(de->d_name);
        if (l > 7 && !strcmp(de->d_name + l - 7, ".stream")) files[n++] = strdup(de->d_name);
    }
    closedir(d);
    CHECK(n >= 5, "only %d streams in %s", n, dir);
    qsort(files, (size_t)n, sizeof *files, by_name);
    for (int i = 0; i < n; i++) {
        int before = failed;
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        run_stream(path);
        printf("%-40s %s\n", files[i], failed == before ? "ok" : "FAILED");
        free(files[i]);
    }
}

/* ------------------------------------------------- hand-built rows */

static const char *const KV[] = {"k", "v"};
static const int II[] = {MPIT_ELEM_SIGNED, MPIT_ELEM_SIGNED};

/* A key table of 16 slots holds 16 open pairs; the rest are dropped and
 * their ends unmatched. */
static void test_pair_capacity(void)
{
    static const mpit_rule_t rows[] = {
        {"p", MPIT_RULE_PAIR, "ops", "pair", {{"b", {"k"}, 0}, {"e", {"k"}, 0}}, 0, 0},
    };
    mpit_engine_t *e = mpit_engine_create(2, 16);

    mpit_engine_describe_event(e, 0, "b", 1, KV, II);
    mpit_engine_describe_event(e, 1, "e", 1, KV, II);
    EQ(mpit_engine_bind(e, rows, 1, 1), 7, "pair counters + dropped");
    for (int64_t k = 0; k < 20; k++) mpit_engine_dispatch(e, 0, 100, &k, 1);
    EQ(rd(e, "dropped", 0), 4, "full table drops");
    for (int64_t k = 0; k < 20; k++) mpit_engine_dispatch(e, 1, 100 + (uint64_t)k, &k, 1);
    EQ(rd(e, "p.count", 0), 16, "pairs kept");
    EQ(rd(e, "p.unmatched", 0), 4, "ends of dropped begins");
    EQ(rd(e, "p.total", 0), 120, "0+1+..+15");
    EQ(rd(e, "p.min", 0), 0, "min");
    EQ(rd(e, "p.max", 0), 15, "max");
    /* Table is empty again: a new pair fits. */
    int64_t k = 99;
    mpit_engine_dispatch(e, 0, 1000, &k, 1);
    mpit_engine_dispatch(e, 1, 1300, &k, 1);
    EQ(rd(e, "p.max", 0), 300, "slots reused");
    EQ(rd(e, "dropped", 0), 4, "no new drops");
    mpit_engine_destroy(e);
}

/* Availability: malformed rows, shadowing, unreadable data, non-integer
 * elements, positional element names, counter info. */
static void test_rows(void)
{
    static const mpit_rule_t rows[] = {
        {"bad_sum", MPIT_RULE_SUM, "x", "no value", {{"a", {NULL}, 0}}, 0, 0},
        {"bad_seq", MPIT_RULE_SEQUENCE, "x", "bits", {{"a", {"k", "v"}, 0}}, 40, 0},
        {"noread", MPIT_RULE_PAIR, "x", "reads unreadable", {{"a", {"k"}, 0}, {"gone", {"#0"}, 0}}, 0, 0},
        {"other", MPIT_RULE_SUM, "x", "double", {{"d", {"x"}, 0}}, 0, 0},
        {"pos", MPIT_RULE_SUM, "bytes", "positional", {{"a", {"#1"}, 0}}, 0, 0},
        {"lvl",
         MPIT_RULE_LEVEL,
         "items",
         "by count",
         {{"a", {NULL}, 0}, {"gone", {NULL}, MPIT_REF_NOREAD}},
         0,
         0},
        {"pos", MPIT_RULE_COUNT, "x", "shadowed", {{"a", {NULL}, 0}}, 0, 0},
        {"m", MPIT_RULE_MAX, "x", "signed max", {{"a", {"v"}, 0}}, 0, 0},
    };
    static const int OD[] = {MPIT_ELEM_OTHER};
    static const char *const X[] = {"x"};
    mpit_engine_t *e = mpit_engine_create(3, 0);
    mpit_counter_info_t ci;
    char why[256];
    int64_t el[2] = {3, -5};

    mpit_engine_describe_event(e, 0, "a", 2, KV, II);
    mpit_engine_describe_event(e, 1, "gone", 2, NULL, II);
    mpit_engine_describe_event(e, 2, "d", 1, X, OD);
    CHECK(mpit_engine_bind(e, rows, 8, 10) > 0, "bind");
    CHECK(mpit_engine_bind(e, rows, 8, 10) < 0, "second bind refused");
    CHECK(!mpit_engine_rule_available(e, "bad_sum", why, sizeof why) && strstr(why, "malformed"),
          "bad_sum: %s", why);
    CHECK(!mpit_engine_rule_available(e, "bad_seq", why, sizeof why) && strstr(why, "seq_bits"),
          "bad_seq: %s", why);
    CHECK(!mpit_engine_rule_available(e, "noread", why, sizeof why) && strstr(why, "must not be read"),
          "noread: %s", why);
    CHECK(!mpit_engine_rule_available(e, "other", why, sizeof why) && strstr(why, "not an integer"),
          "other: %s", why);
    CHECK(!mpit_engine_rule_available(e, "nosuch", why, sizeof why) && strstr(why, "no rule"), "nosuch: %s",
          why);
    CHECK(mpit_engine_rule_available(e, "pos", NULL, 0), "pos");
    CHECK(mpit_engine_rule_available(e, "lvl", NULL, 0), "lvl");
    EQ(mpit_engine_elements_to_read(e, 1), 0, "gone is never read");
    EQ(mpit_engine_elements_to_read(e, 0), 2, "a: rules need #1 and v");
    EQ(mpit_engine_find_counter(e, "gone:sum=0"), -1, "no qualifier on unreadable data");
    EQ(mpit_engine_find_counter(e, "d:sum=x"), -1, "no qualifier on a double");

    mpit_engine_dispatch(e, 0, 20, el, 2);
    el[1] = -9;
    mpit_engine_dispatch(e, 0, 30, el, 2);
    mpit_engine_dispatch(e, 0, 60, el, 1); /* too short for pos and m */
    mpit_engine_dispatch(e, 1, 70, el, 2); /* passed data is ignored: never read */
    EQ(rd(e, "pos", 0), -14, "positional sum, shadowing COUNT row ignored");
    EQ(rd(e, "m", 0), -5, "signed max of negatives");
    EQ(rd(e, "dropped", 0), 2, "short event dropped for two rules");
    EQ(rd(e, "lvl.inserts", 0), 3, "inserts");
    EQ(rd(e, "lvl.time", 100), (70 - 20) + (100 - 30) + (100 - 60), "by-count time");
    EQ(rd(e, "lvl.depth", 0), 2, "depth");
    EQ(rd(e, "lvl.max", 0), 3, "high-water");
    EQ(mpit_engine_rearm(e, mpit_engine_find_counter(e, "m")), 0, "rearm max");
    EQ(rd(e, "m", 0), 0, "rearmed max empty");
    EQ(mpit_engine_rearm(e, mpit_engine_find_counter(e, "lvl.max")), 0, "rearm hwm");
    EQ(rd(e, "lvl.max", 0), 2, "hwm restarts at depth");
    EQ(mpit_engine_rearm(e, mpit_engine_find_counter(e, "lvl.time")), -1, "time is no extremum");

    CHECK(mpit_engine_counter_info(e, mpit_engine_find_counter(e, "lvl.time"), &ci) == 0 &&
              !strcmp(ci.units, "ns") && ci.value_kind == MPIT_VALUE_RUNNING,
          "time info");
    CHECK(mpit_engine_counter_info(e, mpit_engine_find_counter(e, "lvl.max"), &ci) == 0 &&
              !strcmp(ci.units, "items") && ci.value_kind == MPIT_VALUE_ABSOLUTE &&
              strstr(ci.desc, "high-water"),
          "max info");
    CHECK(mpit_engine_counter_info(e, mpit_engine_find_counter(e, "a:max=v"), &ci) == 0 &&
              !strcmp(ci.name, "a:max=v") && ci.value_kind == MPIT_VALUE_ABSOLUTE,
          "raw info");
    CHECK(mpit_engine_counter_info(e, 12345, &ci) < 0, "bad id");
    EQ(mpit_engine_read(e, -1, 0), 0, "bad id reads 0");
    mpit_engine_dispatch(e, 7, 0, NULL, 0);
    EQ(rd(e, "dropped", 0), 3, "unknown event type dropped");
    mpit_engine_reset(e, 0);
    EQ(rd(e, "pos", 0), 0, "reset");
    EQ(rd(e, "lvl.depth", 0), 0, "reset depth");
    mpit_engine_destroy(e);
}

/* Raw per-event counters: tracking starts when asked for. */
static void test_raw(void)
{
    static const char *const EL[] = {"len", "u"};
    static const int SU[] = {MPIT_ELEM_SIGNED, MPIT_ELEM_UNSIGNED};
    mpit_engine_t *e = mpit_engine_create(1, 0);
    int64_t el[2] = {10, -1}; /* u = 2^64 - 1 */
    int s_len, m_u;

    mpit_engine_describe_event(e, 0, "x", 2, EL, SU);
    EQ(mpit_engine_bind(e, NULL, 0, 1), 1, "only dropped");
    mpit_engine_dispatch(e, 0, 5, el, 2);
    EQ(mpit_engine_elements_to_read(e, 0), 0, "nothing tracked");
    s_len = mpit_engine_find_counter(e, "x:sum=len");
    EQ(mpit_engine_elements_to_read(e, 0), 1, "len tracked");
    m_u = mpit_engine_find_counter(e, "x:max=u");
    EQ(mpit_engine_elements_to_read(e, 0), 2, "u tracked");
    mpit_engine_dispatch(e, 0, 6, el, 2);
    el[0] = -3;
    el[1] = 7;
    mpit_engine_dispatch(e, 0, 7, el, 2);
    EQ(rd(e, "x", 0), 3, "count from the start");
    EQ(mpit_engine_read(e, s_len, 0), 7, "sum since tracked");
    EQ(mpit_engine_read(e, m_u, 0), -1, "unsigned max: all ones, read as raw bits");
    EQ(mpit_engine_find_counter(e, "x:sum=nope"), -1, "unknown element");
    EQ(mpit_engine_find_counter(e, "y"), -1, "unknown event");
    mpit_engine_destroy(e);
}

/* SEQUENCE window: a jump beyond it is out of sequence, dropped, and the
 * stream re-baselined; the gap fillers after it are in sequence. */
static void test_sequence_window(void)
{
    static const mpit_rule_t rows[] = {
        {"oos", MPIT_RULE_SEQUENCE, "msgs", "seq", {{"a", {"c", "s", "q"}, 0}}, 32, 0},
    };
    static const char *const CSQ[] = {"c", "s", "q"};
    static const int III[] = {MPIT_ELEM_SIGNED, MPIT_ELEM_SIGNED, MPIT_ELEM_SIGNED};
    static const int64_t q[] = {5, 6, 38, 37, 7, 100, 8, 101, 102};
    mpit_engine_t *e = mpit_engine_create(1, 0);

    mpit_engine_describe_event(e, 0, "a", 3, CSQ, III);
    mpit_engine_bind(e, rows, 1, 1);
    for (int i = 0; i < 9; i++) {
        int64_t el[3] = {4, 2, q[i]};
        mpit_engine_dispatch(e, 0, 10, el, 3);
    }
    /* Window is 63 - 32 = 31. 5 sets the baseline, 6 in; 38 (diff 31) and
     * 37 out, remembered; 7 in; 100 (diff 92) out, dropped, expect 101;
     * 8 is behind: in; 101, 102 in. */
    EQ(rd(e, "oos", 0), 3, "38, 37, 100");
    EQ(rd(e, "oos.arrivals", 0), 9, "arrivals");
    EQ(rd(e, "dropped", 0), 1, "beyond window");
    mpit_engine_destroy(e);
}

/* Every portable metric that reads an event counter names a counter of
 * some rule row (the metric table is mpit_metrics.c). */
static void test_portable(void)
{
    for (int i = 0; i < mpit_num_metrics; i++) {
        for (int s = 0; s < MPIT_METRIC_SOURCES; s++) {
            if (mpit_metrics[i].sources[s].kind != MPIT_SOURCE_EVENT) continue;
            const char *c = mpit_metrics[i].sources[s].name;
            size_t l = strcspn(c, ".");
            int found = 0;
            for (int r = 0; r < mpit_num_rules && !found; r++)
                found = strlen(mpit_rules[r].name) == l && !strncmp(mpit_rules[r].name, c, l);
            CHECK(found, "%s -> %s has no rule", mpit_metrics[i].name, c);
        }
    }
}

/* --------------------------------------------------------------- stress */

#define THREADS 4
#define ITERS   41600 /* x 6 events = 249600 events per thread */
#define BASE    1000000000000000ull

enum { E_INS, E_MATCH, E_SB, E_SE, E_ARR, E_ISEND, E_NEV };

typedef struct sarg {
    mpit_engine_t *e;
    int t;
} sarg_t;

static atomic_int running;

static void *writer(void *p)
{
    const sarg_t *a = p;
    mpit_engine_t *e = a->e;
    const int64_t t = a->t;

    for (int64_t k = 0; k < ITERS; k++) {
        uint64_t ts = BASE + (uint64_t)k * 100;
        int64_t frag = (t << 40) | k, req = (t << 40) | (k + 1000000);
        /* Blocks of 4 arrive as a, a+2, a+1, a+3: one out of sequence each. */
        int64_t seq = 60000 + (k & ~3LL) + ((k & 3) == 1 ? 2 : (k & 3) == 2 ? 1 : (k & 3));
        int64_t ins[5] = {frag, 1, 0, t, 0}, match[2] = {req, frag};
        int64_t arr[4] = {1, 0, t, seq}, isend[3] = {1, 0, k % 1000 + 1};

        mpit_engine_dispatch(e, E_INS, ts, ins, 5);
        mpit_engine_dispatch(e, E_SB, ts + 1, &req, 1);
        mpit_engine_dispatch(e, E_SE, ts + 2 + (uint64_t)(k % 13), &req, 1);
        mpit_engine_dispatch(e, E_MATCH, ts + 7 + (uint64_t)t, match, 2);
        mpit_engine_dispatch(e, E_ARR, ts + 20, arr, 4);
        mpit_engine_dispatch(e, E_ISEND, ts + 30, isend, 3);
    }
    atomic_fetch_sub(&running, 1);
    return NULL;
}

/* A consistent snapshot of the queue integral at `now` is at most the waits
 * so far plus (now - BASE) per thread (one item in flight each); a torn one
 * is off by about BASE. */
static void *reader(void *p)
{
    mpit_engine_t *e = p;
    int id = mpit_engine_find_counter(e, "unexpected_queue.time");
    uint64_t now = BASE + (uint64_t)ITERS * 100 + 1000;
    int64_t bound = (int64_t)ITERS * THREADS * 10 + THREADS * (int64_t)(now - BASE);
    long bad = 0, reads = 0;

    while (atomic_load(&running) > 0) {
        int64_t v = mpit_engine_read(e, id, now);
        bad += v < 0 || v > bound;
        reads++;
    }
    CHECK(bad == 0, "%ld of %ld concurrent reads torn", bad, reads);
    return NULL;
}

static void test_stress(void)
{
    static const char *const INS[] = {"frag", "source", "tag", "context_id", "sequence"};
    static const char *const MATCH[] = {"request", "frag"};
    static const char *const REQ[] = {"request"};
    static const char *const ARR[] = {"source", "tag", "context_id", "sequence"};
    static const char *const ISEND[] = {"peer", "tag", "length"};
    static const int UIIII[] = {MPIT_ELEM_UNSIGNED, 0, 0, 0, 0};
    static const int UU[] = {MPIT_ELEM_UNSIGNED, MPIT_ELEM_UNSIGNED};
    static const int IIII[] = {0, 0, 0, 0};
    mpit_engine_t *e = mpit_engine_create(E_NEV, 0);
    pthread_t th[THREADS], rth;
    sarg_t args[THREADS];
    int64_t bytes = 0, search = 0, waits = 0;
    int lid;

    mpit_engine_describe_event(e, E_INS, "ompi.pml_ob1_unexpected_insert", 5, INS, UIIII);
    mpit_engine_describe_event(e, E_MATCH, "ompi.pml_ob1_unexpected_match", 2, MATCH, UU);
    mpit_engine_describe_event(e, E_SB, "ompi.pml_ob1_search_unexpected_begin", 1, REQ, UU);
    mpit_engine_describe_event(e, E_SE, "ompi.pml_ob1_search_unexpected_end", 1, REQ, UU);
    mpit_engine_describe_event(e, E_ARR, "ompi.pml_ob1_message_arrived", 4, ARR, IIII);
    mpit_engine_describe_event(e, E_ISEND, "ompi.pml_ob1_immediate_send", 3, ISEND, IIII);
    CHECK(mpit_engine_bind(e, mpit_rules, mpit_num_rules, BASE) > 0, "bind");
    lid = mpit_engine_find_counter(e, "ompi.pml_ob1_immediate_send:sum=length");

    atomic_store(&running, THREADS);
    pthread_create(&rth, NULL, reader, e);
    for (int t = 0; t < THREADS; t++) {
        args[t].e = e;
        args[t].t = t;
        pthread_create(&th[t], NULL, writer, &args[t]);
    }
    for (int t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
    pthread_join(rth, NULL);

    for (int64_t k = 0; k < ITERS; k++) {
        bytes += k % 1000 + 1;
        search += 1 + k % 13;
    }
    for (int t = 0; t < THREADS; t++) waits += (int64_t)ITERS * (7 + t);
    EQ(rd(e, "dropped", 0), 0, "stress dropped");
    for (int i = 0; i < E_NEV; i++)
        EQ(mpit_engine_read(e, mpit_engine_raw_counter(e, i, MPIT_RAW_COUNT, 0), 0), THREADS * ITERS,
           "raw count");
    EQ(rd(e, "unexpected_msgs", 0), THREADS * ITERS, "COUNT");
    EQ(rd(e, "immediate_sends", 0), THREADS * ITERS, "COUNT");
    EQ(rd(e, "immediate_send_bytes", 0), THREADS * bytes, "SUM");
    EQ(mpit_engine_read(e, lid, 0), THREADS * bytes, "raw SUM");
    EQ(rd(e, "immediate_send_max", 0), 1000, "MAX");
    EQ(rd(e, "unexpected_queue.inserts", 0), THREADS * ITERS, "LEVEL inserts");
    EQ(rd(e, "unexpected_queue.removes", 0), THREADS * ITERS, "LEVEL removes");
    EQ(rd(e, "unexpected_queue.depth", 0), 0, "LEVEL balance");
    EQ(rd(e, "unexpected_queue.unmatched", 0), 0, "LEVEL unmatched");
    EQ(rd(e, "unexpected_queue.time", BASE * 2), waits, "LEVEL time");
    EQ(rd(e, "unexpected_queue.wait_min", 0), 7, "LEVEL wait min");
    EQ(rd(e, "unexpected_queue.wait_max", 0), 7 + THREADS - 1, "LEVEL wait max");
    CHECK(rd(e, "unexpected_queue.max", 0) >= 1 && rd(e, "unexpected_queue.max", 0) <= THREADS,
          "LEVEL high-water in 1..%d", THREADS);
    EQ(rd(e, "unexpected_search.count", 0), THREADS * ITERS, "PAIR count");
    EQ(rd(e, "unexpected_search.total", 0), THREADS * search, "PAIR total");
    EQ(rd(e, "unexpected_search.min", 0), 1, "PAIR min");
    EQ(rd(e, "unexpected_search.max", 0), 13, "PAIR max");
    EQ(rd(e, "oos_msgs", 0), THREADS * ITERS / 4, "SEQUENCE oos across the 16-bit wrap");
    EQ(rd(e, "oos_msgs.arrivals", 0), THREADS * ITERS, "SEQUENCE arrivals");
    mpit_engine_destroy(e);
}

/* MPICH shape under threads: LEVEL by count stays exact. */
static void *mpich_writer(void *p)
{
    const sarg_t *a = p;

    for (int64_t k = 0; k < 125000; k++) {
        uint64_t ts = BASE + (uint64_t)k * 100;
        int64_t el[2] = {a->t, 0};
        mpit_engine_dispatch(a->e, 0, ts, el, 2);
        mpit_engine_dispatch(a->e, 1, ts + 5 + (uint64_t)a->t, NULL, 0);
    }
    atomic_fetch_sub(&running, 1);
    return NULL;
}

static void test_stress_mpich(void)
{
    static const int II2[] = {MPIT_ELEM_SIGNED, MPIT_ELEM_SIGNED};
    mpit_engine_t *e = mpit_engine_create(2, 0);
    pthread_t th[THREADS];
    sarg_t args[THREADS];
    int64_t want = 0;

    mpit_engine_describe_event(e, 0, "unexp_message_enqueued", 2, NULL, II2);
    mpit_engine_describe_event(e, 1, "unexp_message_dequeued", 2, NULL, II2);
    mpit_engine_bind(e, mpit_rules, mpit_num_rules, BASE);
    atomic_store(&running, THREADS);
    for (int t = 0; t < THREADS; t++) {
        args[t].e = e;
        args[t].t = t;
        pthread_create(&th[t], NULL, mpich_writer, &args[t]);
    }
    for (int t = 0; t < THREADS; t++) {
        pthread_join(th[t], NULL);
        want += 125000LL * (5 + t);
    }
    EQ(rd(e, "unexpected_msgs", 0), THREADS * 125000, "MPICH COUNT");
    EQ(rd(e, "unexpected_queue.removes", 0), THREADS * 125000, "MPICH removes");
    EQ(rd(e, "unexpected_queue.depth", 0), 0, "MPICH balance");
    EQ(rd(e, "unexpected_queue.unmatched", 0), 0, "MPICH no removal from empty");
    EQ(rd(e, "unexpected_queue.time", BASE * 2), want, "MPICH residence");
    EQ(rd(e, "dropped", 0), 0, "MPICH dropped");
    mpit_engine_destroy(e);
}

/* The engine as the component runs it (gated, MPICH's events, no element
 * passed since the plan asks for none): rules count from their activation,
 * COUNT asks for nothing in the callback, LEVEL for the time only, and a
 * rule activated again starts afresh. */
static void test_gated(void)
{
    static const int II2[] = {MPIT_ELEM_SIGNED, MPIT_ELEM_SIGNED};
    mpit_engine_t *e = mpit_engine_create(2, 0);
    const int ENQ = 0, DEQ = 1;

    mpit_engine_describe_event(e, ENQ, "unexp_message_enqueued", 2, NULL, II2);
    mpit_engine_describe_event(e, DEQ, "unexp_message_dequeued", 2, NULL, II2);
    mpit_engine_bind(e, mpit_rules, mpit_num_rules, 0);
    mpit_engine_gate(e);
    int msgs = mpit_engine_find_counter(e, "unexpected_msgs");
    int time = mpit_engine_find_counter(e, "unexpected_queue.time");
    EQ(*mpit_engine_event_plan(e, ENQ), 0, "nothing runs: nothing to fetch");
    for (int i = 0; i < 3; i++) mpit_engine_dispatch(e, ENQ, 0, NULL, 0);
    mpit_engine_activate(e, msgs, 1, 100);
    EQ(*mpit_engine_event_plan(e, ENQ), 0, "COUNT: nothing to fetch");
    EQ(rd(e, "unexpected_msgs", 0), 0, "COUNT from its activation");
    mpit_engine_dispatch(e, ENQ, 0, NULL, 0);
    mpit_engine_dispatch(e, ENQ, 0, NULL, 0);
    EQ(rd(e, "unexpected_msgs", 0), 2, "COUNT");
    mpit_engine_activate(e, time, 1, 1000);
    EQ(*mpit_engine_event_plan(e, ENQ), MPIT_PLAN_TIME, "LEVEL by count: the time");
    EQ(*mpit_engine_event_plan(e, DEQ), MPIT_PLAN_TIME, "LEVEL by count: the time of removals");
    mpit_engine_dispatch(e, ENQ, 1100, NULL, 0);
    mpit_engine_dispatch(e, ENQ, 1200, NULL, 0);
    for (uint64_t ts = 1300; ts <= 1500; ts += 100) mpit_engine_dispatch(e, DEQ, ts, NULL, 0);
    EQ(rd(e, "unexpected_queue.inserts", 0), 2, "inserts since activation");
    EQ(rd(e, "unexpected_queue.removes", 0), 3, "removes since activation");
    EQ(rd(e, "unexpected_queue.unmatched", 0), 1, "one queued before, counted from activation");
    EQ(rd(e, "unexpected_queue.depth", 0), 0, "depth");
    EQ(rd(e, "unexpected_queue.max", 0), 2, "high-water mark");
    EQ(rd(e, "unexpected_queue.time", 1500), 900, "100 + 200 + 100 + the early item's 500");
    mpit_engine_dispatch(e, ENQ, 1600, NULL, 0);
    EQ(rd(e, "unexpected_queue.time", 2000), 1300, "a queued item counts up to now");
    EQ(rd(e, "unexpected_msgs", 0), 5, "COUNT runs on");
    mpit_engine_activate(e, time, -1, 0);
    EQ(*mpit_engine_event_plan(e, DEQ), 0, "stopped: nothing to fetch");
    mpit_engine_activate(e, time, 1, 3000);
    EQ(rd(e, "unexpected_queue.inserts", 0), 0, "restarted: inserts");
    EQ(rd(e, "unexpected_queue.time", 3000), 0, "restarted: time");
    mpit_engine_dispatch(e, DEQ, 3100, NULL, 0);
    EQ(rd(e, "unexpected_queue.removes", 0), 1, "restarted: removes");
    EQ(rd(e, "unexpected_queue.unmatched", 0), 1, "restarted: the item queued before");
    EQ(rd(e, "unexpected_queue.time", 3100), 100, "restarted: counted from the restart");
    EQ(rd(e, "unexp_message_enqueued", 0), 8, "raw count from the start");
    EQ(rd(e, "dropped", 0), 0, "dropped");
    mpit_engine_destroy(e);
}

/* Sets of several threads start reading one COUNT at once, while its
 * events flow: whoever activates it, a set's reference is taken after the
 * rule restarted, so what it reads grows by at least the events it
 * dispatched itself (the restart never lands inside a set's interval). */
static atomic_int short_reads;

static void *activator(void *p)
{
    mpit_engine_t *e = p;
    int id = mpit_engine_find_counter(e, "unexpected_msgs");
    for (int k = 0; k < 200000; k++) {
        mpit_engine_activate(e, id, 1, 1);
        int64_t ref = mpit_engine_read(e, id, 0);
        for (int i = 0; i < 3; i++) mpit_engine_dispatch(e, 0, 0, NULL, 0);
        if (mpit_engine_read(e, id, 0) - ref < 3) atomic_fetch_add(&short_reads, 1);
        mpit_engine_activate(e, id, -1, 0);
    }
    return NULL;
}

static void test_activate_race(void)
{
    static const int II2[] = {MPIT_ELEM_SIGNED, MPIT_ELEM_SIGNED};
    mpit_engine_t *e = mpit_engine_create(2, 0);
    pthread_t th[THREADS];

    mpit_engine_describe_event(e, 0, "unexp_message_enqueued", 2, NULL, II2);
    mpit_engine_describe_event(e, 1, "unexp_message_dequeued", 2, NULL, II2);
    mpit_engine_bind(e, mpit_rules, mpit_num_rules, 0);
    mpit_engine_gate(e);
    for (int i = 0; i < 10; i++) mpit_engine_dispatch(e, 0, 0, NULL, 0); /* before any set reads */
    for (int t = 0; t < THREADS; t++) pthread_create(&th[t], NULL, activator, e);
    for (int t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
    EQ(atomic_load(&short_reads), 0, "intervals that missed their own events");
    EQ(rd(e, "unexp_message_enqueued", 0), 10 + THREADS * 200000 * 3, "raw count");
    mpit_engine_destroy(e);
}

int main(int argc, char **argv)
{
    run_streams(argc > 1 ? argv[1] : "streams");
    test_pair_capacity();
    test_rows();
    test_raw();
    test_sequence_window();
    test_portable();
    test_stress();
    test_stress_mpich();
    test_gated();
    test_activate_race();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
