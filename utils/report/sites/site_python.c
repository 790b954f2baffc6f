/*
 * papi-mpit-report: the Python line behind a call from mpi4py.  mpi4py
 * releases the GIL around its MPI calls, so the interpreter's public frame
 * functions (PyEval_GetFrame, PyThreadState_GetFrame) cannot be used there:
 * they need the GIL and may allocate a frame object.  What can be read
 * without it is the calling thread's own frame stack, which only that
 * thread changes and which stands still while it is inside the MPI call:
 * its thread state (PyGILState_GetThisThreadState, a thread-local read),
 * the current frame, its code object and its last instruction.  The line
 * is then PyCode_Addr2Line's (a pure read of the code's line table); the
 * file, the code's co_filename when it is a compact ASCII string (read in
 * place, nothing allocated).  Those layouts are the interpreter's own, per
 * minor version.  From 3.13 on the interpreter publishes them for
 * debuggers at the start of _PyRuntime (_Py_DebugOffsets): they are read
 * there at the start, so a later version needs no change here as long as
 * that structure keeps 3.13's order (checked: one that does not is said).
 * Before 3.13, the table below, found by Py_GetVersion (3.9 to 3.12).
 * Another version leaves the site at mpi4py's module, with the reason.
 * The read path takes no lock and allocates nothing.  Each line is
 * resolved once, when first seen, into a fixed table (the code object may
 * be gone by the end of the run).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site_frames.h"
#include "site_python.h"

/* The interpreter's layouts before 3.13, per minor version (offsets in
 * bytes), from its headers (Include/cpython/pystate.h, frameobject.h or
 * Include/internal/pycore_frame.h, Include/cpython/code.h,
 * Include/cpython/unicodeobject.h).  Where each row's numbers come from:
 * - 3.9: offsetof() compiled against Debian 11's libpython3.9-dev 3.9.2
 *   (scripts/suite-apt.sh download bullseye libpython3.9-dev);
 * - 3.10: read from CPython 3.10's headers (no Debian suite ships them):
 *   PyThreadState.frame after prev, next and interp; PyFrameObject.f_lasti
 *   after f_trace, f_stackdepth, the two trace chars and f_gen; the code
 *   object as 3.9's up to co_name; PyASCIIObject as 3.9's (with wstr);
 * - 3.11: offsetof() against Debian 12's python3.11-dev (and this
 *   machine's mpi4py run, t_report_mpi4py);
 * - 3.12: read from CPython 3.12's headers (no Debian suite ships them):
 *   PyThreadState.cframe after the 4-byte _status and six ints,
 *   _PyCFrame.current_frame first, _PyInterpreterFrame.f_code first and
 *   prev_instr after six pointers, co_version before co_localsplusnames,
 *   _co_instrumentation_version and _co_monitoring before
 *   co_code_adaptive, PyASCIIObject without wstr.
 * From 3.13 on, the interpreter says them itself (_Py_DebugOffsets, below). */
static const sites_py_layout_t layouts[] = {
    /* version chain ts_frame cf_frame fr_code fr_instr lasti_unit
     * co_filename co_name co_code ob_type str_length str_state compact_ascii str_data */
    {"3.9.", SITES_PY_FRAMEOBJECT, 24, 0, 32, 104, 1, 104, 112, 0, 8, 16, 32, 3u << 5, 48},
    {"3.10.", SITES_PY_FRAMEOBJECT, 24, 0, 32, 96, 2, 104, 112, 0, 8, 16, 32, 3u << 5, 48},
    {"3.11.", SITES_PY_CFRAME, 56, 8, 32, 56, 0, 112, 120, 184, 8, 16, 32, 3u << 5, 48},
    {"3.12.", SITES_PY_CFRAME, 56, 0, 0, 56, 0, 112, 120, 192, 8, 16, 32, 3u << 5, 40},
};

/* CPython's _Py_DebugOffsets, the first member of _PyRuntime (3.13:
 * Include/internal/pycore_runtime.h; 3.14: pycore_debug_offsets.h): an
 * 8-byte cookie, then 64-bit numbers, each section the size of a structure
 * followed by offsets in it.  That structure itself may change between
 * minor versions (its header says so: 3.14 added three numbers to the
 * interpreter's section, two to the frame's, one to the code object's), so
 * where each number read here is, in 64-bit words, is kept per minor
 * version: found by offsetof() compiled against Debian 13's
 * libpython3.13-dev 3.13.5 and sid's libpython3.14-dev 3.14.10.  A later
 * version is read with the first of these whose numbers it passes the
 * checks with (the newest first), or said. */
