/*
 * papi-mpit-report: a call site's file, line and function, read on rank 0
 * from the module's DWARF line table and symbol table through elfutils'
 * libdw (Debian's libdw1: it reads split and compressed debug info and the
 * separate files under /usr/lib/debug that debug packages install, which
 * binutils' BFD would need the whole of binutils for).  Without -g a site
 * is its function and offset; without symbols, the module and offset.
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

static void name_site(site_agg_t *s, Dwfl_Module *mod)
{
    s->func[0] = s->file[0] = '\0';
    s->line = 0;
    GElf_Off into = 0;
    if (mod) {
        GElf_Addr bias = 0;
        dwfl_module_getelf(mod, &bias);
        /* the return address is after the call: its line is the call's */
        Dwarf_Addr a = (Dwarf_Addr)s->off + bias - 1;
        GElf_Sym sym;
        const char *fn = dwfl_module_addrinfo(mod, a, &into, &sym, NULL, NULL, NULL);
        if (fn) snprintf(s->func, sizeof s->func, "%s", fn);
        Dwfl_Line *l = dwfl_module_getsrc(mod, a);
        int line = 0;
        const char *file = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
        if (file && line > 0) {
            snprintf(s->file, sizeof s->file, "%s", file);
            s->line = line;
        }
    }
    if (s->line)
        snprintf(s->label, sizeof s->label, "%s:%d", base_name(s->file), s->line);
    else if (s->func[0])
        snprintf(s->label, sizeof s->label, "%s+0x%lx (%s)", s->func, (unsigned long)into + 1,
                 base_name(s->module));
    else
        snprintf(s->label, sizeof s->label, "%s+0x%lx", base_name(s->module), s->off);
}

void sites_name_all(sites_job_t *j)
{
    unsigned char *done = calloc((size_t)j->nsites + 1, 1);
    for (int i = 0; done && i < j->nsites; i++) {
        if (done[i]) continue;
        /* a session per module: each is reported at 0, where its offsets are */
        const char *module = j->sites[i].module;
        Dwfl *dwfl = dwfl_begin(&callbacks);
        Dwfl_Module *mod = NULL;
        if (dwfl) {
            dwfl_report_begin(dwfl);
            mod = dwfl_report_elf(dwfl, module, module, -1, 0, 0);
            dwfl_report_end(dwfl, NULL, NULL);
        }
        for (int k = i; k < j->nsites; k++)
            if (!done[k] && strcmp(j->sites[k].module, module) == 0) {
                name_site(&j->sites[k], mod);
                done[k] = 1;
            }
        if (dwfl) dwfl_end(dwfl);
    }
    free(done);
}
