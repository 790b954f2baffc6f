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
 * minor version: the table below, found by Py_GetVersion; another version
 * leaves the site at mpi4py's module, with the reason.  Each line is
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

/* The interpreter's layouts (offsets in bytes), from its headers
 * (Include/cpython/pystate.h, Include/internal/pycore_frame.h,
 * Include/cpython/code.h, Include/cpython/unicodeobject.h). */
typedef struct py_layout {
    const char *version;    /* Py_GetVersion's "major.minor." */
    size_t ts_cframe;       /* PyThreadState.cframe */
    size_t cf_frame;        /* _PyCFrame.current_frame */
    size_t fr_code;         /* _PyInterpreterFrame.f_code */
    size_t fr_instr;        /* _PyInterpreterFrame.prev_instr */
    size_t co_filename;     /* PyCodeObject.co_filename */
    size_t co_name;         /* PyCodeObject.co_name */
    size_t co_code;         /* PyCodeObject.co_code_adaptive (the instructions) */
    size_t str_length;      /* PyASCIIObject.length */
    size_t str_state;       /* PyASCIIObject.state */
    unsigned compact_ascii; /* its compact and ascii bits */
    size_t str_data;        /* sizeof(PyASCIIObject): a compact ASCII string's characters */
} py_layout_t;

static const py_layout_t layouts[] = {
    /* CPython 3.11 (Debian 12's python3.11) */
    {"3.11.", 56, 8, 32, 56, 112, 120, 184, 16, 32, 3u << 5, 48},
};

#define PY_LINES 512
static const py_layout_t *L;
static void *(*this_thread_state)(void);
static int (*addr2line)(void *code, int addr);
static const void *code_type, *unicode_type;
static sites_py_line_t *lines;

int sites_py_begin(char *why, size_t len)
{
    L = NULL;
    const char *(*version)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, "Py_GetVersion");
    if (!version) return -1; /* no Python here: nothing to say */
    const char *v = version();
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
        if (strncmp(v, layouts[i].version, strlen(layouts[i].version)) == 0) L = &layouts[i];
    this_thread_state = (void *(*)(void))dlsym(RTLD_DEFAULT, "PyGILState_GetThisThreadState");
    addr2line = (int (*)(void *, int))dlsym(RTLD_DEFAULT, "PyCode_Addr2Line");
    code_type = dlsym(RTLD_DEFAULT, "PyCode_Type");
    unicode_type = dlsym(RTLD_DEFAULT, "PyUnicode_Type");
    if (!L) {
        snprintf(why, len,
                 "Python %.*s: its frame layout is not in site_python.c's table, so calls from mpi4py "
                 "stay at mpi4py's module",
                 (int)strcspn(v, " "), v);
        return -1;
    }
    if (!this_thread_state || !addr2line || !code_type || !unicode_type) {
        snprintf(why, len,
                 "Python %.*s exports no PyGILState_GetThisThreadState, PyCode_Addr2Line, "
                 "PyCode_Type or PyUnicode_Type: calls from mpi4py stay at mpi4py's module",
                 (int)strcspn(v, " "), v);
        L = NULL;
        return -1;
    }
    free(lines);
    lines = calloc(PY_LINES, sizeof *lines);
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
    if (!s || AT(s, 8) != unicode_type) return;
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
    void *cf = ts ? AT(ts, L->ts_cframe) : NULL;
    void *fr = cf ? AT(cf, L->cf_frame) : NULL;
    void *code = fr ? AT(fr, L->fr_code) : NULL;
    if (!code || AT(code, 8) != code_type) return 0;
    const char *instr = AT(fr, L->fr_instr);
    long addr = instr - ((const char *)code + L->co_code);
    uintptr_t file = (uintptr_t)AT(code, L->co_filename);
    /* the key: code, offset and file (a freed code object's address may be
     * reused by another) */
    uintptr_t h = ((uintptr_t)code >> 4) * 31 + (uintptr_t)addr * 0x9E3779B1u + (file >> 4);
    for (int i = 0; i < PY_LINES; i++) {
        sites_py_line_t *e = &lines[(h + (uintptr_t)i) % PY_LINES];
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
                return (int)((h + (uintptr_t)i) % PY_LINES) + 1;
            }
        }
        if (cur != (uintptr_t)code) continue;
        while (!__atomic_load_n(&e->ready, __ATOMIC_ACQUIRE)) {}
        if (e->addr == addr && e->filename == file) return (int)((h + (uintptr_t)i) % PY_LINES) + 1;
    }
    return 0;
}

const sites_py_line_t *sites_py_line(int where)
{
    return lines && where > 0 && where <= PY_LINES && lines[where - 1].ready ? &lines[where - 1] : NULL;
}
