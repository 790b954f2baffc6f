/*
 * papi-mpit-report: whose code a call site is in, and the program's own
 * frame behind a library (site_frames.c), or the Python line behind mpi4py
 * (site_python.c).  The rule, as data in site_frames.c (module_rules):
 *
 *   a module (the executable or a shared object) is
 *   - "mpi" when it is the MPI itself or one of its language layers
 *     (libmpi*, libmpich*, libmpifort*, libopen-pal*, ...): its frames are
 *     passed over and not counted in the depth;
 *   - "python" when it is mpi4py's extension module (.../mpi4py/MPI.*.so):
 *     the site's program line is the interpreter's current Python line;
 *   - "library" when its file name matches --site-libs, or a library known
 *     to make MPI calls for the program (ScaLAPACK, BLACS, PETSc, HDF5,
 *     NetCDF, FFTW, MUMPS, hypre, ...) wherever it is installed, or when it
 *     lies under a system library directory (/lib*, /usr/lib*,
 *     /usr/local/lib*);
 *   - the program's own code otherwise: the executable, and shared objects
 *     outside those directories (the program's own libraries).
 *
 * A site whose caller is a library keeps that frame as its detail and gets
 * the first frame of the program's own code above it as its program line,
 * within --site-depth frames (the caller is frame 1).
 */
#ifndef PAPI_MPIT_SITES_FRAMES_H
#define PAPI_MPIT_SITES_FRAMES_H

#include <stddef.h>
#include <stdint.h>

/* what a site's program line is (sites_call_t.how, sites_site_t.how) */
enum {
    SITES_PROG_SELF = 0, /* the caller is the program's own code: the site is its line */
    SITES_PROG_NATIVE,   /* prog: the return address of the program's frame behind the caller */
    SITES_PROG_PYTHON,   /* prog: a Python line (sites_py_where), index + 1 */
    SITES_PROG_NONE,     /* the caller is a library, and no program frame within the depth */
    SITES_PROG_NOPY      /* the caller is mpi4py, and the Python frame could not be read */
};

enum { SITES_MOD_PROGRAM = 1, SITES_MOD_LIBRARY, SITES_MOD_MPI, SITES_MOD_PYTHON };

#define SITES_DEPTH_DEFAULT 8 /* doc/performance.md: the cost per frame walked */
#define SITES_DEPTH_MAX     64

/* At sites_begin: the depth and the user's library patterns (file name
 * globs, comma-separated; NULL for none), and the Python interpreter if the
 * process has one.  why: what is off (Python lines), empty otherwise. */
void sites_frames_begin(int depth, const char *libs, char *why, size_t len);
int sites_frames_depth(void);
/* site_begin.c: what of the program lines is off on this rank (Python's), or "" */
const char *sites_frames_why(void);
/* The class of the module holding pc (SITES_MOD_*): lock-free, no
 * allocation (site_modules.h and a fixed cache). */
int sites_module_class(uintptr_t pc);

/* ---- site_python.c: the Python line that made the call */
/* 0, or -1 with the reason in why (then sites_py_where always fails) */
int sites_py_begin(char *why, size_t len);
/* The calling thread's current Python line, as an index + 1 into the table
 * below; 0 when it cannot be read.  No GIL needed: it reads the thread's
 * own frame, which does not change while the thread is in the MPI call. */
int sites_py_where(void);
#define SITES_PY_LINES 512 /* Python lines a rank keeps; calls from further ones have none */
typedef struct sites_py_line {
    uintptr_t code; /* the code object, 0: free */
    long addr;      /* the instruction's offset in it, bytes */
    uintptr_t filename;
    int ready; /* 1 once the fields below are whole (the merge reads only those) */
    int line;
    char file[240];
    char func[64];
} sites_py_line_t;
const sites_py_line_t *sites_py_line(int where);
/* Before sites_py_begin: SITES_PY_LINES zero-filled entries to keep the
 * table in (the rank's mapped state file, for the merge), else allocated. */
void sites_py_place(sites_py_line_t *area);
void sites_py_end(void);

#endif
