#include "mpit_suggest.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define LONGEST 128 /* longer names are compared on their first 128 characters */

/* Levenshtein distance, case-insensitive (UNEXPECTED_MSG vs unexpected_msgs). */
static int distance(const char *a, const char *b)
{
    int la = (int)strnlen(a, LONGEST), lb = (int)strnlen(b, LONGEST);
    int row[LONGEST + 1];
    for (int j = 0; j <= lb; j++) row[j] = j;
    for (int i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = i;
        for (int j = 1; j <= lb; j++) {
            int up = row[j];
            int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
            int best = diag + !same;
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

void mpit_suggest_begin(mpit_suggestion_t *s, const char *wanted)
{
    s->wanted = wanted;
    s->best[0] = '\0';
    /* close enough: a third of the name, at least two edits */
    int allowed = (int)strnlen(wanted, LONGEST) / 3;
    s->distance = (allowed < 2 ? 2 : allowed) + 1;
}

void mpit_suggest_offer(mpit_suggestion_t *s, const char *candidate)
{
    if (!candidate || !*candidate || strcmp(candidate, s->wanted) == 0) return;
    int d = distance(s->wanted, candidate);
    if (d < s->distance) {
        s->distance = d;
        snprintf(s->best, sizeof s->best, "%s", candidate);
    }
}

void mpit_suggest_append(const mpit_suggestion_t *s, char *text, size_t len)
{
    size_t used = strlen(text);
    if (s->best[0] && used < len) snprintf(text + used, len - used, "; did you mean %s?", s->best);
}
