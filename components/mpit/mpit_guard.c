#include "mpit_guard.h"

__thread int mpit_guard_inside __attribute__((tls_model("initial-exec")));
__thread int mpit_guard_signal_depth __attribute__((tls_model("initial-exec")));
