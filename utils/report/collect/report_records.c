/*
 * papi-mpit-report: per-rank records as differences from the record before.
 *
 * Ranks mostly send the same lines (event names, units, the reasons for
 * skipped events) with other values, and the collection carries 3 bytes
 * per message, so each record of a sequence is written against the one
 * before it, line by line at the same position:
 *   "=N"      the next N lines are the previous record's
 *   "~VALUE"  the previous record's line with its last tab-separated field
 *             replaced by VALUE
 *   "^M\tF.." the previous record's line with the fields whose bits are set
 *             in M (hex, bit i: field i) replaced, in order, by F..: for
 *             lines whose values sit between names (a call site's: its
 *             module and offset first, its program line last)
 *   "\LINE"   LINE as is, when it starts with '=', '~', '^' or '\'
 *   LINE      as is
 * and an empty line ends the record (the shortest form is written).  About
 * 90 bytes a rank instead of 2.7 kB for the default events of Open MPI
 * 4.1.4.
 */
#include "report_records.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct line {
    const char *s;
    size_t len; /* without the '\n' */
} line_t;

void records_free(records_buf_t *b)
{
    free(b->s);
    *b = (records_buf_t){0};
}

/* 0, or -1 (b->oom set) when b cannot hold more bytes more */
static int grow(records_buf_t *b, size_t more)
{
    if (b->len + more + 1 <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + more + 1) cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) {
        b->oom = 1;
        return -1;
    }
    b->s = s;
    b->cap = cap;
    return 0;
}

static void put(records_buf_t *b, const char *s, size_t n)
{
    if (grow(b, n)) return;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

/* The lines of s[0 .. len-1] but empty ones (a last one without '\n' too);
 * *n gets their number.  NULL when memory runs out. */
static line_t *split(const char *s, size_t len, size_t *n)
{
    size_t count = 0;
    *n = 0;
    for (const char *p = s, *end = s + len; p < end && (p = memchr(p, '\n', (size_t)(end - p))); p++) count++;
    line_t *lines = malloc((count + 2) * sizeof *lines);
    if (!lines) return NULL;
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(s + i, '\n', len - i);
        size_t l = nl ? (size_t)(nl - (s + i)) : len - i;
        if (l) lines[(*n)++] = (line_t){s + i, l};
        i += l + 1;
    }
    return lines;
}

/* Length of the line up to and including its last tab, 0 without one. */
static size_t head_len(line_t l)
{
    for (size_t i = l.len; i > 0; i--)
        if (l.s[i - 1] == '\t') return i;
    return 0;
}

#define MAX_FIELDS 32 /* fields a "^" line can name: its mask's bits */

/* Splits l at its tabs into f (at most max); the count, or 0 when there
 * are more. */
static int fields_of(line_t l, line_t *f, int max)
{
    int n = 0;
    for (const char *p = l.s, *end = l.s + l.len;; n++) {
        const char *at = memchr(p, '\t', (size_t)(end - p));
        if (n == max) return 0;
        f[n] = (line_t){p, (size_t)((at ? at : end) - p)};
        if (!at) return n + 1;
        p = at + 1;
    }
}

/* back to its first at bytes */
static void cut(records_buf_t *b, size_t at)
{
    b->len = at;
    if (b->s) b->s[at] = '\0';
}

static int same(line_t a, line_t b) { return a.len == b.len && memcmp(a.s, b.s, a.len) == 0; }

/* c written against p: "^MASK" (hex, bit i: field i differs) and each
 * differing field after a tab; -1 (out unchanged) where the counts of
 * fields differ.  (Writing the fields that differ the same way at their
 * ':'s, a call site's calls:time:...:longest:shortest, saved a fifth of
 * the bytes of bench/records_cost.c's site records but doubled the time
 * to read them: no gain at rank 0 even at this VM's 22 ns a byte.) */
static int put_delta(records_buf_t *out, line_t p, line_t c)
{
    line_t fp[MAX_FIELDS], fc[MAX_FIELDS];
    int n = fields_of(c, fc, MAX_FIELDS);
    if (n < 2 || fields_of(p, fp, MAX_FIELDS) != n) return -1;
    unsigned long mask = 0;
    for (int i = 0; i < n; i++)
        if (!same(fp[i], fc[i])) mask |= 1UL << i;
    char b[24];
    put(out, b, (size_t)snprintf(b, sizeof b, "^%lx", mask));
    for (int i = 0; i < n; i++)
        if (mask >> i & 1) put(out, "\t", 1), put(out, fc[i].s, fc[i].len);
    return 0;
}

