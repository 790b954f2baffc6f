/* What differs between MPI families, as data.  See shared mpi-facts. */
#ifndef MPIT_FAMILY_QUIRKS_H
#define MPIT_FAMILY_QUIRKS_H

struct family_quirks {
    /* Open MPI 4.1: MPI_T_finalize after MPI_Finalize segfaults (ompi#11485);
     * MPICH: MPI_T_finalize while MPI runs frees cvars in use (mpich#7954). */
    int finalize_mpit_before_mpi;
    /* MPICH 4.0.2 never initializes an event's enumtype (the element names):
     * MPI_T_event_get_info returns a wild pointer there. */
    int event_enumtype_valid;
};

#if defined(OPEN_MPI)
#define FAMILY_NAME "Open MPI"
static const struct family_quirks quirks = {1, 1};
#elif defined(MPICH)
#define FAMILY_NAME "MPICH"
static const struct family_quirks quirks = {0, 0};
#else
#error "unknown MPI family: add its quirks here"
#endif

#endif
