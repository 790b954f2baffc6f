/*
 * High-water marks that the MPI resets on every read (Open MPI's SPC
 * MAX_*_IN_QUEUE): a read by any event set consumes the maximum for all of
 * them.  Every value read is therefore offered to all event sets watching the
 * same variable, so each keeps its own true maximum since its start.
 * Lock-free: a static pool of cells, so no reader touches freed memory.
 */
#ifndef MPIT_WATERMARKS_H
#define MPIT_WATERMARKS_H

#include <stdint.h>

#define MPIT_WATERMARK_CELLS 256

/* A cell for variable key (a catalog code), starting empty; -1 if full. */
int mpit_watermark_watch(int key);
void mpit_watermark_unwatch(int cell);
/* Offers a value read from variable key to every cell watching it. */
void mpit_watermark_offer(int key, int64_t value);
/* The maximum offered to cell since it was watched (INT64_MIN if none). */
int64_t mpit_watermark_max(int cell);

#endif