typedef struct dbg_words {
    unsigned minor;
    /* thread state: its size, prev (0), next (8), interp (16), current_frame */
    unsigned char ts_size, ts_prev, ts_next, ts_interp, ts_frame;
    /* interpreter frame: its size, previous, f_executable, instr_ptr */
    unsigned char fr_size, fr_previous, fr_exe, fr_instr;
    /* code object: its size, co_filename, co_name, co_code_adaptive */
    unsigned char co_size, co_file, co_name, co_code;
    /* PyObject: its size (16), ob_type (8) */
    unsigned char ob_size, ob_type;
    /* unicode object: its size, state, length, sizeof(PyASCIIObject) */
    unsigned char str_size, str_state, str_length, str_ascii;
} dbg_words_t;

static const dbg_words_t dbg_layouts[] = {
    /* newest first */
    {14, 22, 23, 24, 25, 26, 31, 32, 33, 34, 39, 40, 41, 48, 50, 51, 77, 78, 79, 80},
    {13, 19, 20, 21, 22, 23, 28, 29, 30, 31, 34, 35, 36, 43, 44, 45, 67, 68, 69, 70},
};
#define DBG_VERSION       1 /* PY_VERSION_HEX */
#define DBG_FREE_THREADED 2 /* a free-threaded build */

static uint64_t dbg(const unsigned char *area, int word)
{
    uint64_t v;
    memcpy(&v, area + 8 * word, sizeof v);
    return v;
}

/* the layout from area read with the positions d: NULL, or the part whose
 * numbers cannot be right (what any order of them must give: a version
 * that moved them fails here rather than being read wrongly) */
static const char *dbg_read(const unsigned char *area, const dbg_words_t *d, sites_py_layout_t *out)
{
    uint64_t ts = dbg(area, d->ts_size), frame = dbg(area, d->ts_frame);
    uint64_t fr = dbg(area, d->fr_size), exe = dbg(area, d->fr_exe), instr = dbg(area, d->fr_instr);
    uint64_t prev = dbg(area, d->fr_previous);
    uint64_t co = dbg(area, d->co_size), file = dbg(area, d->co_file), name = dbg(area, d->co_name);
    uint64_t code = dbg(area, d->co_code);
    uint64_t str = dbg(area, d->str_size), state = dbg(area, d->str_state), length = dbg(area, d->str_length);
    uint64_t ascii = dbg(area, d->str_ascii);
    if (dbg(area, d->ob_size) != 2 * sizeof(void *) || dbg(area, d->ob_type) != sizeof(void *))
        return "PyObject";
    if (dbg(area, d->ts_prev) != 0 || dbg(area, d->ts_next) != 8 || dbg(area, d->ts_interp) != 16 ||
        frame <= 16 || frame % 8 || frame + 8 > ts || ts > 65536)
        return "thread state";
    if (fr > 1024 || exe % 8 || instr % 8 || prev % 8 || exe + 8 > fr || instr + 8 > fr || prev + 8 > fr ||
        exe == instr || prev == exe || prev == instr)
        return "interpreter frame";
    if (co > 4096 || file % 8 || name % 8 || file < 16 || name < 16 || file == name || file + 8 > co ||
        name + 8 > co || code <= file || code <= name || code >= co)
        return "code object";
    if (ascii > 128 || ascii > str || length < 16 || length % 8 || state % 4 || length + 8 > ascii ||
        state + 4 > ascii || state == length)
        return "unicode object";
    memset(out, 0, sizeof *out);
    out->chain = SITES_PY_DIRECT;
    out->ts_frame = frame;
    out->fr_code = exe;
    out->fr_instr = instr;
    out->co_filename = file;
    out->co_name = name;
    out->co_code = code;
    out->ob_type = sizeof(void *);
    out->str_length = length;
    out->str_state = state;
    /* not in the offsets: the state's bits (interned:2, kind:3, compact,
     * ascii), the same from 3.3 to 3.14 in a build with the GIL */
    out->compact_ascii = 3u << 5;
    out->str_data = ascii;
    return NULL;
}

