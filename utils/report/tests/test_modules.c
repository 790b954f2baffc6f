/* site_modules.c: the module holding an address without _dl_find_object
 * (glibc below 2.35), for the executable, libc and a library loaded after
 * the scan, in and out of a signal handler.  Compiled without
 * HAVE__DL_FIND_OBJECT, so sites_module_at takes the fallback; where glibc
 * has _dl_find_object, each answer is also checked against it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>

#include "expect.h"
#include "site_modules.h"

#if defined(HAVE__DL_FIND_OBJECT)
#error the test is of the fallback: compile it without HAVE__DL_FIND_OBJECT
#endif

static const char *base(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

/* the same answer as glibc's own, where it has one */
static void same_as_glibc(const char *what, uintptr_t pc, const sites_module_t *m)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 35)
    struct dl_find_object fo;
    EXPECT(_dl_find_object((void *)pc, &fo) == 0, "%s: _dl_find_object found nothing", what);
    /* one segment of glibc's range (the fallback's are per segment; for an
     * arm64 executable under qemu-user glibc names only the first) */
    EXPECT(m->start >= (uintptr_t)fo.dlfo_map_start && m->start < (uintptr_t)fo.dlfo_map_end,
           "%s: [%#lx, %#lx), glibc [%p, %p)", what, (unsigned long)m->start, (unsigned long)m->end,
           fo.dlfo_map_start, fo.dlfo_map_end);
    EXPECT(strcmp(m->path, fo.dlfo_link_map->l_name) == 0, "%s: %s, glibc %s", what, m->path,
           fo.dlfo_link_map->l_name);
#else
    (void)what, (void)pc, (void)m;
#endif
}

static void expect_module(const char *what, uintptr_t pc, const char *prefix, int exact)
{
    sites_module_t m;
    int rc = sites_module_at(pc, &m);
    EXPECT(rc == 0, "%s (%#lx): no module", what, (unsigned long)pc);
    if (rc != 0) return;
    EXPECT(m.start <= pc && pc < m.end, "%s: %#lx outside [%#lx, %#lx)", what, (unsigned long)pc,
           (unsigned long)m.start, (unsigned long)m.end);
    if (!prefix[0])
        EXPECT(m.path[0] == '\0', "%s: \"%s\", not the executable's \"\"", what, m.path);
    else
        EXPECT(strncmp(base(m.path), prefix, strlen(prefix)) == 0, "%s: %s, not %s*", what, m.path, prefix);
    if (exact) same_as_glibc(what, pc, &m);
}

/* ---- from a signal handler: what a wrapper interrupted by one would ask */
static uintptr_t in_main, in_libc, in_libm;
static volatile sig_atomic_t handled;
static int found_main, found_libc, found_libm;

static void on_signal(int sig)
{
    sites_module_t m;
    (void)sig;
    found_main = sites_module_at(in_main, &m) == 0 && m.path[0] == '\0';
    found_libc = sites_module_at(in_libc, &m) == 0 && strncmp(base(m.path), "libc", 4) == 0;
    found_libm = sites_module_at(in_libm, &m) == 0 && strncmp(base(m.path), "libm", 4) == 0;
    handled = 1;
}

int main(void)
{
    EXPECT(sites_modules_scan() == 0, "the first scan failed");
    in_main = (uintptr_t)&main;
    in_libc = (uintptr_t)dlsym(RTLD_DEFAULT, "printf");
    expect_module("main", in_main, "", 1);
    expect_module("printf", in_libc, "libc", 1);

    /* a library loaded after the scan: found in /proc/self/maps (its
     * file's real name there: libm.so.6 or libm-2.31.so), then kept */
    void *h = dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL);
    EXPECT(h, "dlopen libm.so.6: %s", dlerror());
    if (!h) return 1;
    in_libm = (uintptr_t)dlsym(h, "cos");
    expect_module("cos, before a scan", in_libm, "libm", 0);
    sites_module_t a, b;
    EXPECT(sites_module_at(in_libm, &a) == 0 && sites_module_at(in_libm, &b) == 0 && a.path == b.path,
           "cos: not kept after the first lookup");

    /* and the same from a signal handler */
    signal(SIGUSR1, on_signal);
    raise(SIGUSR1);
    EXPECT(handled && found_main && found_libc && found_libm,
           "in a signal handler: main %d, libc %d, libm %d", found_main, found_libc, found_libm);

    /* the next scan has it, under the loader's name */
    EXPECT(sites_modules_scan() == 0, "the second scan failed");
    expect_module("cos, after a scan", in_libm, "libm.so.6", 1);
    expect_module("main, after a scan", in_main, "", 1);
    EXPECT(sites_modules_scan() == 0, "a scan with nothing new failed");

    /* memory that is no module's (generated code would be there), twice:
     * the second answer from what the first learnt */
    void *anon = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT(anon != MAP_FAILED, "mmap failed");
    if (anon != MAP_FAILED) {
        sites_module_t m;
        EXPECT(sites_module_at((uintptr_t)anon, &m) == -1, "anonymous memory: found %s", m.path);
        EXPECT(sites_module_at((uintptr_t)anon + 8, &m) == -1, "anonymous memory, again: found %s", m.path);
    }
    dlclose(h);
    if (!failures) printf("site_modules: all passed\n");
    return failures != 0;
}
