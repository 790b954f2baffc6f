#include "mpit_metrics.h"

#include <string.h>

#include "mpit_semantics.h"
#include "papi_mpit.h"

#define EV(n)                                                                                                \
    {                                                                                                        \
        MPIT_SOURCE_EVENT, n, 1, NULL, NULL, 0                                                               \
    }
#define PV(n)                                                                                                \
    {                                                                                                        \
        MPIT_SOURCE_PVAR, n, 1, NULL, NULL, 0                                                                \
    }
#define PVS(n, s)                                                                                            \
    {                                                                                                        \
        MPIT_SOURCE_PVAR, n, s, NULL, NULL, 0                                                                \
    }
#define MENDED(w, l, n)                                                                                      \
    {                                                                                                        \
        MPIT_SOURCE_PVAR, w, 1, l, n, 0                                                                      \
    }
/* Open MPI's monitoring: one element per rank of MPI_COMM_WORLD */
#define PEER(n)                                                                                              \
    {                                                                                                        \
        MPIT_SOURCE_PVAR, n, 1, NULL, NULL, 1                                                                \
    }
#define SPC(x) "runtime_spc_OMPI_SPC_" x

/* ob1 (pml_ob1_sendreq.c) files the bytes of a send that completes through
 * its send request by the request's status tag (req_status.MPI_TAG), which
 * is not the send's tag: a request reused from another message keeps that
 * message's (seen on 4.1.4 and 5.0.7 now and then, under load: one
 * 1000-byte MPI_Send of 21 counted as internal) */
#define SENDS_FILED_BY_STATUS_TAG                                                                            \
    "Open MPI files some sends under the wrong one of BYTES_SENT and BYTES_SENT_MPI (ob1 classifies a send " \
    "completed through its request by the request's status tag, not the send's); the two together are exact"

/* What a source counts apart from what its metric's name says, appended to
 * the metric's description wherever that source serves it. */
static const struct {
    const char *source, *caveat;
} source_caveats[] = {
    {SPC("BYTES_SENT_USER"), SENDS_FILED_BY_STATUS_TAG},
    {SPC("BYTES_SENT_MPI"), SENDS_FILED_BY_STATUS_TAG},
};

const char *mpit_metric_source_caveat(const char *source)
{
    for (size_t i = 0; i < sizeof source_caveats / sizeof source_caveats[0]; i++)
        if (strcmp(source_caveats[i].source, source) == 0) return source_caveats[i].caveat;
    return NULL;
}

static const char needs_spc_or_events[] =
    "needs Open MPI built with --enable-spc and the counter attached (OMPI_MCA_mpi_spc_attach, or the "
    "event added before MPI_Init), or MPICH built with --enable-mpit-events=yes (MPI_T queue events)";
static const char needs_spc[] =
    "needs Open MPI built with --enable-spc and the counter attached (OMPI_MCA_mpi_spc_attach, or the "
    "event added before MPI_Init)";
/* Open MPI 4.1 removes the pml monitoring variables from MPI_T in MPI_Init
 * (the PML that is not selected is unloaded with its variables, though it
 * keeps counting; open-mpi/ompi#9260, fixed for 5.0 by #5759) */
#define MONITORING_PML                                                                                       \
    "Open MPI 5.0 or later with its monitoring on (pml_monitoring_enable=2 before MPI_Init and the "         \
    "monitoring PML admitted: --mca pml ob1,monitoring, not ob1 alone; the component sees to both when "     \
    "the event is added before MPI_Init; Open MPI 4.1 hides these variables after MPI_Init: "                \
    "open-mpi/ompi#9260)"
#define MONITORING_ANY                                                                                       \
    "Open MPI with its monitoring on (pml_monitoring_enable=2 before MPI_Init and the monitoring PML "       \
    "admitted: --mca pml ob1,monitoring, not ob1 alone; the component sees to both when the event is "       \
    "added before MPI_Init)"
static const char needs_spc_or_monitoring[] =
    "needs " MONITORING_PML ", or Open MPI built with --enable-spc and the counter attached "
    "(OMPI_MCA_mpi_spc_attach, or the event added before MPI_Init)";
static const char needs_monitoring_pml[] = "needs " MONITORING_PML;
static const char needs_monitoring[] = "needs " MONITORING_ANY;
static const char needs_events[] =
    "needs MPICH built with --enable-mpit-events=yes (MPI_T queue events; no Open MPI release raises them)";
static const char needs_spc_events_or_recvq[] =
    "needs Open MPI built with --enable-spc and the counter attached (OMPI_MCA_mpi_spc_attach, or the "
    "event added before MPI_Init), or MPICH built with --enable-mpit-pvars=recvq or "
    "--enable-mpit-events=yes";
static const char needs_events_or_queue_pvar[] =
    "needs Open MPI's ob1 PML, or MPICH built with --enable-mpit-pvars=recvq or --enable-mpit-events=yes";
static const char needs_queue_pvar[] =
    "needs Open MPI's ob1 PML or MPICH built with --enable-mpit-pvars=recvq";

