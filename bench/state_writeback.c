/* The write-back I/O a rank's mapped state file causes: the rank makes
 * wrapped calls without pause (MPI_Isend, MPI_Recv, MPI_Wait to itself, so
 * its call-site rows, its thread slot and its ring of last calls change all
 * the time) for the seconds asked, and prints the bytes its own /proc/self/io
 * counts as written.  The kernel counts a mapped page there each time it
 * becomes dirty again after being written back, so the figure is what the
 * file costs the storage, not how often the rank stores into it.
 *   state_writeback SECONDS
 * prints "seconds=S calls=N write_bytes=B" (B since the first call, after
 * MPI_Init, so that the file's creation is not in it).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long long written_bytes(void)
{
    FILE *f = fopen("/proc/self/io", "r");
    char line[128];
    long long v = -1;
    if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "write_bytes:", 12)) v = atoll(line + 12);
    fclose(f);
    return v;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    double seconds = argc > 1 ? atof(argv[1]) : 65, out = 1, in;
    long long calls = 0, before = written_bytes();
    double start = MPI_Wtime(), now = start;
    while (now - start < seconds) {
        for (int i = 0; i < 1000; i++) {
            MPI_Request r;
            MPI_Isend(&out, 1, MPI_DOUBLE, 0, 1, MPI_COMM_SELF, &r);
            MPI_Recv(&in, 1, MPI_DOUBLE, 0, 1, MPI_COMM_SELF, MPI_STATUS_IGNORE);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
        calls += 3000;
        now = MPI_Wtime();
    }
    printf("seconds=%.1f calls=%lld write_bytes=%lld\n", now - start, calls, written_bytes() - before);
    MPI_Finalize();
    return 0;
}
