/*
 * papi-mpit-report: numbers for people (bytes in KiB/MiB/GiB, times in
 * µs/ms/s, 3 significant digits) and the recorded command line, quoted as a
 * shell needs it.  The exact values stay in CSV, JSON and the page's
 * attributes; this is only what a person reads.  Pure C, no MPI, no PAPI.
 */
#include "report.h"

#include <math.h>
#include <string.h>

/* The event units that are sizes or durations: what one unit is worth, in
 * bytes or in seconds.  Names as the component and PAPI give them. */
static const struct {
    const char *name;
    int kind;
    double scale;
} UNITS[] = {
    {"bytes", REPORT_UNIT_BYTES, 1},
    {"byte", REPORT_UNIT_BYTES, 1},
    {"B", REPORT_UNIT_BYTES, 1},
    {"ns", REPORT_UNIT_TIME, 1e-9},
    {"nsec", REPORT_UNIT_TIME, 1e-9},
    {"nanoseconds", REPORT_UNIT_TIME, 1e-9},
    {"us", REPORT_UNIT_TIME, 1e-6},
    {"usec", REPORT_UNIT_TIME, 1e-6},
    {"microseconds", REPORT_UNIT_TIME, 1e-6},
    {"ms", REPORT_UNIT_TIME, 1e-3},
    {"msec", REPORT_UNIT_TIME, 1e-3},
    {"milliseconds", REPORT_UNIT_TIME, 1e-3},
    {"s", REPORT_UNIT_TIME, 1},
    {"sec", REPORT_UNIT_TIME, 1},
    {"seconds", REPORT_UNIT_TIME, 1},
};

/* The shown units, smallest first: each step is worth step[i] of the one before. */
static const char *const BYTE_UNITS[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
static const char *const TIME_UNITS[] = {"ns", "\xc2\xb5s", "ms", "s"}; /* µ in UTF-8 */

/* integers exact, others with enough digits */
void report_fmt_num(char *buf, size_t len, double v)
{
    if (v == floor(v) && fabs(v) < 1e17)
        snprintf(buf, len, "%.0f", v);
    else if (fabs(v) >= 1000)
        snprintf(buf, len, "%.1f", v);
    else
        snprintf(buf, len, "%.4g", v);
}

int report_unit_kind(const char *units, double *scale)
{
    for (size_t i = 0; units && i < sizeof UNITS / sizeof UNITS[0]; i++)
        if (strcmp(units, UNITS[i].name) == 0) {
            if (scale) *scale = UNITS[i].scale;
            return UNITS[i].kind;
        }
    if (scale) *scale = 1;
    return REPORT_UNIT_NONE;
}

/* x (0 <= x < 999.5) with 3 significant digits; below 1 (a value just under
 * the next unit, 0.976 MiB) with 3 decimals. */
static void three_digits(char *buf, size_t len, double x, const char *unit)
{
    const char *fmt = x >= 99.95 ? "%.0f %s" : x >= 9.995 ? "%.1f %s" : x >= 0.9995 ? "%.2f %s" : "%.3f %s";
    snprintf(buf, len, fmt, x, unit);
}

void report_fmt_human(char *buf, size_t len, double v, const char *units)
{
    double scale;
    int kind = report_unit_kind(units, &scale);
    if (kind == REPORT_UNIT_NONE || !isfinite(v)) {
        report_fmt_num(buf, len, v);
        return;
    }
    const char *sign = v < 0 ? "-" : "";
    double x = fabs(v) * scale; /* bytes, or seconds */
    char body[64];
    if (kind == REPORT_UNIT_BYTES) {
        size_t u = 0, last = sizeof BYTE_UNITS / sizeof BYTE_UNITS[0] - 1;
        if (x < 999.5 && x == floor(x)) { /* whole bytes below a KiB: exact */
            snprintf(buf, len, "%s%.0f B", sign, x);
            return;
        }
        while (u < last && x >= 999.5) x /= 1024, u++;
        three_digits(body, sizeof body, x, BYTE_UNITS[u]);
    } else {
        static const double per[] = {1e-9, 1e-6, 1e-3, 1};
        size_t u = 0, last = sizeof per / sizeof per[0] - 1;
        if (x == 0) {
            snprintf(buf, len, "0 s");
            return;
        }
        /* the largest unit that leaves at least 1 of it, moved up when the
         * rounding gives 1000 of it */
        while (u < last && x / per[u + 1] >= 1) u++;
        double y = x / per[u];
        if (u < last && y >= 999.5) y = x / per[++u];
        if (u == last && y >= 999.5)
            snprintf(body, sizeof body, "%.0f s", y);
        else
            three_digits(body, sizeof body, y, TIME_UNITS[u]);
    }
    snprintf(buf, len, "%s%s", sign, body);
}

void report_fmt_seconds(char *buf, size_t len, double s)
{
    if (isfinite(s) && s >= 0.9995)
        snprintf(buf, len, "%.3f s", s);
    else
        report_fmt_human(buf, len, s, "s");
}

int report_text_width(const char *s)
{
    int n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xc0) != 0x80; /* UTF-8 continuation bytes take no column */
    return n;
}

/* Characters a POSIX shell takes literally in a word. */
static int shell_plain(const char *s)
{
    if (!*s) return 0;
    for (; *s; s++)
        if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-", *s)) return 0;
    return 1;
}

void report_fmt_command(char *buf, size_t len, const char *args, size_t n)
{
    size_t o = 0;
    if (!len) return;
    buf[0] = '\0';
    for (size_t i = 0; i < n;) {
        const char *a = args + i;
        size_t alen = strnlen(a, n - i);
        char word[4096];
        if (alen >= sizeof word - 8) alen = sizeof word - 8; /* no command is this long; cut, not overrun */
        char arg[4096];
        memcpy(arg, a, alen);
        arg[alen] = '\0';
        if (shell_plain(arg)) {
            snprintf(word, sizeof word, "%s", arg);
        } else { /* in single quotes, each ' as '\'' */
            size_t w = 0;
            word[w++] = '\'';
            for (const char *p = arg; *p && w < sizeof word - 6; p++) {
                if (*p == '\'') {
                    memcpy(word + w, "'\\''", 4);
                    w += 4;
                } else {
                    word[w++] = *p;
                }
            }
            word[w++] = '\'';
            word[w] = '\0';
        }
        int k = snprintf(buf + o, len - o, "%s%s", o ? " " : "", word);
        if (k < 0 || (size_t)k >= len - o) { /* too long: end on a whole word, marked */
            buf[o] = '\0';
            if (o + 4 < len) snprintf(buf + o, len - o, "%s...", o ? " " : "");
            return;
        }
        o += (size_t)k;
        i += strnlen(a, n - i) + 1;
    }
}
