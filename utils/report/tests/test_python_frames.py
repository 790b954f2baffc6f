"""site_python.c on a live interpreter, without MPI: the Python line behind
a call made with the GIL released, as mpi4py makes its MPI calls.  A ctypes
call (CDLL) releases the GIL too, so sites_py_where() called through ctypes
reads the calling thread's frame as the wrappers do.  Each call below is
marked "# at:NAME"; the line read must be the marked one, with its file and
function.

  python3 test_python_frames.py LIBSITE_PYTHON.so

Exits 0 when every line is right, 1 otherwise; with an interpreter
site_python.c cannot read, it prints the reason and exits 77 (skip).
Run by ctests/run.sh (unit/report-python-frames) with this machine's
python3; by hand with another (in a chroot: scripts/chroot.sh run SUITE).
"""
import ctypes
import os
import re
import sys

lib = ctypes.CDLL(sys.argv[1])
why = ctypes.create_string_buffer(400)
version = "%d.%d.%d" % sys.version_info[:3]
if lib.sites_py_begin(why, len(why)) != 0:
    print("SKIP Python %s: %s" % (version, why.value.decode()))
    sys.exit(77)


class Line(ctypes.Structure):
    _fields_ = [("code", ctypes.c_size_t), ("addr", ctypes.c_long), ("filename", ctypes.c_size_t),
                ("ready", ctypes.c_int), ("line", ctypes.c_int), ("file", ctypes.c_char * 240),
                ("func", ctypes.c_char * 64)]


lib.sites_py_line.restype = ctypes.POINTER(Line)


def read(w):
    if not w:
        return None
    e = lib.sites_py_line(w).contents
    return (os.path.basename(e.file.decode()), e.line, e.func.decode())


def in_function():
    return read(lib.sites_py_where())  # at:function


marks = {}
for n, text in enumerate(open(__file__), 1):
    m = re.search(r"# at:(\w+)$", text.rstrip())
    if m:
        marks[m.group(1)] = n
me = os.path.basename(__file__)
got = {
    "function": in_function(),
    "module": read(lib.sites_py_where()),  # at:module
}
loop = [read(lib.sites_py_where()) for i in range(3)]  # at:loop
twice = (read(lib.sites_py_where()),  # at:first
         read(lib.sites_py_where()))  # at:second
fails = 0
for name, want_func in (("function", "in_function"), ("module", "<module>")):
    want = (me, marks[name], want_func)
    if got[name] != want:
        print("FAIL %s: %s, want %s" % (name, got[name], want))
        fails += 1
# a comprehension is its own function before 3.12, inlined from 3.12 on
if [x[:2] for x in loop] != [(me, marks["loop"])] * 3 or len(set(loop)) != 1:
    print("FAIL loop: %s, want line %d three times" % (loop, marks["loop"]))
    fails += 1
if [x and x[:2] for x in twice] != [(me, marks["first"]), (me, marks["second"])]:
    print("FAIL two lines of one statement: %s, want %d and %d" % (twice, marks["first"], marks["second"]))
    fails += 1
if fails:
    sys.exit(1)
print("Python %s: every line exact (%s)" % (version, ", ".join("%s %d" % (k, v) for k, v in sorted(marks.items()))))
