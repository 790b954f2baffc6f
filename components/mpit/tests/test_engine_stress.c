/*
 * The engine under threads: writers dispatching Open MPI's and MPICH's
 * event shapes while a reader checks that no read is torn, and sets that
 * start reading a count while its events flow.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include "test_engine.h"

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

void test_stress(void)
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

void test_stress_mpich(void)
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

void test_activate_race(void)
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
