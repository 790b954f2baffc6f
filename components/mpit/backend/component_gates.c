/*
 * Variables of MPI components that were not selected.  Open MPI registers
 * the variables of every component it can load, selected or not, and reads
 * some of them through the component's own state: reading the PSM2 MTL's
 * variables when PSM2 was not selected dereferences its NULL queue inside
 * psm2_mq_get_stats.  Each gate below names a variable prefix of such a
 * framework and where Open MPI keeps the component it selected; a variable
 * of a component that is not the selected one is never read.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "backend_internal.h"
#include "family_quirks.h"

/* The head of Open MPI's mca_base_component_t (MCA component ABI 2.1.0,
 * unchanged from Open MPI 1.8 to 5.0): enough to read a component's name. */
struct component_head {
    int major, minor, release;
    char project[16];
    int project_major, project_minor, project_release;
    char type[32];
    int type_major, type_minor, type_release;
    char name[64];
};

enum selected_kind {
    SELECTED_POINTER, /* the symbol holds a pointer to the component (NULL: none) */
    SELECTED_COPY     /* the symbol is a copy of the component (empty name: none) */
};

static const struct component_gate {
    const char *prefix; /* variables "<prefix><component>_..." */
    const char *symbol; /* Open MPI's record of the selected component */
    int kind;           /* enum selected_kind */
    const char *framework;
} gates[] = {
    {"mtl_", "ompi_mtl_base_selected_component", SELECTED_POINTER, "MTL"},
};

/* The selected component's name, or NULL when none is (yet). */
static const char *selected_name(const struct component_gate *g)
{
    void *sym = dlsym(RTLD_DEFAULT, g->symbol);
    if (!sym) return NULL;
    const struct component_head *c = g->kind == SELECTED_POINTER ? *(const struct component_head **)sym
                                                                 : (const struct component_head *)sym;
    return c && c->name[0] ? c->name : NULL;
}

int backend_pvar_unavailable(const char *name, char *why, size_t why_len)
{
    if (backend_known_defect(name, why, why_len)) return 1;
    for (size_t i = 0; backend_family.open_mpi && i < sizeof gates / sizeof gates[0]; i++) {
        const struct component_gate *g = &gates[i];
        size_t n = strlen(g->prefix);
        if (strncmp(name, g->prefix, n) != 0) continue;
        const char *selected = selected_name(g);
        size_t len = selected ? strlen(selected) : 0;
        if (selected && strncmp(name + n, selected, len) == 0 && name[n + len] == '_') return 0;
        if (selected)
            snprintf(why, why_len,
                     "%s belongs to an Open MPI %s component that is not in use (the %s %s is): "
                     "Open MPI would read state that does not exist",
                     name, g->framework, g->framework, selected);
        else
            snprintf(
                why, why_len,
                "%s belongs to an Open MPI %s component, and no %s is in use (one is "
                "chosen in MPI_Init, only with the cm PML): Open MPI would read state that does not exist",
                name, g->framework, g->framework);
        return 1;
    }
    return 0;
}
