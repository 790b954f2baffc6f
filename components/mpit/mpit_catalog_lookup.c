/*
 * Names to codes: a name looked up is found in the table, made as a
 * refinement of what it qualifies, refused with why, or, before MPI_Init,
 * accepted pending and resolved at the catch-up after it
 * (mpit_catalog_settle, here because it resolves the pending names).
 */
#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpit_catalog_internal.h"
#include "mpit_engine.h"
#include "mpit_events.h"
#include "mpit_loader.h"
#include "mpit_rules.h"
#include "mpit_semantics.h"
#include "mpit_suggest.h"
#include "papi.h"
#include <unistd.h> /* getpid, in PAPI's debug label */

#include "papi_debug.h" /* SUBDBG: traces in PAPI debug builds (PAPI_DEBUG=SUBSTRATE) */

/* The entry with this canonical name; pending ones only if asked for. */
static int find_exact(const char *canonical, int with_pending)
{
    int n = atomic_load(&catalog_size);
    for (int i = 0; i < n; i++)
        if ((with_pending || catalog_entries[i]->kind != MPIT_KIND_PENDING) &&
            strcmp(catalog_entries[i]->name, canonical) == 0)
            return i;
    return -1;
}

/* Appends "; did you mean X?" with the listed name of this kind closest to base. */
static void suggest_listed(const char *base, int kind, const char *prefix, char *why, int why_len)
{
    mpit_suggestion_t sug;
    mpit_suggest_begin(&sug, base);
    int n = atomic_load(&catalog_size);
    size_t plen = prefix ? strlen(prefix) : 0;
    for (int i = 0; i < n; i++)
        if (catalog_entries[i]->listed && catalog_entries[i]->kind == kind &&
            (!prefix || strncmp(catalog_entries[i]->name, prefix, plen) == 0))
            mpit_suggest_offer(&sug, catalog_entries[i]->name);
    mpit_suggest_append(&sug, why, (size_t)why_len);
}

/* Portable metrics are the upper-case names; MPI variables are not. */
static int in_metric_namespace(const char *base)
{
    int upper = 0;
    for (const char *p = base; *p; p++) {
        if (islower((unsigned char)*p)) return 0;
        upper |= isupper((unsigned char)*p);
    }
    return upper;
}

/* ---- lookup ----------------------------------------------------------- */

static int appended_variant(const mpit_entry_t *base_entry, int base, const mpit_name_t *parsed,
                            const char *canonical)
{
    mpit_entry_t *e = malloc(sizeof *e);
    if (!e) return PAPI_ENOMEM;
    *e = *base_entry;
    e->parsed = *parsed;
    snprintf(e->name, sizeof e->name, "%s", canonical);
    e->listed = 0;
    e->base = base;
    int code = catalog_append(e);
    return code < 0 ? PAPI_ENOMEM : code;
}

/* A refinement of variable `base` by the qualifiers in parsed. */
static int pvar_variant(int base, const mpit_name_t *parsed, const char *canonical, char *why, int why_len)
{
    const mpit_entry_t *b = catalog_entries[base];
    if (parsed->agg != MPIT_AGG_NONE) {
        snprintf(why, why_len, ":sum= and :max= apply to event counters, not to the variable %s",
                 b->info.name);
        return PAPI_EINVAL;
    }
    if (parsed->comm != MPIT_COMM_WORLD && b->info.bind != MPIT_BIND_COMM) {
        snprintf(why, why_len, ":comm= applies to communicator-bound variables; %s is not one", b->info.name);
        return PAPI_EINVAL;
    }
    if (parsed->comm == MPIT_COMM_WORLD && parsed->elem < 0) return base;
    return appended_variant(b, base, parsed, canonical);
}

static int is_event_name(const char *base)
{
    return strncmp(base, event_prefix, sizeof event_prefix - 1) == 0 ||
           strncmp(base, derived_prefix, sizeof derived_prefix - 1) == 0;
}