int sites_py_layout_from_debug(const unsigned char *area, sites_py_layout_t *out, char *why, size_t len)
{
    if (memcmp(area, "xdebugpy", 8) != 0) {
        snprintf(why, len, "no _Py_DebugOffsets cookie at _PyRuntime");
        return -1;
    }
    uint64_t version = dbg(area, DBG_VERSION);
    unsigned major = (unsigned)(version >> 24) & 0xff, minor = (unsigned)(version >> 16) & 0xff;
    if (major != 3 || minor < 13) {
        snprintf(why, len, "its _Py_DebugOffsets say version %u.%u, not 3.13 or later", major, minor);
        return -1;
    }
    if (dbg(area, DBG_FREE_THREADED) != 0) {
        snprintf(why, len, "a free-threaded build (its strings and frames are laid out otherwise)");
        return -1;
    }
    const size_t n = sizeof dbg_layouts / sizeof dbg_layouts[0];
    for (size_t i = 0; i < n; i++)
        if (dbg_layouts[i].minor == minor) {
            const char *bad = dbg_read(area, &dbg_layouts[i], out);
            if (!bad) return 0;
            snprintf(why, len,
                     "its _Py_DebugOffsets (version %u.%u) are not laid out as %u.%u's (the %s part)", major,
                     minor, major, minor, bad);
            return -1;
        }
    /* a version after those known: the first known order it fits */
    for (size_t i = 0; i < n; i++)
        if (dbg_layouts[i].minor < minor && !dbg_read(area, &dbg_layouts[i], out)) return 0;
    snprintf(why, len, "its _Py_DebugOffsets (version %u.%u) are laid out as neither 3.13's nor 3.14's",
             major, minor);
    return -1;
}

static sites_py_layout_t learnt; /* from _Py_DebugOffsets */
static const sites_py_layout_t *L;
static void *(*this_thread_state)(void);
static int (*addr2line)(void *code, int addr);
static const void *code_type, *unicode_type;
static sites_py_line_t *lines, *placed_lines; /* placed: in the mapped state file, never freed */

void sites_py_place(sites_py_line_t *area) { placed_lines = area; }

int sites_py_begin(char *why, size_t len)
{
    L = NULL;
    const char *(*version)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, "Py_GetVersion");
    if (!version) return -1; /* no Python here: nothing to say */
    const char *v = version();
    int vlen = (int)strcspn(v, " ");
    /* 3.13 and later: the layout the interpreter publishes for debuggers */
    const unsigned char *runtime = dlsym(RTLD_DEFAULT, "_PyRuntime");
    char dwhy[200] = "";
    if (runtime && memcmp(runtime, "xdebugpy", 8) == 0) {
        if (sites_py_layout_from_debug(runtime, &learnt, dwhy, sizeof dwhy) == 0) L = &learnt;
    } else {
        for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
            if (strncmp(v, layouts[i].version, strlen(layouts[i].version)) == 0) L = &layouts[i];
    }
    this_thread_state = (void *(*)(void))dlsym(RTLD_DEFAULT, "PyGILState_GetThisThreadState");
    addr2line = (int (*)(void *, int))dlsym(RTLD_DEFAULT, "PyCode_Addr2Line");
    code_type = dlsym(RTLD_DEFAULT, "PyCode_Type");
    unicode_type = dlsym(RTLD_DEFAULT, "PyUnicode_Type");
    if (!L && dwhy[0]) {
        snprintf(why, len, "Python %.*s: %s, so calls from mpi4py stay at mpi4py's module", vlen, v, dwhy);
        return -1;
    }
    if (!L) {
        snprintf(why, len,
                 "Python %.*s: its frame layout is not in site_python.c's table (3.9 to 3.12; 3.13 on "
                 "publishes its own), so calls from mpi4py stay at mpi4py's module",
                 vlen, v);
        return -1;
    }
    if (!this_thread_state || !addr2line || !code_type || !unicode_type) {
        snprintf(why, len,
                 "Python %.*s exports no PyGILState_GetThisThreadState, PyCode_Addr2Line, "
                 "PyCode_Type or PyUnicode_Type: calls from mpi4py stay at mpi4py's module",
                 vlen, v);
        L = NULL;
        return -1;
    }
    if (lines != placed_lines) free(lines);
    lines = placed_lines ? placed_lines : calloc(SITES_PY_LINES, sizeof *lines);
    if (!lines) {
        snprintf(why, len, "no memory for the Python lines");
        L = NULL;
        return -1;
    }
    return 0;
}

