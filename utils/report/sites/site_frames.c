/*
 * papi-mpit-report: the site capture (sites_capture): whose code called
 * the MPI, and when it is a library's, the program's own frame behind it
 * (site_frames.h has the rule).  Runs inside the program's MPI calls: no
 * lock, no allocation, no I/O.  Modules are found with glibc's
 * _dl_find_object (lock-free, async-signal-safe), or by site_modules.c
 * where glibc has none (its one I/O: /proc/self/maps, read once for a
 * module loaded after its last scan), and classified once each into a
 * fixed cache;
 * frames are walked with the unwinder of libgcc_s (_Unwind_Backtrace: the
 * modules' unwind tables, so code without frame pointers is walked right;
 * since GCC 12 it finds them through _dl_find_object, without a lock, where
 * glibc has it), and the walk stops at the first frame of
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

#include "report_env.h"
#include "site_frame_arch.h"
#include "site_frames.h"
#include "site_modules.h"
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
static int chains_on = 1; /* PAPI_MPIT_REPORT_SITE_CHAINS=0: every call walks (bench/report_sites_depth.sh) */

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

/* ---- modules: a fixed open-addressed cache keyed by the mapping's start
 * (a library unloaded and another loaded at its address keeps the first
 * one's class: dlclose of a library that calls MPI is not expected) */
#define MODS 256
static struct {
    uintptr_t lo, hi; /* lo 0: free */
    int cls;          /* 0 until written */
} mods[MODS];
__thread uintptr_t sites_mod_lo __attribute__((tls_model("initial-exec")));
__thread uintptr_t sites_mod_hi __attribute__((tls_model("initial-exec")));
__thread int sites_mod_cls __attribute__((tls_model("initial-exec")));

int sites_module_class(uintptr_t pc)
{
    if (pc - sites_mod_lo < sites_mod_hi - sites_mod_lo) return sites_mod_cls;
    sites_module_t mod;
    if (sites_module_at(pc, &mod) != 0) return SITES_MOD_PROGRAM; /* no module: generated code */
    uintptr_t lo = mod.start, hi = mod.end;
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
            cls = classify(mod.path);
            uintptr_t want = 0;
            if (__atomic_compare_exchange_n(&mods[h].lo, &want, lo, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
                mods[h].hi = hi;
                __atomic_store_n(&mods[h].cls, cls, __ATOMIC_RELEASE);
                break;
            }
            if (want == lo) break;
        }
    }
    if (!cls) cls = classify(mod.path);
    sites_mod_lo = lo, sites_mod_hi = hi, sites_mod_cls = cls;
    return cls;
}

/* ---- the walk, and the chains it learnt
 *
 * _Unwind_Backtrace costs about 1 us to start and 0.25 us a frame here
 * (doc/performance.md), paid by every call made inside a library.  So each walk that reaches the
 * program is kept as a chain: for the wrapper's return address and the
 * caller's, where on the stack each library frame's return address lies
 * (from sites_capture_any's own frame) and what it is.  The next call
 * with the same two return addresses checks the chain against the stack,
 * frame by frame (each library frame's return address where the chain says
 * it is), and reads the program's return address from the last one's slot:
 * a few loads instead of a walk.  A chain is kept only when every library
 * frame in it has a fixed size (no frame pointer: a function with alloca
 * or a variable-length array keeps one, and its frame may differ between
 * calls), so each slot read is inside a frame already checked.  Chains are
 * written under a sequence number (odd while written), read without a lock. */
#define CHAIN_MAX 8
#define CHAINS    256
typedef struct chain {
    unsigned seq;
    uintptr_t wpc, pc;           /* key: the wrapper's return address (which wrapper) and the caller's */
    int n;                       /* library frames L1 (the caller) .. Ln */
    int none;                    /* 1: L(n + 1) is a library frame too, beyond the depth */
    long off[CHAIN_MAX + 2];     /* off[i]: the slot of Li's return address, from sites_capture_any's frame
                                      (off[n + 1]: the program's) */
    uintptr_t ip[CHAIN_MAX + 2]; /* ip[i]: Li's return address (ip[1] = pc) */
} chain_t;
static chain_t chains[CHAINS];

/* In a backtrace callback, _Unwind_GetCFA gives the frame's stack pointer
 * (its callee's CFA); where its return address lies below that is the
 * architecture's (site_frame_arch.h). */
typedef struct walk {
    uintptr_t from;  /* the caller's return address: the walk starts above it */
    int started;     /* its frame was seen */
    int below;       /* frames seen before it (the tool's own) */
    int left;        /* frames that may still be looked at */
    uintptr_t found; /* the program's frame */
    int python;      /* met mpi4py's module on the way */
    int beyond;      /* stopped at a library frame beyond the depth */
    /* what a chain needs */
    int n, fixed;
    uintptr_t slot[CHAIN_MAX + 2], ip[CHAIN_MAX + 2], fp[CHAIN_MAX + 1], sp[CHAIN_MAX + 1];
    uintptr_t last_sp, last_fp; /* the frame before (the callee) */
} walk_t;