/* mpit:::event.<event>[:sum=e|:max=e] and mpit:::derived.<counter>. */
static int lookup_event(const mpit_name_t *parsed, const char *canonical, char *why, int why_len)
{
    int derived = strncmp(parsed->base, derived_prefix, sizeof derived_prefix - 1) == 0;
    const char *rest = parsed->base + (derived ? sizeof derived_prefix : sizeof event_prefix) - 1;
    if (parsed->elem >= 0 || parsed->cls >= 0 || parsed->comm != MPIT_COMM_WORLD ||
        (derived && parsed->agg != MPIT_AGG_NONE)) {
        snprintf(why, why_len, "%s takes only the qualifiers :sum=<element> and :max=<element>%s",
                 parsed->base, derived ? " (and only on event.<name>)" : "");
        return PAPI_EINVAL;
    }
    if (!catalog_events_listed) {
        snprintf(why, why_len, "no MPI_T event counters: %s", mpit_events_why());
        return PAPI_ENOEVNT;
    }
    int base = find_exact(parsed->base, 0);
    if (base < 0) {
        snprintf(why, why_len, "the running MPI has no MPI_T %s named %s",
                 derived ? "event counter" : "event", rest);
        suggest_listed(parsed->base, MPIT_KIND_EVENT, derived ? derived_prefix : event_prefix, why, why_len);
        return PAPI_ENOEVNT;
    }
    if (parsed->agg == MPIT_AGG_NONE) return base;
    char engine_name[MPIT_MAX_NAME + 80];
    snprintf(engine_name, sizeof engine_name, "%s:%s=%s", rest, parsed->agg == MPIT_AGG_SUM ? "sum" : "max",
             parsed->agg_elem);
    int id = mpit_events_find(engine_name);
    if (id < 0) {
        if (mpit_events_unreadable()) {
            snprintf(why, why_len, "%s:%s=%s cannot be counted here: %s", rest,
                     parsed->agg == MPIT_AGG_SUM ? "sum" : "max", parsed->agg_elem, mpit_events_unreadable());
            return PAPI_ECMP;
        }
        snprintf(why, why_len, "the MPI_T event %s has no integer element %s", rest, parsed->agg_elem);
        return PAPI_EINVAL;
    }
    mpit_entry_t tmp = *catalog_entries[base];
    catalog_fill_event_entry(&tmp, id);
    snprintf(tmp.description, sizeof tmp.description, "%s of element %s of the MPI_T event %s since start",
             parsed->agg == MPIT_AGG_SUM ? "Sum" : "Maximum", parsed->agg_elem, rest);
    tmp.units = "";
    catalog_note_counting_start(&tmp);
    return appended_variant(&tmp, base, parsed, canonical);
}

/* METRIC:peer=N: its first per-peer source, element N. */
static int lookup_metric_peer(const mpit_metric_t *m, const mpit_name_t *parsed, const char *canonical,
                              char *why, int why_len)
{
    int i = (int)(m - mpit_metrics), has_peer_source = 0;
    for (int s = 0; s < MPIT_METRIC_SOURCES; s++) has_peer_source |= m->sources[s].per_peer;
    if (!has_peer_source) {
        snprintf(why, why_len, "the portable metric %s has no source per peer, so no :peer=", m->name);
        return PAPI_EINVAL;
    }
    mpit_entry_t *e = catalog_new_entry(MPIT_KIND_METRIC, canonical);
    if (!e) return PAPI_ENOMEM;
    if (catalog_pick_metric_source(m, catalog_metric_collecting[i], 1, e) != 0) {
        free(e);
        char defect[MPIT_WHY_LEN];
        catalog_metric_defect(m, defect, sizeof defect);
        snprintf(why, why_len, "%s:peer= is not available on the running %s: %s%s", m->name,
                 mpit_backend()->family, *defect ? defect : "it ", *defect ? "" : m->needs);
        return PAPI_ENOEVNT;
    }
    size_t used = strlen(e->description);
    snprintf(e->description + used, sizeof e->description - used, "; peer rank %d of MPI_COMM_WORLD only",
             parsed->peer);
    e->parsed = *parsed;
    e->parsed.elem = parsed->peer; /* the element a read takes */
    int base = find_exact(m->name, 0);
    int code = catalog_append(e);
    if (code < 0) return PAPI_ENOMEM;
    e->base = base >= 0 ? base : code;
    return code;
}

