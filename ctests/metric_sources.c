/* Prints, for every portable metric of the component's table, what provides
 * it on the running MPI: "METRIC<TAB>source" (a variable, "event counter
 * NAME", "... (max seen when read)") or "METRIC<TAB>-" when this MPI has no
 * source.  One rank, after MPI_Init (SPCs attached by the caller).  Used by
 * t_metric_table.sh and scripts/gen-metric-table.sh. */
#include <mpi.h>
#include <papi.h>
#include <stdio.h>
#include <string.h>

#include "papi_mpit.h"

#define SPC_PREFIX "runtime_spc_OMPI_SPC_"

/* The source named in a portable metric's description. */
static void source_of(const char *descr, char *out, size_t len)
{
    static const struct {
        const char *marker, *label;
    } kinds[] = {
        {"here from the MPI_T variable ", ""},
        {"here from the MPI_T event counter ", "event counter "},
        {"here from the MPI_T watermark ", ""},
    };
    snprintf(out, len, "?");
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        const char *p = strstr(descr, kinds[k].marker);
        if (!p) continue;
        p += strlen(kinds[k].marker);
        size_t n = strcspn(p, ",)");
        const char *mended =
            strstr(p, ", which sees every peak, mended by ") ? " (mended by ob1's lengths)" : "";
        if (strncmp(p, SPC_PREFIX, strlen(SPC_PREFIX)) == 0) { /* shorter in a table */
            p += strlen(SPC_PREFIX);
            n -= strlen(SPC_PREFIX);
            snprintf(out, len, "SPC %.*s%s%s", (int)n, p,
                     strstr(p, "seen when read") ? " (max seen when read)" : "", mended);
        } else {
            snprintf(out, len, "%s%.*s%s", kinds[k].label, (int)n, p,
                     strstr(p, "seen when read") ? " (max seen when read)" : "");
        }
        return;
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
        fprintf(stderr, "PAPI_library_init failed\n");
        return 1;
    }
    papi_mpit_quiet(1);
    const char *name;
    for (int i = 0; (name = papi_mpit_metric(i, NULL)) != NULL; i++) {
        char full[128], source[256];
        int code;
        PAPI_event_info_t info;
        snprintf(full, sizeof full, "mpit:::%s", name);
        if (PAPI_event_name_to_code(full, &code) != PAPI_OK || PAPI_get_event_info(code, &info) != PAPI_OK) {
            printf("%s\t-\n", name);
            continue;
        }
        source_of(info.long_descr, source, sizeof source);
        printf("%s\t%s\n", name, source);
    }
    PAPI_shutdown();
    MPI_Finalize();
    return 0;
}
