/*
 * papi-mpit-merge: a rank's call-site tables from its mapped state file
 * (merge_map_sites.h).  Each cell is read as the killed process left it:
 * every counter is stored whole (the wrappers add with atomics), so a
 * site's calls are those that ended before the rank did.
 */
#include <math.h>
#include <string.h>

#include "merge_map_sites.h"
#include "site_cells.h"
#include "site_frames.h"

const char *map_module_of(const state_map_module_t *mods, int nmods, uint64_t pc, unsigned long *off)
{
    *off = (unsigned long)pc;
    for (int m = 0; m < nmods; m++)
        if (pc >= mods[m].start && pc < mods[m].end) {
            *off = (unsigned long)(pc - mods[m].base);
            return mods[m].path[0] ? mods[m].path : "?";
        }
    return "?";
}

#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)

/* the site's time, longest and shortest call in ns, rounded as site_record.c does */
static void call_times(const sites_site_t *e, double rate, long long *ns, long long *max, long long *min)
{
    long long t_ticks = LOAD(e->ns), max_ticks = LOAD(e->ns_max), min1 = LOAD(e->ns_min1);
    *ns = (long long)((double)t_ticks * rate);
    *max = max_ticks >= t_ticks ? *ns : (long long)ceil((double)max_ticks * rate);
    if (*max > *ns) *max = *ns;
    *min = min1 ? (long long)((double)(min1 - 1) * rate) : 0;
    if (LOAD(e->calls) == 1) *max = *min = *ns;
}

/* a text of an entry, without tabs or newlines (the lines' separators) */
static void clean(char *dst, const char *src, size_t len)
{
    snprintf(dst, len, "%.*s", (int)strnlen(src, len), src);
    for (char *p = dst; *p; p++)
        if (*p == '\t' || *p == '\n') *p = ' ';
}

/* The Python line a site's prog names (index + 1 in the file's table),
 * when its entry was written whole before the rank ended: "py" and the
 * line as site_record.c writes it; else "xpy" (an older file has no table). */
static void python_line(FILE *f, const sites_site_t *e, const char *base, size_t size,
                        const state_map_head_t *h)
{
    uint64_t at = MAP_HEAD_HAS(h, py_line_size) ? __atomic_load_n(&h->off_py_lines, __ATOMIC_ACQUIRE) : 0;
    int n = at ? h->npy_lines : 0;
    if (n > 0 && h->py_line_size == (int)sizeof(sites_py_line_t) && e->prog >= 1 && e->prog <= (uint64_t)n &&
        at + sizeof(sites_py_line_t) * (uint64_t)n <= size) {
        const sites_py_line_t *py = (const sites_py_line_t *)(base + at) + (e->prog - 1);
        if (__atomic_load_n(&py->ready, __ATOMIC_ACQUIRE) == 1 && py->file[0] && py->line > 0) {
            char file[sizeof py->file + 1], func[sizeof py->func + 1];
            clean(file, py->file, sizeof py->file);
            clean(func, py->func, sizeof py->func);
            fprintf(f, "py\t%s\t%d\t%s\n", file, py->line, func[0] ? func : "-");
            return;
        }
    }
    fputs("xpy\t-\t-\t-\n", f);
}

static void program_line(FILE *f, const sites_site_t *e, const char *base, size_t size,
                         const state_map_head_t *h, const state_map_module_t *mods, int nmods)
{
    unsigned long off;
    const char *mod;
    switch (e->how) {
    case SITES_PROG_SELF: fputs("-\t-\t-\t-\n", f); break;
    case SITES_PROG_NATIVE:
        mod = map_module_of(mods, nmods, e->prog, &off);
        fprintf(f, "c\t%s\t%lx\t-\n", mod, off);
        break;
    case SITES_PROG_NONE: fputs("x\t-\t-\t-\n", f); break;
    case SITES_PROG_PYTHON: python_line(f, e, base, size, h); break;
    default: fputs("xpy\t-\t-\t-\n", f); break; /* mpi4py's caller unreadable */
    }
}

void map_sites_lines(FILE *f, const char *base, size_t size, const state_map_head_t *h,
                     const state_map_module_t *mods, int nmods)
{
    long long fs = __atomic_load_n(&h->fs_per_tick, __ATOMIC_RELAXED);
    double rate = fs ? (double)fs * 1e-6 : 1; /* ns per tick, the last stamp's */
    if (h->nsites > 0 && h->off_sites + sizeof(sites_site_t) * (uint64_t)h->nsites <= size) {
        const sites_site_t *s = (const void *)(base + h->off_sites);
        for (int i = 0; i < h->nsites; i++) {
            const sites_site_t *e = &s[i];
            long long calls = LOAD(e->calls);
            int fn1 = __atomic_load_n(&e->fn1, __ATOMIC_ACQUIRE);
            if (!LOAD(e->pc) || !calls || fn1 <= 0) continue;
            unsigned long off;
            const char *mod = map_module_of(mods, nmods, e->pc, &off);
            fprintf(f, "C\t%s\t%lx\t%d\t", mod, off, fn1 - 1);
            const char *sep = "";
            for (int b = 0; b < SITES_HIST; b++)
                if (LOAD(e->hist[b])) fprintf(f, "%s%d:%lld", sep, b, LOAD(e->hist[b])), sep = ",";
            fprintf(f, "%s\t", *sep ? "" : "-");
            sep = "";
            for (int p = 0; p < SITES_PEERS; p++)
                if (LOAD(e->peers[p].peer1))
                    fprintf(f, "%s%d:%lld:%lld", sep, e->peers[p].peer1 - 1, LOAD(e->peers[p].msgs),
                            LOAD(e->peers[p].bytes)),
                        sep = ",";
            if (LOAD(e->other_msgs))
                fprintf(f, "%s-1:%lld:%lld", sep, LOAD(e->other_msgs), LOAD(e->other_bytes)), sep = ",";
            long long ns, max, min;
            call_times(e, rate, &ns, &max, &min);
            fprintf(f, "%s\t%lld:%lld:%lld:%lld:%lld:%lld:%lld:%lld:%lld\t", *sep ? "" : "-", calls, ns,
                    LOAD(e->msgs_out), LOAD(e->bytes_out), LOAD(e->msgs_in), LOAD(e->bytes_in),
                    LOAD(e->found), max, min);
            program_line(f, e, base, size, h, mods, nmods);
        }
    }
    if (h->ncolls > 0 && h->off_colls + sizeof(sites_coll_cell_t) * (uint64_t)h->ncolls <= size) {
        const sites_coll_cell_t *k = (const void *)(base + h->off_colls);
        for (int i = 0; i < h->ncolls; i++) {
            int fn1 = __atomic_load_n(&k[i].fn1, __ATOMIC_ACQUIRE);
            if (fn1 > 0)
                fprintf(f, "K\t%d\t%d\t%lld:%lld\n", fn1 - 1, k[i].root, LOAD(k[i].calls), LOAD(k[i].bytes));
        }
    }
    /* what did not fit, as site_record.c's G line says it (an older file has no counts) */
    uint64_t at = MAP_HEAD_HAS(h, off_overflows) ? __atomic_load_n(&h->off_overflows, __ATOMIC_ACQUIRE) : 0;
    if (at && at + sizeof(sites_overflow_t) <= size) {
        const sites_overflow_t *o = (const void *)(base + at);
        fprintf(f, "G\t%lld:%lld:%lld\t0:0\t0\t-\n", LOAD(o->sites), LOAD(o->colls), LOAD(o->untracked));
    }
}