static int lookup_metric(const mpit_metric_t *m, const mpit_name_t *parsed, const char *canonical, char *why,
                         int why_len)
{
    if (parsed->elem >= 0 || parsed->cls >= 0 || parsed->comm != MPIT_COMM_WORLD || parsed->agg) {
        snprintf(why, why_len, "the portable metric %s takes no qualifier but :peer=<rank>", m->name);
        return PAPI_EINVAL;
    }
    if (parsed->peer >= 0) return lookup_metric_peer(m, parsed, canonical, why, why_len);
    int found = find_exact(m->name, 0);
    if (found >= 0 && catalog_entries[found]->kind == MPIT_KIND_METRIC) return found;
    catalog_metric_unavailable(m, why, (size_t)why_len);
    return PAPI_ENOEVNT;
}

static int lookup_pvar(const mpit_name_t *parsed, const char *canonical, char *why, int why_len)
{
    int base = catalog_find_variable(parsed->base, parsed->cls);
    if (base >= 0) return pvar_variant(base, parsed, canonical, why, why_len);
    if (parsed->cls >= 0 && catalog_find_variable(parsed->base, -1) >= 0)
        snprintf(why, why_len, "the MPI_T variable %s has no class %s", parsed->base,
                 mpit_class_name(parsed->cls));
    else if (catalog_scanned == 0)
        snprintf(why, why_len, "the running %s exposes no MPI_T performance variables at all",
                 mpit_backend()->family);
    else {
        snprintf(why, why_len, "the running %s has no MPI_T variable named %s", mpit_backend()->family,
                 parsed->base);
        suggest_listed(parsed->base, MPIT_KIND_PVAR, NULL, why, why_len);
    }
    return PAPI_ENOEVNT;
}

/* "there is no portable metric named X; did you mean Y?" */
static int no_such_metric(const char *base, char *why, int why_len)
{
    mpit_suggestion_t sug;
    mpit_suggest_begin(&sug, base);
    for (int i = 0; i < mpit_num_metrics; i++) mpit_suggest_offer(&sug, mpit_metrics[i].name);
    snprintf(why, why_len, "there is no portable metric named %s", base);
    mpit_suggest_append(&sug, why, (size_t)why_len);
    return PAPI_ENOEVNT;
}

/* What launchers tell each process of the job's size before MPI_Init
 * (Open MPI's mpirun, MPICH's Hydra): a :peer= beyond it is refused when
 * it is added, not once MPI runs. */
static const char *const launcher_size_vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"};

static int launcher_size(void)
{
    for (size_t i = 0; i < sizeof launcher_size_vars / sizeof launcher_size_vars[0]; i++) {
        const char *v = getenv(launcher_size_vars[i]);
        char *end;
        long n = v ? strtol(v, &end, 10) : 0;
        if (v && *v && !*end && n > 0 && n < 1 << 30) return (int)n;
    }
    return 0;
}

/* Before MPI_Init: what a name's form alone says is wrong, without the
 * MPI's variables (which may not be known yet): PAPI_OK or an error. */
static int check_form(const mpit_name_t *parsed, char *why, int why_len)
{
    const mpit_metric_t *m = mpit_metric_find(parsed->base);
    if (!m && in_metric_namespace(parsed->base)) return no_such_metric(parsed->base, why, why_len);
    if (!m && parsed->peer >= 0) {
        snprintf(why, why_len,
                 ":peer= applies to portable metrics; for a variable, :elem=<index> takes one element");
        return PAPI_EINVAL;
    }
    if (!m && is_event_name(parsed->base)) {
        int derived = strncmp(parsed->base, derived_prefix, sizeof derived_prefix - 1) == 0;
        if (parsed->elem >= 0 || parsed->cls >= 0 || parsed->comm != MPIT_COMM_WORLD ||
            (derived && parsed->agg != MPIT_AGG_NONE)) {
            snprintf(why, why_len, "%s takes only the qualifiers :sum=<element> and :max=<element>%s",
                     parsed->base, derived ? " (and only on event.<name>)" : "");
            return PAPI_EINVAL;
        }
        return PAPI_OK;
    }
    if (!m) {
        if (parsed->agg == MPIT_AGG_NONE) return PAPI_OK;
        snprintf(why, why_len, ":sum= and :max= apply to event counters, not to the variable %s",
                 parsed->base);
        return PAPI_EINVAL;
    }
    if (parsed->elem >= 0 || parsed->cls >= 0 || parsed->comm != MPIT_COMM_WORLD || parsed->agg) {
        snprintf(why, why_len, "the portable metric %s takes no qualifier but :peer=<rank>", m->name);
        return PAPI_EINVAL;
    }
    if (parsed->peer < 0) return PAPI_OK;
    int has_peer_source = 0, ranks = launcher_size();
    for (int s = 0; s < MPIT_METRIC_SOURCES; s++) has_peer_source |= m->sources[s].per_peer;
    if (!has_peer_source) {
        snprintf(why, why_len, "the portable metric %s has no source per peer, so no :peer=", m->name);
        return PAPI_EINVAL;
    }
    if (ranks && parsed->peer >= ranks) {
        snprintf(why, why_len,
                 "%s: the job has %d ranks (0 to %d), as its launcher says; :peer=%d is out of range",
                 m->name, ranks, ranks - 1, parsed->peer);
        return PAPI_EINVAL;
    }
    return PAPI_OK;
}

