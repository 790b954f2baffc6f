/*
 * PAPI's own lookups of names that are not the mpit component's, as PAPI
 * makes them on a CPU libpfm4 knows (its preset tables) and as a user makes
 * them without a component prefix: each must come back refused with nothing
 * on stderr.  With -DWITH_MPI the lookups run in an MPI rank, before
 * MPI_Init and after it.
 *   quiet_app NAMES_FILE           look up every name in the file (one a line)
 *   quiet_app NAMES_FILE pmus      print the perf_event PMUs, one a line
 * Prints "found NAME in COMPONENT" for a name some component has.
 */
#include <stdio.h>
#include <string.h>

#include "papi.h"
#ifdef WITH_MPI
#include <mpi.h>
#endif

static int lookup_all(const char *path)
{
    char line[1024];
    int code, looked = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0]) continue;
        int by_code = PAPI_event_name_to_code(line, &code) == PAPI_OK;
        int by_query = PAPI_query_named_event(line) == PAPI_OK;
        if (by_code) {
            const PAPI_component_info_t *c = PAPI_get_component_info(PAPI_get_event_component(code));
            printf("found %s in %s\n", line, c ? c->name : "?");
        } else if (by_query)
            printf("found %s\n", line);
        looked++;
    }
    fclose(f);
    return looked;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s NAMES_FILE [pmus]\n", argv[0]);
        return 2;
    }
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
        fprintf(stderr, "PAPI_library_init failed\n");
        return 1;
    }
    if (argc > 2 && strcmp(argv[2], "pmus") == 0) {
        const PAPI_component_info_t *info = PAPI_get_component_info(0);
        for (int i = 0; info && i < PAPI_PMU_MAX; i++)
            if (info->pmu_names[i]) printf("%s\n", info->pmu_names[i]);
        return 0;
    }
    int before = lookup_all(argv[1]);
    if (before < 0) return 1;
#ifdef WITH_MPI
    MPI_Init(&argc, &argv);
    int after = lookup_all(argv[1]);
    MPI_Finalize();
    if (after != before) return 1;
#endif
    printf("looked up %d names\n", before);
    return 0;
}
