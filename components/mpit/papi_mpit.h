/*
 * papi_mpit.h: the mpit component's small interface beyond PAPI's events.
 *
 * Unexpected messages by sender.  A PAPI event set holds at most 64 mpit
 * events, and a job has many senders, so the whole vector is read here:
 * counts[s] is what this process counted for sender s, a rank of
 * MPI_COMM_WORLD.
 *   - MPICH with MPI_T events: unexpected messages counted from the
 *     unexp_message_enqueued event since papi_mpit_senders_start, exactly,
 *     for senders 0 .. PAPI_MPIT_SENDERS_MAX-1 on MPI_COMM_WORLD; a message
 *     from a higher rank, or on a communicator whose ranks cannot be
 *     translated to MPI_COMM_WORLD, is counted in *other (never lost from
 *     the total).
 *   - Open MPI (ob1): the largest length of the unexpected queue of each
 *     peer seen at any papi_mpit_senders_read since the start (Open MPI
 *     keeps no count by sender, only the current queue by peer): what
 *     waited, at the moments looked at, not how many arrived.
 *     *kind says which of the two a call returned.
 * Call after MPI_Init and before MPI_Finalize, from one thread.
 */
#ifndef PAPI_MPIT_H
#define PAPI_MPIT_H

#ifdef __cplusplus
extern "C" {
#endif

/* libpapi is built with hidden visibility; these are its interface */
#pragma GCC visibility push(default)

#define PAPI_MPIT_SENDERS_MAX 1024

enum papi_mpit_senders_kind {
    PAPI_MPIT_SENDERS_COUNT = 1,    /* messages counted per sender (MPICH events) */
    PAPI_MPIT_SENDERS_QUEUE_MAX = 2 /* largest queue length per peer seen (Open MPI ob1) */
};

/* PAPI_OK, or a PAPI error (PAPI_ENOEVNT when the running MPI offers
 * neither source; the reason is printed once on stderr). */
int papi_mpit_senders_start(void);
/* Fills counts[0 .. max-1] (max <= PAPI_MPIT_SENDERS_MAX); *other gets what
 * did not fit (COUNT kind; 0 otherwise); *kind which source answered. */
int papi_mpit_senders_read(long long *counts, int max, long long *other, int *kind);
int papi_mpit_senders_stop(void);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
