/* The report tool's unit tests: one rendering of a job (text, CSV, JSON,
 * HTML, SVG) into memory, for the test to search.  The caller frees it. */
#ifndef REPORT_TEST_RENDER_H
#define REPORT_TEST_RENDER_H

#include <stdio.h>

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

#endif