/* MPI_T events of the MPI's own objects: Open MPI 6.0 raises them; no MPICH
 * release does, nor publishes a variable that counts them */
static const char needs_lifecycle_events[] =
    "needs Open MPI 6.0 or later (its MPI_T events ompi.mpi.*); MPICH raises no such event";
static const char needs_memory_events[] =
    "needs Open MPI 6.0 or later with its memory patcher (the MPI_T event "
    "ompi.mca.memory.patcher.released); MPICH raises no such event";

const mpit_metric_t mpit_metrics[] = {
    {"UNEXPECTED_MSGS",
     "Messages that arrived before a matching receive was posted",
     "messages",
     MPIT_READ_DELTA,
     {EV("unexpected_msgs"), PV(SPC("UNEXPECTED"))},
     needs_spc_or_events,
     NULL},
    {"OOS_MSGS",
     "Messages that arrived out of sequence",
     "messages",
     MPIT_READ_DELTA,
     {EV("oos_msgs"), PV(SPC("OUT_OF_SEQUENCE"))},
     needs_spc_or_events,
     NULL},
    /* Open MPI's SPC times the posted-queue search of arriving messages;
     * MPICH times the unexpected-queue search of posted receives (its
     * posted-queue timer stops on failed searches only) */
    {"MATCH_TIME",
     "Time spent matching messages and receives (searching the MPI's receive queues)",
     "ns",
     MPIT_READ_DELTA,
     {EV("posted_search.total"), PVS(SPC("MATCH_TIME"), 1000), PVS("time_matching_unexpectedq", 1000000000)},
     needs_spc_events_or_recvq,
     "Open MPI then reads the cycle counter before and after matching every arriving message "
     "(+15 % on an 8-byte latency)"},
    {"UNEXPECTED_QUEUE_MAX",
     "Largest length of the unexpected-message queue since start",
     "messages",
     MPIT_READ_HIGH,
     /* Open MPI 4.1's SPC watermark sees the peak between reads, but it
      * follows a level that misses a message arriving inside MPI_Init and
      * then reads one low: mended by ob1's real list lengths.  Open MPI
      * 5.0's never rises (a known defect, so skipped there): the largest
      * length seen when read, sampled by whoever reads */
     {EV("unexpected_queue.max"),
      MENDED(SPC("MAX_UNEXPECTED_IN_QUEUE"), SPC("UNEXPECTED_IN_QUEUE"), "pml_ob1_unexpected_msgq_length"),
      PV("unexpected_recvq_length"), PV("pml_ob1_unexpected_msgq_length")},
     needs_spc_or_events,
     NULL},
    {"OOS_QUEUE_MAX",
     "Largest number of out-of-sequence messages held since start",
     "messages",
     MPIT_READ_HIGH,
     {PV(SPC("MAX_OOS_IN_QUEUE"))},
     needs_spc,
     NULL},
    {"UNEXPECTED_QUEUE_TIME",
     "Total time messages spent in the unexpected queue",
     "ns",
     MPIT_READ_DELTA,
     {EV("unexpected_queue.time")},
     needs_events,
     NULL},
    {"POSTED_QUEUE_MAX",
     "Largest length of the posted-receive queue since start",
     "messages",
     MPIT_READ_HIGH,
     {EV("posted_queue.max"), PV("posted_recvq_length"), PV("pml_ob1_posted_recvq_length")},
     needs_events_or_queue_pvar,
     NULL},
    {"UNEXPECTED_QUEUE_LENGTH",
     "Current length of the unexpected-message queue",
     "messages",
     MPIT_READ_CURRENT,
     {PV("unexpected_recvq_length"), PV("pml_ob1_unexpected_msgq_length"), PV(SPC("UNEXPECTED_IN_QUEUE"))},
     needs_queue_pvar,
     NULL},
    {"POSTED_QUEUE_LENGTH",
     "Current length of the posted-receive queue",
     "messages",
     MPIT_READ_CURRENT,
     {PV("posted_recvq_length"), PV("pml_ob1_posted_recvq_length")},
     needs_queue_pvar,
     NULL},
    {"UNEXPECTED_MATCH_ATTEMPTS",
     "Searches of the unexpected queue by newly posted receives",
     "attempts",
     MPIT_READ_DELTA,
     {PV("unexpected_recvq_match_attempts")},
     "needs MPICH built with --enable-mpit-pvars=recvq",
     NULL},
    {"POSTED_MATCH_ATTEMPTS",
     "Searches of the posted queue by arriving messages",
     "attempts",
     MPIT_READ_DELTA,
     {PV("posted_recvq_match_attempts")},
     "needs MPICH built with --enable-mpit-pvars=recvq",
     NULL},
    /* The SPC first where it is attached: it counts from MPI_Init, and Open
     * MPI's SPC dump and every existing comparison agree with it (it files a
     * non-inline send under its request's earlier tag, so a large collective
     * can land in user bytes).  Monitoring where SPCs are absent or not
     * attached, and for every :peer= form */
    {"BYTES_SENT",
     "Bytes sent by user point-to-point messages",
     "bytes",
     MPIT_READ_DELTA,
     {PV(SPC("BYTES_SENT_USER")), PEER("pml_monitoring_messages_size")},
     needs_spc_or_monitoring,
     NULL},
    {"MSGS_SENT",
     "Messages sent by user point-to-point calls (zero-byte ones included)",
     "messages",
     MPIT_READ_DELTA,
     {PEER("pml_monitoring_messages_count")},
     needs_monitoring_pml,
     NULL},
    {"COLL_BYTES_SENT",
     "Bytes collective operations send, as each call states them (a root's gather and reduce count as "
     "sent; not what the algorithm moves)",
     "bytes",
     MPIT_READ_DELTA,
     {PEER("coll_monitoring_messages_size")},
     needs_monitoring,
     NULL},
    {"COLL_MSGS_SENT",
     "Messages collective operations send, as each call states them",
     "messages",
     MPIT_READ_DELTA,
     {PEER("coll_monitoring_messages_count")},
     needs_monitoring,
     NULL},
    {"RMA_BYTES_SENT",
     "Bytes one-sided operations write to other processes (puts and accumulates)",
     "bytes",
     MPIT_READ_DELTA,
     {PEER("osc_monitoring_messages_sent_size")},
     needs_monitoring,
     NULL},
    {"RMA_BYTES_RECEIVED",
     "Bytes one-sided operations read from other processes (gets)",
     "bytes",
     MPIT_READ_DELTA,
     {PEER("osc_monitoring_messages_recv_size")},
     needs_monitoring,
     NULL},
    {"BYTES_RECEIVED",
     "Bytes received by user point-to-point messages",
     "bytes",
     MPIT_READ_DELTA,
     {PV(SPC("BYTES_RECEIVED_USER"))},
     needs_spc,
     NULL},
    {"BYTES_SENT_MPI",
     "Bytes sent by MPI-internal messages (collectives and the like)",
     "bytes",
     MPIT_READ_DELTA,
     {PV(SPC("BYTES_SENT_MPI"))},
     needs_spc,
     NULL},
    {"BYTES_RECEIVED_MPI",
     "Bytes received by MPI-internal messages (collectives and the like)",
     "bytes",
     MPIT_READ_DELTA,
     {PV(SPC("BYTES_RECEIVED_MPI"))},
     needs_spc,
     NULL},
    {"BYTES_PUT",
     "Bytes of point-to-point messages that Open MPI's ob1 moved by RDMA put (its rendezvous protocol "
     "on transports that put); MPI_Put and the other one-sided calls are not in it (RMA_BYTES_SENT)",
     "bytes",
     MPIT_READ_DELTA,
     {PV(SPC("BYTES_PUT"))},
     needs_spc,
     NULL},
    {"BYTES_GET",
     "Bytes of point-to-point messages that the receiver fetched by RDMA get (Open MPI ob1's "
     "rendezvous protocol, e.g. single-copy shared memory); MPI_Get is not in it (RMA_BYTES_RECEIVED)",
     "bytes",
     MPIT_READ_DELTA,
     {PV(SPC("BYTES_GET"))},
     needs_spc,
     NULL},
    {"COMMS_CREATED",
     "Communicators created",
     "communicators",
     MPIT_READ_DELTA,
     {EV("comms_created")},
     needs_lifecycle_events,
     NULL},
    {"COMMS_FREED",
     "Communicators freed",
     "communicators",
     MPIT_READ_DELTA,
     {EV("comms_freed")},
     needs_lifecycle_events,
     NULL},
    {"WINS_CREATED",
     "RMA windows created",
     "windows",
     MPIT_READ_DELTA,
     {EV("wins_created")},
     needs_lifecycle_events,
     NULL},
    {"WINS_FREED",
     "RMA windows freed",
     "windows",
     MPIT_READ_DELTA,
     {EV("wins_freed")},
     needs_lifecycle_events,
     NULL},
    {"ERRORS_HANDLED",
     "Invocations of error handlers (MPI_ERRORS_RETURN's included)",
     "invocations",
     MPIT_READ_DELTA,
     {EV("errors_handled")},
     needs_lifecycle_events,
     NULL},
    {"MEMORY_RELEASED",
     "Bytes the MPI's memory hooks saw returned to the operating system",
     "bytes",
     MPIT_READ_DELTA,
     {EV("memory_released")},
     needs_memory_events,
     NULL},
    {"MEMORY_RELEASES",
     "Returns of memory to the operating system the MPI's memory hooks saw",
     "releases",
     MPIT_READ_DELTA,
     {EV("memory_releases")},
     needs_memory_events,
     NULL},
};

const int mpit_num_metrics = (int)(sizeof mpit_metrics / sizeof mpit_metrics[0]);

const char *papi_mpit_metric(int i, const char **cost)
{
    if (i < 0 || i >= mpit_num_metrics) return NULL;
    if (cost) *cost = mpit_metrics[i].cost;
    return mpit_metrics[i].name;
}

const mpit_metric_t *mpit_metric_find(const char *name)
{
    for (int i = 0; i < mpit_num_metrics; i++)
        if (strcmp(mpit_metrics[i].name, name) == 0) return &mpit_metrics[i];
    return NULL;
}
