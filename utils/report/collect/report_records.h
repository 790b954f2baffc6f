/*
 * papi-mpit-report: a sequence of per-rank records, each written as its
 * differences from the record before it (see report_records.c).  No MPI.
 */
#ifndef PAPI_MPIT_REPORT_RECORDS_H
#define PAPI_MPIT_REPORT_RECORDS_H

#include <stddef.h>

/* A growing buffer.  When memory runs out, what did not fit is dropped
 * and oom is set: the contents are then incomplete, and the collection
 * leaves the ranks concerned out (report_collect.c) instead of ending the
 * program. */
typedef struct records_buf {
    char *s;
    size_t len, cap;
    int oom;
} records_buf_t;

void records_free(records_buf_t *b);

/* Appends rec[0 .. len-1] (lines ending in '\n', none empty) to the
 * sequence out, written against prev (the record before it, NULL for none). */
void records_put(records_buf_t *out, const records_buf_t *prev, const char *rec, size_t len);

/* Decodes the record at *pos of seq[0 .. len-1] against prev (the record
 * before it, NULL for none) into cur, and moves *pos past it.  0, or -1 at
 * the end of seq, on a malformed record, or out of memory (cur->oom). */
int records_get(const char *seq, size_t len, size_t *pos, const records_buf_t *prev, records_buf_t *cur);

/* Appends the sequence seq[0 .. len-1], whose first record is written
 * against ref (NULL: it stands alone), to out, whose last record is *last
 * (empty for none); *last becomes the last record of seq.  Returns the
 * records appended, or -1 if seq is malformed (out is then unchanged). */
int records_join(records_buf_t *out, records_buf_t *last, const char *seq, size_t len,
                 const records_buf_t *ref);

/* A record's template: each line whose last tab-separated field looks like
 * a number (digits and + - . e : ,) without that field, the others whole.
 * Ranks that measured the same events with the same outcome on the same
 * host have the same template, so a record written against its template
 * is its values only; records_hash tells two templates apart. */
void records_template(const char *rec, size_t len, records_buf_t *t);
unsigned long long records_hash(const records_buf_t *t);

/* rec with its program matrix row ("T\t" line: receiver:msgs:bytes cells)
 * in runs: consecutive receivers with the same messages and bytes as
 * first-last:msgs:bytes (site_job.c reads both), into out (replaced).  A
 * dense row of equal messages is then two cells, not one per peer. */
void records_compact_rows(const char *rec, size_t len, records_buf_t *out);

#endif
