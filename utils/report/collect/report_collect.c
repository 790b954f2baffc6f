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
 *   zero-byte messages: the records travel in their tags.
 * - Unexpected messages: any message that arrives before its receive is
 *   posted, whatever its tag, counts (MPICH's unexp_message_enqueued event,
 *   Open MPI's SPC UNEXPECTED); and a rank still counting (busy in the
 *   program) can receive the first message of a rank that already finished.
 *   So every receive is posted before its message can be sent: those that
 *   can reach a rank still counting ("my subtree stopped") are posted at
 *   start-up, before counting starts, and stay posted during the run; every
 *   later message answers one the receiver sent after posting its receive.
 *
 * The shape is a binomial tree over a private communicator: rank r's parent
 * is r with its lowest set bit cleared, its children r+1, r+2, r+4, ...
 * below that bit (rank 0: all powers of two), so each phase takes log2(P)
 * steps and rank r's subtree is the ranks r .. r+lowbit(r)-1.
 * - Start-up (not counting yet): MPI_Comm_dup, the receives of "counting"
 *   and "stopped" from each child and of "everyone counts" from the parent
 *   posted, a barrier.
 * - Started (counting): "counting" up the tree, "everyone counts" down, so
 *   that no rank returns to the program before every rank counts.
 * - Gather (counting stopped): "stopped" goes up as soon as a rank and its
 *   children's subtrees have stopped; then each rank takes its children's
 *   records, smallest subtree first, and passes its subtree's on (its own
 *   record, then its children's: rank order) when its parent says go.
 *   Records are written as differences from the record before
 *   (report_records.c: ~90 bytes a rank instead of 2.7 kB), 3 bytes per tag
 *   where the tag range has 24 bits, in chunks of at most CHUNK words, each
 *   asked for by a "go" that leaves after its receives are posted.
 * - Release: "done" down the tree once rank 0 has written the report.
 * The receives posted when counting starts (two per child, one from the
 * parent) and kept during the run (one per child: at most log2(P), on rank
 * 0) show where the posted-queue length counts every communicator (MPICH).
 *
 * Real bytes in the gather (issue 41).  In the gather both ends of every
 * message have stopped counting: a child sends only after its subtree
 * stopped and its parent's go came.  So the tool's own reads (its event
 * sets, stopped in report_finish; the matrix and the unexpected-by-sender
 * rows, read at the window's close; the sampler and the event log, stopped
 * before) cannot see the records, whatever they weigh.  What can is every
 * reader that comes after the gather, all of them in or after MPI_Finalize:
 * - Open MPI's SPC dump (mpi_spc_dump_enabled, 4.1, 5.0 and 6.0) prints
 *   BYTES_SENT_USER / BYTES_RECEIVED_USER in MPI_Finalize: a send of real
 *   bytes on our communicator has a tag >= 0, so it is a user byte there
 *   (ctests/report_spc_compare.py holds the report to that dump exactly);
 * - Open MPI's monitoring (pml_monitoring_enable, its output at
 *   MPI_Finalize, and the per-peer pvars) counts every byte to every peer;
 * - the program's own event sets, where it reads them in or after
 *   MPI_Finalize (PAPI_hl at exit; TAU and hpcrun wrap MPI_Finalize too):
 *   they see what the MPI counted up to the component's finalize hook,
 *   which runs inside PMPI_Finalize, after us.
 * Those three count bytes only where this MPI has a counter of bytes: an
 * SPC, its monitoring, a source of the portable BYTES_SENT/BYTES_RECEIVED.
 * Unexpected messages stay out as before: every real-byte message goes
 * into a receive posted before the zero-byte go that lets it leave, and
 * the go itself into one posted before "stopped" (or before the head).
 * Message counts (OMPI_SPC_SEND and the like, the monitoring's message
 * counts) were never kept clean: the zero-byte design sent more messages.
 * So each parent decides (bytes_unseen): real bytes where no counter of
 * bytes exists (Open MPI without SPCs and with its monitoring off, MPICH:
 * its pvars are queue lengths and match counts, its events unexpected
 * messages), zero-byte messages where one does, since what Open MPI
 * prints in MPI_Finalize is a figure a user reads (an SPC build, --matrix).
 * The parent tells its children in the first go's tag (GO_BYTES, or
 * TAG_GO_BYTES where tags are narrow), so both ends always agree.  In real
 * bytes a child sends its head (16 bytes) into a receive posted before the
 * first go, then its subtree's records, one message a gigabyte, each into
 * a receive posted before the go that asks for it.
 *
 * Out of memory, the collection never ends the program.  A parent with no
 * room for a child's subtree still takes its zero-byte messages (and drops
 * them), or in real bytes answers the head with TAG_SKIP, after which the
 * child sends nothing more.  The subtree's ranks then get empty records.  A
 * rank that cannot join what it received sends its parent an empty
 * sequence, which the parent leaves out the same way.  Each such rank range
 * is named on stderr.  Rank 0 writes its report without those ranks, or no
 * report where it cannot hold its own.  (PAPI_MPIT_REPORT_COLLECT_LIMIT
 * caps the bytes a parent takes, to test this:
 * ctests/t_report_collect_oom.sh.)
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_collect.h"
#include "report_handles.h"
#include "report_records.h"

