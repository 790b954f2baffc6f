/* Preloaded by ctests/t_report_alloc.sh with the report tool: counts the
 * calls of malloc, calloc and realloc made directly from the tool's
 * interposer (libpapi-mpit-report-*.so: the caller's return address in one
 * of its loaded segments), from the moment the program calls
 * count_arm(); glibc's own entry points do the work.  Allocations the tool
 * makes through another library (libc's strdup, the MPI's) are not seen. */
#define _GNU_SOURCE
#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
static uintptr_t lo, hi;
static long long count;

static int tool_segments(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size, (void)arg;
    if (!strstr(info->dlpi_name, "libpapi-mpit-report")) return 0;
    for (int k = 0; k < info->dlpi_phnum; k++) {
        if (info->dlpi_phdr[k].p_type != PT_LOAD) continue;
        uintptr_t a = info->dlpi_addr + info->dlpi_phdr[k].p_vaddr, b = a + info->dlpi_phdr[k].p_memsz;
        if (!lo || a < lo) lo = a;
        if (b > hi) hi = b;
    }
    return 1;
}

/* 1 when the tool's interposer is loaded (then counting from now), 0 if not */
int count_arm(void)
{
    dl_iterate_phdr(tool_segments, NULL);
    __atomic_store_n(&count, 0, __ATOMIC_RELAXED);
    return hi > lo;
}
long long count_tool(void) { return __atomic_load_n(&count, __ATOMIC_RELAXED); }

static void hit(const void *ra)
{
    if ((uintptr_t)ra >= lo && (uintptr_t)ra < hi) __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED);
}
void *malloc(size_t n)
{
    hit(__builtin_return_address(0));
    return __libc_malloc(n);
}
void *calloc(size_t k, size_t n)
{
    hit(__builtin_return_address(0));
    return __libc_calloc(k, n);
}
void *realloc(void *p, size_t n)
{
    hit(__builtin_return_address(0));
    return __libc_realloc(p, n);
}
