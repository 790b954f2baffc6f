/*
 * The MPI_T events interface (MPI 4.0) as the backend calls it: through
 * entry points found in the running library, so that one backend serves
 * the releases of its family with and without events (Open MPI 4.1 and 5.0
 * have none, 6.0 raises them) and builds against a header that does not
 * declare them (Debian's Open MPI 4.1).
 */
#ifndef MPIT_EVENTS_API_H
#define MPIT_EVENTS_API_H

#include <mpi.h>

#if MPI_VERSION >= 4
typedef MPI_T_event_instance ev_instance_t;
typedef MPI_T_event_registration ev_registration_t;
typedef MPI_T_cb_safety ev_safety_t;
typedef MPI_T_source_order ev_order_t;
#define EV_REQUIRE_NONE              MPI_T_CB_REQUIRE_NONE
#define EV_REQUIRE_MPI_RESTRICTED    MPI_T_CB_REQUIRE_MPI_RESTRICTED
#define EV_REQUIRE_THREAD_SAFE       MPI_T_CB_REQUIRE_THREAD_SAFE
#define EV_REQUIRE_ASYNC_SIGNAL_SAFE MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE
#define EV_SOURCE_UNORDERED          MPI_T_SOURCE_UNORDERED
#else
/* An MPI 3.1 header of the Open MPI family: the types as Open MPI 6.0
 * defines them (pointers, and enums of int width numbered from 0). */
typedef unsigned long *ev_instance_t;
typedef unsigned long *ev_registration_t;
typedef enum {
    EV_REQUIRE_NONE,
    EV_REQUIRE_MPI_RESTRICTED,
    EV_REQUIRE_THREAD_SAFE,
    EV_REQUIRE_ASYNC_SIGNAL_SAFE
} ev_safety_t;
typedef enum { EV_SOURCE_ORDERED, EV_SOURCE_UNORDERED } ev_order_t;
#endif

typedef void (*ev_callback_fn)(ev_instance_t, ev_registration_t, ev_safety_t, void *);
typedef void (*ev_dropped_fn)(MPI_Count, ev_registration_t, int, ev_safety_t, void *);
typedef void (*ev_free_fn)(ev_registration_t, ev_safety_t, void *);

/* The entry points, by their PMPI_ names. */
struct events_api {
    int (*get_num)(int *);
    int (*get_info)(int, char *, int *, int *, MPI_Datatype *, MPI_Aint *, int *, MPI_T_enum *, MPI_Info *,
                    char *, int *, int *);
    int (*handle_alloc)(int, void *, MPI_Info, ev_registration_t *);
    int (*register_callback)(ev_registration_t, ev_safety_t, MPI_Info, void *, ev_callback_fn);
    int (*set_dropped_handler)(ev_registration_t, ev_dropped_fn);
    int (*handle_free)(ev_registration_t, void *, ev_free_fn);
    int (*read)(ev_instance_t, int, void *);
    int (*copy)(ev_instance_t, void *);
    int (*get_timestamp)(ev_instance_t, MPI_Count *);
    int (*source_get_num)(int *);
    int (*source_get_info)(int, char *, int *, char *, int *, ev_order_t *, MPI_Count *, MPI_Count *,
                           MPI_Info *);
    int (*source_get_timestamp)(int, MPI_Count *);
};

extern struct events_api ev;

/* 1 when the running library has every entry point above (then ev holds
 * them), 0 when it has no events; asked once. */
int events_api_load(void);

#endif
