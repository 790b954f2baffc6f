/*
 * Open MPI's monitoring components (pml, osc and coll "monitoring", built in
 * every Open MPI 4.1 and 5.0) count messages and bytes per peer of
 * MPI_COMM_WORLD, but only when pml_monitoring_enable is set before MPI_Init
 * (1: every message; 2: user point-to-point apart from the MPI's own, tag
 * < 0, which no variable shows).  Before MPI_Init the backend sets it to 2
 * when a name needs it, unless the user set it.  Starting or stopping any
 * monitoring handle switches all monitoring of the process on or off
 * (common_monitoring.c, the notify of every data variable), and with it
 * stopped Open MPI prints nothing at MPI_Finalize: the handles are started
 * and never stopped; a set's counts are differences of reads.  The
 * monitoring PML wraps the selected one, so a PML list that names others
 * only (mpirun --mca pml ob1) leaves it out: "monitoring" is added to it.
 * On a release whose monitoring kills the process (known_defects.c) it is
 * never switched on, and switched off when the caller's environment asks
 * for it: the program must survive MPI_Init.
 */
#include <fnmatch.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_internal.h"
#include "family_quirks.h"

#define ENABLE_ENV "OMPI_MCA_pml_monitoring_enable"
#define PML_ENV    "OMPI_MCA_pml"
#define PML_LEN    1024

static const char *const monitoring_patterns[] = {"pml_monitoring_*", "osc_monitoring_*",
                                                  "coll_monitoring_*"};

int backend_is_monitoring(const char *name)
{
    if (!backend_family.open_mpi) return 0;
    for (size_t i = 0; i < sizeof monitoring_patterns / sizeof monitoring_patterns[0]; i++)
        if (fnmatch(monitoring_patterns[i], name, 0) == 0) return 1;
    return 0;
}

/* An include list of PMLs ("ob1", "ob1,cm") gets the monitoring PML too;
 * an exclude list ("^ucx") or none already lets it in. */
static void admit_monitoring_pml(void)
{
    const char *list = getenv(PML_ENV);
    char value[PML_LEN];
    if (!list || !*list || list[0] == '^' || strstr(list, "monitoring")) return;
    snprintf(value, sizeof value, "%s,monitoring", list);
    setenv(PML_ENV, value, 1);
}

void backend_monitoring_request(const char *name)
{
    int initialized = 0;
    char why[MPIT_WHY_LEN];
    if (!backend_is_monitoring(name)) return;
    PMPI_Initialized(&initialized);
    if (initialized) return;
    if (backend_known_defect(name, why, sizeof why)) {
        const char *enable = getenv(ENABLE_ENV);
        if (enable && strcmp(enable, "0") != 0) setenv(ENABLE_ENV, "0", 1);
        return;
    }
    const char *enable = getenv(ENABLE_ENV);
    if (enable && strcmp(enable, "0") == 0) return; /* the user turned it off */
    if (!enable) setenv(ENABLE_ENV, "2", 1);
    admit_monitoring_pml();
}
