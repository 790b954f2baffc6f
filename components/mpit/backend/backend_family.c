/*
 * Which MPI family the running library belongs to, from its version string
 * (callable before MPI_Init and after MPI_Finalize).  A native backend is
 * built for one family and finds it here; the standard-ABI backend finds
 * the implementation behind the ABI.  Families as data.
 */
#include <mpi.h>
#include <string.h>

#include "backend_internal.h"
#include "family_quirks.h"

/* finalize_mpit_before_mpi, event_enumtype_valid, mpit_costly_before_mpi,
 * event_callbacks_synchronous (family_quirks.h) */
static const struct {
    const char *marker; /* in the version string */
    struct backend_family family;
} families[] = {
    {"Open MPI", {"Open MPI", 1, {1, 1, 1, 0}}},
    {"MPICH", {"MPICH", 0, {0, 0, 0, 1}}},
    {"Intel(R) MPI", {"MPICH", 0, {0, 0, 0, 1}}},
    {"MVAPICH", {"MPICH", 0, {0, 0, 0, 1}}},
};

/* Until detected: the family the module was compiled for, else MPICH's. */
#if defined(OPEN_MPI)
struct backend_family backend_family = {"Open MPI", 1, {1, 1, 1, 0}};
#else
struct backend_family backend_family = {"MPICH", 0, {0, 0, 0, 1}};
#endif

const char *backend_library_version(void)
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

void backend_family_detect(void)
{
    const char *version = backend_library_version();
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
        if (strstr(version, families[i].marker)) {
            backend_family = families[i].family;
            return;
        }
}
