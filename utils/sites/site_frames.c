/*
 * papi-mpit-report: the site capture (sites_capture): whose code called
 * the MPI, and when it is a library's, the program's own frame behind it
 * (site_frames.h has the rule).  Runs inside the program's MPI calls: no
 * lock, no allocation, no I/O.  Modules are found with glibc's
 * _dl_find_object (lock-free, async-signal-safe) and classified once each
 * into a fixed cache; frames are walked with the unwinder of libgcc_s
 * (_Unwind_Backtrace: the modules' unwind tables, so code without frame
 * pointers is walked right; since GCC 12 it finds them through
 * _dl_find_object, without a lock), and the walk stops at the first frame of
 * the program's own code.  A call from the program's own code walks
 * nothing.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unwind.h>

#include "site_frames.h"
#include "site_table.h"

/* ---- the rule, as data: first match wins; none: the program's own code */
enum { BY_NAME, BY_DIR };
static const struct {
    int by;              /* BY_NAME: the file name matches the glob; BY_DIR: the path starts with it */
    const char *pattern; /* a glob of * and ? (BY_NAME), or a directory with its slash (BY_DIR) */
    int cls;             /* SITES_MOD_* */
} module_rules[] = {
    /* mpi4py's extension module: the site is the Python line */
    {BY_NAME, "MPI.*.so", SITES_MOD_PYTHON},
    /* the MPI itself and its language layers (Open MPI: libmpi, libmpi_mpifh,
     * libmpi_usempif08, libmpi_usempi_ignore_tkr, libopen-pal, libopen-rte;
     * MPICH: libmpich, libmpifort, libmpichfort; the standard ABI's
     * libmpi_abi) */
    {BY_NAME, "libmpi.so*", SITES_MOD_MPI},
    {BY_NAME, "libmpi_*", SITES_MOD_MPI},
    {BY_NAME, "libmpich*", SITES_MOD_MPI},
    {BY_NAME, "libmpifort*", SITES_MOD_MPI},
    {BY_NAME, "libopen-pal*", SITES_MOD_MPI},
    {BY_NAME, "libopen-rte*", SITES_MOD_MPI},
    /* libraries that make MPI calls on the program's behalf, wherever they
     * are installed (Spack, modules, /opt) */
    {BY_NAME, "libscalapack*", SITES_MOD_LIBRARY},
    {BY_NAME, "libblacs*", SITES_MOD_LIBRARY},
    {BY_NAME, "libpetsc*", SITES_MOD_LIBRARY},
    {BY_NAME, "libslepc*", SITES_MOD_LIBRARY},
    {BY_NAME, "libhdf5*", SITES_MOD_LIBRARY},
    {BY_NAME, "libnetcdf*", SITES_MOD_LIBRARY},
    {BY_NAME, "libpnetcdf*", SITES_MOD_LIBRARY},
    {BY_NAME, "libfftw3*", SITES_MOD_LIBRARY},
    {BY_NAME, "lib*mumps*", SITES_MOD_LIBRARY},
    {BY_NAME, "libHYPRE*", SITES_MOD_LIBRARY},
    {BY_NAME, "libparmetis*", SITES_MOD_LIBRARY},
    {BY_NAME, "libptscotch*", SITES_MOD_LIBRARY},
    {BY_NAME, "libsuperlu_dist*", SITES_MOD_LIBRARY},
    {BY_NAME, "libelpa*", SITES_MOD_LIBRARY},
    {BY_NAME, "libadios2*", SITES_MOD_LIBRARY},
    {BY_NAME, "libboost_mpi*", SITES_MOD_LIBRARY},
    /* the system's library directories */
    {BY_DIR, "/lib/", SITES_MOD_LIBRARY},
    {BY_DIR, "/lib32/", SITES_MOD_LIBRARY},
    {BY_DIR, "/lib64/", SITES_MOD_LIBRARY},
    {BY_DIR, "/libx32/", SITES_MOD_LIBRARY},
    {BY_DIR, "/usr/lib/", SITES_MOD_LIBRARY},
    {BY_DIR, "/usr/lib32/", SITES_MOD_LIBRARY},
    {BY_DIR, "/usr/lib64/", SITES_MOD_LIBRARY},
    {BY_DIR, "/usr/libx32/", SITES_MOD_LIBRARY},
    {BY_DIR, "/usr/local/lib/", SITES_MOD_LIBRARY},
    {BY_DIR, "/usr/local/lib64/", SITES_MOD_LIBRARY},
};
#define NRULES (sizeof module_rules / sizeof module_rules[0])

