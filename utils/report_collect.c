/*
 * papi-mpit-report: collecting the per-rank records on rank 0 so that the
 * collection shows in none of the counters the tool reports.
 *
 * What the counters see of a message:
 * - Bytes: Open MPI counts point-to-point bytes with a tag >= 0 as
 *   BYTES_*_USER, whatever the communicator.  Collectives use negative tags,
 *   but Open MPI 4.1's ob1 files the bytes of a send that does not go out
 *   inline (over 256 bytes, or no sendi in the BTL) under the tag of the
 *   request object's previous use, often a user tag.  So the tool sends only
 *   zero-byte messages: the record travels in their tags.
 * - Unexpected messages: any message that arrives before its receive is
 *   posted, whatever its tag, counts (MPICH's unexp_message_enqueued event,
 *   Open MPI's SPC UNEXPECTED); and a rank still counting (busy in the
 *   program) can receive the first message of a rank that already finished.
 *   So every receive is posted before its message can be sent: the first
 *   one ("everyone above me has stopped counting", a chain from the last
 *   rank down to rank 0) is posted at start-up, before counting starts, and
 *   stays posted during the run; every later message answers one the
 *   receiver sent after posting its receive.
 * Start-up: MPI_Comm_dup of MPI_COMM_WORLD, the receives posted, a barrier,
 * all before counting starts; then, counting, a zero-byte chain up and down
 * so that no rank returns to the program before every rank counts.  The collection itself is serial through rank 0:
 * about len/3 zero-byte messages per rank (24 bits per tag where the MPI's
 * tag range allows it), small next to a program's run.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_collect.h"

#define PFX         "papi-mpit-report: "
#define TAG_STOPPED 1 /* chain down: me and every rank above me stopped counting */
#define TAG_GO      2 /* rank 0 to rank r: your turn (twice: length, then data) */
#define TAG_UP      3 /* chain up: me and every rank below me are counting */
#define TAG_DOWN    4 /* chain down: every rank is counting */
#define TAG_DONE    5 /* rank 0 to all: collected, go on to MPI_Finalize */

static MPI_Comm comm = MPI_COMM_NULL;
static MPI_Request stopped_req = MPI_REQUEST_NULL, up_req = MPI_REQUEST_NULL, down_req = MPI_REQUEST_NULL,
                   done_req = MPI_REQUEST_NULL;
static int rank, size, tag_ub = 32767, word_bytes = 1;
static double gather_s; /* rank 0: from every rank stopped to every record in */

double collect_seconds(void) { return gather_s; }

int collect_open(void)
{
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    int *ub = NULL, flag = 0;
    if (PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag) == MPI_SUCCESS && flag && ub &&
        *ub > tag_ub)
        tag_ub = *ub;
    /* whole bytes per tag: 3 where the range has 24 bits, else 1 (the
     * standard guarantees 15) */
    word_bytes = tag_ub >= 0xffffff ? 3 : tag_ub >= 0xffff ? 2 : 1;
    if (PMPI_Comm_dup(MPI_COMM_WORLD, &comm) != MPI_SUCCESS) {
        comm = MPI_COMM_NULL;
        return -1;
    }
    if (rank + 1 < size) {
        PMPI_Irecv(NULL, 0, MPI_BYTE, rank + 1, TAG_STOPPED, comm, &stopped_req);
        PMPI_Irecv(NULL, 0, MPI_BYTE, rank + 1, TAG_DOWN, comm, &down_req);
    }
    if (rank > 0) PMPI_Irecv(NULL, 0, MPI_BYTE, rank - 1, TAG_UP, comm, &up_req);
    /* every receive above is posted before any rank starts counting */
    PMPI_Barrier(comm);
    return 0;
}

void collect_started(void)
{
    if (comm == MPI_COMM_NULL) return;
    /* a rank returns to the program only once every rank counts: a fast
     * rank's first messages cannot reach a rank that does not count yet */
    if (rank > 0) PMPI_Wait(&up_req, MPI_STATUS_IGNORE);
    if (rank + 1 < size) {
        PMPI_Send(NULL, 0, MPI_BYTE, rank + 1, TAG_UP, comm);
        PMPI_Wait(&down_req, MPI_STATUS_IGNORE);
    }
    if (rank > 0) PMPI_Send(NULL, 0, MPI_BYTE, rank - 1, TAG_DOWN, comm);
}

void collect_release(void)
{
    if (comm == MPI_COMM_NULL) return;
    if (rank == 0)
        for (int r = 1; r < size; r++) PMPI_Send(NULL, 0, MPI_BYTE, r, TAG_DONE, comm);
    else
        PMPI_Wait(&done_req, MPI_STATUS_IGNORE);
}