/* Returns a code (>= 0) or a PAPI error. */
static int resolve_name(const mpit_name_t *parsed, const char *canonical, char *why, int why_len)
{
    const mpit_metric_t *m = mpit_metric_find(parsed->base);
    if (m) return lookup_metric(m, parsed, canonical, why, why_len);
    if (in_metric_namespace(parsed->base)) return no_such_metric(parsed->base, why, why_len);
    if (parsed->peer >= 0) {
        snprintf(why, why_len,
                 ":peer= applies to portable metrics; for a variable, :elem=<index> takes one element");
        return PAPI_EINVAL;
    }
    if (is_event_name(parsed->base)) return lookup_event(parsed, canonical, why, why_len);
    return lookup_pvar(parsed, canonical, why, why_len);
}

/* Tells the MPI, before MPI_Init, which variables a pending name may read
 * (Open MPI collects an SPC only when attached). */
static void request_sources(const mpit_backend_t *backend, const mpit_name_t *parsed)
{
    const mpit_metric_t *m = mpit_metric_find(parsed->base);
    if (!backend->pvar_request) return;
    if (!m) {
        if (!is_event_name(parsed->base)) backend->pvar_request(parsed->base);
        return;
    }
    for (int s = 0; s < MPIT_METRIC_SOURCES && m->sources[s].kind != MPIT_SOURCE_NONE; s++)
        if (m->sources[s].kind == MPIT_SOURCE_PVAR) backend->pvar_request(m->sources[s].name);
}

/* 1 when a name unknown before MPI_Init can be refused at once (why then
 * says so): portable metrics are a fixed table; event counters are derived
 * by the fixed rule table; an MPI without an events API has no events.  Only
 * variables and events the MPI may still register in MPI_Init wait. */
static int judged_now(const mpit_name_t *parsed, char *why, int why_len)
{
    const mpit_metric_t *m = mpit_metric_find(parsed->base);
    if (m && catalog_metric_never(m)) {
        /* nothing MPI_Init or MPI_Session_init brings can give it */
        catalog_metric_unavailable(m, why, (size_t)why_len);
        return 1;
    }
    if (in_metric_namespace(parsed->base)) return m == NULL;
    if (!is_event_name(parsed->base)) return 0;
    if (!mpit_backend()->event_num) {
        snprintf(why, why_len, "the running %s has no MPI_T events API (MPI 4.0 events), so no %s",
                 mpit_backend()->family, parsed->base);
        return 1;
    }
    if (strncmp(parsed->base, derived_prefix, sizeof derived_prefix - 1) != 0) return 0;
    const char *counter = parsed->base + sizeof derived_prefix - 1;
    size_t stem = strcspn(counter, ".:");
    mpit_suggestion_t sug;
    char wanted[MPIT_MAX_NAME];
    snprintf(wanted, sizeof wanted, "%.*s", (int)stem, counter);
    if (strcmp(wanted, MPIT_ENGINE_DROPPED) == 0) return 0; /* the engine's own counter, no rule's */
    mpit_suggest_begin(&sug, wanted);
    for (int i = 0; i < mpit_num_rules; i++) {
        if (strlen(mpit_rules[i].name) == stem && strncmp(mpit_rules[i].name, counter, stem) == 0) return 0;
        mpit_suggest_offer(&sug, mpit_rules[i].name);
    }
    snprintf(why, why_len, "no rule derives a counter named %s (counters are derived.<rule>[.<statistic>])",
             counter);
    mpit_suggest_append(&sug, why, (size_t)why_len);
    return 1;
}

