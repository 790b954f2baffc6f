/*
 * The engine tests' checks: each counted passed or failed, a failure
 * printed with its place; and a counter read by its name.
 */
#include <stdarg.h>
#include <stdio.h>
#include "test_engine.h"

int passed, failed;

void check(int ok, const char *where, int line, const char *fmt, ...)
{
    va_list ap;

    if (ok) {
        passed++;
        return;
    }
    failed++;
    printf("FAIL %s:%d: ", where, line);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

int64_t rd(mpit_engine_t *e, const char *name, uint64_t now)
{
    int id = mpit_engine_find_counter(e, name);
    CHECK(id >= 0, "no counter %s", name);
    return id >= 0 ? mpit_engine_read(e, id, now) : -1;
}
