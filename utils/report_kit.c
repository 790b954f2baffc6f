/*
 * papi-mpit-report: the small pieces every renderer uses (the table, JSON,
 * SVG and HTML writers, the matrices): strings escaped for JSON and for
 * XML/HTML, the heatmaps' colours and how often their axes can be labelled.
 * It depends on nothing of the report's own, so that the renderers depend
 * on it and never on each other in a circle.  No MPI.
 */
#include <math.h>
#include <stdio.h>

#include "report.h"

void report_json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
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
