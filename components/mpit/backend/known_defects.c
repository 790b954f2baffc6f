/*
 * What an MPI release publishes but does not do right, as data.  A counter
 * it does not maintain would read as a constant (0, or a level that never
 * falls) that looks like a measurement: it is listed as unavailable with the
 * reason.  A variable whose collection kills the process (Open MPI
 * 6.0.0~rc2's monitoring) is unavailable too, and never switched on.  Event data it cannot hand out without aborting the process is
 * never read: rules that need it are unavailable, counting still works.
 * Which release is running is learnt from its version string at run time:
 * one backend serves every release of its ABI family.  The second part of
 * this file says what a library can never publish at all (below).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <fnmatch.h>
#include <link.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "backend_internal.h"
#include "family_quirks.h"

/* A release: the version string starts with label, then (after blanks) version. */
struct release {
    const char *label, *version;
};
#define OPEN_MPI_5_0                                                                                         \
    {                                                                                                        \
        "Open MPI v", "5.0."                                                                                 \
    }
/* 6.0 built with --enable-spc (seen on a v6.0.x snapshot; Debian's 6.0.0~rc2
 * has no SPCs): the same two SPC defects as 5.0 */
#define OPEN_MPI_6_0                                                                                         \
    {                                                                                                        \
        "Open MPI v", "6.0."                                                                                 \
    }
/* Debian sid's 6.0.0~rc2 ("Open MPI v6.0.0rc2, package: Debian OpenMPI, ...") */
#define OPEN_MPI_6_0_0_RC2                                                                                   \
    {                                                                                                        \
        "Open MPI v", "6.0.0rc2"                                                                             \
    }
#define MPICH_5_0                                                                                            \
    {                                                                                                        \
        "MPICH Version:", "5.0."                                                                             \
    }

/* rows that hold only through the release's standard-ABI library */
#if defined(MPI_ABI_VERSION)
#define THROUGH_ABI 1
#else
#define THROUGH_ABI 0
#endif
enum { ANY_ABI, STANDARD_ABI };

#define NOT_MAINTAINED "is not maintained by this MPI"
#define NO_HANDLE      "cannot be read through this MPI's standard ABI"
#define ABI_COMM_HANDLE                                                                                      \
    "Open MPI 6.0.0rc2's libmpi_abi answers MPI_T_ERR_INVALID_HANDLE to MPI_T_pvar_handle_alloc for a "      \
    "variable bound to a communicator, whatever the object given (a slot holding the ABI's "                 \
    "MPI_COMM_WORLD, or Open MPI's own; the native library takes the same call)"
#define KILLS "is never collected on this MPI"
#define MONITORING_CRASH                                                                                     \
    "Open MPI 6.0.0rc2's own monitoring segfaults in MPI_Init (mca_common_monitoring_add_procs) for any "    \
    "program once pml_monitoring_enable is set, so the component never switches it on there"

static const struct known_defect {
    struct release release;
    const char *pattern; /* variables affected (fnmatch) */
    const char *what;    /* NOT_MAINTAINED, KILLS, NO_HANDLE */
    const char *why;
    int abi; /* ANY_ABI, or STANDARD_ABI: only through libmpi_abi */
} known_defects[] = {
    {OPEN_MPI_6_0_0_RC2, "pml_ob1_*_length", NO_HANDLE, ABI_COMM_HANDLE, STANDARD_ABI},
    {OPEN_MPI_6_0_0_RC2, "pml_monitoring_*", KILLS, MONITORING_CRASH, ANY_ABI},
    {OPEN_MPI_6_0_0_RC2, "osc_monitoring_*", KILLS, MONITORING_CRASH, ANY_ABI},
    {OPEN_MPI_6_0_0_RC2, "coll_monitoring_*", KILLS, MONITORING_CRASH, ANY_ABI},
    {OPEN_MPI_5_0, "runtime_spc_OMPI_SPC_MAX_*_IN_QUEUE", NOT_MAINTAINED,
     "Open MPI 5.0 never raises this watermark: ompi_spc_update_watermark "
     "(ompi/runtime/ompi_spc.h) compares the watermark with itself, so it reads 0 whatever the queue held",
     ANY_ABI},
    {OPEN_MPI_5_0, "runtime_spc_OMPI_SPC_OOS_IN_QUEUE", NOT_MAINTAINED,
     "Open MPI 5.0's ob1 adds to this level when an out-of-sequence message is queued and never "
     "subtracts when it leaves (ompi/mca/pml/ob1/pml_ob1_recvfrag.c), so it only grows",
     ANY_ABI},
    {OPEN_MPI_6_0, "runtime_spc_OMPI_SPC_MAX_*_IN_QUEUE", NOT_MAINTAINED,
     "Open MPI 6.0 never raises this watermark: ompi_spc_update_watermark "
     "(ompi/runtime/ompi_spc.h) compares the watermark with itself, so it reads 0 whatever the queue held",
     ANY_ABI},
    {OPEN_MPI_6_0, "runtime_spc_OMPI_SPC_OOS_IN_QUEUE", NOT_MAINTAINED,
     "Open MPI 6.0's ob1 adds to this level when an out-of-sequence message is queued and never "
     "subtracts when it leaves (ompi/mca/pml/ob1/pml_ob1_recvfrag.c), so it only grows",
     ANY_ABI},
};

