/*
 * Whose name is it?  PAPI asks every component about every name that has no
 * component prefix: its preset tables on a CPU libpfm4 knows (LLC_REFERENCES,
 * DTLB_LOAD_MISSES, ...), the natives of PAPI_ presets, the user's own
 * unprefixed names.  The component explains a failed lookup only for names
 * that are its own or were addressed to it ("mpit:::X"); any other name is
 * refused in silence, its reason kept for papi_mpit_why.
 */
#ifndef MPIT_CLAIMS_H
#define MPIT_CLAIMS_H

/* 1 when the caller gave the name with the component's prefix.  Known
 * where PAPI tells (the project's PAPI patch "papi-name-as-given"); 0 in a
 * PAPI tree without it, where only mpit_claims decides. */
int mpit_addressed(const char *component_name);

/* 1 when a name (qualifiers allowed) is a portable metric, an event
 * counter's name, a variable or event of the running MPI as catalogued, or
 * a near miss of one of these (worth a "did you mean"). */
int mpit_claims(const char *text);

/* Cheap and needing no MPI: 0 only when the name is certainly not the
 * component's (an upper-case name that is no portable metric nor near
 * one), so that such a lookup loads no MPI library in a process without one. */
int mpit_may_claim(const char *text);

#endif