#define USER_LIBS 16
static char user_libs[USER_LIBS][64]; /* --site-libs: file name globs */
static int nuser_libs;
static int depth = SITES_DEPTH_DEFAULT;
static int python_ok;

/* a glob of * and ? against a whole name, no allocation */
static int glob_match(const char *p, const char *s)
{
    const char *star = NULL, *back = NULL;
    while (*s) {
        if (*p == '*') {
            star = p++, back = s;
        } else if (*p && (*p == '?' || *p == *s)) {
            p++, s++;
        } else if (star) {
            p = star + 1, s = ++back;
        } else {
            return 0;
        }
    }
    while (*p == '*') p++;
    return *p == '\0';
}

static int classify(const char *path)
{
    if (!path || !path[0]) return SITES_MOD_PROGRAM; /* the executable */
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (int i = 0; i < nuser_libs; i++)
        if (glob_match(user_libs[i], base)) return SITES_MOD_LIBRARY;
    for (size_t i = 0; i < NRULES; i++) {
        const char *p = module_rules[i].pattern;
        if (module_rules[i].by == BY_NAME ? glob_match(p, base) : strncmp(path, p, strlen(p)) == 0) {
            /* mpi4py's module, and only it, by its directory */
            if (module_rules[i].cls == SITES_MOD_PYTHON && !strstr(path, "/mpi4py/")) continue;
            return module_rules[i].cls;
        }
    }
    return SITES_MOD_PROGRAM;
}

/* ---- modules: a fixed open-addressed cache keyed by the mapping's start */
#define MODS 256
static struct {
    uintptr_t lo, hi; /* lo 0: free */
    int cls;          /* 0 until written */
} mods[MODS];
static __thread uintptr_t last_lo __attribute__((tls_model("initial-exec")));
static __thread uintptr_t last_hi __attribute__((tls_model("initial-exec")));
static __thread int last_cls __attribute__((tls_model("initial-exec")));

