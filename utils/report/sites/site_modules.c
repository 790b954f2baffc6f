/*
 * papi-mpit-report: the loaded modules' address ranges, for glibc without
 * _dl_find_object (site_modules.h).  A scan (dl_iterate_phdr, at a safe
 * point) builds a sorted table and publishes it with one atomic store; a
 * table once published is never changed nor freed, since a reader (a
 * wrapper, a signal handler) may still be in it, so readers need no lock.
 * Tables are kept for the run, each linked to the one before: a new one is
 * made only when a module came or went, a few times a run.
 */
#include "site_modules.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct table {
    const struct table *older; /* kept reachable: never freed */
    unsigned long long adds, subs;
    size_t n;
    sites_module_t mod[]; /* by start */
} table_t;
static const table_t *current;
static pthread_mutex_t scan_mu = PTHREAD_MUTEX_INITIALIZER;

/* ---- modules loaded since the last scan, found in /proc/self/maps: kept
 * here, one slot each, written once (ready set last) */
#define LATE      64
#define LATE_PATH 256
static struct {
    uintptr_t start, end;
    char path[LATE_PATH];
    int ready;
} late[LATE];
static unsigned nlate;
/* the answer when those slots are full, good until the thread's next lookup */
static __thread char spare_path[LATE_PATH] __attribute__((tls_model("initial-exec")));

/* ---- the scan */
typedef struct gather {
    sites_module_t *mod;
    size_t n, cap;
    unsigned long long adds, subs;
    uintptr_t page;
    int failed;
} gather_t;

/* one entry per loaded segment: the gaps between a module's segments are
 * not its (the kernel may map other memory there, such as generated code) */
static int gather_one(struct dl_phdr_info *info, size_t size, void *arg)
{
    gather_t *g = arg;
    (void)size;
    g->adds = info->dlpi_adds, g->subs = info->dlpi_subs;
    const char *path = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || ph->p_memsz == 0) continue;
        if (g->n == g->cap) {
            size_t cap = g->cap ? 2 * g->cap : 64;
            sites_module_t *m = realloc(g->mod, cap * sizeof *m);
            if (!m) return g->failed = 1;
            g->mod = m, g->cap = cap;
        }
        if (!path && !(path = strdup(info->dlpi_name ? info->dlpi_name : ""))) return g->failed = 1;
        /* from the segment's first page to its end, as the loader maps it */
        uintptr_t a = info->dlpi_addr + ph->p_vaddr;
        sites_module_t *m = &g->mod[g->n++];
        m->start = a & ~(g->page - 1);
        m->end = a + ph->p_memsz;
        m->path = path;
    }
    return 0;
}

/* the counts of loads and unloads so far, to see whether a scan is due */
static int counts(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    ((unsigned long long *)arg)[0] = info->dlpi_adds;
    ((unsigned long long *)arg)[1] = info->dlpi_subs;
    return 1;
}

static int by_start(const void *a, const void *b)
{
    uintptr_t x = ((const sites_module_t *)a)->start, y = ((const sites_module_t *)b)->start;
    return x < y ? -1 : x > y;
}

int sites_modules_scan(void)
{
    int rc = 0;
    pthread_mutex_lock(&scan_mu);
    const table_t *old = current;
    unsigned long long now[2] = {0, 0};
    dl_iterate_phdr(counts, now);
    if (old && old->adds == now[0] && old->subs == now[1]) goto done;
    gather_t g = {.page = (uintptr_t)sysconf(_SC_PAGESIZE)};
    dl_iterate_phdr(gather_one, &g);
    table_t *t = g.failed ? NULL : malloc(sizeof *t + g.n * sizeof t->mod[0]);
    if (!t) {
        for (size_t i = 0; i < g.n; i++)
            if (i == 0 || g.mod[i].path != g.mod[i - 1].path) free((void *)g.mod[i].path);
        rc = -1;
    } else {
        qsort(g.mod, g.n, sizeof g.mod[0], by_start);
        memcpy(t->mod, g.mod, g.n * sizeof g.mod[0]);
        t->n = g.n, t->adds = g.adds, t->subs = g.subs, t->older = old;
        __atomic_store_n(&current, t, __ATOMIC_RELEASE);
    }
    free(g.mod);
done:
    pthread_mutex_unlock(&scan_mu);
    return rc;
}

