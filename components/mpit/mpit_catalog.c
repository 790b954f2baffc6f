#include "mpit_catalog.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpit_semantics.h"
#include "mpit_values.h"
#include "papi.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const mpit_backend_t *backend;
static mpit_entry_t *entries[MPIT_CATALOG_MAX];
static atomic_int size;
static int scanned;          /* MPI_T indices looked at so far */
static int mpit_ready;       /* MPI_T_init_thread succeeded */

static const char *const bind_names[] = {
    [MPIT_BIND_NONE] = "unbound", [MPIT_BIND_COMM] = "bound to a communicator",
    [MPIT_BIND_WIN] = "bound to an MPI window", [MPIT_BIND_FILE] = "bound to an MPI file",
    [MPIT_BIND_REQUEST] = "bound to an MPI request", [MPIT_BIND_OTHER] = "bound to an MPI object",
};

void mpit_catalog_init(const mpit_backend_t *b)
{
    pthread_mutex_lock(&lock);
    backend = b;
    pthread_mutex_unlock(&lock);
}

void mpit_catalog_clear(void)
{
    pthread_mutex_lock(&lock);
    int n = atomic_load(&size);
    for (int i = 0; i < n; i++) {
        free(entries[i]);
        entries[i] = NULL;
    }
    atomic_store(&size, 0);
    scanned = 0;
    if (mpit_ready && backend) backend->shutdown();
    mpit_ready = 0;
    backend = NULL;
    pthread_mutex_unlock(&lock);
}

int mpit_catalog_size(void) { return atomic_load(&size); }

const mpit_entry_t *mpit_catalog_get(int code)
{
    return code >= 0 && code < atomic_load(&size) ? entries[code] : NULL;
}

static int append(mpit_entry_t *e)
{
    int n = atomic_load(&size);
    if (n >= MPIT_CATALOG_MAX) {
        free(e);
        return -1;
    }
    entries[n] = e;
    atomic_store(&size, n + 1); /* publish after the entry is complete */
    return n;
}

/* The listed pvar entry named name with class cls (any class when cls < 0). */
static int find_variable(const char *name, int cls)
{
    int n = atomic_load(&size);
    for (int i = 0; i < n; i++) {
        const mpit_entry_t *e = entries[i];
        if (e->family == MPIT_FAMILY_PVAR && e->listed && strcmp(e->info.name, name) == 0 &&
            (cls < 0 || e->info.cls == cls))
            return i;
    }
    return -1;
}

static int find_exact(const char *canonical)
{
    int n = atomic_load(&size);
    for (int i = 0; i < n; i++)
        if (strcmp(entries[i]->name, canonical) == 0) return i;
    return -1;
}

/* Fills the derived fields of a pvar entry from its MPI_T info. */
static void describe_pvar(mpit_entry_t *e)
{
    const mpit_pvar_info_t *in = &e->info;
    const mpit_pvar_override_t *o = mpit_pvar_override(in->name);
    e->family = MPIT_FAMILY_PVAR;
    e->cls = o && o->cls >= 0 ? o->cls : in->cls;
    e->units = o && o->units ? o->units : mpit_pvar_units(in->name, e->cls, in->dtype);
    const char *bind = in->bind <= MPIT_BIND_OTHER ? bind_names[in->bind] : "bound";
    if (o && o->cls >= 0 && o->cls != in->cls)
        snprintf(e->description, sizeof e->description, "%s [MPI_T class %s, read as %s; %s]%s%s",
                 in->desc, mpit_class_name(in->cls), mpit_class_name(e->cls), bind,
                 o->note ? " " : "", o->note ? o->note : "");
    else
        snprintf(e->description, sizeof e->description, "%s [MPI_T class %s; %s]%s%s", in->desc,
                 mpit_class_name(in->cls), bind, o && o->note ? " " : "", o && o->note ? o->note : "");
    e->unusable[0] = '\0';
    if (in->bind != MPIT_BIND_NONE && in->bind != MPIT_BIND_COMM)
        snprintf(e->unusable, sizeof e->unusable,
                 "%s is %s; mpit binds variables only to communicators (MPI_COMM_WORLD or MPI_COMM_SELF)",
                 in->name, bind);
    else if (!mpit_dtype_is_numeric(in->dtype))
        snprintf(e->unusable, sizeof e->unusable, "%s is not a number (MPI_T datatype not numeric)",
                 in->name);
}

static int ensure_mpit(void)
{
    char why[512];
    if (!mpit_ready && backend && backend->init(why, sizeof why) == MPIT_OK) mpit_ready = 1;
    return mpit_ready;
}

static void rescan_locked(void)
{
    int num = 0;
    if (!ensure_mpit() || backend->mpi_state() == MPIT_MPI_FINALIZED) return;
    if (backend->pvar_num(&num) != MPIT_OK || num <= scanned) return;
    for (int i = scanned; i < num; i++) {
        mpit_pvar_info_t info;
        /* Open MPI keeps stale indices of closed components: skip them. */
        if (backend->pvar_info(i, &info) != MPIT_OK) continue;
        int existing = find_variable(info.name, info.cls);
        if (existing >= 0) continue; /* re-registered under a new index */
        mpit_entry_t *e = calloc(1, sizeof *e);
        if (!e) break;
        e->info = info;
        describe_pvar(e);
        e->parsed.comm = MPIT_COMM_WORLD;
        e->parsed.elem = -1;
        e->parsed.cls = -1;
        snprintf(e->parsed.base, sizeof e->parsed.base, "%s", info.name);
        /* MPICH registers a TIMER and a COUNTER under one name: the second
         * one is named with its class. */
        if (find_variable(info.name, -1) >= 0) e->parsed.cls = info.cls;
        mpit_name_format(&e->parsed, e->name, sizeof e->name);
        e->listed = 1;
        e->base = atomic_load(&size);
        append(e);
    }
    scanned = num;
}