static const struct event_data_defect {
    struct release release;
    const char *why;
} event_data_defects[] = {
    {MPICH_5_0, "MPICH 5.0's MPI_T_event_read and MPI_T_event_copy abort the process (MPIR_Localcopy "
                "asserts that the element's datatype is not a built-in one, src/mpi/misc/utils.c)"},
};

int backend_release_is(const char *label, const char *version)
{
    const char *v = backend_library_version();
    size_t n = strlen(label);
    if (strncmp(v, label, n) != 0) return 0;
    v += strspn(v + n, " \t") + n;
    return strncmp(v, version, strlen(version)) == 0;
}

static int running(const struct release *r) { return backend_release_is(r->label, r->version); }

int backend_known_defect(const char *name, char *why, size_t why_len)
{
    for (size_t i = 0; i < sizeof known_defects / sizeof known_defects[0]; i++) {
        const struct known_defect *d = &known_defects[i];
        if ((d->abi == STANDARD_ABI && !THROUGH_ABI) || fnmatch(d->pattern, name, 0) != 0 ||
            !running(&d->release))
            continue;
        snprintf(why, why_len, "%s %s: %s", name, d->what, d->why);
        return 1;
    }
    return 0;
}

int backend_event_data_defect(char *why, size_t why_len)
{
    for (size_t i = 0; i < sizeof event_data_defects / sizeof event_data_defects[0]; i++)
        if (running(&event_data_defects[i].release)) {
            snprintf(why, why_len, "%s", event_data_defects[i].why);
            return 1;
        }
    return 0;
}

/* ---- what the running library can never give, known before MPI_Init (and so
 * under MPI_Session_init, where MPI_Init never comes): a name whose every
 * source is here is refused when it is added, with the reason it gets once
 * MPI runs, instead of waiting for an MPI_Init that will not bring it and
 * reading 0.  Three kinds of knowledge, as data:
 *  - variables only one family publishes (an MPICH has no Open MPI SPC);
 *  - what a build publishes only when configured for it, learnt from the
 *    library itself: MPICH writes its configure line into its version
 *    string; an Open MPI built with --enable-spc calls ompi_spc_init from
 *    MPI_Init (SPC_INIT, ompi/runtime/ompi_spc.h, is empty otherwise), so its
 *    libmpi has a relocation for that symbol;
 *  - what a release hides in MPI_Init (Open MPI 4.1's pml monitoring).
 * Anything not known this way may come: it waits for MPI_Init as before.
 */
/* Variables only one family publishes. */
static const struct {
    const char *family, *pattern;
} family_variables[] = {
    {"Open MPI", "runtime_spc_*"},
    {"Open MPI", "pml_monitoring_*"},
    {"Open MPI", "coll_monitoring_*"},
    {"Open MPI", "osc_monitoring_*"},
    {"Open MPI", "pml_ob1_*"},
    {"MPICH", "posted_recvq_*"},
    {"MPICH", "unexpected_recvq_*"},
    {"MPICH", "time_failed_matching_postedq"},
    {"MPICH", "time_matching_unexpectedq"},
};

enum witness_kind {
    CONFIGURE_OPTION, /* a word of the "configure:" line of the version string (fnmatch) */
    CALLS_SYMBOL      /* libmpi has a relocation for the symbol, and for `control` */
};

