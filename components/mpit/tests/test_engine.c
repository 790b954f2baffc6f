/*
 * Unit tests of the event rule engine: recorded streams fed through the real
 * rule table (test_engine_streams.c), hand-built rows for edge cases
 * (test_engine_cases.c), and threads on one engine (test_engine_stress.c).
 * Prints "N passed, N failed"; exits 1 on a failure.
 *   test_engine [STREAM_DIR]      (default: streams)
 */
#include <stdio.h>
#include "test_engine.h"

int main(int argc, char **argv)
{
    run_streams(argc > 1 ? argv[1] : "streams");
    test_pair_capacity();
    test_rows();
    test_raw();
    test_sequence_window();
    test_portable();
    test_stress();
    test_stress_mpich();
    test_gated();
    test_activate_race();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
