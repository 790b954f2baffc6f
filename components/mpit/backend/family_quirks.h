/* What differs between MPI families, as data. */
#ifndef MPIT_FAMILY_QUIRKS_H
#define MPIT_FAMILY_QUIRKS_H

struct family_quirks {
    /* Open MPI 4.1: MPI_T_finalize after MPI_Finalize segfaults (ompi#11485);
     * MPICH: MPI_T_finalize while MPI runs frees cvars in use (mpich#7954). */
    int finalize_mpit_before_mpi;
    /* MPICH 4.0.2 never initializes an event's enumtype (the element names):
     * MPI_T_event_get_info returns a wild pointer there. */
    int event_enumtype_valid;
    /* Open MPI 4.1's MPI_T_init_thread before MPI_Init registers the
     * parameters of every framework, opening each MCA component (38 M
     * instructions, about 30 ms); after MPI_Init much of that is done. */
    int mpit_costly_before_mpi;
    /* MPICH calls an event's callbacks on the raising thread, right after
     * taking its timestamp (MPIR_T_event_instance, 4.0 to 5.0): a clock read
     * in the callback is the event's time (event_clock.h).  Open MPI: not
     * verified, its timestamps are used. */
    int event_callbacks_synchronous;
};

/* Element names of events whose enum the family leaves unset, by release
 * (the first row whose event and release match).  MPICH's RECVQ events
 * point at the request's status from MPI_SOURCE on: element 0 is the
 * sender's rank in the message's communicator; element 1 is what follows,
 * the communicator's context id in 4.0 and the tag from 4.1 on (seen: 62,
 * the test's tag, on 4.3.2), so there the communicator is not known. */
#define UNNAMED_ELEMENTS_MAX 4
static const struct {
    const char *event;
    const char *release_label, *release_version; /* version "": any release */
    const char *elems[UNNAMED_ELEMENTS_MAX];
} unnamed_elements[] = {
    {"unexp_message_enqueued", "MPICH Version:", "4.0.", {"source", "context_id", NULL}},
    {"unexp_message_dequeued", "MPICH Version:", "4.0.", {"source", "context_id", NULL}},
    {"unexp_message_enqueued", "MPICH Version:", "", {"source", "tag", NULL}},
    {"unexp_message_dequeued", "MPICH Version:", "", {"source", "tag", NULL}},
};

#if defined(OPEN_MPI)
#define FAMILY_NAME "Open MPI"
static const struct family_quirks quirks = {1, 1, 1, 0};
#elif defined(MPICH)
#define FAMILY_NAME "MPICH"
static const struct family_quirks quirks = {0, 0, 0, 1};
#else
#error "unknown MPI family: add its quirks here"
#endif

#endif
