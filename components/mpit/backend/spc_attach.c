/*
 * Open MPI's Software-based Performance Counters count only when attached.
 * Open MPI 4.1 attaches them once, in MPI_Init, from the MCA parameter
 * mpi_spc_attach (a list, or "all"); its SPC pvars are CONTINUOUS.  Open MPI
 * 5.0 counts references: the parameter holds one, and every started MPI_T
 * handle one more until it stops (its SPC pvars are not continuous, so the
 * front end starts and stops each handle of an event set).  Before MPI_Init
 * the backend adds the wanted counters to the parameter; after MPI_Init it
 * refuses, rather than read as silent zeros, a counter that nothing attaches:
 * on 4.1 one the parameter does not list, on 5.0 a level (*_IN_QUEUE), whose
 * value is right only when counted from MPI_Init.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_internal.h"
#include "family_quirks.h"

#define SPC_PREFIX       "runtime_spc_"
#define ATTACH_ENV       "OMPI_MCA_mpi_spc_attach"
#define ATTACH_VALUE_LEN 8192 /* the comma-separated list of attached counters */

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
    if (!backend_family.open_mpi) return;
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

/* 1 when a started handle attaches the SPC itself (Open MPI 5.0), told by
 * the pvar's info: its SPCs are no longer CONTINUOUS. */
static int attached_by_start(const char *name)
{
    char pvar_name[MPIT_NAME_LEN], desc[MPIT_DESC_LEN];
    int index, verbosity, var_class, bind, readonly, continuous = 1, atomic;
    int name_len = (int)sizeof pvar_name, desc_len = (int)sizeof desc;
    MPI_Datatype dtype;
    MPI_T_enum enumtype;
    if (PMPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_SIZE, &index) != MPI_SUCCESS) return 0;
    if (PMPI_T_pvar_get_info(index, pvar_name, &name_len, &verbosity, &var_class, &dtype, &enumtype, desc,
                             &desc_len, &bind, &readonly, &continuous, &atomic) != MPI_SUCCESS)
        return 0;
    return !continuous;
}

/* A level counts right only when attached from MPI_Init on. */
static int is_level(const char *counter)
{
    size_t n = strlen(counter), k = strlen("_IN_QUEUE");
    return n > k && strcmp(counter + n - k, "_IN_QUEUE") == 0;
}

int backend_pvar_collecting(const char *name)
{
    if (!backend_family.open_mpi) return 1;
    if (strncmp(name, SPC_PREFIX, strlen(SPC_PREFIX)) != 0) return 1;
    if (!is_level(name + strlen(SPC_PREFIX)) && attached_by_start(name)) return 1;
    char value[ATTACH_VALUE_LEN];
    attach_value(value, sizeof value);
    if (strcmp(value, "all") == 0) return 1;
    const char *counter = name + strlen(SPC_PREFIX);
    return listed(value, counter) && (!needed_by(counter) || listed(value, needed_by(counter)));
}
