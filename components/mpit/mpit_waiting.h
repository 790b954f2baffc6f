/*
 * The sets started before MPI_Init that wait for the catch-up after it
 * (mpit_after_init.c), kept in fixed cells of static memory.  A set is only
 * a pointer here: mpit_control.c puts its sets in and takes them out,
 * mpit_after_init.c takes out the calling thread's own, and neither needs
 * the other for it.
 */
#ifndef MPIT_WAITING_H
#define MPIT_WAITING_H

/* Puts set in a free cell, owned by the calling thread: 1 + the cell, or 0
 * when every cell is taken. */
int mpit_waiting_add(void *set);
/* set leaves its cell (1 + the cell, as mpit_waiting_add gave it), unless
 * the catch-up took it out first (any thread). */
void mpit_waiting_drop(int cell, void *set);
/* The next set from cell *i on that the calling thread put in, taken out of
 * its cell (*i: that cell), or NULL when there is none; the caller frees
 * the cell with mpit_waiting_release. */
void *mpit_waiting_take_mine(int *i);
void mpit_waiting_release(int i);

#endif
