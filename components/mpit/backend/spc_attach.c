/*
 * Open MPI's Software-based Performance Counters count only when attached:
 * the MCA parameter mpi_spc_attach, read during MPI_Init, lists them (or says
 * "all").  Before MPI_Init the backend adds the wanted counters to it; after
 * MPI_Init it reads the parameter back (as an MPI_T control variable) so that
 * a counter that is not attached is refused, never read as silent zeros.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_internal.h"

#define SPC_PREFIX       "runtime_spc_"
#define ATTACH_ENV       "OMPI_MCA_mpi_spc_attach"
#define ATTACH_VALUE_LEN 8192 /* the comma-separated list of attached counters */

#if defined(OPEN_MPI)

/* A watermark moves only while the level it follows is attached too. */
static const struct {
    const char *counter, *needs;
} spc_needs[] = {
    {"OMPI_SPC_MAX_UNEXPECTED_IN_QUEUE", "OMPI_SPC_UNEXPECTED_IN_QUEUE"},
    {"OMPI_SPC_MAX_OOS_IN_QUEUE", "OMPI_SPC_OOS_IN_QUEUE"},
};

static const char *needed_by(const char *counter)
{
    for (size_t i = 0; i < sizeof spc_needs / sizeof spc_needs[0]; i++)
        if (strcmp(spc_needs[i].counter, counter) == 0) return spc_needs[i].needs;
    return NULL;
}

static int listed(const char *list, const char *counter)
{
    size_t n = strlen(counter);
    for (const char *p = list; (p = strstr(p, counter)) != NULL; p += n)
        if ((p == list || p[-1] == ',') && (p[n] == '\0' || p[n] == ',')) return 1;
    return 0;
}

static void attach(const char *counter)
{
    const char *now = getenv(ATTACH_ENV);
    if (now && (strcmp(now, "all") == 0 || listed(now, counter))) return;
    char value[ATTACH_VALUE_LEN];
    snprintf(value, sizeof value, "%s%s%s", now && *now ? now : "", now && *now ? "," : "", counter);
    setenv(ATTACH_ENV, value, 1);
}

void backend_pvar_request(const char *name)
{
    if (strncmp(name, SPC_PREFIX, strlen(SPC_PREFIX)) != 0) return;
    int initialized = 0;
    PMPI_Initialized(&initialized);
    if (initialized) return;
    const char *counter = name + strlen(SPC_PREFIX); /* OMPI_SPC_<X> */
    attach(counter);
    if (needed_by(counter)) attach(needed_by(counter));
}

/* The value of the control variable mpi_spc_attach, or "" if unreadable. */
static void attach_value(char *buf, int len)
{
    int index, count;
    MPI_T_cvar_handle h;
    buf[0] = '\0';
    if (PMPI_T_cvar_get_index("mpi_spc_attach", &index) != MPI_SUCCESS) return;
    if (PMPI_T_cvar_handle_alloc(index, NULL, &h, &count) != MPI_SUCCESS) return;
    if (count < len) PMPI_T_cvar_read(h, buf);
    PMPI_T_cvar_handle_free(&h);
    buf[len - 1] = '\0';
}

int backend_pvar_collecting(const char *name)
{
    if (strncmp(name, SPC_PREFIX, strlen(SPC_PREFIX)) != 0) return 1;
    char value[ATTACH_VALUE_LEN];
    attach_value(value, sizeof value);
    if (strcmp(value, "all") == 0) return 1;
    const char *counter = name + strlen(SPC_PREFIX);
    return listed(value, counter) && (!needed_by(counter) || listed(value, needed_by(counter)));
}

#else

void backend_pvar_request(const char *name) { (void)name; }
int backend_pvar_collecting(const char *name)
{
    (void)name;
    return 1;
}

#endif
