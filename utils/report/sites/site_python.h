/*
 * papi-mpit-report: the CPython layouts site_python.c reads to find the
 * Python line behind a call from mpi4py, and their parsing from the
 * interpreter's own _Py_DebugOffsets (CPython 3.13 and later), pure logic
 * tested by utils/report/tests/test_python_offsets.c.
 */
#ifndef PAPI_MPIT_SITE_PYTHON_H
#define PAPI_MPIT_SITE_PYTHON_H

#include <stddef.h>
#include <stdint.h>

/* how the current frame and its instruction are reached */
enum {
    SITES_PY_FRAMEOBJECT = 1, /* 3.9, 3.10: PyThreadState.frame, a PyFrameObject, int f_lasti */
    SITES_PY_CFRAME,          /* 3.11, 3.12: PyThreadState.cframe->current_frame, prev_instr */
    SITES_PY_DIRECT           /* 3.13 on: PyThreadState.current_frame, instr_ptr */
};

/* offsets in bytes */
typedef struct sites_py_layout {
    const char *version;    /* Py_GetVersion's "major.minor." (a table row), or NULL */
    int chain;              /* SITES_PY_* */
    size_t ts_frame;        /* PyThreadState.frame, .cframe or .current_frame */
    size_t cf_frame;        /* _PyCFrame.current_frame (SITES_PY_CFRAME) */
    size_t fr_code;         /* the frame's f_code (f_executable from 3.13) */
    size_t fr_instr;        /* f_lasti (an int), prev_instr or instr_ptr (a pointer) */
    unsigned lasti_unit;    /* bytes per f_lasti unit: 1 (3.9), 2 (3.10); 0 when a pointer */
    size_t co_filename;     /* PyCodeObject.co_filename */
    size_t co_name;         /* PyCodeObject.co_name */
    size_t co_code;         /* PyCodeObject.co_code_adaptive (3.11 on) */
    size_t ob_type;         /* PyObject.ob_type */
    size_t str_length;      /* PyASCIIObject.length */
    size_t str_state;       /* PyASCIIObject.state */
    unsigned compact_ascii; /* its compact and ascii bits */
    size_t str_data;        /* sizeof(PyASCIIObject): a compact ASCII string's characters */
} sites_py_layout_t;

/* The layout read from a _Py_DebugOffsets (the first bytes of _PyRuntime,
 * at least SITES_PY_DEBUG_BYTES of them): 0, or -1 with the reason in why.
 * Pure: reads only those bytes. */
#define SITES_PY_DEBUG_BYTES (81 * 8)
int sites_py_layout_from_debug(const unsigned char *area, sites_py_layout_t *out, char *why, size_t len);

#endif
