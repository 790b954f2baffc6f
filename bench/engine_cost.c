/* Instructions the rule engine spends per event, for the rule kinds MPICH's
 * events cannot drive (Open MPI main's ob1 rows: PAIR, SEQUENCE, SUM, MAX,
 * LEVEL keyed by token), and COUNT and LEVEL by count for comparison: a
 * gated engine as the component runs it, one rule activated, N events
 * dispatched with their elements (as the callback passes them).  Run under
 * callgrind and divide mpit_engine_dispatch inclusive by the events
 * (bench/engine_cost.sh):
 *   engine_cost MODE [N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpit_engine.h"

enum { SBEGIN, SEND, ARRIVED, UINSERT, UMATCH, TEND, ISEND, ENQ, DEQ, NEV };

static const struct {
    const char *name;
    int nelem;
    const char *elems[5];
} events[NEV] = {
    {"ompi.pml_ob1_search_posted_begin", 4, {"source", "tag", "context_id", "sequence"}},
    {"ompi.pml_ob1_search_posted_end", 4, {"source", "tag", "context_id", "sequence"}},
    {"ompi.pml_ob1_message_arrived", 4, {"source", "tag", "context_id", "sequence"}},
    {"ompi.pml_ob1_unexpected_insert", 5, {"frag", "source", "tag", "context_id", "sequence"}},
    {"ompi.pml_ob1_unexpected_match", 2, {"request", "frag"}},
    {"ompi.pml_ob1_transfer_end", 2, {"request", "length"}},
    {"ompi.pml_ob1_immediate_send", 3, {"peer", "tag", "length"}},
    {"unexp_message_enqueued", 0, {NULL}},
    {"unexp_message_dequeued", 0, {NULL}},
};

/* mode: the counter activated, and the events of one step (0 to 2) */
static const struct {
    const char *mode, *counter;
    int ev[2];
} modes[] = {
    {"count", "arrived_msgs", {ARRIVED, -1}},
    {"sum", "transfer_bytes", {TEND, -1}},
    {"max", "immediate_send_max", {ISEND, -1}},
    {"pair", "posted_search.total", {SBEGIN, SEND}},
    {"level-keyed", "unexpected_queue.time", {UINSERT, UMATCH}},
    {"level-count", "unexpected_queue.time", {ENQ, DEQ}},
    {"sequence", "oos_msgs", {ARRIVED, -1}},
};

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "pair";
    long n = argc > 2 ? atol(argv[2]) : 100000, events_done = 0;
    int m = -1, enq_mpich = 0;
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (strcmp(modes[i].mode, mode) == 0) m = (int)i;
    if (m < 0) return fprintf(stderr, "unknown mode %s\n", mode), 2;
    enq_mpich = modes[m].ev[0] == ENQ;

    /* MPICH's events or ob1's, not both: each names unexpected_queue */
    mpit_engine_t *e = mpit_engine_create(NEV, 0);
    for (int i = 0; i < NEV; i++) {
        int kinds[5] = {MPIT_ELEM_SIGNED, MPIT_ELEM_SIGNED, MPIT_ELEM_SIGNED, MPIT_ELEM_SIGNED,
                        MPIT_ELEM_SIGNED};
        if ((i >= ENQ) != enq_mpich) continue;
        mpit_engine_describe_event(e, i, events[i].name, events[i].nelem, events[i].elems, kinds);
    }
    if (mpit_engine_bind(e, mpit_rules, mpit_num_rules, 0) < 0) return 1;
    mpit_engine_gate(e);
    int id = mpit_engine_find_counter(e, modes[m].counter);
    if (id < 0) return fprintf(stderr, "no counter %s\n", modes[m].counter), 1;
    mpit_engine_activate(e, id, 1, 1);

    /* bursts of 100 as in callback_cost.c: 100 begins (inserts), then 100
     * ends (matches), keys and sequence numbers distinct */
    for (long b = 0; b < n / 100; b++)
        for (int side = 0; side < 2; side++) {
            int ev = modes[m].ev[side];
            if (ev < 0) continue;
            for (long k = 0; k < 100; k++) {
                long key = b * 100 + k, seq = key;
                int64_t el[5] = {1, 7, 0, seq, 0};
                if (ev == UINSERT) el[0] = 0x1000 + key * 64, el[1] = 1, el[4] = seq;
                if (ev == UMATCH) el[0] = 0x9000, el[1] = 0x1000 + key * 64;
                if (ev == TEND || ev == ISEND) el[1] = el[2] = 8 + key % 64;
                if (ev == SBEGIN || ev == SEND) el[3] = key;
                unsigned plan = *mpit_engine_event_plan(e, ev);
                int nel = (int)(plan & MPIT_PLAN_ELEMENTS);
                mpit_engine_dispatch(e, ev, plan & MPIT_PLAN_TIME ? 1000 + (uint64_t)events_done * 10 : 0,
                                     nel ? el : NULL, nel);
                events_done++;
            }
        }
    printf("%s: %s = %lld after %ld events (dropped %lld)\n", mode, modes[m].counter,
           (long long)mpit_engine_read(e, id, 1000 + (uint64_t)events_done * 10), events_done,
           (long long)mpit_engine_read(e, mpit_engine_find_counter(e, MPIT_ENGINE_DROPPED), 0));
    mpit_engine_destroy(e);
    return 0;
}