#define EVENTS NULL /* a row about MPI_T events, not variables */

/* What a family publishes only when built for it: the variables (or the
 * events) of a row come only from a build that shows one of the row's
 * witnesses.  A family's variables no row names are not judged. */
static const struct build_source {
    const char *family;
    const char *pattern; /* variables (fnmatch), or EVENTS */
    int kind;            /* enum witness_kind */
    const char *witness, *control;
    const char *option; /* the configure option, for the reason */
} build_sources[] = {
    {"MPICH", "*", CONFIGURE_OPTION, "--enable-mpit-pvars=*", NULL, "--enable-mpit-pvars"},
    {"MPICH", EVENTS, CONFIGURE_OPTION, "--enable-mpit-events=yes", NULL, "--enable-mpit-events=yes"},
    {"MPICH", EVENTS, CONFIGURE_OPTION, "--enable-mpit-events", NULL, "--enable-mpit-events=yes"},
    /* control: called by ompi_spc_init, which is in every build: a libmpi
     * that calls it through a relocation would call ompi_spc_init so too */
    {"Open MPI", "runtime_spc_*", CALLS_SYMBOL, "ompi_spc_init", "ompi_spc_events_init", "--enable-spc"},
};

#define OPEN_MPI_4_1                                                                                         \
    {                                                                                                        \
        "Open MPI v", "4.1."                                                                                 \
    }

/* Variables a release publishes before MPI_Init and removes in it. */
static const struct {
    struct release release;
    const char *pattern, *why;
} hidden_by_init[] = {
    {OPEN_MPI_4_1, "pml_monitoring_*",
     "Open MPI 4.1 removes its pml monitoring variables from MPI_T in MPI_Init (open-mpi/ompi#9260)"},
};

/* ---- witnesses ---------------------------------------------------------- */

/* The words of MPICH's "MPICH configure:" line; NULL when the version
 * string has none. */
static const char *configure_line(size_t *len)
{
    const char *v = backend_library_version(), *p = strstr(v, " configure:");
    if (!p) return NULL;
    p += strlen(" configure:");
    *len = strcspn(p, "\n");
    return p;
}

/* -1 when the version string says nothing about options, else 1 when a
 * word of the configure line matches pattern. */
static int configured_with(const char *pattern)
{
    size_t len, n;
    const char *line = configure_line(&len);
    if (!line) return -1;
    for (const char *w = line; w < line + len; w += n) {
        w += strspn(w, " \t");
        n = strcspn(w, " \t\n");
        char word[256];
        if (n == 0 || n >= sizeof word) continue;
        memcpy(word, w, n);
        word[n] = '\0';
        if (fnmatch(pattern, word, 0) == 0) return 1;
    }
    return 0;
}

struct relocations {
    const char *path;
    const char *want[2];
    int found[2];
    int seen; /* the library was found and its relocations read */
};

#if __ELF_NATIVE_CLASS == 64
#define RELOC_SYMBOL ELF64_R_SYM
#else
#define RELOC_SYMBOL ELF32_R_SYM
#endif

static const void *dyn_ptr(const struct dl_phdr_info *info, ElfW(Addr) v)
{
    /* glibc relocates these entries in place where .dynamic is writable */
    return (const void *)(v < info->dlpi_addr ? info->dlpi_addr + v : v);
}

static void scan_rela(const ElfW(Rela) * r, size_t bytes, const ElfW(Sym) * sym, const char *str,
                      struct relocations *rel)
{
    for (size_t i = 0; r && i < bytes / sizeof *r; i++) {
        const char *name = str + sym[RELOC_SYMBOL(r[i].r_info)].st_name;
        for (int k = 0; k < 2; k++)
            if (strcmp(name, rel->want[k]) == 0) rel->found[k] = 1;
    }
}

