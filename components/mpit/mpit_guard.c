#include "mpit_guard.h"

/* initial-exec: plain loads and stores, no __tls_get_addr (which may
 * allocate) inside a signal handler. */
static __thread int inside __attribute__((tls_model("initial-exec")));
static __thread int in_signal __attribute__((tls_model("initial-exec")));

int mpit_guard_enter(void)
{
    if (inside) return 0;
    inside = 1;
    return 1;
}

void mpit_guard_leave(void) { inside = 0; }

void mpit_guard_signal_begin(void) { in_signal++; }
void mpit_guard_signal_end(void) { in_signal--; }
int mpit_guard_in_signal(void) { return in_signal > 0; }