static _Unwind_Reason_Code step(struct _Unwind_Context *ctx, void *arg)
{
    walk_t *w = arg;
    uintptr_t ip = (uintptr_t)_Unwind_GetIP(ctx), sp = (uintptr_t)_Unwind_GetCFA(ctx);
    uintptr_t fp = (uintptr_t)_Unwind_GetGR(ctx, SITES_FP_REG), c_sp = w->last_sp, c_fp = w->last_fp;
    w->last_sp = sp, w->last_fp = fp;
    if (!w->started) {
        if (ip != w->from) return ++w->below > 8 ? _URC_END_OF_STACK : _URC_NO_REASON;
        w->started = 1;
    }
    uintptr_t slot = sites_ra_slot(c_sp, c_fp, sp, ip);
    if (!slot) w->fixed = 0;
    if (w->n > 0) { /* above the caller */
        /* the frame below keeps a frame pointer: its size may vary */
        if (sites_frame_varies(w->fp[w->n], w->sp[w->n], sp)) w->fixed = 0;
        int cls = sites_module_class(ip - 1); /* ip is a return address: the call is before it */
        if (cls == SITES_MOD_PYTHON) {
            w->python = 1;
            return _URC_END_OF_STACK;
        }
        if (cls == SITES_MOD_PROGRAM) {
            w->found = ip;
            w->slot[w->n + 1] = slot;
            return _URC_END_OF_STACK;
        }
        if (cls != SITES_MOD_MPI && --w->left <= 0) {
            w->beyond = 1;
            w->slot[w->n + 1] = slot;
            w->ip[w->n + 1] = ip;
            return _URC_END_OF_STACK;
        }
    }
    /* a library frame (the caller is the first): kept for the chain */
    if (w->n < CHAIN_MAX) {
        w->n++;
        w->slot[w->n] = slot;
        w->ip[w->n] = ip;
        w->fp[w->n] = fp;
        w->sp[w->n] = sp;
    } else {
        w->fixed = 0;
    }
    return _URC_NO_REASON;
}

static void chain_keep(chain_t *e, uintptr_t wpc, uintptr_t base, const walk_t *w)
{
    unsigned q = __atomic_load_n(&e->seq, __ATOMIC_RELAXED);
    if ((q & 1) || !__atomic_compare_exchange_n(&e->seq, &q, q + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
        return; /* another thread writes it */
    e->wpc = wpc, e->pc = w->from, e->n = w->n, e->none = w->beyond;
    for (int i = 1; i <= w->n + 1; i++) e->off[i] = (long)(w->slot[i] - base);
    for (int i = 1; i <= w->n + w->beyond; i++) e->ip[i] = w->ip[i];
    __atomic_store_n(&e->seq, q + 2, __ATOMIC_RELEASE);
}

/* the program's return address by a kept chain, 1 when the chain says
 * none within the depth, 0 when it does not hold */
static uintptr_t chain_follow(const chain_t *e, uintptr_t wpc, uintptr_t pc, uintptr_t base)
{
    unsigned q = __atomic_load_n(&e->seq, __ATOMIC_ACQUIRE);
    if (q == 0 || (q & 1)) return 0;
    chain_t c;
    c.wpc = e->wpc, c.pc = e->pc, c.n = e->n, c.none = e->none;
    if (c.wpc != wpc || c.pc != pc || c.n < 1 || c.n > CHAIN_MAX) return 0;
    memcpy(c.off, e->off, sizeof c.off);
    memcpy(c.ip, e->ip, sizeof c.ip);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (__atomic_load_n(&e->seq, __ATOMIC_RELAXED) != q) return 0;
    /* frame by frame: each return address where the chain says it is */
    if (*(const uintptr_t *)(base + (uintptr_t)c.off[1]) != pc) return 0;
    for (int i = 2; i <= c.n + c.none; i++)
        if (*(const uintptr_t *)(base + (uintptr_t)c.off[i]) != c.ip[i]) return 0;
    if (c.none) return 1;
    uintptr_t prog = *(const uintptr_t *)(base + (uintptr_t)c.off[c.n + 1]);
    return sites_module_class(prog - 1) == SITES_MOD_PROGRAM ? prog : 0;
}

static void python_line(sites_call_t *c)
{
    int where = python_ok ? sites_py_where() : 0;
    c->how = where ? SITES_PROG_PYTHON : SITES_PROG_NOPY;
    c->prog = (uintptr_t)where;
}

__attribute__((noinline)) void sites_capture_any(sites_call_t *c)
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
    /* the caller is a library, or the MPI's own layer: a kept chain, else a walk */
    int left = depth - (cls == SITES_MOD_MPI ? 0 : 1);
    if (left <= 0 && cls != SITES_MOD_MPI) {
        c->how = SITES_PROG_NONE;
        return;
    }
    uintptr_t base = (uintptr_t)__builtin_frame_address(0), wpc = (uintptr_t)__builtin_return_address(0);
    chain_t *e = &chains[(unsigned)(((wpc >> 2) ^ (pc * 0x9E3779B1u)) % CHAINS)];
    uintptr_t prog = chains_on ? chain_follow(e, wpc, pc, base) : 0;
    if (prog == 1) {
        c->how = SITES_PROG_NONE;
        return;
    }
    if (prog) {
        c->how = SITES_PROG_NATIVE;
        c->prog = prog;
        return;
    }
    walk_t w = {.from = pc, .left = left > 0 ? left : 1, .fixed = 1};
    _Unwind_Backtrace(step, &w);
    if (w.python) {
        python_line(c);
    } else if (w.found) {
        c->how = SITES_PROG_NATIVE;
        c->prog = w.found;
        if (w.fixed && w.n >= 1) chain_keep(e, wpc, base, &w);
    } else {
        c->how = SITES_PROG_NONE;
        if (w.beyond && w.fixed && w.n >= 1) chain_keep(e, wpc, base, &w);
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
    sites_modules_refresh();
    memset(mods, 0, sizeof mods);
    memset(chains, 0, sizeof chains);
    chains_on = report_bool_env("PAPI_MPIT_REPORT_SITE_CHAINS", 1);
    sites_mod_lo = sites_mod_hi = 0;
    why[0] = '\0';
    python_ok = sites_py_begin(why, len) == 0;
    /* the unwinder is loaded and its first walk done here, not inside a call */
    walk_t w = {.from = 1, .left = 1};
    _Unwind_Backtrace(step, &w);
}

int sites_frames_depth(void) { return depth; }
