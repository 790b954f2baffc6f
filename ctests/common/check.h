/* Assertions for the MPI tests: every failure says where and what, and the
 * test's exit code (per rank) says whether any failed. 77 means skipped. */
#ifndef MPIT_CHECK_H
#define MPIT_CHECK_H

#include <mpi.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_SKIP 77

extern int check_failures;
extern int check_rank;

#define CHECK(cond, ...)                                                                                     \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            check_failures++;                                                                                \
            fprintf(stderr, "rank %d: FAIL %s:%d: %s: ", check_rank, __FILE__, __LINE__, #cond);             \
            fprintf(stderr, __VA_ARGS__);                                                                    \
            fputc('\n', stderr);                                                                             \
        }                                                                                                    \
    } while (0)

#define CHECK_PAPI(call)                                                                                     \
    do {                                                                                                     \
        int check_rc_ = (call);                                                                              \
        CHECK(check_rc_ == PAPI_OK, "%s returned %d (%s)", #call, check_rc_, PAPI_strerror(check_rc_));      \
    } while (0)

/* The MPI family of the running library, from its version string. */
int check_is_openmpi(void);
/* 1 on an MPI whose MPI_T event data cannot be read without aborting
 * (MPICH 5.0: MPI_T_event_read and MPI_T_event_copy assert on the element's
 * built-in datatype): there element aggregates and senders are refused. */
int check_event_data_unreadable(void);
/* 1 on MPICH of that release or later (4.1 on: element 1 of the queue
 * events is the tag, not the context id, so senders cannot be told). */
int check_mpich_at_least(int major, int minor);
/* 1 when name can be added in a throwaway event set (the MPI has it). */
int check_has_event(const char *name);
/* A new event set holding name alone; PAPI_NULL (and nothing left over)
 * when the name cannot be added. */
int check_one_event_set(const char *name);
/* PAPI_library_init or exit. */
void check_papi_init(void);
/* Exit status for this rank; prints a PASS line on rank 0 when all passed. */
int check_finish(const char *test);
/* The measuring rank lets every other rank go on; the others wait for it.
 * Keeps messages of later collectives from reaching the measuring rank while
 * it measures.  Every rank calls it. */
void check_release(int measuring_rank);
/* Captures what this process writes on stderr between begin and end; end
 * returns it (and writes it on to stderr too when echo is set, for the log). */
void check_capture_begin(void);
const char *check_capture_end(int echo);
/* Stops the job with status TEST_SKIP on every rank. */
void check_skip(const char *why);

#endif
