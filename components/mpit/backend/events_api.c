/* The MPI_T events entry points of the running library (events_api.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "events_api.h"

#include <dlfcn.h>
#include <stddef.h>

struct events_api ev;

/* Names in the order of struct events_api's members. */
static const struct {
    const char *symbol;
    size_t offset;
} entry_points[] = {
    {"PMPI_T_event_get_num", offsetof(struct events_api, get_num)},
    {"PMPI_T_event_get_info", offsetof(struct events_api, get_info)},
    {"PMPI_T_event_handle_alloc", offsetof(struct events_api, handle_alloc)},
    {"PMPI_T_event_register_callback", offsetof(struct events_api, register_callback)},
    {"PMPI_T_event_set_dropped_handler", offsetof(struct events_api, set_dropped_handler)},
    {"PMPI_T_event_handle_free", offsetof(struct events_api, handle_free)},
    {"PMPI_T_event_read", offsetof(struct events_api, read)},
    {"PMPI_T_event_copy", offsetof(struct events_api, copy)},
    {"PMPI_T_event_get_timestamp", offsetof(struct events_api, get_timestamp)},
    {"PMPI_T_source_get_num", offsetof(struct events_api, source_get_num)},
    {"PMPI_T_source_get_info", offsetof(struct events_api, source_get_info)},
    {"PMPI_T_source_get_timestamp", offsetof(struct events_api, source_get_timestamp)},
};

int events_api_load(void)
{
    static int loaded = -1; /* setup runs on one thread (the backend's entry) */
    if (loaded >= 0) return loaded;
    struct events_api found;
    loaded = 0;
    for (size_t i = 0; i < sizeof entry_points / sizeof entry_points[0]; i++) {
        /* the process's MPI, which the backend's other references bind to */
        void *fn = dlsym(RTLD_DEFAULT, entry_points[i].symbol);
        if (!fn) return 0;
        *(void **)((char *)&found + entry_points[i].offset) = fn;
    }
    ev = found;
    loaded = 1;
    return 1;
}
