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
#define UNNAMED_ELEMENTS_MAX 6
static const struct {
    const char *event;
    const char *release_label, *release_version; /* version "": any release */
    const char *elems[UNNAMED_ELEMENTS_MAX];
} unnamed_elements[] = {
    {"unexp_message_enqueued", "MPICH Version:", "4.0.", {"source", "context_id", NULL}},
    {"unexp_message_dequeued", "MPICH Version:", "4.0.", {"source", "context_id", NULL}},
    {"unexp_message_enqueued", "MPICH Version:", "", {"source", "tag", NULL}},
    {"unexp_message_dequeued", "MPICH Version:", "", {"source", "tag", NULL}},
    /* Open MPI 6.0 registers its events without an enum; the names of its
     * payload structs (ompi/communicator/comm_cid.c, ompi/win/win.c,
     * ompi/errhandler/errhandler_invoke.c, ompi/instance/instance.c) */
    {"ompi.mpi.initialization",
     "Open MPI v",
     "",
     {"model", "thread_level", "world_rank", "world_size", "instance", NULL}},
    {"ompi.mpi.finalization", "Open MPI v", "", {"model", "world_rank", "instance", NULL}},
    {"ompi.mpi.communicator_created", "Open MPI v", "", {"size", "handle", NULL}},
    {"ompi.mpi.communicator_freed", "Open MPI v", "", {"handle", NULL}},
    {"ompi.mpi.communicator_name_set", "Open MPI v", "", {"handle", NULL}},
    {"ompi.mpi.errhandler_invoked", "Open MPI v", "", {"error_code", "object_kind", "errhandler", "object"}},
    {"ompi.mpi.win_created", "Open MPI v", "", {"size", "disp_unit", "flavor", "handle"}},
    {"ompi.mpi.win_freed", "Open MPI v", "", {"flavor", "handle", NULL}},
    {"ompi.mca.memory.patcher.released", "Open MPI v", "", {"count", "bytes", NULL}},
};

/* The family of the running library, learnt from its version string at
 * the backend's entry (backend_family.c): a backend compiled against the
 * standard ABI's header serves every family, a native one its own. */
struct backend_family {
    const char *name; /* "Open MPI", "MPICH" */
    int open_mpi;     /* Open MPI's components: SPCs, monitoring, MCA gates */
    struct family_quirks quirks;
};
extern struct backend_family backend_family;
void backend_family_detect(void);

#endif
