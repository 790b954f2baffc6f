#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "mpit_loader.h"
#include "papi_mpit.h"

const mpit_backend_t *_Atomic mpit_backend_in_use;
static char loaded_module[MPIT_NAME_LEN]; /* written before the backend is published */

#include <dlfcn.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h> /* getpid, in PAPI's debug label */

#include "papi_debug.h" /* SUBDBG: traces in PAPI debug builds (PAPI_DEBUG=SUBSTRATE) */

#ifndef MPIT_BACKEND_DIR
#define MPIT_BACKEND_DIR ""
#endif
#ifndef MPIT_DEFAULT_LIBMPI
#define MPIT_DEFAULT_LIBMPI ""
#endif

/* MPI ABI families: how to recognise one from its version string, and the
 * backend module compiled against its mpi.h. */
static const struct {
    const char *version_marker;
    const char *module;
} families[] = {
    {"Open MPI", "mpit_backend_openmpi.so"},
    {"MPICH", "mpit_backend_mpich.so"},
    {"Intel(R) MPI", "mpit_backend_mpich.so"}, /* MPICH ABI */
    {"MVAPICH", "mpit_backend_mpich.so"},
};

/* A program built for the MPI 5.0 standard ABI (libmpi_abi) needs the
 * backend compiled against the standard's header, whatever implementation
 * is behind it. */
#define STANDARD_ABI_MODULE "mpit_backend_abi.so"

typedef int (*get_library_version_fn)(char *, int *);
typedef int (*abi_get_version_fn)(int *, int *);

/* MPI_Abi_get_version (MPI 5.0, callable before MPI_Init) answers 1 or
 * more from a standard-ABI library and -1 from a native one; libraries
 * older than MPI 5.0 do not have it. */
static int process_uses_standard_abi(void)
{
    abi_get_version_fn get = (abi_get_version_fn)dlsym(RTLD_DEFAULT, "PMPI_Abi_get_version");
    int major = -1, minor = -1;
    return get && get(&major, &minor) == 0 && major >= 1;
}

/* The directory libpapi was loaded from, so an installed tree is relocatable. */
static void own_dir(char *buf, size_t len)
{
    Dl_info info;
    buf[0] = '\0';
    if (dladdr((void *)own_dir, &info) && info.dli_fname) {
        char copy[MPIT_PATH_LEN];
        snprintf(copy, sizeof copy, "%s", info.dli_fname);
        snprintf(buf, len, "%s/papi-mpit", dirname(copy));
    }
}

static void *open_module(const char *module, char *why, size_t why_len)
{
    char dirs[3][MPIT_PATH_LEN], path[MPIT_PATH_LEN + MPIT_NAME_LEN];
    const char *env = getenv("PAPI_MPIT_BACKEND_DIR");
    snprintf(dirs[0], sizeof dirs[0], "%s", env ? env : "");
    own_dir(dirs[1], sizeof dirs[1]);
    snprintf(dirs[2], sizeof dirs[2], "%s", MPIT_BACKEND_DIR);
    const char *last_error = "no backend directory is known";
    for (int i = 0; i < 3; i++) {
        if (!dirs[i][0]) continue;
        snprintf(path, sizeof path, "%.4000s/%s", dirs[i], module);
        /* RTLD_LOCAL: the backend's MPI references bind to the process's MPI. */
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (h) {
            SUBDBG("mpit: backend module %s loaded\n", path);
            return h;
        }
        last_error = dlerror();
        SUBDBG("mpit: backend module %s: %s\n", path, last_error);
    }
    snprintf(why, why_len, "cannot load the MPI backend %s (%s); set PAPI_MPIT_BACKEND_DIR", module,
             last_error);
    return NULL;
}

int mpit_process_has_mpi(void)
{
    return dlsym(RTLD_DEFAULT, "PMPI_Get_library_version") && dlsym(RTLD_DEFAULT, "PMPI_T_init_thread");
}

typedef int (*mpi_flag_fn)(int *);

int mpit_process_mpi_running(void)
{
    /* both take an int *: the same call in every ABI */
    mpi_flag_fn initialized = (mpi_flag_fn)dlsym(RTLD_DEFAULT, "PMPI_Initialized");
    mpi_flag_fn finalized = (mpi_flag_fn)dlsym(RTLD_DEFAULT, "PMPI_Finalized");
    int init = 0, fin = 0;
    if (!initialized || !finalized || initialized(&init) != 0 || finalized(&fin) != 0) return 0;
    return init && !fin;
}

/* RTLD_GLOBAL: the backend and the MPI's own plugins resolve against it. */
static int load_default_mpi(char *why, size_t why_len)
{
    const char *lib = getenv("PAPI_MPIT_LIBMPI");
    if (!lib || !*lib) lib = MPIT_DEFAULT_LIBMPI;
    if (!*lib || strcmp(lib, "none") == 0) {
        snprintf(why, why_len,
                 "this process does not use MPI, and no default MPI library is set (PAPI_MPIT_LIBMPI)");
        return -1;
    }
    if (!dlopen(lib, RTLD_NOW | RTLD_GLOBAL)) {
        snprintf(why, why_len, "this process does not use MPI, and loading %s for the listing failed: %s",
                 lib, dlerror());
        return -1;
    }
    SUBDBG("mpit: no MPI in this process: loaded %s for the listing\n", lib);
    return 0;
}

const mpit_backend_t *mpit_load_backend(int load_default, char *why, size_t why_len)
{
    if (!mpit_process_has_mpi()) {
        if (!load_default) {
            snprintf(why, why_len, "this process does not use MPI (no MPI_T symbols loaded)");
            return NULL;
        }
        if (load_default_mpi(why, why_len)) return NULL;
    }
    get_library_version_fn get_version =
        (get_library_version_fn)dlsym(RTLD_DEFAULT, "PMPI_Get_library_version");
    char version[MPIT_VERSION_LEN] = "";
    int len = 0;
    get_version(version, &len); /* callable before MPI_Init and after MPI_Finalize */
    const char *module = process_uses_standard_abi() ? STANDARD_ABI_MODULE : NULL;
    for (size_t i = 0; i < sizeof families / sizeof families[0] && !module; i++)
        if (strstr(version, families[i].version_marker)) module = families[i].module;
    SUBDBG("mpit: MPI library \"%.120s\": backend %s\n", version, module ? module : "(none)");
    if (!module) {
        char *nl = strchr(version, '\n');
        if (nl) *nl = '\0';
        snprintf(why, why_len, "unsupported MPI library \"%.120s\"", version);
        return NULL;
    }
    void *h = open_module(module, why, why_len);
    if (!h) return NULL;
    mpit_backend_entry_fn entry = (mpit_backend_entry_fn)dlsym(h, MPIT_BACKEND_SYMBOL);
    const mpit_backend_t *backend = entry ? entry() : NULL;
    if (!backend || backend->abi != MPIT_BACKEND_ABI) {
        snprintf(why, why_len, "backend %s does not match this libpapi (ABI %d)", module, MPIT_BACKEND_ABI);
        return NULL;
    }
    snprintf(loaded_module, sizeof loaded_module, "%s", module);
    /* Never dlclose: MPI may call our MPI_COMM_SELF callback at MPI_Finalize. */
    return backend;
}

int papi_mpit_backend(char *buf, size_t len)
{
    const mpit_backend_t *b = atomic_load(&mpit_backend_in_use);
    if (!b || !loaded_module[0]) return 0;
    snprintf(buf, len, "%s (%s)", loaded_module, b->family);
    return 1;
}
