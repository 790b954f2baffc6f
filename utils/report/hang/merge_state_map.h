/*
 * papi-mpit-merge: a rank's mapped state file (DIR/state.RANK.map,
 * collect/report_state_map.h) read as the lines of a snapshot
 * (report_hang.h): R (why "mapped", when: its last stamp or call), I, H,
 * A (each thread's call in progress) and T (its sends by receiver).
 */
#ifndef PAPI_MPIT_MERGE_STATE_MAP_H
#define PAPI_MPIT_MERGE_STATE_MAP_H

typedef struct map_text {
    int rank, nprocs;
    double wall;    /* the state's time: the rank's last stamp or call, Unix seconds */
    double changed; /* its threads' last call entered or ended, Unix seconds; 0 none */
    char *text;     /* the lines, malloc'ed */
} map_text_t;

/* 0 with *out filled, or -1 when path is not a rank's state file (why on stderr). */
int map_text_read(const char *path, map_text_t *out);

#endif
