/*
 * Rule rows for the event engine (mpit_engine.h). A rule is data: it names
 * the MPI_T event types and elements it needs, and the engine checks them
 * against the running MPI, so a wrong row is simply unavailable rather than a
 * wrong number.
 *
 * Matching names (why: Open MPI spells the same event three ways):
 *  - an event or element field may list alternatives separated by '|';
 *  - event names are compared after dropping a leading "ompi." or "ompi_"
 *    from both sides, so the row "pml_ob1_message_arrived" matches Open MPI
 *    main's "ompi.pml_ob1_message_arrived", the old prototype's
 *    "ompi_pml_ob1_message_arrived" and the paper's spelling;
 *  - element names are compared exactly; "#n" names element n by position
 *    (MPI_T gives element names only through an optional enum).
 *
 * Several rows may carry one name: the first available row in table order
 * provides the counters, later ones are "shadowed". Rows are ordered from the
 * most to the least informative, so a keyed row whose element names turn out
 * wrong falls back to a row that needs no elements.
 */
#ifndef MPIT_RULES_H
#define MPIT_RULES_H

enum mpit_rule_kind {
    MPIT_RULE_COUNT,    /* occurrences of ref[0] */
    MPIT_RULE_SUM,      /* sum of element ref[0].elems[0] */
    MPIT_RULE_MAX,      /* largest value of element ref[0].elems[0] */
    MPIT_RULE_PAIR,     /* ref[0] begins, ref[1] ends; keys: elems of each, positionally */
    MPIT_RULE_LEVEL,    /* ref[0] inserts, ref[1] removes; keys as PAIR, or none: by count */
    MPIT_RULE_SEQUENCE, /* ref[0] arrivals; elems = stream key elements..., sequence last */
    MPIT_RULE_GROUP     /* occurrences of ref[0] counted by the value of elems[0] (a rank), when
                         * elems[1] (a communicator scope), if named, is 0..scope_max */
};

/* GROUP: values 0 .. MPIT_GROUP_SLOTS-1 are counted one by one; any other
 * value, or a scope outside 0..scope_max, is counted in "other". */
#define MPIT_GROUP_SLOTS 1024

#define MPIT_RULE_MAX_ELEMS 4

/* Flag of a reference: the event's data must never be read, only its
 * timestamp used (MPICH 4.0.2 unexp_message_dequeued points at NULL). The
 * engine then tells the front end to pass no elements for that event type. */
#define MPIT_REF_NOREAD 0x1u

typedef struct mpit_rule_ref {
    const char *event;                      /* '|' alternatives */
    const char *elems[MPIT_RULE_MAX_ELEMS]; /* NULL-terminated if shorter */
    unsigned flags;                         /* MPIT_REF_* */
} mpit_rule_ref_t;

typedef struct mpit_rule {
    const char *name; /* base of the derived counter names */
    enum mpit_rule_kind kind;
    const char *units; /* of what is counted: "messages", "bytes"; times are "ns" */
    const char *desc;
    mpit_rule_ref_t ref[2];
    int seq_bits;  /* SEQUENCE: width of the wire sequence number, 8..32 */
    int scope_max; /* GROUP: scope values 0..scope_max denote MPI_COMM_WORLD */
} mpit_rule_t;

/* The built-in table: MPICH 4.0.2 RECVQ rows, then Open MPI ob1 rows. */
extern const mpit_rule_t mpit_rules[];
extern const int mpit_num_rules;

#endif