/* The "^" line l against p, into cur; -1 if l is malformed. */
static int get_delta(records_buf_t *cur, line_t p, line_t l)
{
    line_t fp[MAX_FIELDS], fl[MAX_FIELDS + 1];
    int np = fields_of(p, fp, MAX_FIELDS), nl = fields_of(l, fl, MAX_FIELDS + 1), used = 1;
    char *end;
    if (!np || !nl || l.len < 2 || !strchr("0123456789abcdef", l.s[1])) return -1;
    unsigned long mask = strtoul(l.s + 1, &end, 16);
    if (end != fl[0].s + fl[0].len || (np < MAX_FIELDS && mask >> np)) return -1;
    for (int i = 0; i < np; i++) {
        if (i) put(cur, "\t", 1);
        if (!(mask >> i & 1)) { /* a run of p's fields: one copy */
            int j = i;
            while (j + 1 < np && !(mask >> (j + 1) & 1)) j++;
            put(cur, fp[i].s, (size_t)(fp[j].s + fp[j].len - fp[i].s));
            i = j;
            continue;
        }
        if (used == nl) return -1;
        put(cur, fl[used].s, fl[used].len);
        used++;
    }
    return used == nl ? 0 : -1;
}

static void put_run(records_buf_t *out, size_t run)
{
    char b[32];
    if (run) put(out, b, (size_t)snprintf(b, sizeof b, "=%zu\n", run));
}

void records_put(records_buf_t *out, const records_buf_t *prev, const char *rec, size_t len)
{
    size_t np = 0, nc = 0, run = 0;
    line_t *p = split(prev ? prev->s : "", prev ? prev->len : 0, &np), *c = split(rec, len, &nc);
    if (!p || !c) {
        out->oom = 1;
        free(p), free(c);
        return;
    }
    for (size_t k = 0; k < nc; k++) {
        if (k < np && p[k].len == c[k].len && memcmp(p[k].s, c[k].s, c[k].len) == 0) {
            run++;
            continue;
        }
        put_run(out, run);
        run = 0;
        size_t h = k < np ? head_len(p[k]) : 0, at = out->len;
        /* "^": kept where it is shorter than the line, and than "~" */
        size_t most =
            h && h <= c[k].len && memcmp(p[k].s, c[k].s, h) == 0 && !memchr(c[k].s + h, '\t', c[k].len - h)
                ? c[k].len - h + 1
                : c[k].len;
        if (k < np && put_delta(out, p[k], c[k]) == 0 && out->len - at < most) {
            put(out, "\n", 1);
            continue;
        }
        cut(out, at);
        if (most < c[k].len) {
            put(out, "~", 1);
            put(out, c[k].s + h, c[k].len - h);
        } else {
            if (strchr("=~^\\", c[k].s[0])) put(out, "\\", 1);
            put(out, c[k].s, c[k].len);
        }
        put(out, "\n", 1);
    }
    put_run(out, run);
    put(out, "\n", 1);
    free(p);
    free(c);
}

int records_get(const char *seq, size_t len, size_t *pos, const records_buf_t *prev, records_buf_t *cur)
{
    size_t np = 0, k = 0, i = *pos;
    if (i >= len) return -1;
    line_t *p = split(prev ? prev->s : "", prev ? prev->len : 0, &np);
    cur->len = 0;
    cur->oom = !p;
    put(cur, "", 0);
    int rc = -1;
    if (!p) i = len; /* out of memory: nothing read */
    while (i < len) {
        const char *nl = memchr(seq + i, '\n', len - i);
        if (!nl) break; /* a record ends with an empty line */
        line_t l = {seq + i, (size_t)(nl - (seq + i))};
        i += l.len + 1;
        if (!l.len) {
            rc = 0;
            break;
        }
        if (l.s[0] == '=') {
            size_t n = strtoul(l.s + 1, NULL, 10);
            if (!n || k + n > np) break;
            for (; n; n--, k++) put(cur, p[k].s, p[k].len), put(cur, "\n", 1);
            continue;
        }
        if (l.s[0] == '~') {
            size_t h = k < np ? head_len(p[k]) : 0;
            if (!h) break;
            put(cur, p[k].s, h);
            put(cur, l.s + 1, l.len - 1);
        } else if (l.s[0] == '^') {
            if (k >= np || get_delta(cur, p[k], l)) break;
        } else {
            size_t skip = l.s[0] == '\\';
            put(cur, l.s + skip, l.len - skip);
        }
        put(cur, "\n", 1);
        k++;
    }
    free(p);
    if (cur->oom) rc = -1;
    if (rc == 0) *pos = i;
    return rc;
}