/* The pending entry of this canonical name (resolved or not), or -1. */
static int find_pending(const char *canonical)
{
    int n = atomic_load(&catalog_size);
    for (int i = 0; i < n; i++)
        if (catalog_entries[i]->kind == MPIT_KIND_PENDING && strcmp(catalog_entries[i]->name, canonical) == 0)
            return i;
    return -1;
}

/* Resolves a parsed name under the lock; *pending set when the name was
 * accepted for later (its sources must then be requested).  deferred: names
 * wait for MPI_Init whatever MPI_T knows now (a listing may have initialised
 * it, but MPI_Init replaces what it saw), so each is one pending entry. */
static int lookup_locked(const mpit_name_t *parsed, const char *canonical, int state, int deferred, int *code,
                         int *pending, char *why, int why_len)
{
    int found = deferred ? -1 : find_exact(canonical, 0);
    if (found >= 0) {
        *code = found;
        return PAPI_OK;
    }
    found = find_pending(canonical);
    if (state == MPIT_MPI_FINALIZED && found >= 0) {
        /* known during the MPI session: an event set started now reads 0 */
        *code = found;
        return PAPI_OK;
    }
    if (state == MPIT_MPI_FINALIZED && atomic_load(&catalog_mpit_state) != MPIT_INIT_DONE) {
        snprintf(why, why_len, "MPI is already finalized: MPI_T can no longer be used in this process");
        return PAPI_ENOEVNT;
    }
    if (state == MPIT_MPI_NOT_STARTED) {
        int err = check_form(parsed, why, why_len);
        if (err != PAPI_OK) return err;
        if (found >= 0) {
            *code = found; /* still pending */
            return PAPI_OK;
        }
    }
    int c = deferred ? PAPI_ENOEVNT : resolve_name(parsed, canonical, why, why_len);
    if (c >= 0) {
        *code = c;
        return PAPI_OK;
    }
    if (c == PAPI_ENOEVNT && state == MPIT_MPI_NOT_STARTED && !judged_now(parsed, why, why_len)) {
        /* Many variables and all events appear only during MPI_Init: accept
         * the name now and resolve it when the event set starts. */
        mpit_entry_t *e = catalog_new_entry(MPIT_KIND_PENDING, canonical);
        if (!e) return PAPI_ENOMEM;
        e->parsed = *parsed;
        /* a portable metric means the same whatever backs it: a tool that
         * keeps the description from before MPI_Init (Score-P) shows it */
        const mpit_metric_t *m = mpit_metric_find(parsed->base);
        if (m) {
            e->units = m->units;
            snprintf(e->description, sizeof e->description,
                     "%s (its source in this MPI is looked up when MPI_Init has run)", m->desc);
        } else
            snprintf(e->description, sizeof e->description,
                     "Unknown so far: MPI_T has no such name before MPI_Init; it is looked up again when "
                     "the event set starts, and the set fails to start if MPI_Init did not bring it.");
        int pc = catalog_append(e);
        if (pc < 0) return PAPI_ENOMEM;
        SUBDBG("mpit: %s accepted before MPI_Init as code %d, resolved when its set starts\n", canonical, pc);
        *code = pc;
        *pending = 1;
        why[0] = '\0';
        return PAPI_OK;
    }
    return c;
}

/* 0 in a process whose MPI was loaded for a listing: MPI_Init never comes */
static atomic_int deferral_allowed = 1;

void mpit_catalog_allow_deferral(int allowed) { atomic_store(&deferral_allowed, allowed); }

int mpit_catalog_mpit_deferred(void)
{
    const mpit_backend_t *b = mpit_backend();
    return b && b->mpit_costly_before_mpi && atomic_load(&deferral_allowed) &&
           b->mpi_state() == MPIT_MPI_NOT_STARTED;
}

