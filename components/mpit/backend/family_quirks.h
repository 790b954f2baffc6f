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
};

/* Element names of events whose enum the family leaves unset (MPICH 4.0's
 * RECVQ events: element 0 is the sender's rank in the message's
 * communicator, element 1 the communicator's context id). */
#define UNNAMED_ELEMENTS_MAX 4
static const struct {
    const char *event;
    const char *elems[UNNAMED_ELEMENTS_MAX];
} unnamed_elements[] = {
    {"unexp_message_enqueued", {"source", "context_id", NULL}},
    {"unexp_message_dequeued", {"source", "context_id", NULL}},
};

#if defined(OPEN_MPI)
#define FAMILY_NAME "Open MPI"
static const struct family_quirks quirks = {1, 1, 1};
#elif defined(MPICH)
#define FAMILY_NAME "MPICH"
static const struct family_quirks quirks = {0, 0, 0};
#else
#error "unknown MPI family: add its quirks here"
#endif

#endif
