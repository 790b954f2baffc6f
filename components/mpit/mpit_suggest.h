/*
 * "Did you mean": the known name closest to a misspelt one, by edit
 * distance, so that a typo gets the name it was meant to be rather than a
 * silent column of zeros.
 */
#ifndef MPIT_SUGGEST_H
#define MPIT_SUGGEST_H

#include <stddef.h>

#define MPIT_SUGGEST_LEN 512 /* a candidate name (MPIT_MAX_NAME) */

typedef struct mpit_suggestion {
    const char *wanted;          /* the name asked for */
    char best[MPIT_SUGGEST_LEN]; /* closest candidate so far; "" when none is close */
    int distance;
} mpit_suggestion_t;

void mpit_suggest_begin(mpit_suggestion_t *s, const char *wanted);
/* Considers one candidate name. */
void mpit_suggest_offer(mpit_suggestion_t *s, const char *candidate);
/* Appends "; did you mean NAME?" to text when a candidate was close enough. */
void mpit_suggest_append(const mpit_suggestion_t *s, char *text, size_t len);

#endif