int mpit_catalog_lookup(const char *text, int *code, char *why, int why_len)
{
    mpit_name_t parsed;
    char canonical[MPIT_MAX_NAME + 128];
    const mpit_backend_t *b = mpit_backend();
    why[0] = '\0';
    if (!b) return PAPI_ECMP;
    if (mpit_name_parse(text, &parsed, why, why_len) != MPIT_NAME_OK) return PAPI_EINVAL;
    mpit_name_format(&parsed, canonical, sizeof canonical);
    if (!mpit_catalog_mpit_deferred()) {
        pthread_mutex_lock(&catalog_lock);
        int found = find_exact(canonical, 0);
        pthread_mutex_unlock(&catalog_lock);
        if (found >= 0) {
            *code = found;
            return PAPI_OK;
        }
    }
    int settled_now = mpit_catalog_settle(); /* the first lookup after MPI_Init waits for the catch-up */
    int state = b->mpi_state(), pending = 0, deferred = mpit_catalog_mpit_deferred();
    if (settled_now || !deferred) mpit_catalog_rescan(); /* MPI_T may have grown */
    pthread_mutex_lock(&catalog_lock);
    int err = mpit_backend()
                  ? lookup_locked(&parsed, canonical, state, deferred, code, &pending, why, why_len)
                  : PAPI_ECMP;
    if (err != PAPI_OK && atomic_load(&catalog_mpit_state) != MPIT_INIT_DONE && catalog_mpit_init_why[0])
        snprintf(why, why_len, "MPI_T cannot be used: %s",
                 catalog_mpit_init_why); /* the cause, not its effect */
    pthread_mutex_unlock(&catalog_lock);
    if (pending && deferred) catalog_release_listing_mpit(b);
    if (pending) request_sources(b, &parsed); /* tells MPI: outside the lock */
    return err;
}

/* Pending entry i now stands for the one entry its name means now that MPI
 * runs (the entry already known by that name, else the one resolving it
 * makes, every qualifier kept), or keeps why it cannot. */
static void resolve_one_locked(int i)
{
    mpit_entry_t *p = catalog_entries[i];
    char why[sizeof p->resolve_why] = "";
    int c = find_exact(p->name, 0);
    if (c < 0) c = resolve_name(&p->parsed, p->name, why, (int)sizeof why);
    if (c < 0) {
        p->resolve_err = c;
        snprintf(p->resolve_why, sizeof p->resolve_why, "%s", why);
        return;
    }
    SUBDBG("mpit: %s (code %d) resolved to code %d\n", p->name, i, c);
    __atomic_store_n(&p->alias, c + 1, __ATOMIC_RELEASE);
}

static int unresolved(const mpit_entry_t *e)
{
    return e->kind == MPIT_KIND_PENDING && !e->resolve_err && !__atomic_load_n(&e->alias, __ATOMIC_ACQUIRE);
}

static void resolve_pending_locked(void)
{
    int n = atomic_load(&catalog_size); /* resolving may append variants: those are never pending */
    for (int i = 0; i < n; i++)
        if (unresolved(catalog_entries[i])) resolve_one_locked(i);
}

int mpit_catalog_settle(void)
{
    if (atomic_load_explicit(&catalog_settled, memory_order_acquire)) return 1;
    const mpit_backend_t *b = mpit_backend();
    if (!b || !mpit_mpi_live(b->mpi_state())) return 0;
    pthread_mutex_lock(&catalog_scan_lock);
    if (!atomic_load(&catalog_settled)) {
        catalog_rescan_locked();
        pthread_mutex_lock(&catalog_lock);
        resolve_pending_locked();
        pthread_mutex_unlock(&catalog_lock);
        atomic_store_explicit(&catalog_settled, 1, memory_order_release);
        SUBDBG("mpit: caught up after MPI_Init: %d entries, %d listed\n", atomic_load(&catalog_size),
               catalog_num_listed);
    }
    pthread_mutex_unlock(&catalog_scan_lock);
    return 1;
}

int mpit_catalog_resolve(int code, char *why, int why_len)
{
    why[0] = '\0';
    const mpit_entry_t *e = mpit_catalog_get(code);
    if (!e) {
        snprintf(why, why_len, "unknown mpit event code %d", code);
        return PAPI_ENOEVNT;
    }
    if (e->kind != MPIT_KIND_PENDING) return PAPI_OK;
    if (!mpit_catalog_settle()) {
        snprintf(why, why_len, "%s is known only once MPI_Init has run", e->name);
        return PAPI_ENOEVNT;
    }
    pthread_mutex_lock(&catalog_lock);
    mpit_entry_t *p = catalog_entries[code];
    if (unresolved(p)) resolve_one_locked(code); /* named after the catch-up, before MPI_Finalize */
    int err = p->alias ? PAPI_OK : p->resolve_err ? p->resolve_err : PAPI_ENOEVNT;
    if (err != PAPI_OK) snprintf(why, why_len, "%s", p->resolve_why);
    pthread_mutex_unlock(&catalog_lock);
    return err;
}
