/*
 * papi-mpit-report: the snapshot triggers (report_snapshot.h).
 *
 * A signal handler may do only async-signal-safe work, and the rank's
 * state needs allocation, PAPI reads and file output: so the handler writes
 * one byte (the signal) into a pipe, which the tool's helper thread
 * (report_mpi.c, the owner of the PAPI event sets) polls; for SIGTERM and
 * SIGINT it then waits, a bounded time (SNAP_WAIT_MS), for the helper's
 * byte on a second pipe saying the state is written, and passes the signal
 * on: to the program's own handler, or, with the default disposition,
 * restored and raised again, so that the process ends as it would have (its
 * status: killed by that signal).  SIGUSR1 is not waited for, and the
 * program's handler of it, if any, is called too; with none the job goes
 * on (SIGUSR1's default would end it).  The helper thread and the sampler
 * block the three signals, so the kernel never hands one to the thread
 * that must answer it.
 *
 * The program's handlers: those installed before ours are kept from
 * sigaction's old value; those it installs later go through our sigaction
 * and signal (interposed here, for these three signals only, while ours
 * are installed), which record them as the program's and answer with the
 * program's previous one, so ours stays in place and chains to theirs.
 *
 * The watchdog: every quarter of its time (at most a second) the helper
 * looks at the calls in progress (sites_current) and at the calls that
 * returned (the sites' counts); when none returned for the watchdog's time
 * and one has been running that long, it writes the state once for that
 * call and says so on stderr (once per rank); the job goes on.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report_env.h"
#include "report_sample.h"
#include "report_snapshot.h"
#include "site_table.h"

#define SNAP_WAIT_MS 10000 /* a handler waits at most this long for the state */
#define NSIG_OURS    3

static const int our_sigs[NSIG_OURS] = {SIGTERM, SIGINT, SIGUSR1};
static struct sigaction prog[NSIG_OURS]; /* the program's disposition of each */
static volatile sig_atomic_t installed, live;
static int req_pipe[2] = {-1, -1}, done_pipe[2] = {-1, -1};
static long long period_ns, watchdog_ns;
static pid_t
    owner; /* the process whose helper answers (a forked child's handler only passes the signal on) */

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
static sigaction_fn real_sigaction;

const char *snap_reason_name(int reason)
{
    switch (reason) {
    case SNAP_SIGNAL: return "signal";
    case SNAP_ON_DEMAND: return "on-demand";
    case SNAP_PERIODIC: return "periodic";
    case SNAP_WATCHDOG: return "watchdog";
    default: return "unknown";
    }
}

static int which(int sig)
{
    for (int i = 0; i < NSIG_OURS; i++)
        if (our_sigs[i] == sig) return i;
    return -1;
}

/* an ms variable (checked by the script): 0 or unset is off */
static long long ms_env_ns(const char *name)
{
    const char *s = getenv(name);
    double ms = s && *s ? strtod(s, NULL) : 0;
    return ms > 0 ? (long long)(ms * 1e6) : 0;
}

int snap_wanted(void)
{
    const char *dir = getenv("PAPI_MPIT_REPORT_DIR");
    if (!dir || !*dir || !report_bool_env("PAPI_MPIT_REPORT_SNAPSHOTS", 1)) return 0;
    period_ns = ms_env_ns("PAPI_MPIT_REPORT_SNAPSHOT_MS");
    watchdog_ns = ms_env_ns("PAPI_MPIT_REPORT_WATCHDOG_MS");
    return 1;
}

void snap_block_here(void)
{
    sigset_t s;
    sigemptyset(&s);
    for (int i = 0; i < NSIG_OURS; i++) sigaddset(&s, our_sigs[i]);
    pthread_sigmask(SIG_BLOCK, &s, NULL);
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
    int saved = errno, i = which(sig);
    if (i < 0) return;
    if (live && getpid() == owner) {
        unsigned char b = (unsigned char)sig;
        if (write(req_pipe[1], &b, 1) == 1 && sig != SIGUSR1) {
            struct pollfd p = {.fd = done_pipe[0], .events = POLLIN};
            if (poll(&p, 1, SNAP_WAIT_MS) == 1) {
                ssize_t r = read(done_pipe[0], &b, 1);
                (void)r;
            }
        }
    }
    struct sigaction old = prog[i];
    if (old.sa_handler == SIG_IGN) {
        /* the program ignores it */
    } else if (old.sa_handler == SIG_DFL) {
        if (sig != SIGUSR1) { /* ended as without the tool: by this signal */
            struct sigaction dfl;
            memset(&dfl, 0, sizeof dfl);
            dfl.sa_handler = SIG_DFL;
            sigemptyset(&dfl.sa_mask);
            real_sigaction(sig, &dfl, NULL);
            installed = 0;
            raise(sig); /* blocked until this handler returns, then delivered */
        }
    } else if (old.sa_flags & SA_SIGINFO) {
        old.sa_sigaction(sig, si, uc);
    } else {
        old.sa_handler(sig);
    }
    errno = saved;
}