#define PFX          "papi-mpit-report: "
#define TAG_STOPPED  1 /* child to parent: my subtree stopped counting */
#define TAG_GO       2 /* parent to child: send your next chunk */
#define TAG_UP       3 /* child to parent: my subtree is counting */
#define TAG_DOWN     4 /* parent to child: every rank is counting */
#define TAG_DONE     5 /* parent to child: collected, go on to MPI_Finalize */
#define MAX_CHILDREN 32
#define CHUNK        4096      /* words per go: bounds the receives posted at once */
#define HEAD_BYTES   16        /* sent first: the subtree's size, its reference's hash */
#define TAG_HEAD     6         /* child to parent, real bytes: the head */
#define TAG_DATA     7         /* child to parent, real bytes: the records */
#define TAG_GO_BYTES 8         /* first go where tags are narrow: send real bytes */
#define TAG_SKIP     9         /* parent to child, real bytes: no room, send no more */
#define GO_BYTES     0x800000  /* in the first go's 24-bit tag: send real bytes */
#define GO_HASH      0x7fffff  /* the rest of it: the parent's template's hash */
#define BYTES_CHUNK  (1 << 30) /* bytes per go in real bytes: an int's count */

/* no initialisers from MPI: its handles are looked up after MPI_Init
 * (report_handles.h); have_comm says whether comm is ours */
static MPI_Comm comm;
static int have_comm;
static int rank, size, parent = -1, nchildren, children[MAX_CHILDREN];
static MPI_Request up_req[MAX_CHILDREN], stopped_req[MAX_CHILDREN], down_req, done_req;
static MPI_Status statuses[CHUNK > MAX_CHILDREN ? CHUNK : MAX_CHILDREN];
static MPI_Request reqs[CHUNK];
static int tag_ub = 32767, word_bytes = 1;
static double gather_s; /* rank 0: from every rank stopped to every record in */

double collect_seconds(void) { return gather_s; }

static void make_tree(void)
{
    int low = rank & -rank; /* 0 for rank 0: no bound */
    parent = rank ? rank - low : -1;
    nchildren = 0;
    for (long m = 1; (!rank || m < low) && rank + m < size && nchildren < MAX_CHILDREN; m <<= 1)
        children[nchildren++] = rank + (int)m;
}

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
    down_req = done_req = MPI_REQUEST_NULL;
    if (PMPI_Comm_dup(MPI_COMM_WORLD, &comm) != MPI_SUCCESS) return -1;
    have_comm = 1;
    make_tree();
    for (int c = 0; c < nchildren; c++) {
        PMPI_Irecv(NULL, 0, MPI_BYTE, children[c], TAG_UP, comm, &up_req[c]);
        PMPI_Irecv(NULL, 0, MPI_BYTE, children[c], TAG_STOPPED, comm, &stopped_req[c]);
    }
    if (parent >= 0) PMPI_Irecv(NULL, 0, MPI_BYTE, parent, TAG_DOWN, comm, &down_req);
    /* every receive above is posted before any rank starts counting */
    PMPI_Barrier(comm);
    return 0;
}

