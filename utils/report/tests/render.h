/* The report tool's unit tests: one rendering of a job (text, CSV, JSON,
 * HTML, SVG) into memory, for the test to search.  The caller frees it.
 * report.json is checked parsed (jansson), its members against JSON texts. */
#ifndef REPORT_TEST_RENDER_H
#define REPORT_TEST_RENDER_H

#include <jansson.h>

#include <stdio.h>
#include <stdlib.h>

#include "report.h"

#include "expect.h"

typedef int (*render_t)(FILE *, const report_job_t *);

static char *render(render_t f, const report_job_t *job)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    EXPECT(f(m, job) == 0, "render");
    fclose(m);
    return text;
}

/* report.json of job, parsed (the caller decrefs it); its text in *text
 * (the caller frees it), for the messages */
static inline json_t *render_json(const report_job_t *job, char **text)
{
    *text = render(report_write_json, job);
    json_error_t err;
    json_t *doc = json_loads(*text, 0, &err);
    EXPECT(doc != NULL, "report.json does not parse: %s, line %d", err.text, err.line);
    return doc;
}

/* 1 when v is want's JSON text: the same members, types and values */
static inline int json_is(const json_t *v, const char *want)
{
    json_t *w = json_loads(want, JSON_DECODE_ANY, NULL);
    int eq = v && w && json_equal(v, w);
    json_decref(w);
    return eq;
}

/* the name of an object's last member ("" when none) */
static inline const char *json_last_key(json_t *o)
{
    const char *last = "";
    for (void *it = json_object_iter(o); it; it = json_object_iter_next(o, it))
        last = json_object_iter_key(it);
    return last;
}

#endif