void collect_close(void)
{
    if (comm != MPI_COMM_NULL) PMPI_Comm_free(&comm);
    comm = MPI_COMM_NULL;
}

static int words_of(int len) { return (len + word_bytes - 1) / word_bytes; }

/* rank r > 0: the length, then the record, each when rank 0 says go */
static void send_record(const char *mine, int len, MPI_Request go)
{
    PMPI_Wait(&go, MPI_STATUS_IGNORE);
    PMPI_Irecv(NULL, 0, MPI_BYTE, 0, TAG_GO, comm, &go);
    PMPI_Send(NULL, 0, MPI_BYTE, 0, len, comm);
    PMPI_Wait(&go, MPI_STATUS_IGNORE);
    const unsigned char *p = (const unsigned char *)mine;
    for (int w = 0; w < words_of(len); w++) {
        int tag = 0;
        for (int b = 0; b < word_bytes; b++) {
            int i = w * word_bytes + b;
            tag = (tag << 8) | (i < len ? p[i] : 0);
        }
        PMPI_Send(NULL, 0, MPI_BYTE, 0, tag, comm);
    }
}

/* rank 0: rank r's record appended to *all (grown as needed) at *total */
static int recv_record(int r, char **all, size_t *total)
{
    MPI_Request req;
    MPI_Status st;
    PMPI_Irecv(NULL, 0, MPI_BYTE, r, MPI_ANY_TAG, comm, &req);
    PMPI_Send(NULL, 0, MPI_BYTE, r, TAG_GO, comm);
    PMPI_Wait(&req, &st);
    int len = st.MPI_TAG, n = words_of(len);
    MPI_Request *reqs = malloc((size_t)(n ? n : 1) * sizeof *reqs);
    MPI_Status *sts = malloc((size_t)(n ? n : 1) * sizeof *sts);
    char *grown = realloc(*all, *total + (size_t)len + 1);
    if (!reqs || !sts || !grown) abort(); /* the peer is waiting: no way to tell it */
    *all = grown;
    for (int w = 0; w < n; w++) PMPI_Irecv(NULL, 0, MPI_BYTE, r, MPI_ANY_TAG, comm, &reqs[w]);
    PMPI_Send(NULL, 0, MPI_BYTE, r, TAG_GO, comm);
    PMPI_Waitall(n, reqs, sts);
    char *out = *all + *total;
    for (int w = 0; w < n; w++)
        for (int b = 0; b < word_bytes; b++) {
            int i = w * word_bytes + b;
            if (i < len) out[i] = (char)((sts[w].MPI_TAG >> (8 * (word_bytes - 1 - b))) & 0xff);
        }
    *total += (size_t)len;
    free(reqs);
    free(sts);
    return len;
}

char *collect_gather(const char *mine, int len, int **lens_out, int **displs_out)
{
    *lens_out = *displs_out = NULL;
    if (comm == MPI_COMM_NULL) {
        if (rank == 0) fprintf(stderr, PFX "MPI_Comm_dup failed at start-up: no report\n");
        return NULL;
    }
    if (len > tag_ub) len = tag_ub;
    MPI_Request go = MPI_REQUEST_NULL, done = MPI_REQUEST_NULL;
    /* posted before "stopped" leaves: rank 0 answers only after the chain */
    if (rank > 0) {
        PMPI_Irecv(NULL, 0, MPI_BYTE, 0, TAG_GO, comm, &go);
        PMPI_Irecv(NULL, 0, MPI_BYTE, 0, TAG_DONE, comm, &done);
    }
    if (rank + 1 < size) PMPI_Wait(&stopped_req, MPI_STATUS_IGNORE);
    if (rank > 0) {
        PMPI_Send(NULL, 0, MPI_BYTE, rank - 1, TAG_STOPPED, comm);
        send_record(mine, len, go);
        done_req = done;
        return NULL;
    }
    /* rank 0: every rank has stopped counting */
    double t0 = PMPI_Wtime();
    int *lens = calloc((size_t)size, sizeof *lens), *displs = calloc((size_t)size, sizeof *displs);
    char *all = malloc((size_t)len + 1);
    if (!lens || !displs || !all) abort();
    memcpy(all, mine, (size_t)len);
    lens[0] = len;
    size_t total = (size_t)len;
    for (int r = 1; r < size; r++) {
        displs[r] = (int)total;
        lens[r] = recv_record(r, &all, &total);
    }
    *lens_out = lens;
    *displs_out = displs;
    gather_s = PMPI_Wtime() - t0;
    return all;
}
