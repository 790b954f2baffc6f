/*
 * papi-mpit-report: the snapshot triggers (report_snapshot.h).
 *
 * A signal handler may do only async-signal-safe work, and the rank's
 * state needs allocation, PAPI reads and file output: so the handler writes
 * one byte (the signal) into a pipe, which the tool's helper thread
 * (report_helper.c, the owner of the PAPI event sets) polls; for SIGTERM and
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
 * The rank's neighbours on its node (node_join, node_wait): a launcher
 * kills every rank of the job once one of them has ended (Open MPI's
 * mpirun SIGKILLs the rest within milliseconds of the first rank's death
 * on SIGTERM; Hydra does the same), so the first rank to have written its
 * state and passed SIGTERM on used to take with it the ranks whose helper
 * had not yet written theirs (a 4-rank ring on a busy node: ranks lost in
 * 2 of 6 runs under each of Open MPI and MPICH; doc/performance.md).  So the ranks of a job
 * on one node share a small file mapping, a tally: how many ranks run the
 * tool there (joined) and how many of them are done (their state written on
 * a signal, or gone through MPI_Finalize).  A handler, once its own state
 * is written, sleeps on that count with FUTEX_WAIT (a system call:
 * async-signal-safe, no CPU while it waits, woken at once by the last
 * rank's FUTEX_WAKE) until every rank of the node is done, or NODE_WAIT_MS
 * passed, and only then passes the signal on.  The tally needs no MPI
 * call (the tool's start-up moves no message of its own beyond what it
 * did): the ranks of a job on a node are the children of one launcher
 * process (mpirun or orted, hydra_pmi_proxy, slurmstepd; the script execs
 * the program), so the file is named after that process (its pid and start
 * time) in /dev/shm, or in DIR where /dev/shm cannot be written.  Its name
 * is removed once the launcher's count of local ranks (OMPI_COMM_WORLD_LOCAL_SIZE,
 * MPI_LOCALNRANKS, ...) have joined, or when the last rank leaves.  A rank
 * started by a script of the user's that does not exec the program has a
 * parent of its own: it waits for nobody (as before).
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
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "report_env.h"
#include "report_sample.h"
#include "report_snapshot.h"
#include "site_table.h"

#define SNAP_WAIT_MS      10000 /* a handler waits at most this long for the state */
#define NODE_WAIT_MS      2000  /* and then at most this long for the node's other ranks */
/* --snapshot-period when not given: none where the rank's mapped state file
 * keeps its calls (report_state_map.h), 10 s where it has none
 * (doc/performance.md: its cost) */
#define PERIOD_DEFAULT_MS 10000
#define NSIG_OURS         3

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

/* an ms variable: 0 is off, unset is dflt; a value the script would refuse
 * (set without it, LD_PRELOAD alone) is dflt too, said by the first rank */
static long long ms_env_ns(const char *name, const char *flag, double dflt)
{
    const char *s = getenv(name);
    double ms = dflt;
    if (s && *s && report_ms_parse(s, &ms)) {
        ms = dflt;
        if (report_first_rank())
            fprintf(stderr,
                    "papi-mpit-report: %s (%s) '%s' is not a number of milliseconds from 0 to 3600000: "
                    "taken as %g, the default\n",
                    flag, name, s, dflt);
    }
    return ms > 0 ? (long long)(ms * 1e6) : 0;
}

int snap_wanted(int mapped)
{
    const char *dir = getenv("PAPI_MPIT_REPORT_DIR");
    if (!dir || !*dir || !report_bool_env("PAPI_MPIT_REPORT_SNAPSHOTS", 1)) return 0;
    period_ns =
        ms_env_ns("PAPI_MPIT_REPORT_SNAPSHOT_MS", "--snapshot-period", mapped ? 0 : PERIOD_DEFAULT_MS);
    watchdog_ns = ms_env_ns("PAPI_MPIT_REPORT_WATCHDOG_MS", "--watchdog", 0);
    return 1;
}

void snap_block_here(void)
{
    sigset_t s;
    sigemptyset(&s);
    for (int i = 0; i < NSIG_OURS; i++) sigaddset(&s, our_sigs[i]);
    pthread_sigmask(SIG_BLOCK, &s, NULL);
}

/* ---- the node's tally (see the top) */
typedef struct node_tally {
    int joined; /* ranks of the job on this node that run the tool */
    int done;   /* of them, those done: state written on a signal, or MPI_Finalize reached (futex word) */
    int left;   /* of them, those gone (the last one removes the name) */
} node_tally_t;
static node_tally_t *tally;
static int tally_done, tally_left; /* this process's part, once each */
static char tally_name[4300];
static int tally_local; /* the launcher's count of this node's ranks, 0 unknown */

static int local_size_env(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "PMI_LOCAL_SIZE",
                                       "PALS_LOCAL_SIZE", "MPI_LOCAL_NRANKS"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && atoi(v) > 0) return atoi(v);
    }
    return 0;
}

/* the launcher process's start time (field 22 of /proc/PID/stat), so that a
 * pid used again later names another file */
static unsigned long long start_time_of(pid_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')'); /* after the command's name, which may hold anything */
    unsigned long long t = 0;
    for (int field = 2; p && *p && field < 22; p++)
        if (*p == ' ') field++;
    if (p) t = strtoull(p, NULL, 10);
    return t;
}