void collect_started(void)
{
    if (!have_comm) return;
    /* a rank returns to the program only once every rank counts: a fast
     * rank's first messages cannot reach a rank that does not count yet */
    PMPI_Waitall(nchildren, up_req, statuses);
    if (parent >= 0) {
        PMPI_Send(NULL, 0, MPI_BYTE, parent, TAG_UP, comm);
        PMPI_Wait(&down_req, MPI_STATUS_IGNORE);
    }
    for (int c = 0; c < nchildren; c++) PMPI_Send(NULL, 0, MPI_BYTE, children[c], TAG_DOWN, comm);
}

void collect_release(void)
{
    if (!have_comm) return;
    if (parent >= 0) PMPI_Wait(&done_req, MPI_STATUS_IGNORE);
    for (int c = 0; c < nchildren; c++) PMPI_Send(NULL, 0, MPI_BYTE, children[c], TAG_DONE, comm);
}

void collect_close(void)
{
    if (have_comm) PMPI_Comm_free(&comm);
    have_comm = 0;
}

static size_t words_of(size_t len) { return (len + (size_t)word_bytes - 1) / (size_t)word_bytes; }

/* words first .. first+n-1 of p[0 .. len-1] to the parent, one per tag */
static void send_words(const unsigned char *p, size_t len, size_t first, size_t n)
{
    for (size_t w = first; w < first + n; w++) {
        int tag = 0;
        for (int b = 0; b < word_bytes; b++) {
            size_t i = w * (size_t)word_bytes + (size_t)b;
            tag = (tag << 8) | (i < len ? p[i] : 0);
        }
        PMPI_Send(NULL, 0, MPI_BYTE, parent, tag, comm);
    }
}

/* n words from child into out[0 .. len-1] from word first on (out NULL:
 * received and dropped): receives posted, then the go (its tag go_tag) */
static void recv_words(int child, unsigned char *out, size_t len, size_t first, int n, int go_tag)
{
    for (int k = 0; k < n; k++) PMPI_Irecv(NULL, 0, MPI_BYTE, child, MPI_ANY_TAG, comm, &reqs[k]);
    PMPI_Send(NULL, 0, MPI_BYTE, child, go_tag, comm);
    PMPI_Waitall(n, reqs, statuses);
    for (int k = 0; k < n; k++)
        for (int b = 0; b < word_bytes; b++) {
            size_t i = (first + (size_t)k) * (size_t)word_bytes + (size_t)b;
            if (out && i < len)
                out[i] = (unsigned char)((statuses[k].MPI_TAG >> (8 * (word_bytes - 1 - b))) & 0xff);
        }
}

static void put_u64(unsigned char *p, unsigned long long v)
{
    for (int b = 0; b < 8; b++) p[b] = (unsigned char)(v >> (8 * (7 - b)));
}

static unsigned long long get_u64(const unsigned char *p)
{
    unsigned long long v = 0;
    for (int b = 0; b < 8; b++) v = (v << 8) | p[b];
    return v;
}

/* to the parent, whose first go has come: the size and the hash of what
 * the first record is written against (0: nothing), then the bytes, a chunk
 * per go */
static void send_subtree(const char *s, size_t len, unsigned long long ref_hash)
{
    unsigned char head[HEAD_BYTES];
    put_u64(head, len);
    put_u64(head + 8, ref_hash);
    size_t nwords = words_of(len);
    MPI_Request go = MPI_REQUEST_NULL;
    if (nwords) PMPI_Irecv(NULL, 0, MPI_BYTE, parent, TAG_GO, comm, &go);
    send_words(head, HEAD_BYTES, 0, words_of(HEAD_BYTES));
    for (size_t w = 0; w < nwords;) {
        size_t n = nwords - w < CHUNK ? nwords - w : CHUNK;
        PMPI_Wait(&go, MPI_STATUS_IGNORE);
        if (w + n < nwords) PMPI_Irecv(NULL, 0, MPI_BYTE, parent, TAG_GO, comm, &go);
        send_words((const unsigned char *)s, len, w, n);
        w += n;
    }
}

