/*
 * Open MPI 4.0 and 4.1 end the SPCs first thing in MPI_Finalize:
 * ompi_spc_fini frees their storage and sets its pointer to NULL, before
 * anything the component can see (its MPI_COMM_SELF attribute callback comes
 * later, inside ompi_mpi_finalize).  An SPC read in between dereferences
 * that NULL inside MPI_T_pvar_read and the program dies.  PAPI's software
 * overflow reads from its timer signal, which can land there (seen: a
 * SIGPROF while ompi_spc_fini freed its communicator, under load).
 *
 * The signal handler cannot be told; it can look.  The thread that runs
 * MPI_Finalize has a return address into PMPI_Finalize (or into
 * ompi_mpi_finalize, where the compiler made that call a jump) on its stack,
 * or was interrupted inside one of them.  Their address ranges and the
 * stack's bounds are taken once MPI runs (not in a signal); the look is a
 * bounded scan of that stack above the interrupted stack pointer: loads and
 * compares only, safe in a signal handler.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "backend_internal.h"
#include "family_quirks.h"

/* The releases whose MPI_Finalize ends the SPCs before the component hears of it. */
static const struct {
    const char *label, *version;
} spc_end_first[] = {
    {"Open MPI v", "4.1."},
    {"Open MPI v", "4.0."},
};

int backend_spc_end_first(void)
{
    if (!backend_family.open_mpi) return 0;
    for (size_t i = 0; i < sizeof spc_end_first / sizeof spc_end_first[0]; i++)
        if (backend_release_is(spc_end_first[i].label, spc_end_first[i].version)) return 1;
    return 0;
}

/* Functions whose frames mark "inside MPI_Finalize, before the component
 * heard of it"; the second is Open MPI's own and may be absent. */
static const char *const finalize_functions[] = {"PMPI_Finalize", "ompi_mpi_finalize"};
#define NFUNCTIONS (sizeof finalize_functions / sizeof finalize_functions[0])

/* How far above the interrupted stack pointer a return address into
 * MPI_Finalize is looked for: its callees' frames (Open MPI's teardown, a
 * free) take a few KB; the scan stops earlier at the stack's top. */
#define SCAN_BYTES (64 * 1024)

static struct {
    uintptr_t lo[NFUNCTIONS], hi[NFUNCTIONS]; /* [lo, hi): a function's code */
    uintptr_t stack_lo, stack_hi;             /* the thread that prepared */
} watch;
static _Atomic int watch_ready;

static int function_range(const char *name, uintptr_t *lo, uintptr_t *hi)
{
    void *addr = dlsym(RTLD_DEFAULT, name);
    Dl_info info;
    const ElfW(Sym) *sym = NULL;
    if (!addr || !dladdr1(addr, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym || !sym->st_size) return 0;
    *lo = (uintptr_t)addr;
    *hi = *lo + sym->st_size;
    return 1;
}

void backend_finalize_window_prepare(void)
{
    pthread_attr_t attr;
    void *stack;
    size_t size;
    int found = 0;
    if (atomic_load(&watch_ready) || !backend_spc_end_first()) return;
    for (size_t i = 0; i < NFUNCTIONS; i++)
        found += function_range(finalize_functions[i], &watch.lo[i], &watch.hi[i]);
    if (!found || pthread_getattr_np(pthread_self(), &attr) != 0) return;
    if (pthread_attr_getstack(&attr, &stack, &size) == 0) {
        watch.stack_lo = (uintptr_t)stack;
        watch.stack_hi = (uintptr_t)stack + size;
        atomic_store(&watch_ready, 1);
    }
    pthread_attr_destroy(&attr);
}

static int in_finalize_code(uintptr_t a)
{
    for (size_t i = 0; i < NFUNCTIONS; i++)
        if (a >= watch.lo[i] && a < watch.hi[i]) return 1;
    return 0;
}

/* Reads stack words outside any one frame: the sanitizer's redzones there
 * are not errors of this code. */
__attribute__((no_sanitize_address)) int backend_in_finalize_window(const void *pc, const void *sp)
{
    if (!atomic_load_explicit(&watch_ready, memory_order_acquire)) return 0;
    if (in_finalize_code((uintptr_t)pc)) return 1;
    uintptr_t from = (uintptr_t)sp & ~(uintptr_t)(sizeof(uintptr_t) - 1);
    if (from < watch.stack_lo || from >= watch.stack_hi) return 0; /* another thread's stack */
    uintptr_t to = watch.stack_hi - from > SCAN_BYTES ? from + SCAN_BYTES : watch.stack_hi;
    for (const volatile uintptr_t *w = (const uintptr_t *)from; (uintptr_t)w < to; w++)
        if (in_finalize_code(*w)) return 1;
    return 0;
}
