/*
 * papi-mpit-report: a call site's file, line and function, read on rank 0
 * from the module's DWARF line table and symbol table through elfutils'
 * libdw (Debian's libdw1: it reads split and compressed debug info and the
 * separate files under /usr/lib/debug that debug packages install, by
 * build id, and asks debuginfod where DEBUGINFOD_URLS names a server,
 * which binutils' BFD would need the whole of binutils for).  Without -g a
 * site is its function and offset; without symbols, the module and offset;
 * the modules that gave no line are listed (nolines).
 *
 * A site has up to two frames to name: its program line (the caller's own,
 * or the program's frame behind a library's caller, or a Python line that
 * the rank read itself) and, behind a library, the caller (its detail).
 */
#include <elfutils/libdwfl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site_job.h"

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static char *debuginfo_path;
static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
    .debuginfo_path = &debuginfo_path,
};

/* one libdw session per module, each reported at 0, where its offsets are */
typedef struct session {
    char *path;
    Dwfl *dwfl;
    Dwfl_Module *mod;
    int asked, lines; /* addresses asked, and those with a line */
} session_t;

typedef struct sessions {
    session_t *s;
    int n, cap;
} sessions_t;

static session_t *session_of(sessions_t *all, const char *path)
{
    for (int i = 0; i < all->n; i++)
        if (strcmp(all->s[i].path, path) == 0) return &all->s[i];
    if (all->n == all->cap) {
        int cap = all->cap ? 2 * all->cap : 16;
        session_t *s = realloc(all->s, sizeof *s * (size_t)cap);
        if (!s) return NULL;
        all->s = s, all->cap = cap;
    }
    session_t *s = &all->s[all->n];
    memset(s, 0, sizeof *s);
    s->path = strdup(path);
    if (!s->path) return NULL;
    s->dwfl = dwfl_begin(&callbacks);
    if (s->dwfl) {
        dwfl_report_begin(s->dwfl);
        s->mod = dwfl_report_elf(s->dwfl, path, path, -1, 0, 0);
        dwfl_report_end(s->dwfl, NULL, NULL);
    }
    all->n++;
    return s;
}

/* The function, file and line of a return address (off in module), and a
 * label: "file.c:212", else "func+0x1c (module)", else "module+0x..." */
static void name_addr(sessions_t *all, const char *module, unsigned long off, char *func, size_t nfunc,
                      char *file, size_t nfile, int *line, char *label, size_t nlabel)
{
    func[0] = file[0] = '\0';
    *line = 0;
    GElf_Off into = 0;
    session_t *se = session_of(all, module);
    if (se && se->mod) {
        GElf_Addr bias = 0;
        dwfl_module_getelf(se->mod, &bias);
        /* the return address is after the call: its line is the call's */
        Dwarf_Addr a = (Dwarf_Addr)off + bias - 1;
        GElf_Sym sym;
        const char *fn = dwfl_module_addrinfo(se->mod, a, &into, &sym, NULL, NULL, NULL);
        if (fn) snprintf(func, nfunc, "%s", fn);
        Dwfl_Line *l = dwfl_module_getsrc(se->mod, a);
        int ln = 0;
        const char *f = l ? dwfl_lineinfo(l, NULL, &ln, NULL, NULL, NULL) : NULL;
        if (f && ln > 0) {
            snprintf(file, nfile, "%s", f);
            *line = ln;
        }
    }
    if (se) {
        se->asked++;
        se->lines += *line > 0;
    }
    if (*line)
        snprintf(label, nlabel, "%s:%d", base_name(file), *line);
    else if (func[0])
        snprintf(label, nlabel, "%s+0x%lx (%s)", func, (unsigned long)into + 1, base_name(module));
    else
        snprintf(label, nlabel, "%s+0x%lx", base_name(module), off);
}

static void name_site(sessions_t *all, site_agg_t *s)
{
    if (s->how == SITES_PROG_NATIVE) {
        name_addr(all, s->module, s->off, s->via_func, sizeof s->via_func, s->via_file, sizeof s->via_file,
                  &s->via_line, s->via, sizeof s->via);
        name_addr(all, s->pwhere, s->pat, s->func, sizeof s->func, s->file, sizeof s->file, &s->line,
                  s->label, sizeof s->label);
    } else if (s->how == SITES_PROG_PYTHON) {
        name_addr(all, s->module, s->off, s->via_func, sizeof s->via_func, s->via_file, sizeof s->via_file,
                  &s->via_line, s->via, sizeof s->via);
        snprintf(s->func, sizeof s->func, "%s", s->pfunc);
        snprintf(s->file, sizeof s->file, "%s", s->pwhere);
        s->line = (int)s->pat;
        snprintf(s->label, sizeof s->label, "%s:%d", base_name(s->file), s->line);
    } else {
        name_addr(all, s->module, s->off, s->func, sizeof s->func, s->file, sizeof s->file, &s->line,
                  s->label, sizeof s->label);
    }
}

void sites_name_all(sites_job_t *j)
{
    /* elfutils' default places, then the user's (--debug-dir): each absolute
     * directory is searched for DIR/.build-id/xx/rest.debug and for the
     * .gnu_debuglink name */
    const char *more = getenv("PAPI_MPIT_REPORT_DEBUG_DIR");
    char path[4096];
    snprintf(path, sizeof path, ":.debug:/usr/lib/debug%s%s", more && *more ? ":" : "", more ? more : "");
    debuginfo_path = path;
    sessions_t all = {0};
    for (int i = 0; i < j->nsites; i++) name_site(&all, &j->sites[i]);
    for (int i = 0; i < all.n; i++) {
        session_t *s = &all.s[i];
        /* a module that gave no line at all: no debug information found for it */
        if (s->asked && !s->lines) {
            char **nl = realloc(j->nolines, sizeof *nl * (size_t)(j->nnolines + 1));
            if (nl) {
                j->nolines = nl;
                nl[j->nnolines] = strdup(s->path);
                if (nl[j->nnolines]) j->nnolines++;
            }
        }
        if (s->dwfl) dwfl_end(s->dwfl);
        free(s->path);
    }
    free(all.s);
    debuginfo_path = NULL;
}