/* the most bytes of a subtree's records taken (PAPI_MPIT_REPORT_COLLECT_LIMIT,
 * for ctests/t_report_collect_oom.sh: what running out of memory does) */
static size_t subtree_limit = (size_t)-1;

/* buf made to hold a subtree's records of len bytes and their end; NULL
 * (buf->oom set, buf empty) when memory runs out: the caller still takes
 * the records from the child, which is waiting to send them, and drops them */
static char *sized(records_buf_t *buf, size_t len)
{
    char *s = len < subtree_limit ? realloc(buf->s, len + 1) : NULL;
    buf->len = 0;
    buf->oom = !s;
    if (!s) return NULL;
    buf->s = s;
    buf->cap = len + 1;
    buf->len = len;
    return s;
}

/* from a child: its subtree's records into *buf (replaced), and the hash of
 * what their first is written against; the first go's tag tells the child
 * first_go (our template's hash) */
static unsigned long long recv_subtree(int child, records_buf_t *buf, int first_go)
{
    unsigned char head[HEAD_BYTES];
    recv_words(child, head, HEAD_BYTES, 0, (int)words_of(HEAD_BYTES), first_go);
    size_t len = (size_t)get_u64(head);
    char *s = sized(buf, len);
    size_t nwords = words_of(len);
    for (size_t w = 0; w < nwords; w += CHUNK)
        recv_words(child, (unsigned char *)s, len, w, (int)(nwords - w < CHUNK ? nwords - w : CHUNK), TAG_GO);
    if (!s) return 0;
    s[len] = '\0';
    return get_u64(head + 8);
}

/* Real bytes: the head into a receive posted before the first go, then the
 * records, a receive posted before each go (one go up to 1 GiB). */
static void send_subtree_bytes(const char *s, size_t len, unsigned long long ref_hash)
{
    unsigned char head[HEAD_BYTES];
    put_u64(head, len);
    put_u64(head + 8, ref_hash);
    MPI_Request go = MPI_REQUEST_NULL;
    MPI_Status st;
    /* (any tag: TAG_GO or TAG_SKIP; the parent's TAG_DONE comes after the
     * last chunk, into a receive posted before this one) */
    if (len) PMPI_Irecv(NULL, 0, MPI_BYTE, parent, MPI_ANY_TAG, comm, &go);
    PMPI_Send(head, HEAD_BYTES, MPI_BYTE, parent, TAG_HEAD, comm);
    for (size_t off = 0; off < len;) {
        size_t n = len - off < BYTES_CHUNK ? len - off : BYTES_CHUNK;
        PMPI_Wait(&go, &st);
        if (st.MPI_TAG == TAG_SKIP) break; /* the parent has no room for them */
        if (off + n < len) PMPI_Irecv(NULL, 0, MPI_BYTE, parent, MPI_ANY_TAG, comm, &go);
        PMPI_Send(s + off, (int)n, MPI_BYTE, parent, TAG_DATA, comm);
        off += n;
    }
}

static unsigned long long recv_subtree_bytes(int child, records_buf_t *buf, int first_go)
{
    unsigned char head[HEAD_BYTES];
    MPI_Request r;
    PMPI_Irecv(head, HEAD_BYTES, MPI_BYTE, child, TAG_HEAD, comm, &r);
    PMPI_Send(NULL, 0, MPI_BYTE, child, first_go, comm);
    PMPI_Wait(&r, MPI_STATUS_IGNORE);
    size_t len = (size_t)get_u64(head);
    char *s = sized(buf, len);
    if (!s) { /* no room: the child sends nothing more */
        if (len) PMPI_Send(NULL, 0, MPI_BYTE, child, TAG_SKIP, comm);
        return 0;
    }
    for (size_t off = 0; off < len;) {
        size_t n = len - off < BYTES_CHUNK ? len - off : BYTES_CHUNK;
        PMPI_Irecv(s + off, (int)n, MPI_BYTE, child, TAG_DATA, comm, &r);
        PMPI_Send(NULL, 0, MPI_BYTE, child, TAG_GO, comm);
        PMPI_Wait(&r, MPI_STATUS_IGNORE);
        off += n;
    }
    s[len] = '\0';
    return get_u64(head + 8);
}

