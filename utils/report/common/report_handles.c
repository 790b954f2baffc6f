/*
 * papi-mpit-report: the program's MPI library made global, and Open MPI's
 * predefined handles looked up in the process when first used
 * (report_handles.h says why).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>

#include "report_handles.h"

#include <dlfcn.h>
#include <link.h>
#include <string.h>

/* The object named name when it defines PMPI_Init itself (not through a
 * library it depends on): dlopen of a handle searches those too. */
static int defines_pmpi(const char *name)
{
    void *h = dlopen(name, RTLD_LAZY | RTLD_NOLOAD);
    Dl_info info;
    if (!h) return 0;
    void *f = dlsym(h, "PMPI_Init");
    int own = f && dladdr(f, &info) && info.dli_fname && strcmp(info.dli_fname, name) == 0;
    dlclose(h); /* NOLOAD took a reference */
    return own;
}

static int promote(struct dl_phdr_info *info, size_t size, void *done)
{
    (void)size;
    if (!info->dlpi_name || !info->dlpi_name[0] || !defines_pmpi(info->dlpi_name)) return 0;
    /* kept open: a global library stays for the life of the process */
    *(int *)done = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_GLOBAL | RTLD_NOLOAD) ? 1 : -1;
    return 1;
}

int report_mpi_global(void)
{
    if (dlsym(RTLD_DEFAULT, "PMPI_Init")) return 0;
    int done = 0;
    dl_iterate_phdr(promote, &done);
    return done > 0 ? 0 : -1;
}

#if defined(OPEN_MPI)

/* the symbols behind the handles, by REPORT_H_* */
static const char *const symbols[REPORT_H_COUNT] = {
    [REPORT_H_COMM_WORLD] = "ompi_mpi_comm_world",
    [REPORT_H_COMM_NULL] = "ompi_mpi_comm_null",
    [REPORT_H_BYTE] = "ompi_mpi_byte",
    [REPORT_H_REQUEST_NULL] = "ompi_request_null",
    [REPORT_H_COMM_SELF] = "ompi_mpi_comm_self",
    [REPORT_H_DATATYPE_NULL] = "ompi_mpi_datatype_null",
    [REPORT_H_MESSAGE_NULL] = "ompi_message_null",
    [REPORT_H_MESSAGE_NO_PROC] = "ompi_message_no_proc",
    [REPORT_H_WIN_NULL] = "ompi_mpi_win_null",
};
static void *found[REPORT_H_COUNT];

void *report_ompi_handle(int h)
{
    if (h < 0 || h >= REPORT_H_COUNT) return NULL;
    /* threads racing here store the same address */
    void *p = __atomic_load_n(&found[h], __ATOMIC_ACQUIRE);
    if (!p) {
        p = dlsym(RTLD_DEFAULT, symbols[h]);
        __atomic_store_n(&found[h], p, __ATOMIC_RELEASE);
    }
    return p;
}
#endif