void mpit_catalog_rescan(void)
{
    pthread_mutex_lock(&lock);
    rescan_locked();
    pthread_mutex_unlock(&lock);
}

int mpit_catalog_next_listed(int code)
{
    int n = atomic_load(&size);
    for (int i = code + 1; i < n; i++)
        if (entries[i]->listed) return i;
    return -1;
}

/* A refinement of variable `base` by the qualifiers in parsed. */
static int make_variant(int base, const mpit_name_t *parsed, const char *canonical, char *why,
                        int why_len)
{
    const mpit_entry_t *b = entries[base];
    if (parsed->agg != MPIT_AGG_NONE) {
        snprintf(why, why_len, ":sum= and :max= apply to event counters, not to the variable %s",
                 b->info.name);
        return PAPI_EINVAL;
    }
    if (parsed->comm != MPIT_COMM_WORLD && b->info.bind != MPIT_BIND_COMM) {
        snprintf(why, why_len, ":comm= applies to communicator-bound variables; %s is not one",
                 b->info.name);
        return PAPI_EINVAL;
    }
    if (parsed->comm == MPIT_COMM_WORLD && parsed->elem < 0) return base;
    mpit_entry_t *e = malloc(sizeof *e);
    if (!e) return PAPI_ENOMEM;
    *e = *b;
    e->parsed = *parsed;
    snprintf(e->name, sizeof e->name, "%s", canonical);
    e->listed = 0;
    e->base = base;
    int code = append(e);
    return code < 0 ? PAPI_ENOMEM : code;
}

static int lookup_locked(const char *text, int *code, char *why, int why_len)
{
    mpit_name_t parsed;
    char canonical[MPIT_MAX_NAME + 128];
    if (mpit_name_parse(text, &parsed, why, why_len) != MPIT_NAME_OK) return PAPI_EINVAL;
    mpit_name_format(&parsed, canonical, sizeof canonical);
    int found = find_exact(canonical);
    if (found >= 0 && entries[found]->family != MPIT_FAMILY_PENDING) {
        *code = found;
        return PAPI_OK;
    }
    int base = find_variable(parsed.base, parsed.cls);
    if (base < 0) {
        rescan_locked();
        base = find_variable(parsed.base, parsed.cls);
    }
    if (base < 0) {
        if (found >= 0) { *code = found; return PAPI_OK; } /* still pending */
        int state = backend && mpit_ready ? backend->mpi_state() : MPIT_MPI_NOT_STARTED;
        if (backend && state == MPIT_MPI_NOT_STARTED) {
            /* Many variables appear only during MPI_Init: accept the name now
             * and resolve it when the event set starts. */
            mpit_entry_t *e = calloc(1, sizeof *e);
            if (!e) return PAPI_ENOMEM;
            e->family = MPIT_FAMILY_PENDING;
            e->parsed = parsed;
            snprintf(e->name, sizeof e->name, "%s", canonical);
            snprintf(e->description, sizeof e->description,
                     "Not known to MPI_T before MPI_Init; resolved when the event set starts.");
            e->units = "";
            e->base = -1;
            int c = append(e);
            if (c < 0) return PAPI_ENOMEM;
            *code = c;
            return PAPI_OK;
        }
        if (parsed.cls >= 0 && find_variable(parsed.base, -1) >= 0)
            snprintf(why, why_len, "the MPI_T variable %s has no class %s", parsed.base,
                     mpit_class_name(parsed.cls));
        else
            snprintf(why, why_len, "the running MPI has no MPI_T variable named %s", parsed.base);
        return PAPI_ENOEVNT;
    }
    int c = make_variant(base, &parsed, canonical, why, why_len);
    if (c < 0) return c;
    *code = c;
    return PAPI_OK;
}

int mpit_catalog_lookup(const char *text, int *code, char *why, int why_len)
{
    pthread_mutex_lock(&lock);
    why[0] = '\0';
    int err = lookup_locked(text, code, why, why_len);
    pthread_mutex_unlock(&lock);
    return err;
}

int mpit_catalog_resolve(int code)
{
    char why[256];
    pthread_mutex_lock(&lock);
    mpit_entry_t *e = code >= 0 && code < atomic_load(&size) ? entries[code] : NULL;
    int err = -1;
    if (e && e->family == MPIT_FAMILY_PENDING) {
        rescan_locked();
        int base = find_variable(e->parsed.base, e->parsed.cls);
        if (base >= 0) {
            const mpit_entry_t *b = entries[base];
            if (e->parsed.agg == MPIT_AGG_NONE &&
                (e->parsed.comm == MPIT_COMM_WORLD || b->info.bind == MPIT_BIND_COMM)) {
                mpit_name_t parsed = e->parsed;
                char name[sizeof e->name];
                snprintf(name, sizeof name, "%s", e->name);
                memcpy(e, b, sizeof *e);
                e->parsed = parsed;
                snprintf(e->name, sizeof e->name, "%s", name);
                e->listed = 0;
                e->base = base;
                err = 0;
            }
        }
    } else if (e) {
        err = 0;
    }
    (void)why;
    pthread_mutex_unlock(&lock);
    return err;
}
