/* report_env.c: one parser for every boolean PAPI_MPIT_REPORT_* variable
 * (MATRIX=false once turned Open MPI's monitoring on, QUIET=no silenced the
 * report, SENDERS read "no" as on). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "expect.h"
#include "report_env.h"

/* what report_bool_env said on stderr, into buf */
static int said(const char *name, int dflt, char *buf, size_t len)
{
    fflush(stderr);
    FILE *tmp = tmpfile();
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    int v = report_bool_env(name, dflt);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(buf, 1, len - 1, tmp);
    buf[n] = 0;
    fclose(tmp);
    return v;
}

int main(void)
{
    static const char *const on[] = {"1", "yes", "on", "true", "YES", "On", "TRUE", "tRuE"};
    static const char *const off[] = {"0", "no", "off", "false", "NO", "Off", "FALSE", "fAlSe"};
    static const char *const bad[] = {"",    "2",   "-1", "y",  "n",     "yes ",
                                      " no", "onn", "of", "01", "maybe", "enable"};
    for (size_t i = 0; i < sizeof on / sizeof on[0]; i++)
        EXPECT(report_bool_parse(on[i]) == 1, "'%s' is on", on[i]);
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++)
        EXPECT(report_bool_parse(off[i]) == 0, "'%s' is off", off[i]);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        EXPECT(report_bool_parse(bad[i]) == -1, "'%s' is not a boolean", bad[i]);
    EXPECT(report_bool_parse(NULL) == -1, "NULL is not a boolean");

    /* the variables: unset or empty is the default, either way round */
    char out[512];
    unsetenv("OMPI_COMM_WORLD_RANK"), unsetenv("PMIX_RANK"), unsetenv("PMI_RANK"), unsetenv("SLURM_PROCID");
    unsetenv("T_ENV_A");
    EXPECT(said("T_ENV_A", 1, out, sizeof out) == 1 && !*out, "unset: the default 1, silently");
    EXPECT(said("T_ENV_A", 0, out, sizeof out) == 0 && !*out, "unset: the default 0, silently");
    setenv("T_ENV_A", "", 1);
    EXPECT(said("T_ENV_A", 1, out, sizeof out) == 1 && !*out, "empty: the default, silently");
    /* what the issue saw: false, no and off were on for MATRIX and QUIET */
    const char *words[] = {"false", "no", "off", "0"};
    for (int i = 0; i < 4; i++) {
        setenv("T_ENV_A", words[i], 1);
        EXPECT(said("T_ENV_A", 1, out, sizeof out) == 0 && !*out, "%s with default on: off", words[i]);
        EXPECT(said("T_ENV_A", 0, out, sizeof out) == 0 && !*out, "%s with default off: off", words[i]);
    }
    setenv("T_ENV_A", "yes", 1);
    EXPECT(said("T_ENV_A", 0, out, sizeof out) == 1 && !*out, "yes: on");

    /* a bad value: the default, said once per variable, naming it */
    setenv("T_ENV_B", "maybe", 1);
    EXPECT(said("T_ENV_B", 0, out, sizeof out) == 0, "maybe: the default off");
    EXPECT(strcmp(out, "papi-mpit-report: T_ENV_B='maybe' is not a boolean (1, yes, on, true or 0, no, off, "
                       "false): taken as off, the default\n") == 0,
           "said: [%s]", out);
    EXPECT(said("T_ENV_B", 0, out, sizeof out) == 0 && !*out, "said once: [%s]", out);
    /* not by a rank other than the first */
    setenv("T_ENV_C", "2", 1);
    setenv("PMI_RANK", "1", 1);
    EXPECT(said("T_ENV_C", 1, out, sizeof out) == 1 && !*out, "rank 1 is silent: [%s]", out);
    unsetenv("PMI_RANK");
    setenv("T_ENV_D", "2", 1);
    setenv("OMPI_COMM_WORLD_RANK", "0", 1);
    EXPECT(said("T_ENV_D", 1, out, sizeof out) == 1 && strstr(out, "T_ENV_D='2'") &&
               strstr(out, "taken as on"),
           "rank 0 says it: [%s]", out);
    /* milliseconds: the script's words, nothing strtod would take besides */
    static const char *const ms_ok[] = {"0", "10", "2.5", ".5", "5.", "3600000"};
    static const char *const ms_bad[] = {"",     "abc", "-5",    "10x", "1e3",
                                         "0x10", " 10", "1.2.3", "inf", "3600001"};
    double ms;
    for (size_t i = 0; i < sizeof ms_ok / sizeof ms_ok[0]; i++)
        EXPECT(report_ms_parse(ms_ok[i], &ms) == 0 && ms == strtod(ms_ok[i], NULL), "'%s' ms", ms_ok[i]);
    for (size_t i = 0; i < sizeof ms_bad / sizeof ms_bad[0]; i++)
        EXPECT(report_ms_parse(ms_bad[i], &ms) == -1, "'%s' is not a number of ms", ms_bad[i]);
    EXPECT(report_ms_parse(NULL, &ms) == -1, "NULL is not a number of ms");

    /* a default that depends on the run (PAPI_MPIT_REPORT_TAU): said as unset,
     * not as on */
    unsetenv("OMPI_COMM_WORLD_RANK");
    setenv("T_ENV_E", "junk", 1);
    EXPECT(said("T_ENV_E", -1, out, sizeof out) == -1 && strstr(out, "T_ENV_E='junk'") &&
               strstr(out, ": taken as unset\n") && !strstr(out, "taken as on"),
           "default -1 said as unset: [%s]", out);
    if (!failures) printf("PASS report_env: every boolean reads the same words\n");
    return failures != 0;
}
