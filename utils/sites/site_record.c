/*
 * papi-mpit-report: a rank's call sites as lines of its record, collected
 * with the rest of it (report_collect.c) and read on rank 0 by site_job.c:
 *   C <module> <offset> <fn> <hist> <peers> <calls:ns:msgs_out:bytes_out:msgs_in:bytes_in>
 *       hist: bin:count,... (nonzero); peers: peer:msgs:bytes,... with peer
 *       -1 for other
 *   T <receiver:msgs:bytes,...> <other>   point-to-point sends by receiver
 *   K <fn> <root> <calls:bytes>           collectives by call and root
 *   G <sites:colls:untracked> <watching:found_outside>
 *       what did not fit (overflow); whether receives that found their
 *       message waiting were counted (MPI_T events), and how many outside
 *       the program's calls
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
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "site_table.h"

#define LINE_MAX_BYTES (PATH_MAX + 64 + SITES_HIST * 24 + (SITES_PEERS + 1) * 48 + 6 * 24)

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
    return (size_t)nsites * LINE_MAX_BYTES + (size_t)ncolls * 80 + (size_t)nprocs * 48 + 256;
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

#define PUT(...)                                                                                             \
    do {                                                                                                     \
        int w_ = snprintf(buf + n, n < cap ? cap - n : 0, __VA_ARGS__);                                      \
        if (w_ > 0) n += (size_t)w_;                                                                         \
    } while (0)

size_t sites_record(char *buf, size_t cap)
{
    size_t n = 0;
    int tcap, nprocs;
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
        PUT("%s\t%lld:%lld:%lld:%lld:%lld:%lld:%lld\n", *sep ? "" : "-", e->calls, sites_ticks_ns(e->ns),
            e->msgs_out, e->bytes_out, e->msgs_in, e->bytes_in, e->found);
    }
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
    PUT("G\t%lld:%lld:%lld\t%d:%lld\n", so, co, un, sites_watching(), sites_found_outside());
    return n < cap ? n : cap;
}