int snap_install(char *why, size_t len)
{
    real_sigaction = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
    if (!real_sigaction) {
        snprintf(why, len, "cannot find sigaction");
        return -1;
    }
    if (pipe2(req_pipe, O_CLOEXEC | O_NONBLOCK) || pipe2(done_pipe, O_CLOEXEC | O_NONBLOCK)) {
        snprintf(why, len, "pipe: %s", strerror(errno));
        return -1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    owner = getpid();
    live = 1;
    for (int i = 0; i < NSIG_OURS; i++) {
        if (real_sigaction(our_sigs[i], NULL, &prog[i])) continue;
        if (prog[i].sa_handler == SIG_IGN && our_sigs[i] != SIGUSR1) continue; /* nohup: left ignored */
        real_sigaction(our_sigs[i], &sa, NULL);
    }
    installed = 1;
    return 0;
}

void snap_off(void) { live = 0; }

void snap_wake(void)
{
    unsigned char b = 0;
    if (req_pipe[1] >= 0 && write(req_pipe[1], &b, 1) < 0) { /* full: it wakes anyway */
    }
}

/* ---- the helper's loop */
static long long returned_calls(void)
{
    int cap;
    long long n = 0;
    const sites_site_t *s = sites_table(&cap);
    for (int i = 0; s && i < cap; i++) n += __atomic_load_n(&s[i].calls, __ATOMIC_RELAXED);
    return n;
}

void snap_serve(void (*write_state)(int reason, int signo, void *arg), int (*done)(void *arg), void *arg)
{
    long long now = sites_now_ns(), next_period = period_ns ? now + period_ns : 0;
    long long check_ns = watchdog_ns / 4 < 1000000000LL ? watchdog_ns / 4 : 1000000000LL;
    long long next_check = watchdog_ns ? now + check_ns : 0, calls_seen = returned_calls(), calls_since = now;
    long long fired_since = -1; /* the stuck call the watchdog wrote for */
    int said = 0;
    while (!done(arg)) {
        now = sites_now_ns();
        long long wake = -1;
        if (next_period) wake = next_period;
        if (next_check && (wake < 0 || next_check < wake)) wake = next_check;
        int timeout = wake < 0 ? -1 : wake <= now ? 0 : (int)((wake - now + 999999) / 1000000);
        struct pollfd p = {.fd = req_pipe[0], .events = POLLIN};
        int rc = poll(&p, 1, timeout);
        if (rc < 0 && errno != EINTR) break;
        if (rc > 0) {
            unsigned char b[64];
            ssize_t n = read(req_pipe[0], b, sizeof b);
            for (ssize_t k = 0; k < n; k++) {
                if (b[k] == 0) continue; /* a wake-up */
                int sig = b[k];
                write_state(sig == SIGUSR1 ? SNAP_ON_DEMAND : SNAP_SIGNAL, sig, arg);
                if (sig != SIGUSR1) {
                    unsigned char d = 1;
                    if (write(done_pipe[1], &d, 1) < 0) { /* the handler gave up waiting */
                    }
                }
            }
        }
        if (done(arg)) break;
        now = sites_now_ns();
        if (next_period && now >= next_period) {
            write_state(SNAP_PERIODIC, 0, arg);
            next_period = sites_now_ns() + period_ns;
        }
        if (next_check && now >= next_check) {
            next_check = now + check_ns;
            long long calls = returned_calls();
            if (calls != calls_seen) calls_seen = calls, calls_since = now;
            sites_current_t cur[SITES_THREADS];
            int n = 0;
            sites_current(cur, SITES_THREADS, &n);
            long long oldest = -1;
            for (int k = 0; k < n; k++)
                if (cur[k].fn >= 0 && (oldest < 0 || cur[k].since < oldest)) oldest = cur[k].since;
            if (oldest >= 0 && now - oldest >= watchdog_ns && now - calls_since >= watchdog_ns &&
                oldest != fired_since) {
                fired_since = oldest;
                write_state(SNAP_WATCHDOG, said ? 0 : -1, arg); /* -1: say it on stderr */
                said = 1;
            }
        }
    }
}

/* ---- the program's sigaction and signal, for our three signals */
int sigaction(int sig, const struct sigaction *act, struct sigaction *old);
int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    if (!real_sigaction) real_sigaction = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
    int i = which(sig);
    if (i < 0 || !installed) return real_sigaction(sig, act, old);
    struct sigaction was = prog[i];
    if (act) {
        sigset_t block, saved;
        sigemptyset(&block);
        sigaddset(&block, sig);
        pthread_sigmask(SIG_BLOCK, &block, &saved);
        prog[i] = *act;
        pthread_sigmask(SIG_SETMASK, &saved, NULL);
    }
    if (old) *old = was;
    return 0;
}

sighandler_t signal(int sig, sighandler_t handler);
sighandler_t signal(int sig, sighandler_t handler)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (sigaction(sig, &sa, &old)) return SIG_ERR;
    return old.sa_handler;
}
