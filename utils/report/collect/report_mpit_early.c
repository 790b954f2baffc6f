/*
 * papi-mpit-report: on Open MPI, MPI_T is started before MPI_Init.
 *
 * Open MPI's MPI_T_init_thread (4.1) registers the parameters of every
 * component of every framework: it dlopens each one, the network
 * components MPI_Init did not select too.  On Debian's Open MPI 4.1.4
 * those include mtl ofi/psm/psm2 and btl ofi, which load libpsm2 and
 * libinfinipath, whose constructors calibrate the CPU clock against
 * gettimeofday with some 170 usleep(125) each: 0.2 s of waiting and about
 * 15 ms of CPU.  MPI_Init with Open MPI's defaults loads them as well, to
 * choose among them, and closes those it did not choose; an MPI_T started
 * after MPI_Init loads them again and pays the 0.2 s a second time.
 * Started before MPI_Init it pays once, and MPI_Init then finds the
 * components registered (doc/performance.md, "start-up").
 *
 * The component itself waits for MPI_Init (mpit_costly_before_mpi): a
 * program that never reads a variable should not pay at all.  The tool
 * will read them, so it takes the early reference, and gives it back once
 * the component holds its own.
 * MPICH's MPI_T start-up is cheap either way: nothing to do there.
 */
#include <mpi.h>
#include <time.h>

#include "report_mpit_early.h"

#if defined(OPEN_MPI)
static int held;

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double mpit_early_hold(int level)
{
    int provided = 0;
    if (held) return 0;
    double t0 = seconds();
    /* Open MPI 4.1 sets the process's thread level from here, and
     * MPI_Init sets it again from the program's request: the same level */
    if (PMPI_T_init_thread(level, &provided) == MPI_SUCCESS) held = 1;
    return seconds() - t0;
}

void mpit_early_release(void)
{
    /* while MPI runs or before it started: Open MPI 4.1 crashes in an
     * MPI_T_finalize after MPI_Finalize */
    if (held) PMPI_T_finalize();
    held = 0;
}
#else
double mpit_early_hold(int level)
{
    (void)level;
    return 0;
}
void mpit_early_release(void) {}
#endif
