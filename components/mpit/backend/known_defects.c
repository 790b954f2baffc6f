/*
 * What an MPI release publishes but does not do right, as data.  A counter
 * it does not maintain would read as a constant (0, or a level that never
 * falls) that looks like a measurement: it is listed as unavailable with the
 * reason.  A variable whose collection kills the process (Open MPI
 * 6.0.0~rc2's monitoring) is unavailable too, and never switched on.  Event data it cannot hand out without aborting the process is
 * never read: rules that need it are unavailable, counting still works.
 * Which release is running is learnt from its version string at run time:
 * one backend serves every release of its ABI family.
 */
#include <fnmatch.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "backend_internal.h"

/* A release: the version string starts with label, then (after blanks) version. */
struct release {
    const char *label, *version;
};
#define OPEN_MPI_5_0                                                                                         \
    {                                                                                                        \
        "Open MPI v", "5.0."                                                                                 \
    }
/* 6.0 built with --enable-spc (seen on a v6.0.x snapshot; Debian's 6.0.0~rc2
 * has no SPCs): the same two SPC defects as 5.0 */
#define OPEN_MPI_6_0                                                                                         \
    {                                                                                                        \
        "Open MPI v", "6.0."                                                                                 \
    }
/* Debian sid's 6.0.0~rc2 ("Open MPI v6.0.0rc2, package: Debian OpenMPI, ...") */
#define OPEN_MPI_6_0_0_RC2                                                                                   \
    {                                                                                                        \
        "Open MPI v", "6.0.0rc2"                                                                             \
    }
#define MPICH_5_0                                                                                            \
    {                                                                                                        \
        "MPICH Version:", "5.0."                                                                             \
    }

/* rows that hold only through the release's standard-ABI library */
#if defined(MPI_ABI_VERSION)
#define THROUGH_ABI 1
#else
#define THROUGH_ABI 0
#endif
enum { ANY_ABI, STANDARD_ABI };

#define NOT_MAINTAINED "is not maintained by this MPI"
#define NO_HANDLE      "cannot be read through this MPI's standard ABI"
#define ABI_COMM_HANDLE                                                                                      \
    "Open MPI 6.0.0rc2's libmpi_abi answers MPI_T_ERR_INVALID_HANDLE to MPI_T_pvar_handle_alloc for a "      \
    "variable bound to a communicator, whatever the object given (a slot holding the ABI's "                 \
    "MPI_COMM_WORLD, or Open MPI's own; the native library takes the same call)"
#define KILLS "is never collected on this MPI"
#define MONITORING_CRASH                                                                                     \
    "Open MPI 6.0.0rc2's own monitoring segfaults in MPI_Init (mca_common_monitoring_add_procs) for any "    \
    "program once pml_monitoring_enable is set, so the component never switches it on there"

static const struct known_defect {
    struct release release;
    const char *pattern; /* variables affected (fnmatch) */
    const char *what;    /* NOT_MAINTAINED, KILLS, NO_HANDLE */
    const char *why;
    int abi; /* ANY_ABI, or STANDARD_ABI: only through libmpi_abi */
} known_defects[] = {
    {OPEN_MPI_6_0_0_RC2, "pml_ob1_*_length", NO_HANDLE, ABI_COMM_HANDLE, STANDARD_ABI},
    {OPEN_MPI_6_0_0_RC2, "pml_monitoring_*", KILLS, MONITORING_CRASH, ANY_ABI},
    {OPEN_MPI_6_0_0_RC2, "osc_monitoring_*", KILLS, MONITORING_CRASH, ANY_ABI},
    {OPEN_MPI_6_0_0_RC2, "coll_monitoring_*", KILLS, MONITORING_CRASH, ANY_ABI},
    {OPEN_MPI_5_0, "runtime_spc_OMPI_SPC_MAX_*_IN_QUEUE", NOT_MAINTAINED,
     "Open MPI 5.0 never raises this watermark: ompi_spc_update_watermark "
     "(ompi/runtime/ompi_spc.h) compares the watermark with itself, so it reads 0 whatever the queue held",
     ANY_ABI},
    {OPEN_MPI_5_0, "runtime_spc_OMPI_SPC_OOS_IN_QUEUE", NOT_MAINTAINED,
     "Open MPI 5.0's ob1 adds to this level when an out-of-sequence message is queued and never "
     "subtracts when it leaves (ompi/mca/pml/ob1/pml_ob1_recvfrag.c), so it only grows",
     ANY_ABI},
    {OPEN_MPI_6_0, "runtime_spc_OMPI_SPC_MAX_*_IN_QUEUE", NOT_MAINTAINED,
     "Open MPI 6.0 never raises this watermark: ompi_spc_update_watermark "
     "(ompi/runtime/ompi_spc.h) compares the watermark with itself, so it reads 0 whatever the queue held",
     ANY_ABI},
    {OPEN_MPI_6_0, "runtime_spc_OMPI_SPC_OOS_IN_QUEUE", NOT_MAINTAINED,
     "Open MPI 6.0's ob1 adds to this level when an out-of-sequence message is queued and never "
     "subtracts when it leaves (ompi/mca/pml/ob1/pml_ob1_recvfrag.c), so it only grows",
     ANY_ABI},
};

static const struct event_data_defect {
    struct release release;
    const char *why;
} event_data_defects[] = {
    {MPICH_5_0, "MPICH 5.0's MPI_T_event_read and MPI_T_event_copy abort the process (MPIR_Localcopy "
                "asserts that the element's datatype is not a built-in one, src/mpi/misc/utils.c)"},
};

int backend_release_is(const char *label, const char *version)
{
    const char *v = backend_library_version();
    size_t n = strlen(label);
    if (strncmp(v, label, n) != 0) return 0;
    v += strspn(v + n, " \t") + n;
    return strncmp(v, version, strlen(version)) == 0;
}

static int running(const struct release *r) { return backend_release_is(r->label, r->version); }

int backend_known_defect(const char *name, char *why, size_t why_len)
{
    for (size_t i = 0; i < sizeof known_defects / sizeof known_defects[0]; i++) {
        const struct known_defect *d = &known_defects[i];
        if ((d->abi == STANDARD_ABI && !THROUGH_ABI) || fnmatch(d->pattern, name, 0) != 0 ||
            !running(&d->release))
            continue;
        snprintf(why, why_len, "%s %s: %s", name, d->what, d->why);
        return 1;
    }
    return 0;
}

int backend_event_data_defect(char *why, size_t why_len)
{
    for (size_t i = 0; i < sizeof event_data_defects / sizeof event_data_defects[0]; i++)
        if (running(&event_data_defects[i].release)) {
            snprintf(why, why_len, "%s", event_data_defects[i].why);
            return 1;
        }
    return 0;
}