/* ---- /proc/self/maps, read with open and read only (async-signal-safe) */
static const char *hex(const char *s, uintptr_t *v)
{
    *v = 0;
    for (;; s++) {
        int d = *s >= '0' && *s <= '9' ? *s - '0' : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10 : -1;
        if (d < 0) return s;
        *v = *v * 16 + (uintptr_t)d;
    }
}

/* one line "start-end perms offset dev inode path": 1 when it holds pc and
 * names a file, -1 when it holds pc and names none, 0 when not pc's */
static int maps_line(const char *s, uintptr_t pc, uintptr_t *lo, uintptr_t *hi, char *path)
{
    uintptr_t a, b;
    s = hex(s, &a);
    if (*s++ != '-') return 0;
    s = hex(s, &b);
    if (pc < a || pc >= b) return 0;
    *lo = a, *hi = b;
    for (int field = 0; field < 4; field++) {
        while (*s == ' ') s++;
        while (*s && *s != ' ') s++;
    }
    while (*s == ' ') s++;
    if (*s != '/') return -1; /* anonymous memory (generated code), [vdso], [stack]: no module file */
    size_t n = strlen(s);
    if (n >= LATE_PATH) n = LATE_PATH - 1;
    memcpy(path, s, n);
    path[n] = '\0';
    return 1;
}

/* pc's mapping, as maps_line says (0: none) */
static int maps_find(uintptr_t pc, uintptr_t *lo, uintptr_t *hi, char *path)
{
    int saved = errno, found = 0;
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        errno = saved;
        return 0;
    }
    char buf[1024], line[LATE_PATH + 128];
    size_t n = 0;
    ssize_t got;
    while (!found && (got = read(fd, buf, sizeof buf)) > 0) {
        for (ssize_t i = 0; i < got && !found; i++) {
            if (buf[i] != '\n') {
                if (n < sizeof line - 1) line[n++] = buf[i];
                continue;
            }
            line[n] = '\0', n = 0;
            found = maps_line(line, pc, lo, hi, path);
        }
    }
    close(fd);
    errno = saved;
    return found;
}

/* 1: found (m filled), -1: known to hold no module, 0: not known */
static int find_late(uintptr_t pc, sites_module_t *m)
{
    unsigned n = __atomic_load_n(&nlate, __ATOMIC_ACQUIRE);
    for (unsigned i = 0; i < n && i < LATE; i++)
        if (__atomic_load_n(&late[i].ready, __ATOMIC_ACQUIRE) &&
            pc - late[i].start < late[i].end - late[i].start) {
            if (!late[i].path[0]) return -1;
            m->start = late[i].start, m->end = late[i].end, m->path = late[i].path;
            return 1;
        }
    return 0;
}

int sites_modules_find(uintptr_t pc, sites_module_t *m)
{
    const table_t *t = __atomic_load_n(&current, __ATOMIC_ACQUIRE);
    size_t lo = 0, hi = t ? t->n : 0;
    while (lo < hi) { /* the last module starting at or below pc */
        size_t mid = lo + (hi - lo) / 2;
        if (t->mod[mid].start <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo > 0 && pc < t->mod[lo - 1].end) {
        *m = t->mod[lo - 1];
        return 0;
    }
    int known = find_late(pc, m);
    if (known) return known > 0 ? 0 : -1;
    /* loaded since the last scan, or generated code: asked once, then kept
     * (an empty path: no module there) */
    uintptr_t a, b;
    char path[LATE_PATH] = "";
    int found = maps_find(pc, &a, &b, path);
    if (!found) return -1;
    unsigned i = __atomic_load_n(&nlate, __ATOMIC_RELAXED) < LATE
                     ? __atomic_fetch_add(&nlate, 1, __ATOMIC_ACQ_REL)
                     : LATE;
    char *keep = i < LATE ? late[i].path : spare_path;
    memcpy(keep, path, sizeof path);
    if (i < LATE) {
        late[i].start = a, late[i].end = b;
        __atomic_store_n(&late[i].ready, 1, __ATOMIC_RELEASE);
    }
    if (found < 0) return -1;
    m->start = a, m->end = b, m->path = keep;
    return 0;
}
