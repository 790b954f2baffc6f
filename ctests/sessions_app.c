/* Helper program of t_report_cli.sh: MPI through a session only (MPI 4.0),
 * never MPI_Init, which papi-mpit-report cannot measure.  Rank 0's process
 * prints "sessions: done" to stdout; exits 0.  Built only where mpi.h has
 * sessions. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    MPI_Session s;
    if (MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s) != MPI_SUCCESS) return 1;
    const char *rank = getenv("PMI_RANK");
    if (!rank || atoi(rank) == 0) printf("sessions: done\n");
    return MPI_Session_finalize(&s) == MPI_SUCCESS ? 0 : 1;
}
