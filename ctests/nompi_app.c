/* The program of t_nompi.sh: serial, no MPI, built with plain cc against
 * libpapi.  Argument: "list" (a default MPI library is available for
 * listings) or "none" (PAPI_MPIT_LIBMPI=none: no MPI at all).
 *  - PAPI_library_init works and the mpit component is there;
 *  - "list": the mpit events of the default MPI can be enumerated, each with
 *    a description; adding any mpit event (a listed one or any name) fails
 *    with PAPI_ECMP and a "papi-mpit:" reason; the component info then says
 *    it lists only, with a reason;
 *  - "none": the component ends up disabled with a reason, nothing is listed,
 *    lookups fail with PAPI_ENOEVNT (PAPI_ECMP from PAPI 7.3 on, whose
 *    framework answers for a disabled component);
 *  - in both, the set of the failed adds can be cleaned up and destroyed,
 *    perf::TASK-CLOCK still counts in a new set, and PAPI_shutdown works.
 * Prints "PASS nompi <mode>" and exits 0, or exits 1. */
#include <papi.h>
#include <stdio.h>
#include <string.h>

#include "../utils/report/tests/expect.h" /* EXPECT: the plain assertion of the tests without MPI */

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "list";
    int listing = strcmp(mode, "list") == 0;
    int rc = PAPI_library_init(PAPI_VER_CURRENT);
    if (rc != PAPI_VER_CURRENT) {
        fprintf(stderr, "FAIL: PAPI_library_init returned %d\n", rc);
        return 1;
    }
    int cidx = PAPI_get_component_index("mpit");
    EXPECT(cidx >= 0, "no mpit component (%d)", cidx);
    if (cidx < 0) return 1;

    /* ---- the listing */
    int listed = 0, code = PAPI_NATIVE_MASK;
    char first[PAPI_HUGE_STR_LEN] = "";
    rc = PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx);
    while (rc == PAPI_OK) {
        PAPI_event_info_t info;
        EXPECT(PAPI_get_event_info(code, &info) == PAPI_OK, "no info for listed code %#x", code);
        EXPECT(strncmp(info.symbol, "mpit:::", 7) == 0, "listed symbol %s", info.symbol);
        EXPECT(info.long_descr[0] != '\0', "%s has no description", info.symbol);
        if (!listed++) snprintf(first, sizeof first, "%s", info.symbol);
        rc = PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx);
    }
    printf("mpit events listed without MPI: %d%s%s\n", listed, listed ? ", first " : "", first);
    if (!listing) EXPECT(listed == 0, "%d events listed with PAPI_MPIT_LIBMPI=none", listed);

    /* ---- adding fails, cleanly */
    int es = PAPI_NULL;
    EXPECT(PAPI_create_eventset(&es) == PAPI_OK, "PAPI_create_eventset");
    rc = PAPI_add_named_event(es, "mpit:::anything_at_all");
    /* a disabled component's names: PAPI up to 7.2 answers PAPI_ENOEVNT,
     * PAPI 7.3 (master) PAPI_ECMP */
    int disabled_answer = PAPI_VERSION >= PAPI_VERSION_NUMBER(7, 3, 0, 0) ? PAPI_ECMP : PAPI_ENOEVNT;
    if (!listing)
        printf("PAPI %d.%d: a name of the disabled component is answered %s\n",
               PAPI_VERSION_MAJOR(PAPI_VERSION), PAPI_VERSION_MINOR(PAPI_VERSION),
               disabled_answer == PAPI_ECMP ? "PAPI_ECMP" : "PAPI_ENOEVNT");
    EXPECT(rc == (listing ? PAPI_ECMP : disabled_answer), "adding mpit:::anything_at_all returned %d (%s)",
           rc, PAPI_strerror(rc));
    if (first[0]) {
        rc = PAPI_add_named_event(es, first);
        EXPECT(rc == PAPI_ECMP, "adding the listed %s returned %d (%s), expected PAPI_ECMP", first, rc,
               PAPI_strerror(rc));
    }
    EXPECT(PAPI_num_events(es) == 0, "the set holds %d events after failed adds", PAPI_num_events(es));

    /* ---- what the component info says now */
    const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
    EXPECT(ci != NULL, "no component info");
    if (ci) {
        printf("mpit: disabled=%d reason='%s'\n", ci->disabled, ci->disabled_reason);
        EXPECT(ci->disabled_reason[0] != '\0', "no reason in the component info (disabled=%d)", ci->disabled);
        if (listing)
            EXPECT(ci->disabled == 0, "disabled (%d) although events are listed", ci->disabled);
        else
            EXPECT(ci->disabled != 0, "not disabled with PAPI_MPIT_LIBMPI=none");
    }

    EXPECT(PAPI_cleanup_eventset(es) == PAPI_OK, "PAPI_cleanup_eventset after failed adds");
    EXPECT(PAPI_destroy_eventset(&es) == PAPI_OK, "PAPI_destroy_eventset after failed adds");

    /* ---- PAPI still counts in this process (PAPI binds a set to the
     * component of its first add, failed or not: a fresh set) */
    es = PAPI_NULL;
    EXPECT(PAPI_create_eventset(&es) == PAPI_OK, "PAPI_create_eventset");
    int perf = PAPI_add_named_event(es, "perf::TASK-CLOCK");
    if (perf == PAPI_OK) {
        long long v = -1;
        EXPECT(PAPI_start(es) == PAPI_OK, "PAPI_start of perf::TASK-CLOCK");
        for (volatile int i = 0; i < 1000000; i++) {}
        EXPECT(PAPI_stop(es, &v) == PAPI_OK, "PAPI_stop");
        EXPECT(v > 0, "perf::TASK-CLOCK %lld", v);
    } else {
        printf("perf::TASK-CLOCK not available here (%d): not counted\n", perf);
    }
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    PAPI_shutdown();
    if (failures) return 1;
    printf("PASS nompi %s\n", mode);
    return 0;
}
