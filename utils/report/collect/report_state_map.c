/*
 * papi-mpit-report: the rank's mapped state file (report_state_map.h).
 *
 * One file a rank, created, sized and mapped once: a whole run costs one
 * create and one unlink (at MPI_Finalize), whatever its length; no rename,
 * no write(2).  The kernel writes the dirty pages back on its own schedule
 * (and keeps them in the page cache for a reader on the node at once).
 * Nothing here runs in the wrappers' path: they store into the tables the
 * file holds (site_begin.c), exactly as they did into the heap.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "report_state_map.h"

#define HEAD_BYTES (((sizeof(state_map_head_t) + 4095) / 4096) * 4096) /* the tables start on a page */

static state_map_head_t *head;
static char path[4200];

static long long clock_ns(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int state_map_open(const char *dir, int rank, int nprocs, size_t area, char *why, size_t len)
{
    snprintf(path, sizeof path, "%s/state.%d.map", dir, rank);
    unlink(path); /* an earlier run's: a new inode, never a mapping another process still writes */
    size_t size = HEAD_BYTES + area;
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(why, len, "%s: %s", path, strerror(errno));
        return -1;
    }
    /* the blocks are reserved now where the file system can (no SIGBUS on a
     * full disk in a wrapper's store); ftruncate where it cannot */
    int err = posix_fallocate(fd, 0, (off_t)size);
    if (err == EOPNOTSUPP || err == EINVAL) err = ftruncate(fd, (off_t)size) ? errno : 0;
    void *p = err ? MAP_FAILED : mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED && !err) err = errno;
    close(fd);
    if (err) {
        snprintf(why, len, "%s: %s", path, strerror(err));
        unlink(path);
        path[0] = '\0';
        return -1;
    }
    head = p;
    head->version = STATE_MAP_VERSION;
    head->head_size = (uint32_t)HEAD_BYTES;
    head->rank = rank, head->nprocs = nprocs, head->pid = getpid();
    head->mono_ns = clock_ns(CLOCK_MONOTONIC), head->real_ns = clock_ns(CLOCK_REALTIME);
    gethostname(head->host, sizeof head->host - 1);
    /* the magic last: a reader takes the file as a state from then on */
    __atomic_store_n(&head->magic, STATE_MAP_MAGIC, __ATOMIC_RELEASE);
    return 0;
}

void *state_map_area(void) { return head ? (char *)head + HEAD_BYTES : NULL; }

void state_map_describe(const char *started, const char *library, const char *command, uint64_t world,
                        uint64_t self)
{
    if (!head) return;
    snprintf(head->started, sizeof head->started, "%s", started);
    snprintf(head->library, sizeof head->library, "%s", library);
    snprintf(head->command, sizeof head->command, "%s", command);
    head->world = world, head->self = self;
}

void state_map_layout(uint64_t slots, uint64_t sites, uint64_t colls, uint64_t p2p_msgs, uint64_t p2p_bytes,
                      int nslots, int nsites, int ncolls)
{
    if (!head) return;
    head->off_slots = HEAD_BYTES + slots, head->off_sites = HEAD_BYTES + sites;
    head->off_colls = HEAD_BYTES + colls, head->off_p2p_msgs = HEAD_BYTES + p2p_msgs;
    head->off_p2p_bytes = HEAD_BYTES + p2p_bytes;
    head->nsites = nsites, head->ncolls = ncolls;
    __atomic_store_n(&head->nslots, nslots, __ATOMIC_RELEASE);
}

void state_map_rings(uint64_t rings, int calls, int size)
{
    if (!head) return;
    head->ring_calls = calls, head->ring_size = size;
    __atomic_store_n(&head->off_rings, HEAD_BYTES + rings, __ATOMIC_RELEASE);
}

void state_map_comms(uint64_t at, int n)
{
    if (!head) return;
    head->off_comms = HEAD_BYTES + at;
    __atomic_store_n(&head->ncomms, n, __ATOMIC_RELEASE);
}

void state_map_overflows(uint64_t at)
{
    if (!head) return;
    __atomic_store_n(&head->off_overflows, HEAD_BYTES + at, __ATOMIC_RELEASE);
}

void state_map_py_lines(uint64_t at, int n, int size)
{
    if (!head) return;
    head->npy_lines = n, head->py_line_size = size;
    __atomic_store_n(&head->off_py_lines, HEAD_BYTES + at, __ATOMIC_RELEASE);
}

static unsigned long long mod_adds = ~0ULL; /* the loader's count of loads at the last scan */

static int add_module(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    int *n = arg;
    if (*n == 0 && info->dlpi_adds == mod_adds) return 1; /* nothing came since */
    if (*n == 0) mod_adds = info->dlpi_adds;
    if (*n >= STATE_MAP_MODULES) return 0;
    uint64_t lo = ~0ULL, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD) continue;
        uint64_t a = info->dlpi_addr + ph->p_vaddr;
        if (a < lo) lo = a;
        if (a + ph->p_memsz > hi) hi = a + ph->p_memsz;
    }
    if (hi <= lo) return 0;
    state_map_module_t *m = &head->mods[*n];
    m->start = lo, m->end = hi, m->base = info->dlpi_addr;
    if (info->dlpi_name && info->dlpi_name[0]) {
        snprintf(m->path, sizeof m->path, "%s", info->dlpi_name);
    } else if (*n == 0) { /* the program itself */
        ssize_t k = readlink("/proc/self/exe", m->path, sizeof m->path - 1);
        m->path[k > 0 ? k : 0] = '\0';
    } else {
        m->path[0] = '\0'; /* the vDSO: no file */
    }
    (*n)++;
    return 0;
}

void state_map_modules(void)
{
    if (!head) return;
    int n = 0;
    unsigned q = head->mod_seq;
    __atomic_store_n(&head->mod_seq, q + 1, __ATOMIC_RELAXED); /* odd: a reader retries */
    __atomic_thread_fence(__ATOMIC_RELEASE);
    dl_iterate_phdr(add_module, &n);
    if (n) head->nmods = (uint32_t)n; /* 0: nothing came, the table stands */
    __atomic_store_n(&head->mod_seq, q + 2, __ATOMIC_RELEASE);
}

void state_map_beat(long long anchor_ticks, long long anchor_ns, double ns_per_tick)
{
    if (!head) return;
    head->anchor_ticks = anchor_ticks, head->anchor_ns = anchor_ns;
    __atomic_store_n(&head->fs_per_tick, (int64_t)(ns_per_tick * 1e6), __ATOMIC_RELAXED);
    __atomic_store_n(&head->alive_ns, clock_ns(CLOCK_MONOTONIC), __ATOMIC_RELEASE);
    __atomic_add_fetch(&head->beats, 1, __ATOMIC_RELAXED);
}

void state_map_remove(void)
{
    if (path[0]) unlink(path); /* the mapping stays valid until the process ends */
    path[0] = '\0';
}
