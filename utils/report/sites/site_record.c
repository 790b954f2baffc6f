/*
 * papi-mpit-report: a rank's call sites as lines of its record, collected
 * with the rest of it (report_collect.c) and read on rank 0 by site_job.c:
 *   C <module> <offset> <fn> <hist> <peers> <calls:ns:msgs_out:bytes_out:msgs_in:bytes_in:found:max:min>
 *     <how> <where> <at> <func>
 *       max, min: the longest and shortest single call (ns);
 *       hist: bin:count,... (nonzero); peers: peer:msgs:bytes,... with peer
 *       -1 for other; module and offset: the caller (the site's detail when
 *       it is a library); how: the program line behind it: "-" the caller
 *       is the program's own code, "c" a frame of the program (where: its
 *       module, at: its offset), "py" a Python line (where: the file, at:
 *       the line, func: the function), "x" none within the depth, "xpy"
 *       mpi4py's caller unreadable
 *   T <receiver:msgs:bytes,...> <other>   point-to-point sends by receiver
 *   K <fn> <root> <calls:bytes>           collectives by call and root
 *   G <sites:colls:untracked> <watching:found_outside> <depth> <why>
 *       what did not fit (overflow); whether receives that found their
 *       message waiting were counted (MPI_T events), and how many outside
 *       the program's calls; the site depth, and what of the program lines
 *       is off ("-" nothing)
 * A site's address is written relative to its module's load address, so
 * that rank 0 can merge the ranks' sites and read the module's line table.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>

#include <dlfcn.h>
#include <link.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "site_table.h"

#define LINE_MAX_BYTES (2 * PATH_MAX + 160 + SITES_HIST * 24 + (SITES_PEERS + 1) * 48 + 9 * 24)

size_t sites_record_cap(void)
{
    int cap, nsites = 0, ncolls = 0, nprocs = 0;
    const sites_site_t *s = sites_table(&cap);
    for (int i = 0; s && i < cap; i++) nsites += s[i].pc != 0;
    const sites_coll_cell_t *k = sites_colls(&cap);
    for (int i = 0; k && i < cap; i++) ncolls += k[i].fn1 > 0;
    const long long *m, *b;
    long long other;
    sites_p2p(&m, &b, &nprocs, &other);
    return (size_t)nsites * LINE_MAX_BYTES + (size_t)ncolls * 80 + (size_t)nprocs * 48 + 512;
}

void sites_module_of(uintptr_t pc, char *path, size_t len, unsigned long *off)
{
    Dl_info info;
    struct link_map *lm = NULL;
    path[0] = '\0';
    *off = pc;
    if (!dladdr1((void *)pc, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm) return;
    *off = pc - lm->l_addr;
    if (lm->l_name && lm->l_name[0]) {
        snprintf(path, len, "%s", lm->l_name);
    } else { /* the program itself */
        ssize_t n = readlink("/proc/self/exe", path, len - 1);
        path[n > 0 ? n : 0] = '\0';
    }
    for (char *p = path; *p; p++)
        if (*p == '\t' || *p == '\n') *p = ' ';
}

#define PUT_AT(buf, cap, n, ...)                                                                             \
    do {                                                                                                     \
        int w_ = snprintf(buf + *(n), *(n) < cap ? cap - *(n) : 0, __VA_ARGS__);                             \
        if (w_ > 0) *(n) += (size_t)w_;                                                                      \
    } while (0)

/* the site's program line: how where at func (the C line's last fields) */
static void program_line(char *buf, size_t cap, size_t *n, const sites_site_t *e)
{
    char path[PATH_MAX];
    unsigned long off;
    const sites_py_line_t *py;
    switch (e->how) {
    case SITES_PROG_NATIVE:
        sites_module_of(e->prog, path, sizeof path, &off);
        PUT_AT(buf, cap, n, "c\t%s\t%lx\t-\n", path[0] ? path : "?", off);
        break;
    case SITES_PROG_PYTHON:
        py = sites_py_line((int)e->prog);
        if (py && py->file[0] && py->line > 0)
            PUT_AT(buf, cap, n, "py\t%s\t%d\t%s\n", py->file, py->line, py->func[0] ? py->func : "-");
        else
            PUT_AT(buf, cap, n, "xpy\t-\t-\t-\n");
        break;
    case SITES_PROG_NONE: PUT_AT(buf, cap, n, "x\t-\t-\t-\n"); break;
    case SITES_PROG_NOPY: PUT_AT(buf, cap, n, "xpy\t-\t-\t-\n"); break;
    default: PUT_AT(buf, cap, n, "-\t-\t-\t-\n"); break;
    }
}

#define PUT(...)                                                                                             \
    do {                                                                                                     \
        int w_ = snprintf(buf + n, n < cap ? cap - n : 0, __VA_ARGS__);                                      \
        if (w_ > 0) n += (size_t)w_;                                                                         \
    } while (0)

/* The site's time, longest and shortest call in ns, at one rate, rounded
 * so that min <= time / calls <= max holds as it does in ticks: the time
 * and the minimum down, the maximum up (but never above the time); a
 * single call's three are one. */