void sites_py_end(void)
{
    L = NULL;
    /* kept: the records are written after the counting closed */
}

#define AT(p, off) (*(void *const *)((const char *)(p) + (off)))

/* a compact ASCII str's characters, copied (at most n - 1) */
static void copy_str(char *out, size_t n, const void *s)
{
    out[0] = '\0';
    if (!s || AT(s, L->ob_type) != unicode_type) return;
    unsigned state = *(const unsigned *)((const char *)s + L->str_state);
    if ((state & L->compact_ascii) != L->compact_ascii) return;
    long length = *(const long *)((const char *)s + L->str_length);
    size_t k = length > 0 ? (size_t)length : 0;
    if (k >= n) k = n - 1;
    memcpy(out, (const char *)s + L->str_data, k);
    out[k] = '\0';
    for (char *p = out; *p; p++)
        if (*p == '\t' || *p == '\n') *p = ' ';
}

int sites_py_where(void)
{
    if (!L || !lines) return 0;
    void *ts = this_thread_state();
    void *fr = ts ? AT(ts, L->ts_frame) : NULL;
    if (fr && L->chain == SITES_PY_CFRAME) fr = AT(fr, L->cf_frame);
    /* from 3.14 the frame's code is a tagged reference: its low bits are flags */
    void *code = fr ? (void *)((uintptr_t)AT(fr, L->fr_code) & ~(uintptr_t)3) : NULL;
    if (!code || AT(code, L->ob_type) != code_type) return 0;
    long addr;
    if (L->lasti_unit) {
        /* f_lasti: the instruction being run (the call), in bytes (3.9) or
         * code units (3.10) */
        addr = (long)*(const int *)((const char *)fr + L->fr_instr) * (long)L->lasti_unit;
    } else {
        /* 3.11 and 3.12's prev_instr and 3.13's instr_ptr both point at the
         * call during it: prev_instr is set to the instruction as it starts,
         * instr_ptr is the instruction being run */
        const char *instr = AT(fr, L->fr_instr);
        addr = instr - ((const char *)code + L->co_code);
    }
    uintptr_t file = (uintptr_t)AT(code, L->co_filename);
    /* the key: code, offset and file (a freed code object's address may be
     * reused by another) */
    uintptr_t h = ((uintptr_t)code >> 4) * 31 + (uintptr_t)addr * 0x9E3779B1u + (file >> 4);
    for (int i = 0; i < SITES_PY_LINES; i++) {
        sites_py_line_t *e = &lines[(h + (uintptr_t)i) % SITES_PY_LINES];
        uintptr_t cur = __atomic_load_n(&e->code, __ATOMIC_ACQUIRE);
        if (cur == 0) {
            uintptr_t want = 0;
            if (!__atomic_compare_exchange_n(&e->code, &want, (uintptr_t)code, 0, __ATOMIC_ACQ_REL,
                                             __ATOMIC_ACQUIRE)) {
                cur = want;
            } else {
                e->addr = addr;
                e->filename = file;
                e->line = addr >= 0 ? addr2line(code, (int)addr) : -1;
                copy_str(e->file, sizeof e->file, (const void *)file);
                copy_str(e->func, sizeof e->func, AT(code, L->co_name));
                __atomic_store_n(&e->ready, 1, __ATOMIC_RELEASE);
                return (int)((h + (uintptr_t)i) % SITES_PY_LINES) + 1;
            }
        }
        if (cur != (uintptr_t)code) continue;
        while (!__atomic_load_n(&e->ready, __ATOMIC_ACQUIRE)) {}
        if (e->addr == addr && e->filename == file) return (int)((h + (uintptr_t)i) % SITES_PY_LINES) + 1;
    }
    return 0;
}

const sites_py_line_t *sites_py_line(int where)
{
    return lines && where > 0 && where <= SITES_PY_LINES && lines[where - 1].ready ? &lines[where - 1] : NULL;
}
