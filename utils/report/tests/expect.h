/* Assertions of the tests without MPI (the report tool's unit tests,
 * ctests/nompi_app.c): each failure says where and
 * what; the test's exit status says whether any failed. */
#ifndef REPORT_EXPECT_H
#define REPORT_EXPECT_H

#include <stdio.h>

static int failures;

#define EXPECT(cond, ...)                                                                                    \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            failures++;                                                                                      \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                                  \
            fprintf(stderr, __VA_ARGS__);                                                                    \
            fputc('\n', stderr);                                                                             \
        }                                                                                                    \
    } while (0)

#endif
