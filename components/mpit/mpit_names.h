/* Parsing of mpit event names: "base[:key=value]..." (pure logic, unit tested). */
#ifndef MPIT_NAMES_H
#define MPIT_NAMES_H

#define MPIT_MAX_NAME     512 /* a name as typed, qualifiers included */
#define MPIT_AGG_ELEM_LEN 64  /* an event element's name (:sum=NAME) */

enum mpit_name_error {
    MPIT_NAME_OK = 0,
    MPIT_NAME_EMPTY,         /* no base name */
    MPIT_NAME_BAD_QUALIFIER, /* ":key" without "=value", or empty value */
    MPIT_NAME_UNKNOWN_KEY,   /* a key we do not know */
    MPIT_NAME_BAD_VALUE,     /* a known key with a value it does not take */
    MPIT_NAME_DUPLICATE_KEY,
    MPIT_NAME_TOO_LONG
};

enum mpit_agg { MPIT_AGG_NONE, MPIT_AGG_SUM, MPIT_AGG_MAX };

typedef struct mpit_name {
    char base[MPIT_MAX_NAME];
    int comm;                         /* enum mpit_comm; world unless :comm=self */
    int elem;                         /* -1: all elements summed */
    int peer;                         /* portable metrics: a rank of MPI_COMM_WORLD, -1: all */
    int cls;                          /* enum mpit_class, -1: not given */
    int agg;                          /* enum mpit_agg for event counters */
    char agg_elem[MPIT_AGG_ELEM_LEN]; /* element the aggregate applies to */
} mpit_name_t;

/* Parses text into out; on error fills why with a sentence for the user. */
int mpit_name_parse(const char *text, mpit_name_t *out, char *why, int why_len);

/* Writes the canonical spelling (qualifiers that differ from the defaults, in
 * a fixed order), so that two spellings of one event get one event code. */
void mpit_name_format(const mpit_name_t *name, char *buf, int len);

/* "counter" <-> MPIT_CLASS_COUNTER and so on. */
const char *mpit_class_name(int cls);
int mpit_class_from_name(const char *text);

#endif