static int scan_object(struct dl_phdr_info *info, size_t size, void *data)
{
    struct relocations *rel = data;
    (void)size;
    if (!info->dlpi_name || strcmp(info->dlpi_name, rel->path) != 0) return 0;
    const ElfW(Dyn) *dyn = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
            dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    const ElfW(Sym) *sym = NULL;
    const char *str = NULL;
    const ElfW(Rela) *rela = NULL, *jmprel = NULL;
    size_t rela_bytes = 0, jmprel_bytes = 0;
    int plt_rela = 1;
    for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
        switch (dyn->d_tag) {
        case DT_SYMTAB: sym = dyn_ptr(info, dyn->d_un.d_ptr); break;
        case DT_STRTAB: str = dyn_ptr(info, dyn->d_un.d_ptr); break;
        case DT_RELA: rela = dyn_ptr(info, dyn->d_un.d_ptr); break;
        case DT_RELASZ: rela_bytes = dyn->d_un.d_val; break;
        case DT_JMPREL: jmprel = dyn_ptr(info, dyn->d_un.d_ptr); break;
        case DT_PLTRELSZ: jmprel_bytes = dyn->d_un.d_val; break;
        case DT_PLTREL: plt_rela = dyn->d_un.d_val == DT_RELA; break;
        }
    }
    if (!sym || !str || !plt_rela) return 1; /* a layout not read here: nothing learnt */
    scan_rela(rela, rela_bytes, sym, str, rel);
    scan_rela(jmprel, jmprel_bytes, sym, str, rel);
    rel->seen = 1;
    return 1;
}

/* -1 unknown, 0 or 1: libmpi calls symbol through a relocation, judged
 * only when it calls control so (a library linked to call its own symbols
 * directly shows neither). */
static int calls_symbol(const char *symbol, const char *control)
{
    Dl_info where;
    void *init = dlsym(RTLD_DEFAULT, "PMPI_Init");
    if (!init || !dladdr(init, &where) || !where.dli_fname) return -1;
    struct relocations rel = {where.dli_fname, {symbol, control}, {0, 0}, 0};
    dl_iterate_phdr(scan_object, &rel);
    if (!rel.seen || !rel.found[1]) return -1;
    return rel.found[0];
}

#define NUM_BUILD_SOURCES (sizeof build_sources / sizeof build_sources[0])
#define NOT_ASKED         -2

/* -1 unknown, else whether the build shows row i's witness; asked once (the
 * library does not change; a race asks twice and finds the same). */
static int built_with(size_t i)
{
    static int answer[NUM_BUILD_SOURCES] = {[0 ... NUM_BUILD_SOURCES - 1] = NOT_ASKED};
    const struct build_source *s = &build_sources[i];
    if (__atomic_load_n(&answer[i], __ATOMIC_RELAXED) == NOT_ASKED)
        __atomic_store_n(&answer[i],
                         s->kind == CONFIGURE_OPTION ? configured_with(s->witness)
                                                     : calls_symbol(s->witness, s->control),
                         __ATOMIC_RELAXED);
    return __atomic_load_n(&answer[i], __ATOMIC_RELAXED);
}

/* ---- the judgement ------------------------------------------------------ */

int backend_never_gives(const char *name, char *why, size_t why_len)
{
    const char *family = backend_family.name;
    for (size_t i = 0; name && i < sizeof family_variables / sizeof family_variables[0]; i++)
        if (fnmatch(family_variables[i].pattern, name, 0) == 0 &&
            strcmp(family_variables[i].family, family)) {
            snprintf(why, why_len, "%s is a variable of %s, not of %s", name, family_variables[i].family,
                     family);
            return 1;
        }
    for (size_t i = 0; name && i < sizeof hidden_by_init / sizeof hidden_by_init[0]; i++)
        if (fnmatch(hidden_by_init[i].pattern, name, 0) == 0 && running(&hidden_by_init[i].release)) {
            snprintf(why, why_len, "%s: %s", name, hidden_by_init[i].why);
            return 1;
        }
    /* rows of one family and pattern are alternatives: any witness will do */
    int judged = 0, shown = 0;
    const char *option = NULL;
    for (size_t i = 0; i < NUM_BUILD_SOURCES; i++) {
        const struct build_source *s = &build_sources[i];
        if (strcmp(s->family, family) != 0 || !s->pattern != !name ||
            (name && fnmatch(s->pattern, name, 0) != 0))
            continue;
        int with = built_with(i);
        if (with < 0) return 0;
        judged = 1;
        shown |= with;
        option = s->option;
    }
    if (!judged || shown) return 0;
    snprintf(why, why_len, "this %s was not built with %s, so it never has %s%s", family, option,
             name ? "the MPI_T variable " : "MPI_T events", name ? name : "");
    return 1;
}
