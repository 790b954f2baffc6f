/* Preloaded by bench/report_sites_depth.sh: counts the process's calls of
 * malloc, calloc and realloc (glibc's own entry points do the work), read
 * by the bench through malloc_count(). */
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
static long long count;

long long malloc_count(void) { return __atomic_load_n(&count, __ATOMIC_RELAXED); }
void *malloc(size_t n)
{
    __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED);
    return __libc_malloc(n);
}
void *calloc(size_t k, size_t n)
{
    __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED);
    return __libc_calloc(k, n);
}
void *realloc(void *p, size_t n)
{
    __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED);
    return __libc_realloc(p, n);
}