static int tally_open(const char *path)
{
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return -1;
    struct stat st;
    if (fstat(fd, &st) || (st.st_size < (off_t)sizeof(node_tally_t) && ftruncate(fd, 4096))) {
        close(fd);
        return -1;
    }
    void *p = mmap(NULL, sizeof(node_tally_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) return -1;
    tally = p;
    snprintf(tally_name, sizeof tally_name, "%s", path);
    return 0;
}

static void node_join(const char *dir)
{
    pid_t parent = getppid();
    unsigned long long t = start_time_of(parent);
    char path[4300];
    snprintf(path, sizeof path, "/dev/shm/papi-mpit-node.%ld.%ld.%llu", (long)getuid(), (long)parent, t);
    if (tally_open(path)) {
        char host[256] = "";
        gethostname(host, sizeof host - 1);
        snprintf(path, sizeof path, "%s/.papi-mpit-node.%s.%ld.%llu", dir, host, (long)parent, t);
        if (tally_open(path)) return; /* nobody to wait for: as before */
    }
    tally_local = local_size_env();
    int n = __atomic_add_fetch(&tally->joined, 1, __ATOMIC_ACQ_REL);
    if (tally_local && n >= tally_local) unlink(tally_name); /* every rank of the node has it open */
}

static long futex(int *word, int op, int val, const struct timespec *t)
{
    return syscall(SYS_futex, word, op, val, t, NULL, 0);
}

/* this rank is done (async-signal-safe; once) */
static void node_done(void)
{
    if (!tally || __atomic_exchange_n(&tally_done, 1, __ATOMIC_ACQ_REL)) return;
    __atomic_add_fetch(&tally->done, 1, __ATOMIC_ACQ_REL);
    futex(&tally->done, FUTEX_WAKE, 0x7fffffff, NULL); /* not private: other processes wait */
}

/* this rank goes (async-signal-safe; once): the last one removes the name */
static void node_leave(void)
{
    if (!tally || __atomic_exchange_n(&tally_left, 1, __ATOMIC_ACQ_REL)) return;
    int n = __atomic_add_fetch(&tally->left, 1, __ATOMIC_ACQ_REL);
    if (n >= __atomic_load_n(&tally->joined, __ATOMIC_ACQUIRE))
        unlink(tally_name); /* (gone already where every local rank joined) */
}

/* until every rank of the node is done, at most NODE_WAIT_MS (async-signal-safe) */
static void node_wait(void)
{
    if (!tally) return;
    struct timespec end, now;
    clock_gettime(CLOCK_MONOTONIC, &end);
    end.tv_sec += NODE_WAIT_MS / 1000;
    end.tv_nsec += (NODE_WAIT_MS % 1000) * 1000000L;
    if (end.tv_nsec >= 1000000000L) end.tv_sec++, end.tv_nsec -= 1000000000L;
    for (;;) {
        int done = __atomic_load_n(&tally->done, __ATOMIC_ACQUIRE);
        if (done >= __atomic_load_n(&tally->joined, __ATOMIC_ACQUIRE)) return;
        clock_gettime(CLOCK_MONOTONIC, &now);
        struct timespec rel = {end.tv_sec - now.tv_sec, end.tv_nsec - now.tv_nsec};
        if (rel.tv_nsec < 0) rel.tv_sec--, rel.tv_nsec += 1000000000L;
        if (rel.tv_sec < 0) return;
        futex(&tally->done, FUTEX_WAIT, done, &rel); /* woken by a change, or EAGAIN if it changed already */
    }
}

static long long signal_at_ns = -1; /* when the last SIGTERM or SIGINT reached the handler */

double snap_since_signal_s(void)
{
    long long at = __atomic_load_n(&signal_at_ns, __ATOMIC_ACQUIRE);
    return at < 0 ? -1 : (double)(sites_now_ns() - at) * 1e-9;
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
    int saved = errno, i = which(sig);
    if (i < 0) return;
    if (live && getpid() == owner) {
        if (sig != SIGUSR1) __atomic_store_n(&signal_at_ns, sites_now_ns(), __ATOMIC_RELEASE);
        unsigned char b = (unsigned char)sig;
        if (write(req_pipe[1], &b, 1) == 1 && sig != SIGUSR1) {
            struct pollfd p = {.fd = done_pipe[0], .events = POLLIN};
            if (poll(&p, 1, SNAP_WAIT_MS) == 1) {
                ssize_t r = read(done_pipe[0], &b, 1);
                (void)r;
            }
            /* the state is written (or the helper did not answer in time):
             * not before the node's other ranks have theirs */
            node_done();
            node_wait();
            node_leave();
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
    node_join(getenv("PAPI_MPIT_REPORT_DIR"));
    return 0;
}

void snap_off(void)
{
    live = 0;
    node_done(); /* through MPI_Finalize: nobody waits for this rank's state */
    node_leave();
}

void snap_wake(void)
{
    unsigned char b = 0;
    if (req_pipe[1] >= 0 && write(req_pipe[1], &b, 1) < 0) { /* full: it wakes anyway */
    }
}

/* ---- the helper's loop */
static void (*every_second)(void);
void snap_every_second(void (*fn)(void)) { every_second = fn; }

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
    long long next_beat = every_second ? now + 1000000000LL : 0;
    while (!done(arg)) {
        now = sites_now_ns();
        long long wake = -1;
        if (next_beat) wake = next_beat;
        if (next_period && (wake < 0 || next_period < wake)) wake = next_period;
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
        if (next_beat && now >= next_beat) {
            every_second();
            next_beat = now + 1000000000LL;
        }
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
                if (next_period) next_period = sites_now_ns() + period_ns; /* kept a period */
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
