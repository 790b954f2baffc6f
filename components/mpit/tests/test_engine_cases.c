/*
 * Hand-built rows for the engine's edge cases: a full key table, every rule
 * kind on rows of its own, raw counts, the sequence window, the portable
 * metrics, and the engine gated as the component runs it.
 */
#include <stdio.h>
#include <string.h>
#include "test_engine.h"

static const char *const KV[] = {"k", "v"};
static const int II[] = {MPIT_ELEM_SIGNED, MPIT_ELEM_SIGNED};

/* A key table of 16 slots holds 16 open pairs; the rest are dropped and
 * their ends unmatched. */
void test_pair_capacity(void)
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
void test_rows(void)
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
void test_raw(void)
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
void test_sequence_window(void)
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
void test_portable(void)
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

/* The engine as the component runs it (gated, MPICH's events, no element
 * passed since the plan asks for none): rules count from their activation,
 * COUNT asks for nothing in the callback, LEVEL for the time only, and a
 * rule activated again starts afresh. */
void test_gated(void)
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