static void call_times(const sites_site_t *e, double rate, long long *ns, long long *max, long long *min)
{
    double t = (double)e->ns * rate, hi = (double)e->ns_max * rate;
    *ns = (long long)t;
    *max = e->ns_max >= e->ns ? *ns : (long long)ceil(hi);
    if (*max > *ns) *max = *ns;
    *min = e->ns_min1 ? (long long)((double)(e->ns_min1 - 1) * rate) : 0;
    if (e->calls == 1) *max = *min = *ns;
}

/* A site line's key: its fields before the values (kind, module, offset,
 * call) and after them (the program line). */
typedef struct keyed_line {
    const char *s;
    size_t len, head, tail; /* the key: s[0 .. head-1] and s[tail .. len-1] */
} keyed_line_t;

static int by_key(const void *a, const void *b)
{
    const keyed_line_t *x = a, *y = b;
    int c = memcmp(x->s, y->s, x->head < y->head ? x->head : y->head);
    if (c || x->head != y->head) return c ? c : x->head < y->head ? -1 : 1;
    size_t xl = x->len - x->tail, yl = y->len - y->tail;
    c = memcmp(x->s + x->tail, y->s + y->tail, xl < yl ? xl : yl);
    return c ? c : xl < yl ? -1 : xl > yl;
}

/* The site lines (buf[0 .. len-1]) in the order of their keys: the same
 * order on every rank of a program, whatever the table's (it hashes the
 * addresses, which differ between processes), so that a record written
 * against the rank before it (report_records.c) says only what differs. */
static void sort_sites(char *buf, size_t len, int nlines)
{
    keyed_line_t *l = malloc(sizeof *l * (size_t)(nlines ? nlines : 1));
    char *copy = malloc(len ? len : 1);
    if (!l || !copy) {
        free(l), free(copy);
        return; /* unsorted: the records are larger, not wrong */
    }
    int n = 0;
    for (size_t i = 0; i < len && n < nlines;) {
        char *nl = memchr(buf + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - buf) + 1 : len, tabs = 0;
        keyed_line_t k = {buf + i, end - i, end - i, end - i};
        for (size_t j = i; j < end; j++) {
            if (buf[j] != '\t') continue;
            if (++tabs == 4) k.head = j - i + 1; /* after the call */
            if (tabs == 7) k.tail = j - i + 1;   /* the program line */
        }
        l[n++] = k;
        i = end;
    }
    qsort(l, (size_t)n, sizeof *l, by_key);
    size_t at = 0;
    for (int i = 0; i < n; i++) memcpy(copy + at, l[i].s, l[i].len), at += l[i].len;
    memcpy(buf, copy, at);
    free(l), free(copy);
}

size_t sites_record(char *buf, size_t cap)
{
    size_t n = 0;
    double rate = sites_ns_per_tick();
    int tcap, nprocs, nlines = 0;
    const sites_site_t *s = sites_table(&tcap);
    if (!s || cap == 0) return 0;
    for (int i = 0; i < tcap; i++) {
        const sites_site_t *e = &s[i];
        if (!e->pc || !e->calls) continue;
        char path[PATH_MAX];
        unsigned long off;
        sites_module_of(e->pc, path, sizeof path, &off);
        PUT("C\t%s\t%lx\t%d\t", path[0] ? path : "?", off, e->fn1 - 1);
        const char *sep = "";
        for (int b = 0; b < SITES_HIST; b++)
            if (e->hist[b]) {
                PUT("%s%d:%lld", sep, b, e->hist[b]);
                sep = ",";
            }
        PUT("%s\t", *sep ? "" : "-");
        sep = "";
        for (int p = 0; p < SITES_PEERS; p++)
            if (e->peers[p].peer1) {
                PUT("%s%d:%lld:%lld", sep, e->peers[p].peer1 - 1, e->peers[p].msgs, e->peers[p].bytes);
                sep = ",";
            }
        if (e->other_msgs) {
            PUT("%s-1:%lld:%lld", sep, e->other_msgs, e->other_bytes);
            sep = ",";
        }
        long long ns, max, min;
        call_times(e, rate, &ns, &max, &min);
        PUT("%s\t%lld:%lld:%lld:%lld:%lld:%lld:%lld:%lld:%lld\t", *sep ? "" : "-", e->calls, ns, e->msgs_out,
            e->bytes_out, e->msgs_in, e->bytes_in, e->found, max, min);
        program_line(buf, cap, &n, e);
        nlines++;
    }
    if (n < cap) sort_sites(buf, n, nlines);
    const long long *m, *b;
    long long other;
    sites_p2p(&m, &b, &nprocs, &other);
    PUT("T\t");
    const char *sep = "";
    for (int r = 0; r < nprocs; r++)
        if (m[r]) {
            PUT("%s%d:%lld:%lld", sep, r, m[r], b[r]);
            sep = ",";
        }
    PUT("%s\t%lld\n", *sep ? "" : "-", other);
    const sites_coll_cell_t *k = sites_colls(&tcap);
    for (int i = 0; k && i < tcap; i++)
        if (k[i].fn1 > 0) PUT("K\t%d\t%d\t%lld:%lld\n", k[i].fn1 - 1, k[i].root, k[i].calls, k[i].bytes);
    long long so, co, un;
    sites_overflows(&so, &co, &un);
    const char *why = sites_frames_why();
    PUT("G\t%lld:%lld:%lld\t%d:%lld\t%d\t%s\n", so, co, un, sites_watching(), sites_found_outside(),
        sites_frames_depth(), why[0] ? why : "-");
    return n < cap ? n : cap;
}
