/*
 * What the engine's unit tests share: the pass/fail count, the checks, a
 * counter read by name, and each group of tests (test_engine.c runs them).
 */
#ifndef MPIT_TEST_ENGINE_H
#define MPIT_TEST_ENGINE_H

#include <stdint.h>
#include "../mpit_engine.h"
#include "../mpit_metrics.h"

extern int passed, failed;

void check(int ok, const char *where, int line, const char *fmt, ...);
#define CHECK(c, ...) check((c), __FILE__, __LINE__, __VA_ARGS__)
#define EQ(got, want, what)                                                                                  \
    do {                                                                                                     \
        long long g_ = (long long)(got), w_ = (long long)(want);                                             \
        CHECK(g_ == w_, "%s: got %lld, want %lld", (what), g_, w_);                                          \
    } while (0)

/* the counter NAME read at NOW; a check fails when there is none */
int64_t rd(mpit_engine_t *e, const char *name, uint64_t now);

/* test_engine_streams.c: every DIR/NAME.stream, in name order */
void run_streams(const char *dir);
/* test_engine_cases.c: hand-built rows for the edge cases */
void test_pair_capacity(void);
void test_rows(void);
void test_raw(void);
void test_sequence_window(void);
void test_portable(void);
void test_gated(void);
/* test_engine_stress.c: threads writing and reading one engine */
void test_stress(void);
void test_stress_mpich(void);
void test_activate_race(void);

#endif