int records_join(records_buf_t *out, records_buf_t *last, const char *seq, size_t len,
                 const records_buf_t *ref)
{
    records_buf_t first = {0}, a = {0}, b = {0}, *prev = &a, *cur = &b;
    size_t pos = 0;
    if (records_get(seq, len, &pos, ref, &first) != 0) {
        records_free(&first);
        return -1;
    }
    size_t rest = pos;
    int n = 1;
    put(prev, first.s, first.len);
    /* the rest is written against its own records: checked, and its last found */
    while (pos < len || prev->oom) {
        if (prev->oom || records_get(seq, len, &pos, prev, cur) != 0) {
            records_free(&first);
            records_free(&a);
            records_free(&b);
            return -1;
        }
        records_buf_t *t = prev;
        prev = cur, cur = t;
        n++;
    }
    records_put(out, last && last->len ? last : NULL, first.s, first.len);
    put(out, seq + rest, len - rest);
    if (last) {
        records_free(last);
        *last = *prev;
        *prev = (records_buf_t){0};
    }
    records_free(&first);
    records_free(&a);
    records_free(&b);
    return n;
}

static int numeric(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strchr("0123456789+-.e:,", s[i])) return 0;
    return 1;
}

void records_template(const char *rec, size_t len, records_buf_t *t)
{
    size_t n = 0;
    line_t *l = split(rec, len, &n);
    t->len = 0;
    t->oom |= !l;
    put(t, "", 0);
    for (size_t k = 0; k < n; k++) {
        size_t h = head_len(l[k]);
        put(t, l[k].s, h && numeric(l[k].s + h, l[k].len - h) ? h : l[k].len);
        put(t, "\n", 1);
    }
    free(l);
}

unsigned long long records_hash(const records_buf_t *t)
{
    unsigned long long h = 0xcbf29ce484222325ULL; /* FNV-1a */
    for (size_t i = 0; i < t->len; i++) h = (h ^ (unsigned char)t->s[i]) * 0x100000001b3ULL;
    return h;
}

/* "T\t" line cells receiver:msgs:bytes, ascending: a run of consecutive
 * receivers with the same msgs:bytes becomes first-last:msgs:bytes */
static void compact_cells(records_buf_t *out, const char *s, size_t len)
{
    const char *sep = "";
    size_t i = 0;
    while (i < len) {
        const char *end = memchr(s + i, ',', len - i);
        size_t l = end ? (size_t)(end - (s + i)) : len - i;
        const char *colon = memchr(s + i, ':', l);
        if (!colon) { /* not a cell: left as is */
            put(out, sep, strlen(sep)), put(out, s + i, l);
            sep = ",", i += l + 1;
            continue;
        }
        long first = strtol(s + i, NULL, 10), last = first;
        size_t vlen = l - (size_t)(colon - (s + i)); /* ":msgs:bytes" */
        size_t j = i + l + 1;
        while (j < len) { /* the next cell: last + 1 with the same values? */
            const char *e2 = memchr(s + j, ',', len - j);
            size_t l2 = e2 ? (size_t)(e2 - (s + j)) : len - j;
            const char *c2 = memchr(s + j, ':', l2);
            if (!c2 || strtol(s + j, NULL, 10) != last + 1 || l2 - (size_t)(c2 - (s + j)) != vlen ||
                memcmp(c2, colon, vlen))
                break;
            last++;
            j += l2 + 1;
        }
        char b[48];
        int n = last > first ? snprintf(b, sizeof b, "%s%ld-%ld", sep, first, last)
                             : snprintf(b, sizeof b, "%s%ld", sep, first);
        put(out, b, (size_t)n);
        put(out, colon, vlen);
        sep = ",";
        i = j;
    }
}

void records_compact_rows(const char *rec, size_t len, records_buf_t *out)
{
    size_t n = 0;
    line_t *l = split(rec, len, &n);
    out->len = 0;
    out->oom |= !l;
    put(out, "", 0);
    for (size_t k = 0; k < n; k++) {
        const char *tab = l[k].len > 2 ? memchr(l[k].s + 2, '\t', l[k].len - 2) : NULL;
        if (l[k].s[0] == 'T' && l[k].s[1] == '\t' && tab) {
            put(out, "T\t", 2);
            compact_cells(out, l[k].s + 2, (size_t)(tab - (l[k].s + 2)));
            put(out, tab, l[k].len - (size_t)(tab - l[k].s));
        } else {
            put(out, l[k].s, l[k].len);
        }
        put(out, "\n", 1);
    }
    free(l);
}
