#include "mpit_claims.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "mpit_catalog.h"
#include "mpit_metrics.h"
#include "mpit_suggest.h"

/* The patched PAPI's record of the name as given; absent (NULL) elsewhere. */
extern const char *_papi_hwi_name_as_given(void) __attribute__((weak));

int mpit_addressed(const char *component_name)
{
    const char *given = _papi_hwi_name_as_given ? _papi_hwi_name_as_given() : NULL;
    size_t len = strlen(component_name);
    return given && strncmp(given, component_name, len) == 0 && strncmp(given + len, ":::", 3) == 0;
}

/* The name before its first qualifier. */
static void base_of(const char *text, char *base, size_t len)
{
    size_t n = strcspn(text, ":");
    snprintf(base, len, "%.*s", (int)(n < len ? n : len - 1), text);
}

/* Portable metrics are the upper-case names (as the catalog has it). */
static int upper_case(const char *base)
{
    int upper = 0;
    for (const char *p = base; *p; p++) {
        if (islower((unsigned char)*p)) return 0;
        upper |= isupper((unsigned char)*p);
    }
    return upper;
}

static int near_a_metric(const char *base)
{
    mpit_suggestion_t sug;
    mpit_suggest_begin(&sug, base);
    for (int i = 0; i < mpit_num_metrics; i++) mpit_suggest_offer(&sug, mpit_metrics[i].name);
    return sug.best[0] != '\0';
}

static int is_counter_name(const char *base)
{
    return strncmp(base, "event.", 6) == 0 || strncmp(base, "derived.", 8) == 0;
}

int mpit_may_claim(const char *text)
{
    char base[MPIT_MAX_NAME];
    base_of(text, base, sizeof base);
    if (!upper_case(base)) return 1; /* a variable's name: only the MPI knows */
    return mpit_metric_find(base) || near_a_metric(base);
}

int mpit_claims(const char *text)
{
    char base[MPIT_MAX_NAME];
    base_of(text, base, sizeof base);
    if (upper_case(base)) return mpit_metric_find(base) || near_a_metric(base);
    if (is_counter_name(base)) return 1;
    mpit_suggestion_t sug;
    mpit_suggest_begin(&sug, base);
    for (int c = mpit_catalog_next_listed(-1); c >= 0; c = mpit_catalog_next_listed(c)) {
        const mpit_entry_t *e = mpit_catalog_get(c);
        if (!e) continue;
        if (strcmp(e->parsed.base, base) == 0) return 1;
        mpit_suggest_offer(&sug, e->parsed.base);
    }
    return sug.best[0] != '\0';
}
