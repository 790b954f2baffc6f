/* Shared between the backend's files.  The order of use has no cycle:
 * backend_mpi.c uses backend_events.c, both use backend_translate.c. */
#ifndef MPIT_BACKEND_INTERNAL_H
#define MPIT_BACKEND_INTERNAL_H

#include <mpi.h>

#include "../mpit_backend.h"

/* MPI -> mpit translations (backend_translate.c). */
int backend_status(int mpi_err);
int backend_map_class(int mpi_class);
int backend_mpi_class(int ours); /* -1 when the MPI has no such class */
int backend_map_bind(int mpi_bind);
int backend_map_verbosity(int mpi_verbosity);
int backend_map_dtype(MPI_Datatype t);

/* Variables the MPI collects only when told before MPI_Init (Open MPI SPCs). */
void backend_pvar_request(const char *name);
int backend_pvar_collecting(const char *name);
/* Open MPI's monitoring variables (monitoring.c): enabled before MPI_Init
 * when asked for; never stopped once started. */
int backend_is_monitoring(const char *name);
void backend_monitoring_request(const char *name);
/* 1 (with why) when the variable belongs to an MPI component that is not in
 * use, whose variables the MPI cannot read safely. */
int backend_pvar_unavailable(const char *name, char *why, size_t why_len);
/* 1 (with why) when the running MPI release publishes the variable but does
 * not maintain it (known_defects.c). */
int backend_known_defect(const char *name, char *why, size_t why_len);
/* The running library's version string, asked once (backend_family.c). */
const char *backend_library_version(void);
/* 1 when the running library's version string starts with label and then,
 * after blanks, version ("MPICH Version:", "4.0."). */
int backend_release_is(const char *label, const char *version);
/* 1 (with why) when the running library can never publish the variable
 * name (NULL: any MPI_T event), learnt before MPI_Init (known_defects.c). */
int backend_never_gives(const char *name, char *why, size_t why_len);
/* 1 (with why) when reading any event's data would abort the running MPI. */
int backend_event_data_defect(char *why, size_t why_len);

/* The object handle to bind a variable or an event to MPI_COMM_WORLD or
 * MPI_COMM_SELF (enum mpit_comm), NULL when the MPI has none to give
 * (comm_object.c). */
void *backend_comm_object(int comm);
/* Right before MPI_Finalize, where the release would crash freeing them
 * after its SPCs ended (finalize_windows.c): frees the windows left open. */
void backend_free_windows_left_open(void);
/* 1 on a release whose MPI_Finalize ends the SPCs before the component's
 * MPI_COMM_SELF callback runs (Open MPI 4.0, 4.1: finalize_spc_window.c). */
int backend_spc_end_first(void);
/* Once MPI runs, on the thread that will call MPI_Finalize: what
 * backend_in_finalize_window looks for. */
void backend_finalize_window_prepare(void);
/* 1 when the thread interrupted at pc with stack pointer sp is inside
 * MPI_Finalize on such a release, where reading an SPC would crash;
 * async-signal-safe. */
int backend_in_finalize_window(const void *pc, const void *sp);
/* 1 when the variable can be bound to MPI_COMM_WORLD only. */
int backend_pvar_world_only(const char *name);

/* Events part: fills the event entries of the vector when the MPI has them. */
void backend_events_fill(mpit_backend_t *b);
/* Frees every event registration (at MPI_Finalize or shutdown). */
void backend_events_release(void);

#endif