/* 1 when the running MPI publishes a variable of this name (MPI_T, through
 * the PMPI_T_ names: quiet, unlike a PAPI lookup, whose misses the
 * component explains) */
static int has_counter(const char *name)
{
    /* of any class: Open MPI 4.1 publishes its SPCs as class 2 (LEVEL) */
    static const int classes[] = {MPI_T_PVAR_CLASS_STATE,         MPI_T_PVAR_CLASS_LEVEL,
                                  MPI_T_PVAR_CLASS_SIZE,          MPI_T_PVAR_CLASS_PERCENTAGE,
                                  MPI_T_PVAR_CLASS_HIGHWATERMARK, MPI_T_PVAR_CLASS_LOWWATERMARK,
                                  MPI_T_PVAR_CLASS_COUNTER,       MPI_T_PVAR_CLASS_AGGREGATE,
                                  MPI_T_PVAR_CLASS_TIMER,         MPI_T_PVAR_CLASS_GENERIC};
    int idx;
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
        if (PMPI_T_pvar_get_index(name, classes[i], &idx) == MPI_SUCCESS) return 1;
    return 0;
}

/* the value of an integer control variable, 0 where there is none */
static int cvar_int(const char *name)
{
    int idx, n = 0, v = 0;
    MPI_T_cvar_handle h;
    if (PMPI_T_cvar_get_index(name, &idx) != MPI_SUCCESS) return 0;
    if (PMPI_T_cvar_handle_alloc(idx, NULL, &h, &n) != MPI_SUCCESS) return 0;
    if (n != 1 || PMPI_T_cvar_read(h, &v) != MPI_SUCCESS) v = 0;
    PMPI_T_cvar_handle_free(&h);
    return v;
}

/* Whether real bytes stay out of every counter read after the gather (the
 * file's header says which those are): no, where this MPI counts bytes at
 * all (an Open MPI SPC build, or its monitoring on: MPICH counts no
 * bytes), since Open MPI reads them again in MPI_Finalize (the SPC
 * dump, the monitoring's output, the component's last values of the
 * program's own event sets).  PAPI_MPIT_REPORT_COLLECT=tags|bytes decides
 * instead (for bench/report_collection.sh). */
static int bytes_unseen(void)
{
    const char *how = getenv("PAPI_MPIT_REPORT_COLLECT");
    if (how && strcmp(how, "tags") == 0) return 0;
    if (how && strcmp(how, "bytes") == 0) return 1;
    const char *mon = getenv("OMPI_MCA_pml_monitoring_enable");
    if (mon && atoi(mon)) return 0;
    int provided, unseen = 0;
    if (PMPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) return 0; /* cannot tell */
    /* an SPC build counts bytes (its dump and the program's sets read them
     * again in MPI_Finalize); so does the monitoring, when it is on */
    unseen = !has_counter("runtime_spc_OMPI_SPC_BYTES_SENT_USER") &&
             !has_counter("runtime_spc_OMPI_SPC_BYTES_SENT_MPI") && cvar_int("pml_monitoring_enable") == 0;
    PMPI_T_finalize();
    return unseen;
}

