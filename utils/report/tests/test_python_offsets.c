/* site_python.c: the layout of the interpreter's frames read from CPython
 * 3.13's and later _Py_DebugOffsets (the start of _PyRuntime), without an
 * interpreter: the numbers Debian 13's python3.13 (3.13.5) and sid's
 * python3.14 (3.14.10) publish, taken as they are; a later version in a
 * known order taken too; and the areas refused, each with its reason (no
 * cookie, before 3.13, free-threaded, numbers out of place). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "expect.h"
#include "site_python.h"

/* _PyRuntime's first words, read with ctypes in the trixie and sid chroots
 * (word 0, the cookie, is set below) */
static const uint64_t py313[] = {
    0,    0x30d05f0, 0,    283376, 608, 632, 194976, 7272, 7264, 7344, 7400, 7656, 7640, 7648, 16,
    7752, 0,         7768, 7760,   304, 0,   8,      16,   72,   152,  160,  232,  32,   80,   8,
    0,    56,        72,   70,     208, 112, 120,    128,  136,  68,   52,   96,   104,  200,  16,
    8,    416,       24,   88,     168, 32,  24,     16,   40,   24,   16,   48,   32,   40,   24,
    16,   32,        16,   24,     40,  16,  32,     64,   32,   16,   40,   240,  200};
static const uint64_t py314[] = {
    0,  0x30e0af0, 0,    316616, 784, 808, 225864, 7280, 7272, 7344, 7360, 7408, 7688, 7672, 7680, 16, 7784,
    0,  7800,      7792, 7992,   0,   832, 0,      8,    16,   72,   152,  160,  232,  32,   88,   8,  0,
    56, 80,        74,   64,     0,   216, 112,    120,  128,  136,  68,   52,   96,   104,  208,  0,  16,
    8,  416,       24,   88,     168, 40,  32,     16,   40,   24,   16,   200,  24,   40,   32,   48, 32,
    40, 24,        16,   32,     16,  24,  40,     16,   32,   64,   32,   16,   40};

static unsigned char area[SITES_PY_DEBUG_BYTES + 64];

static void fresh(const uint64_t *w, size_t n)
{
    memset(area, 0, sizeof area);
    memcpy(area, w, n);
    memcpy(area, "xdebugpy", 8);
}

static void set(int word, uint64_t v) { memcpy(area + 8 * word, &v, sizeof v); }

static void check(const char *what, size_t frame, size_t exe, size_t instr, size_t file, size_t name,
                  size_t code)
{
    sites_py_layout_t l;
    char why[200] = "";
    int rc = sites_py_layout_from_debug(area, &l, why, sizeof why);
    EXPECT(rc == 0, "%s refused: %s", what, why);
    if (rc) return;
    EXPECT(l.chain == SITES_PY_DIRECT, "%s: chain %d", what, l.chain);
    EXPECT(l.ts_frame == frame, "%s: PyThreadState.current_frame %zu", what, l.ts_frame);
    EXPECT(l.fr_code == exe && l.fr_instr == instr, "%s: f_executable %zu, instr_ptr %zu", what, l.fr_code,
           l.fr_instr);
    EXPECT(l.co_filename == file && l.co_name == name && l.co_code == code, "%s: code %zu %zu %zu", what,
           l.co_filename, l.co_name, l.co_code);
    EXPECT(l.str_length == 16 && l.str_state == 32 && l.str_data == 40, "%s: str %zu %zu %zu", what,
           l.str_length, l.str_state, l.str_data);
    EXPECT(l.ob_type == 8 && l.compact_ascii == 3u << 5 && l.lasti_unit == 0, "%s: ob_type %zu, bits %#x",
           what, l.ob_type, l.compact_ascii);
}

static void refused(const char *what, const char *reason)
{
    sites_py_layout_t l;
    char why[200] = "";
    int rc = sites_py_layout_from_debug(area, &l, why, sizeof why);
    EXPECT(rc == -1 && strstr(why, reason), "%s: %d, '%s' (want '%s')", what, rc, why, reason);
}

int main(void)
{
    /* the numbers offsetof() gives against each version's headers */
    fresh(py313, sizeof py313);
    check("3.13.5", 72, 0, 56, 112, 120, 200);
    fresh(py314, sizeof py314);
    check("3.14.10", 72, 0, 56, 112, 120, 208);
    /* a later version in a known order: read with it */
    set(1, 0x030f00a0);
    check("3.15 in 3.14's order", 72, 0, 56, 112, 120, 208);
    fresh(py313, sizeof py313);
    set(1, 0x030f00a0);
    check("3.15 in 3.13's order", 72, 0, 56, 112, 120, 200);

    /* refusals, each with its reason */
    struct {
        const char *what;
        int word;
        uint64_t v;
        const char *reason;
    } bad[] = {
        {"no cookie", 0, 0x7962756765646778ull, "cookie"},
        {"3.12", 1, 0x030c04f0, "not 3.13 or later"},
        {"free-threaded", 2, 1, "free-threaded"},
        {"PyObject moved", 45, 16, "PyObject"},
        {"thread state shifted", 20, 7264, "thread state"},
        {"current_frame past the thread state", 23, 400, "thread state"},
        {"instr_ptr past the frame", 31, 80, "interpreter frame"},
        {"instr_ptr on f_executable", 31, 0, "interpreter frame"},
        {"co_code_adaptive before co_name", 43, 96, "code object"},
        {"co_filename unaligned", 35, 113, "code object"},
        {"unicode length past PyASCIIObject", 69, 40, "unicode object"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fresh(py313, sizeof py313);
        set(bad[i].word, bad[i].v);
        refused(bad[i].what, bad[i].reason);
    }
    /* 3.14 said by a 3.13 order, and 3.13 by 3.14's */
    fresh(py314, sizeof py314);
    set(1, 0x030d05f0);
    refused("3.14's numbers as 3.13", "not laid out as 3.13's");
    fresh(py313, sizeof py313);
    set(1, 0x030e0af0);
    refused("3.13's numbers as 3.14", "not laid out as 3.14's");
    /* a later version whose numbers moved (three more before the thread
     * state, as 3.14 added to the interpreter's): said, not read */
    fresh(py314, sizeof py314);
    memmove(area + 8 * 22 + 24, area + 8 * 22, 8 * (81 - 22 - 3));
    set(1, 0x030f00a0);
    set(22, 7700);
    set(23, 7710);
    set(24, 7720);
    refused("3.15 moved", "neither 3.13's nor 3.14's");

    if (!failures) printf("test_python_offsets: all passed\n");
    return failures != 0;
}
