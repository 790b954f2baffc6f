/*
 * papi-mpit-report: the small pieces every renderer uses (the table, JSON,
 * SVG and HTML writers, the matrices): report.json's strings and numbers
 * (jansson's values), strings escaped for XML/HTML, the heatmaps' colours
 * and how often their axes can be labelled.
 * It depends on nothing of the report's own, so that the renderers depend
 * on it and never on each other in a circle.  No MPI.
 */
#include <jansson.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* A JSON string of s: jansson takes only UTF-8, so a byte that is not part
 * of a valid sequence (a host name or an argument in another encoding)
 * becomes U+FFFD rather than making the whole document unwritable. */
json_t *report_json_string(const char *s)
{
    json_t *j = json_string(s);
    if (j) return j;
    size_t n = strlen(s);
    char *buf = malloc(3 * n + 1), *w = buf;
    if (!buf) return NULL;
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        /* the sequence's length from its first byte (0: cannot start one),
         * then its code point: not overlong, no surrogate, at most U+10FFFF */
        int len = *p < 0x80                 ? 1
                  : *p >= 0xc2 && *p < 0xe0 ? 2
                  : *p >= 0xe0 && *p < 0xf0 ? 3
                  : *p >= 0xf0 && *p < 0xf5 ? 4
                                            : 0;
        unsigned long cp = len == 1 ? *p : len == 2 ? *p & 0x1f : len == 3 ? *p & 0x0f : *p & 0x07;
        int ok = len > 0;
        for (int i = 1; ok && i < len; i++) {
            ok = (p[i] & 0xc0) == 0x80;
            cp = cp << 6 | (p[i] & 0x3f);
        }
        if (ok && len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000))) ok = 0;
        if (ok && len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ok = 0;
        if (ok) {
            memcpy(w, p, len);
            w += len;
            p += len;
        } else {
            memcpy(w, "\xef\xbf\xbd", 3);
            w += 3;
            p++;
        }
    }
    *w = '\0';
    j = json_string(buf);
    free(buf);
    return j;
}

/* As report_fmt_json_num: null when not finite, an integer when v is one
 * (below 1e17), else a double (printed to round-trip). */
json_t *report_json_number(double v)
{
    if (!isfinite(v)) return json_null();
    if (v == floor(v) && fabs(v) < 1e17) return json_integer((json_int_t)v);
    return json_real(v);
}

/* A double rounded to 9 decimals (seconds to the ns), always a double. */
json_t *report_json_fixed9(double v)
{
    if (!isfinite(v)) return json_null();
    char b[512];
    snprintf(b, sizeof b, "%.9f", v);
    return json_real(strtod(b, NULL));
}

void report_xml_str(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        default:
            if ((unsigned char)*s >= 0x20) fputc(*s, out);
        }
    }
}

int report_senders_label_step(int n, double cell_px, double font_px, int across)
{
    int digits = 1;
    for (int v = n - 1; v >= 10; v /= 10) digits++;
    /* side by side: the widest label, a digit being about 0.64 em in DejaVu
     * Sans (rsvg's usual sans-serif), less in most others, and 4 px between;
     * one above the other: the line height */
    double need = across ? digits * 0.65 * font_px + 4 : 1.2 * font_px;
    static const int mult[] = {1, 2, 5};
    for (int p = 1;; p *= 10)
        for (int i = 0; i < 3; i++) {
            int k = mult[i] * p;
            if (k * cell_px >= need || k >= n) return k;
        }
}

/* Blues from light to dark for 0 < t <= 1 (zero has its own grey). */
void report_heat_colour(double t, char *buf, size_t len)
{
    static const double stops[3][3] = {{198, 219, 239}, {66, 146, 198}, {8, 48, 107}};
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    int i = t < 0.5 ? 0 : 1;
    double f = t < 0.5 ? t * 2 : (t - 0.5) * 2;
    int rgb[3];
    for (int k = 0; k < 3; k++) rgb[k] = (int)lround(stops[i][k] + (stops[i + 1][k] - stops[i][k]) * f);
    snprintf(buf, len, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

/* The fields of s separated by sep, cut in place (the records' lines) */
int report_split(char *s, char sep, char **f, int max)
{
    int n = 0;
    while (n < max) {
        f[n++] = s;
        char *e = strchr(s, sep);
        if (!e) break;
        *e = '\0';
        s = e + 1;
    }
    return n;
}
