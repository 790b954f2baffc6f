/*
 * Counters an MPI release publishes but does not maintain.  Reading one would
 * give a constant (0, or a level that never falls) that looks like a
 * measurement, so the variable is listed as unavailable with the reason.
 * Which release is running is learnt from its version string at run time:
 * one backend serves every release of its ABI family.
 */
#include <fnmatch.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "backend_internal.h"

static const struct known_defect {
    const char *release; /* the MPI library version string starts with this */
    const char *pattern; /* variables affected (fnmatch) */
    const char *why;
} known_defects[] = {
    {"Open MPI v5.0.", "runtime_spc_OMPI_SPC_MAX_*_IN_QUEUE",
     "Open MPI 5.0 never raises this watermark: ompi_spc_update_watermark "
     "(ompi/runtime/ompi_spc.h) compares the watermark with itself, so it reads 0 whatever the queue held"},
    {"Open MPI v5.0.", "runtime_spc_OMPI_SPC_OOS_IN_QUEUE",
     "Open MPI 5.0's ob1 adds to this level when an out-of-sequence message is queued and never "
     "subtracts when it leaves (ompi/mca/pml/ob1/pml_ob1_recvfrag.c), so it only grows"},
};

/* The running library's version string, asked once (callable before
 * MPI_Init and after MPI_Finalize). */
static const char *library_version(void)
{
    static char version[MPI_MAX_LIBRARY_VERSION_STRING];
    static int asked;
    if (!asked) {
        int len = 0;
        if (PMPI_Get_library_version(version, &len) != MPI_SUCCESS) version[0] = '\0';
        version[sizeof version - 1] = '\0';
        asked = 1;
    }
    return version;
}

int backend_known_defect(const char *name, char *why, size_t why_len)
{
    for (size_t i = 0; i < sizeof known_defects / sizeof known_defects[0]; i++) {
        const struct known_defect *d = &known_defects[i];
        if (fnmatch(d->pattern, name, 0) != 0) continue;
        if (strncmp(library_version(), d->release, strlen(d->release)) != 0) continue;
        snprintf(why, why_len, "%s is not maintained by this MPI: %s", name, d->why);
        return 1;
    }
    return 0;
}