int sites_module_class(uintptr_t pc)
{
    if (pc - last_lo < last_hi - last_lo) return last_cls;
    struct dl_find_object fo;
    if (_dl_find_object((void *)pc, &fo) != 0) return SITES_MOD_PROGRAM; /* no module: generated code */
    uintptr_t lo = (uintptr_t)fo.dlfo_map_start, hi = (uintptr_t)fo.dlfo_map_end;
    unsigned h = (unsigned)((lo >> 12) * 0x9E3779B1u) % MODS;
    int cls = 0;
    for (int i = 0; i < MODS; i++, h = (h + 1) % MODS) {
        uintptr_t cur = __atomic_load_n(&mods[h].lo, __ATOMIC_ACQUIRE);
        if (cur == lo) {
            cls = __atomic_load_n(&mods[h].cls, __ATOMIC_ACQUIRE);
            break;
        }
        if (cur == 0) {
            /* first sight: classify by its path (the same answer whoever does it) */
            cls = classify(fo.dlfo_link_map ? fo.dlfo_link_map->l_name : NULL);
            uintptr_t want = 0;
            if (__atomic_compare_exchange_n(&mods[h].lo, &want, lo, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
                mods[h].hi = hi;
                __atomic_store_n(&mods[h].cls, cls, __ATOMIC_RELEASE);
                break;
            }
            if (want == lo) break;
        }
    }
    if (!cls) cls = classify(fo.dlfo_link_map ? fo.dlfo_link_map->l_name : NULL);
    last_lo = lo, last_hi = hi, last_cls = cls;
    return cls;
}

/* ---- the walk */
typedef struct walk {
    uintptr_t from;  /* the caller's return address: the walk starts above it */
    int started;     /* its frame was seen */
    int below;       /* frames seen before it (the tool's own) */
    int left;        /* frames that may still be looked at */
    uintptr_t found; /* the program's frame */
    int python;      /* met mpi4py's module on the way */
} walk_t;

static _Unwind_Reason_Code step(struct _Unwind_Context *ctx, void *arg)
{
    walk_t *w = arg;
    uintptr_t ip = (uintptr_t)_Unwind_GetIP(ctx);
    if (!w->started) {
        if (ip == w->from) w->started = 1;
        return ++w->below > 8 && !w->started ? _URC_END_OF_STACK : _URC_NO_REASON;
    }
    int cls = sites_module_class(ip - 1); /* ip is a return address: the call is before it */
    if (cls == SITES_MOD_MPI) return _URC_NO_REASON;
    if (cls == SITES_MOD_PYTHON) {
        w->python = 1;
        return _URC_END_OF_STACK;
    }
    if (cls == SITES_MOD_PROGRAM) {
        w->found = ip;
        return _URC_END_OF_STACK;
    }
    return --w->left > 0 ? _URC_NO_REASON : _URC_END_OF_STACK;
}

static void python_line(sites_call_t *c)
{
    int where = python_ok ? sites_py_where() : 0;
    c->how = where ? SITES_PROG_PYTHON : SITES_PROG_NOPY;
    c->prog = (uintptr_t)where;
}

__attribute__((noinline)) void sites_capture(sites_call_t *c)
{
    uintptr_t pc = (uintptr_t)c->pc;
    c->how = SITES_PROG_SELF;
    c->prog = 0;
    int cls = sites_module_class(pc - 1);
    if (cls == SITES_MOD_PROGRAM) return;
    if (cls == SITES_MOD_PYTHON) {
        python_line(c);
        return;
    }
    /* the caller is a library, or the MPI's own layer: walk up */
    walk_t w = {.from = pc, .left = depth - (cls == SITES_MOD_MPI ? 0 : 1)};
    if (w.left <= 0 && cls != SITES_MOD_MPI) {
        c->how = SITES_PROG_NONE;
        return;
    }
    if (w.left <= 0) w.left = 1;
    _Unwind_Backtrace(step, &w);
    if (w.python) {
        python_line(c);
    } else if (w.found) {
        c->how = SITES_PROG_NATIVE;
        c->prog = w.found;
    } else {
        c->how = SITES_PROG_NONE;
    }
}

void sites_frames_begin(int d, const char *libs, char *why, size_t len)
{
    depth = d > 0 ? (d < SITES_DEPTH_MAX ? d : SITES_DEPTH_MAX) : SITES_DEPTH_DEFAULT;
    nuser_libs = 0;
    for (const char *p = libs; p && *p && nuser_libs < USER_LIBS;) {
        size_t n = strcspn(p, ",");
        if (n > 0 && n < sizeof user_libs[0]) {
            memcpy(user_libs[nuser_libs], p, n);
            user_libs[nuser_libs++][n] = '\0';
        }
        p += n + (p[n] == ',');
    }
    memset(mods, 0, sizeof mods);
    last_lo = last_hi = 0;
    why[0] = '\0';
    python_ok = sites_py_begin(why, len) == 0;
    /* the unwinder is loaded and its first walk done here, not inside a call */
    walk_t w = {.from = 1, .left = 1};
    _Unwind_Backtrace(step, &w);
}

int sites_frames_depth(void) { return depth; }
