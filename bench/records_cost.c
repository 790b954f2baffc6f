/* What the collection's record sequences (utils/report/collect/report_records.c) cost in
 * CPU, for the model in doc/performance.md: N records like a rank's under
 * the default events of Open MPI 4.1.4 (5 values, 12 skipped events with
 * their reasons), each written against the one before, then joined as a
 * parent joins a child's sequence (every record decoded once) and read back.
 *   cc -O2 -Iutils/report/collect bench/records_cost.c utils/report/collect/report_records.c -o records_cost
 *   ./records_cost [N]      (default 65536)
 *   ./records_cost N SITES  each record also has SITES call-site lines like
 *                           bench/collection_app.c's (site_record.c's form:
 *                           a send-receive to each neighbour, times that
 *                           differ from rank to rank) and its dense row
 * Prints bytes per record and ns per record for each step. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report_records.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* rank r's record */
static int record(char *buf, size_t cap, int r)
{
    int n = snprintf(buf, cap, "H\tnode%d\t%.9f\n", r / 64, 1.0 + r * 1e-6);
    static const char *const ev[] = {"UNEXPECTED_QUEUE_MAX", "POSTED_QUEUE_MAX", "UNEXPECTED_QUEUE_LENGTH",
                                     "POSTED_QUEUE_LENGTH"};
    for (int i = 0; i < 4; i++)
        n += snprintf(buf + n, cap - (size_t)n, "E\tmpit:::%s\tmessages\ti\t%d\n", ev[i], (r * 7 + i) % 300);
    n += snprintf(buf + n, cap - (size_t)n, "E\tperf::TASK-CLOCK\tns\ti\t%d\n", 5000000 + r * 131);
    for (int i = 0; i < 12; i++)
        n += snprintf(
            buf + n, cap - (size_t)n,
            "S\tmpit:::METRIC_%d\tMETRIC_%d is not available on the running Open MPI: it needs Open MPI "
            "built with --enable-spc and the counter attached (OMPI_MCA_mpi_spc_attach, or the event "
            "added before MPI_Init), or an MPI with MPI_T queue events\n",
            i, i);
    return n;
}

/* rank r's call-site lines, of nsites sites, and its matrix row (a dense
 * row of equal messages, in runs as records_compact_rows writes it) */
static int site_lines(char *buf, size_t cap, int r, int nranks, int nsites)
{
    int n = 0;
    unsigned x = 2654435761u * (unsigned)(r + 1);
    for (int k = 0; k < nsites; k++) {
        int calls = k % 4 + 1;
        x = x * 1103515245u + 12345u;
        long long ns = 2000 * calls + x % 90000, mx = ns / calls + x % 700, mn = ns / calls / 2;
        n += snprintf(buf + n, cap - (size_t)n,
                      "C\t/home/user/run/collection_app\t%x\t%d\t4:%d\t%d:%d:%d,%d:%d:%d\t"
                      "%d:%lld:%d:%d:%d:%d:%u:%lld:%lld\t-\t-\t-\t-\n",
                      0x1a40 + 0x5c * k, 52, calls, (r + 1) % nranks, calls, 8 * calls,
                      (r + nranks - 1) % nranks, 0, 0, calls, ns, calls, 8 * calls, calls, 8 * calls, x >> 31,
                      mx, mn);
    }
    n += snprintf(buf + n, cap - (size_t)n, "T\t0-%d:1:8\t0\n", nranks - 1);
    return n;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 65536, nsites = argc > 2 ? atoi(argv[2]) : 0;
    static char rec[65536], prev[65536] = "";
    records_buf_t seq = {0}, out = {0}, last = {0}, p = {0}, c = {0};
    size_t full = 0;
    double t0 = now();
    for (int r = 0; r < n; r++) {
        int len = record(rec, sizeof rec, r);
        len += site_lines(rec + len, sizeof rec - (size_t)len, r, n, nsites);
        full += (size_t)len;
        records_buf_t pb = {.s = prev, .len = strlen(prev)};
        records_put(&seq, r ? &pb : NULL, rec, (size_t)len);
        memcpy(prev, rec, (size_t)len + 1);
    }
    double t1 = now();
    if (records_join(&out, &last, seq.s, seq.len, NULL) != n) return 1;
    double t2 = now();
    size_t pos = 0;
    int got = 0;
    while (records_get(out.s, out.len, &pos, got ? &p : NULL, &c) == 0) {
        records_buf_t t = p;
        p = c, c = t;
        got++;
    }
    double t3 = now();
    printf("%d records: %.1f bytes each whole, %.1f as written; write %.0f ns, join %.0f ns, read %.0f ns "
           "per record\n",
           n, (double)full / n, (double)seq.len / n, 1e9 * (t1 - t0) / n, 1e9 * (t2 - t1) / n,
           1e9 * (t3 - t2) / n);
    records_free(&seq);
    records_free(&out);
    records_free(&last);
    records_free(&p);
    records_free(&c);
    return got == n ? 0 : 1;
}