char *collect_gather(const char *mine, int len, size_t *total)
{
    *total = 0;
    if (!have_comm) {
        if (rank == 0) fprintf(stderr, PFX "MPI_Comm_dup failed at start-up: no report\n");
        return NULL;
    }
    MPI_Request go = MPI_REQUEST_NULL, done = MPI_REQUEST_NULL;
    /* posted before "stopped" leaves: the parent answers only after it.  The
     * first go takes any tag: it says the parent's template (below). */
    if (parent >= 0) {
        PMPI_Irecv(NULL, 0, MPI_BYTE, parent, MPI_ANY_TAG, comm, &go);
        PMPI_Irecv(NULL, 0, MPI_BYTE, parent, TAG_DONE, comm, &done);
    }
    PMPI_Waitall(nchildren, stopped_req, statuses);
    double t0 = PMPI_Wtime(); /* on rank 0: every rank has stopped counting */
    if (parent >= 0) PMPI_Send(NULL, 0, MPI_BYTE, parent, TAG_STOPPED, comm);

    /* Our record, then our children's subtrees.  A record is written
     * against its template when the receiver has the same (its first go's
     * tag is the template's hash, where tags have 24 bits, and the hash
     * travels whole with the size): values only, instead of every name and
     * reason again on every edge of the tree. */
    records_buf_t out = {0}, last = {0}, child = {0}, templ = {0};
    size_t pos = 0;
    records_buf_t compact = {0}; /* the matrix row in runs */
    /* a whole decimal number, or no limit (a mistyped "abc" or "-5" would
     * otherwise be 0 or all) */
    const char *limit = getenv("PAPI_MPIT_REPORT_COLLECT_LIMIT");
    char *end = NULL;
    if (limit && limit[0] >= '0' && limit[0] <= '9') {
        unsigned long long v = strtoull(limit, &end, 10);
        if (!*end) subtree_limit = (size_t)v;
    }
    records_compact_rows(mine, (size_t)(len > 0 ? len : 0), &compact);
    records_put(&out, NULL, compact.s, compact.len);
    if (compact.oom || out.oom) { /* an empty record keeps our place */
        fprintf(stderr, PFX "rank %d: out of memory writing its record: left out\n", rank);
        records_free(&out);
        records_put(&out, NULL, "", 0);
    }
    records_free(&compact);
    records_get(out.s, out.len, &pos, NULL, &last);
    records_template(last.s, last.len, &templ);
    unsigned long long hash = records_hash(&templ);
    int go_tag = word_bytes == 3 ? (int)(hash & GO_HASH) : TAG_GO;
    /* how our children send: decided here, told in the first go */
    int bytes = nchildren && bytes_unseen();
    int first_go = !bytes ? go_tag : word_bytes == 3 ? go_tag | GO_BYTES : TAG_GO_BYTES;
    for (int c = 0; c < nchildren; c++) {
        unsigned long long ref = bytes ? recv_subtree_bytes(children[c], &child, first_go)
                                       : recv_subtree(children[c], &child, first_go);
        if (!child.oom && (!ref || ref == hash) &&
            records_join(&out, &last, child.s, child.len, ref ? &templ : NULL) >= 0)
            continue;
        /* malformed, or no room: its ranks get empty records, so the others
         * keep their place */
        int low = children[c] & -children[c], n = size - children[c] < low ? size - children[c] : low;
        fprintf(stderr, PFX "rank %d: the records of ranks %d to %d %s: left out\n", rank, children[c],
                children[c] + n - 1, child.oom ? "do not fit in memory" : "are malformed");
        for (int k = 0; k < n; k++) records_put(&out, NULL, "", 0);
        records_free(&last);
    }
    records_free(&last);
    records_free(&child);
    if (out.oom) { /* what we joined is incomplete: our parent leaves our subtree out */
        int low = rank & -rank, n = !rank ? size : size - rank < low ? size - rank : low;
        fprintf(stderr, PFX "rank %d: out of memory joining the records of ranks %d to %d: %s\n", rank, rank,
                rank + n - 1, rank ? "left out" : "no report");
        records_free(&out);
    }
    if (parent >= 0) {
        MPI_Status st;
        PMPI_Wait(&go, &st);
        unsigned long long ref = 0;
        int parent_bytes = word_bytes == 3 ? (st.MPI_TAG & GO_BYTES) != 0 : st.MPI_TAG == TAG_GO_BYTES;
        if (word_bytes == 3 && (st.MPI_TAG & GO_HASH) == go_tag) { /* our first record against our template */
            records_buf_t rebased = {0};
            last = templ; /* records_join's "record before" */
            templ = (records_buf_t){0};
            if (records_join(&rebased, &last, out.s, out.len, NULL) >= 0 && !rebased.oom) {
                records_free(&out);
                out = rebased;
                ref = hash;
            } else {
                records_free(&rebased);
            }
            records_free(&last);
        }
        records_free(&templ);
        if (parent_bytes)
            send_subtree_bytes(out.s, out.len, ref);
        else
            send_subtree(out.s, out.len, ref);
        done_req = done;
        records_free(&out);
        return NULL;
    }
    records_free(&templ);
    gather_s = PMPI_Wtime() - t0;
    *total = out.len;
    return out.s; /* NULL out of memory */
}
