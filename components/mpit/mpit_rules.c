/*
 * The rule table. Pure data: correct a row here when an MPI spells an event
 * or an element differently; the run-time check keeps a wrong row unavailable.
 *
 * Element names of the ob1 events proposed for Open MPI (PR 8057, still
 * open: no Open MPI release raises them; docs/man-openmpi/man3/
 * MPI_T_Events.3.rst of that branch): envelope = source, tag, context_id, sequence
 * (int32); correlators request and frag (uint64 tokens, reused once retired);
 * transfer_* carry request + length (int64); immediate_send peer, tag, length.
 * Those names are not verified on a running build: alternatives are listed,
 * and every keyed row is followed by a fallback row needing no elements.
 */
#include <stddef.h>
#include "mpit_rules.h"

#define ANY_SOURCE   "source|src|source_rank|peer"
#define ANY_CONTEXT  "context_id|cid|comm_id|communicator_id"
#define ANY_SEQUENCE "sequence|seq|sequence_number|msg_seq"
#define ANY_REQUEST  "request|req|request_pointer"
#define ANY_FRAG     "frag|fragment"
#define ANY_LENGTH   "length|len|bytes|size"

#define OB1(e) "pml_ob1_" e

#define OMPI_EVENT(e) "ompi.mpi." e

const mpit_rule_t mpit_rules[] = {
    /* ---- Open MPI 6.0's lifecycle events (ompi/runtime/ompi_mpit_register_events.c),
     * source "ompi", raised synchronously where the object is made or freed;
     * memory releases are aggregated and delivered when their unordered
     * source is drained */
    {"comms_created",
     MPIT_RULE_COUNT,
     "communicators",
     "Communicators created",
     {{OMPI_EVENT("communicator_created"), {NULL}, 0}},
     0,
     0},
    {"comms_freed",
     MPIT_RULE_COUNT,
     "communicators",
     "Communicators freed",
     {{OMPI_EVENT("communicator_freed"), {NULL}, 0}},
     0,
     0},
    {"wins_created",
     MPIT_RULE_COUNT,
     "windows",
     "RMA windows created",
     {{OMPI_EVENT("win_created"), {NULL}, 0}},
     0,
     0},
    {"wins_freed",
     MPIT_RULE_COUNT,
     "windows",
     "RMA windows freed",
     {{OMPI_EVENT("win_freed"), {NULL}, 0}},
     0,
     0},
    {"errors_handled",
     MPIT_RULE_COUNT,
     "invocations",
     "Error handler invocations",
     {{OMPI_EVENT("errhandler_invoked"), {NULL}, 0}},
     0,
     0},
    {"memory_released",
     MPIT_RULE_SUM,
     "bytes",
     "Memory returned to the operating system",
     {{"ompi.mca.memory.patcher.released", {"bytes"}, 0}},
     0,
     0},
    {"memory_releases",
     MPIT_RULE_SUM,
     "releases",
     "Returns of memory to the operating system",
     {{"ompi.mca.memory.patcher.released", {"count"}, 0}},
     0,
     0},

    /* ---- MPICH 4.0.2, source RECVQ. Elements: two MPI_INT (source rank,
     * context id + padding). The dequeued event's data pointer is computed
     * from a NULL request: never read it, pair removals by count. */
    {"unexpected_msgs",
     MPIT_RULE_COUNT,
     "messages",
     "Messages that arrived before a matching receive was posted",
     {{"unexp_message_enqueued", {NULL}, 0}},
     0,
     0},
    {"unexpected_queue",
     MPIT_RULE_LEVEL,
     "messages",
     "Unexpected message queue",
     {{"unexp_message_enqueued", {NULL}, 0}, {"unexp_message_dequeued", {NULL}, MPIT_REF_NOREAD}},
     0,
     0},
    /* by sender: element 0 is the source rank in the message's communicator,
     * scoped by its context id (MPICH 4.0 gives it; 4.1 and later give the
     * tag there, and the rule is unavailable); MPI_COMM_WORLD's
     * point-to-point and collective contexts are 0 and 1, where the rank is a
     * world rank */
    {"unexpected_by_source",
     MPIT_RULE_GROUP,
     "messages",
     "Messages that arrived before a matching receive was posted, by sender",
     {{"unexp_message_enqueued", {"#0", ANY_CONTEXT, NULL}, 0}},
     0,
     1},

    /* ---- Open MPI's proposed ob1 events (PR 8057, unmerged; and the spellings of the SPC paper's prototype, ompi-pml-ob1-events). */
    {"unexpected_msgs",
     MPIT_RULE_COUNT,
     "messages",
     "Messages that arrived before a matching receive was posted",
     {{OB1("unexpected_insert") "|" OB1("unex_insert"), {NULL}, 0}},
     0,
     0},

    /* Unexpected queue: keyed by the fragment token (per-message waits),
     * else by count. unexpected_match is the fragment's only way out. */
    {"unexpected_queue",
     MPIT_RULE_LEVEL,
     "messages",
     "Unexpected message queue",
     {{OB1("unexpected_insert"), {ANY_FRAG}, 0}, {OB1("unexpected_match"), {ANY_FRAG}, 0}},
     0,
     0},
    {"unexpected_queue",
     MPIT_RULE_LEVEL,
     "messages",
     "Unexpected message queue",
     {{OB1("unexpected_insert") "|" OB1("unex_insert"), {NULL}, 0},
      {OB1("unexpected_match") "|" OB1("unex_remove"), {NULL}, 0}},
     0,
     0},

    /* Posted receive queue, keyed by the request token, else by count. */
    {"posted_queue",
     MPIT_RULE_LEVEL,
     "requests",
     "Posted receive queue",
     {{OB1("posted_insert"), {ANY_REQUEST}, 0}, {OB1("posted_remove"), {ANY_REQUEST}, 0}},
     0,
     0},
    {"posted_queue",
     MPIT_RULE_LEVEL,
     "requests",
     "Posted receive queue",
     {{OB1("posted_insert"), {NULL}, 0}, {OB1("posted_remove"), {NULL}, 0}},
     0,
     0},

    /* Search of the posted queue for an arriving message: what Open MPI's
     * SPC MATCH_TIME measures. Main keys it by envelope; the prototype
     * carried only source and tag. Begin and end nest in one thread. */
    {"posted_search",
     MPIT_RULE_PAIR,
     "searches",
     "Search of the posted receive queue for an arriving message",
     {{OB1("search_posted_begin"), {ANY_CONTEXT, ANY_SOURCE, ANY_SEQUENCE}, 0},
      {OB1("search_posted_end"), {ANY_CONTEXT, ANY_SOURCE, ANY_SEQUENCE}, 0}},
     0,
     0},
    {"posted_search",
     MPIT_RULE_PAIR,
     "searches",
     "Search of the posted receive queue for an arriving message",
     {{OB1("search_posted_begin"), {ANY_SOURCE, "tag"}, 0},
      {OB1("search_posted_end"), {ANY_SOURCE, "tag"}, 0}},
     0,
     0},

    {"unexpected_search",
     MPIT_RULE_PAIR,
     "searches",
     "Search of the unexpected message queue for a newly posted receive",
     {{OB1("search_unexpected_begin"), {ANY_REQUEST}, 0}, {OB1("search_unexpected_end"), {ANY_REQUEST}, 0}},
     0,
     0},

    /* ob1 counts a fragment out of sequence when its sequence number is not
     * the next one expected from that peer on that communicator. Wire
     * sequence numbers are 16 bits. */
    {"oos_msgs",
     MPIT_RULE_SEQUENCE,
     "messages",
     "Messages that arrived out of sequence",
     {{OB1("message_arrived"), {ANY_CONTEXT, ANY_SOURCE, ANY_SEQUENCE}, 0}},
     16,
     0},

    {"arrived_msgs",
     MPIT_RULE_COUNT,
     "messages",
     "Match headers that arrived from peers",
     {{OB1("message_arrived"), {NULL}, 0}},
     0,
     0},
    {"posted_matches",
     MPIT_RULE_COUNT,
     "messages",
     "Arriving messages that matched an already posted receive",
     {{OB1("posted_match"), {NULL}, 0}},
     0,
     0},

    {"transfer_time",
     MPIT_RULE_PAIR,
     "transfers",
     "Data movement of a request, first to last fragment",
     {{OB1("transfer_begin"), {ANY_REQUEST}, 0}, {OB1("transfer_end"), {ANY_REQUEST}, 0}},
     0,
     0},
    {"transfer_bytes",
     MPIT_RULE_SUM,
     "bytes",
     "Bytes moved by completed request transfers (sends and receives)",
     {{OB1("transfer_end"), {ANY_LENGTH}, 0}},
     0,
     0},

    {"immediate_sends",
     MPIT_RULE_COUNT,
     "messages",
     "Short sends completed without a request",
     {{OB1("immediate_send"), {NULL}, 0}},
     0,
     0},
    {"immediate_send_bytes",
     MPIT_RULE_SUM,
     "bytes",
     "Bytes sent by immediate sends",
     {{OB1("immediate_send"), {ANY_LENGTH}, 0}},
     0,
     0},
    {"immediate_send_max",
     MPIT_RULE_MAX,
     "bytes",
     "Largest immediate send",
     {{OB1("immediate_send"), {ANY_LENGTH}, 0}},
     0,
     0},
};

const int mpit_num_rules = (int)(sizeof mpit_rules / sizeof mpit_rules[0]);
