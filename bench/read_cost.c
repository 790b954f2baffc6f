/* Cost of PAPI_read on mpit events against the raw MPI_T reads it stands
 * for, in one process, on the same variables through the same MPI:
 *   - all (up to 64) unbound numeric pvars: 64 x MPI_T_pvar_read against one
 *     PAPI_read of the set holding them;
 *   - the tools' patterns on 2 events: PAPI_read alone, PAPI_read followed by
 *     PAPI_reset (TAU), PAPI_accum (Caliper), against 2 raw reads.
 * Prints ns per operation (best of 7 rounds; the all-variables loops run
 * iterations/8 times) and the ratios.  Each measured
 * loop is its own function, so that callgrind can count its instructions:
 *   valgrind --tool=callgrind --callgrind-out-file=cg.out ./read_cost 2000
 *   callgrind_annotate --inclusive=yes cg.out | grep -E 'loop_'
 * (bench/run.sh read does both and divides by the iterations).
 * Run as a single process: ./read_cost [iterations]
 */
#include <mpi.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX    64
#define ROUNDS 7

static MPI_T_pvar_session session;
static MPI_T_pvar_handle handles[MAX];
static unsigned long long raw[MAX][8];
static long long values[MAX];
static int n;

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static inline void raw_reads(int k, long iters)
{
    for (long i = 0; i < iters; i++)
        for (int j = 0; j < k; j++) MPI_T_pvar_read(session, handles[j], raw[j]);
}

/* the all-variables and the 2-variable loops apart, for callgrind */
__attribute__((noinline)) void loop_raw_all(int k, long iters) { raw_reads(k, iters); }
__attribute__((noinline)) void loop_raw_two(long iters) { raw_reads(2, iters); }
__attribute__((noinline)) void loop_papi_read_all(int es, long iters)
{
    for (long i = 0; i < iters; i++) PAPI_read(es, values);
}
__attribute__((noinline)) void loop_papi_read(int es, long iters)
{
    for (long i = 0; i < iters; i++) PAPI_read(es, values);
}

__attribute__((noinline)) void loop_papi_read_reset(int es, long iters)
{
    for (long i = 0; i < iters; i++) {
        PAPI_read(es, values);
        PAPI_reset(es);
    }
}

__attribute__((noinline)) void loop_papi_accum(int es, long iters)
{
    for (long i = 0; i < iters; i++) PAPI_accum(es, values);
}

enum { RAW_ALL, RAW_TWO, READ_ALL, READ, READ_RESET, ACCUM };

static double best_ns(int what, int es, int k, long iters)
{
    double best = 1e300;
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now_ns();
        switch (what) {
        case RAW_ALL: loop_raw_all(k, iters); break;
        case RAW_TWO: loop_raw_two(iters); break;
        case READ_ALL: loop_papi_read_all(es, iters); break;
        case READ: loop_papi_read(es, iters); break;
        case READ_RESET: loop_papi_read_reset(es, iters); break;
        case ACCUM: loop_papi_accum(es, iters); break;
        }
        double t = (now_ns() - t0) / (double)iters;
        if (t < best) best = t;
    }
    return best;
}

/* The unbound numeric variables MPI_T gives handles for and mpit can add,
 * in MPI_T order, into both the raw session and the event set. */
static void pick_variables(int es)
{
    int num = 0;
    MPI_T_pvar_get_num(&num);
    for (int i = 0; i < num && n < MAX; i++) {
        char name[256], desc[1024], event[300];
        int nl = sizeof name, dl = sizeof desc, verb, cls, bind, ro, cont, atomic, count;
        MPI_Datatype dt;
        MPI_T_enum en;
        if (MPI_T_pvar_get_info(i, name, &nl, &verb, &cls, &dt, &en, desc, &dl, &bind, &ro, &cont, &atomic) !=
                MPI_SUCCESS ||
            bind != MPI_T_BIND_NO_OBJECT || dt == MPI_CHAR)
            continue;
        int index;
        if (MPI_T_pvar_get_index(name, cls, &index) != MPI_SUCCESS || index != i) continue;
        snprintf(event, sizeof event, "mpit:::%s", name);
        if (PAPI_add_named_event(es, event) != PAPI_OK) continue;
        if (MPI_T_pvar_handle_alloc(session, i, NULL, &handles[n], &count) != MPI_SUCCESS || count > 8) {
            PAPI_remove_named_event(es, event);
            continue;
        }
        MPI_T_pvar_start(session, handles[n]);
        n++;
    }
}

int main(int argc, char **argv)
{
    long iters = argc > 1 ? atol(argv[1]) : 200000;
    int provided, all = PAPI_NULL, two = PAPI_NULL;
    setenv("PAPI_MPIT_QUIET", "1", 1);
    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_T_pvar_session_create(&session);
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) return 1;
    PAPI_create_eventset(&all);
    pick_variables(all);
    if (n < 2) {
        printf("read_cost: this MPI has %d unbound numeric variables; needs 2 or more\n", n);
        MPI_Finalize();
        return 0;
    }
    PAPI_create_eventset(&two);
    int codes[MAX], num = MAX;
    PAPI_list_events(all, codes, &num);
    PAPI_add_event(two, codes[0]);
    PAPI_add_event(two, codes[1]);

    PAPI_start(all);
    double raw_all = best_ns(RAW_ALL, 0, n, iters / 8), papi_all = best_ns(READ_ALL, all, 0, iters / 8);
    PAPI_stop(all, values);
    PAPI_start(two);
    double raw2 = best_ns(RAW_TWO, 0, 2, iters), read2 = best_ns(READ, two, 0, iters);
    double rr2 = best_ns(READ_RESET, two, 0, iters), acc2 = best_ns(ACCUM, two, 0, iters);
    PAPI_stop(two, values);

    printf("%d variables: %d x MPI_T_pvar_read %.1f ns, PAPI_read %.1f ns: %.2fx\n", n, n, raw_all, papi_all,
           papi_all / raw_all);
    printf(
        "2 variables: 2 x MPI_T_pvar_read %.1f ns; PAPI_read %.1f ns (%.2fx), PAPI_read+PAPI_reset %.1f ns "
        "(%.2fx), PAPI_accum %.1f ns (%.2fx)\n",
        raw2, read2, read2 / raw2, rr2, rr2 / raw2, acc2, acc2 / raw2);
    PAPI_shutdown();
    MPI_Finalize();
    return 0;
}
