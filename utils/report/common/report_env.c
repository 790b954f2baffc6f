/*
 * papi-mpit-report: the values of the PAPI_MPIT_REPORT_* variables that
 * switch something on or off (report_env.h).
 */
#include "report_env.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int report_bool_parse(const char *s)
{
    static const char *const on[] = {"1", "yes", "on", "true"}, *const off[] = {"0", "no", "off", "false"};
    if (!s) return -1;
    for (size_t i = 0; i < sizeof on / sizeof on[0]; i++) {
        if (strcasecmp(s, on[i]) == 0) return 1;
        if (strcasecmp(s, off[i]) == 0) return 0;
    }
    return -1;
}

int report_ms_parse(const char *s, double *ms)
{
    /* the script's words: digits and at most one point (no sign, exponent,
     * hexadecimal, inf or nan, which strtod would take) */
    if (!s || !*s || strspn(s, "0123456789.") != strlen(s)) return -1;
    const char *point = strchr(s, '.');
    if (point && strchr(point + 1, '.')) return -1;
    char *end;
    double v = strtod(s, &end);
    if (*end || !(v >= 0) || v > 3.6e6) return -1;
    *ms = v;
    return 0;
}

/* The variables launchers set to a process's rank before MPI starts:
 * Open MPI's mpirun, PMIx (srun --mpi=pmix, prterun), PMI (Hydra), Slurm. */
static const char *const RANK_VARS[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"};

int report_first_rank(void)
{
    for (size_t i = 0; i < sizeof RANK_VARS / sizeof RANK_VARS[0]; i++) {
        const char *v = getenv(RANK_VARS[i]);
        if (v && *v) return atoi(v) == 0;
    }
    return 1;
}

int report_bool_env(const char *name, int dflt)
{
    /* the variables said wrong already: a handful at most */
    static const char *said[8];
    static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    const char *v = getenv(name);
    if (!v || !*v) return dflt;
    int b = report_bool_parse(v);
    if (b >= 0) return b;
    size_t i = 0;
    pthread_mutex_lock(&mu);
    while (i < sizeof said / sizeof said[0] && said[i] && strcmp(said[i], name) != 0) i++;
    int first = i < sizeof said / sizeof said[0] && !said[i];
    if (first) said[i] = name;
    pthread_mutex_unlock(&mu);
    if (first) {
        if (report_first_rank())
            fprintf(stderr,
                    "papi-mpit-report: %s='%s' is not a boolean (1, yes, on, true or 0, no, off, false): "
                    "taken as %s\n",
                    name, v,
                    dflt < 0 ? "unset"
                    : dflt   ? "on, the default"
                             : "off, the default");
    }
    return dflt;
}
