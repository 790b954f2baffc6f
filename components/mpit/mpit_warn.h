/*
 * One-line messages to the user on stderr ("papi-mpit: SUBJECT: reason"),
 * each said once (never on a hot path).  The reason given last for each
 * subject (an event name, "senders", "events") is kept, so that a tool can
 * ask for it (papi_mpit_why) instead of reading stderr.
 */
#ifndef MPIT_WARN_H
#define MPIT_WARN_H

void mpit_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Keeps the reason as mpit_warn does (papi_mpit_why finds it) and says
 * nothing: for names PAPI asks every component about. */
void mpit_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
