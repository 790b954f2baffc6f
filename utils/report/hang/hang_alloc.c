/*
 * papi-mpit-report: why a run hangs (report_hang.h): its memory, every
 * allocation checked, and its text of any length.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_hang.h"
#include "hang_private.h"

/* ---- memory: every allocation checked; a merge that cannot hold its
 * states says so and ends, never a partial or crashed report */
void *hang_alloc(size_t n, size_t size, const char *what)
{
    void *p = size && n > SIZE_MAX / size ? NULL : calloc(n ? n : 1, size ? size : 1);
    if (!p) {
        fprintf(stderr, "papi-mpit-report: --merge: out of memory: %zu x %zu bytes for %s\n", n, size, what);
        exit(1);
    }
    return p;
}

void *hang_grow(void *p, size_t n, size_t size, const char *what)
{
    void *q = size && n > SIZE_MAX / size ? NULL : realloc(p, n * size);
    if (!q) {
        fprintf(stderr, "papi-mpit-report: --merge: out of memory: %zu x %zu bytes for %s\n", n, size, what);
        exit(1);
    }
    return q;
}

char *hang_strdup(const char *s, const char *what)
{
    size_t n = strlen(s) + 1;
    return memcpy(hang_alloc(n, 1, what), s, n);
}

/* ---- text of any length */
void hang_sb_printf(sbuf_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
    va_end(ap);
    if (w < 0) return;
    if (!b->s || b->n + (size_t)w + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + (size_t)w + 1) cap *= 2;
        b->s = hang_grow(b->s, cap, 1, "a sentence");
        b->cap = cap;
        va_start(ap, fmt);
        vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
    }
    b->n += (size_t)w;
}
