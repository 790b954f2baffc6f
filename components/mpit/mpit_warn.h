/* One-line messages to the user on stderr, each said once (never on a hot path). */
#ifndef MPIT_WARN_H
#define MPIT_WARN_H

void mpit_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
