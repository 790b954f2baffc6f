#include "mpit_catalog.h"
#include "mpit_loader.h"

#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpit_engine.h"
#include "mpit_events.h"
#include "mpit_metrics.h"
#include "mpit_rules.h"
#include "mpit_semantics.h"
#include "mpit_suggest.h"
#include "mpit_values.h"
#include "papi.h"
#include <unistd.h> /* getpid, in PAPI's debug label */

#include "papi_debug.h" /* SUBDBG: traces in PAPI debug builds (PAPI_DEBUG=SUBSTRATE) */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* One rescan at a time.  A thread that finds another scanning waits for it
 * and then sees what it found; MPI_T_init_thread is in the first one.  The
 * thread inside never waits on itself: the re-entry guard refuses a nested
 * call into the component before it gets here.  Order: scan_lock, then lock. */
static pthread_mutex_t scan_lock = PTHREAD_MUTEX_INITIALIZER;
/* The catch-up after MPI_Init has run (mpit_catalog_settle). */
static atomic_int settled;
static mpit_entry_t *entries[MPIT_CATALOG_MAX];
static atomic_int size;
static int num_listed;
static atomic_int scanned;      /* MPI_T pvar indices looked at so far */
static int scanned_before_init; /* variables were listed before MPI_Init */
static int events_listed;       /* the event counters were appended */
static unsigned char metric_listed[MPIT_METRICS_MAX];
static int metric_code[MPIT_METRICS_MAX];              /* the listed entry of a metric */
static unsigned char metric_settled[MPIT_METRICS_MAX]; /* its source was picked while MPI runs */
/* the last rescan's word on each metric source: the MPI maintains it */
static unsigned char metric_collecting[MPIT_METRICS_MAX][MPIT_METRIC_SOURCES];
/* MPI_T_init_thread: 0 not tried, 1 in progress, 2 done, 3 failed */
enum { MPIT_INIT_NONE, MPIT_INIT_BUSY, MPIT_INIT_DONE, MPIT_INIT_FAILED };
static atomic_int mpit_state;

/* What a rescan learns from MPI, gathered with no lock held (MPI may take
 * its own locks, and a tool may interrupt us there) and merged under it. */
typedef struct scan_snapshot {
    int state;              /* enum mpit_mpi_state */
    int from, num;          /* pvar indices [from, num) */
    mpit_pvar_info_t *info; /* num - from entries */
    unsigned char *valid;   /* info[i] could be read */
    /* metric i, source s is a pvar the MPI collects */
    unsigned char collecting[MPIT_METRICS_MAX][MPIT_METRIC_SOURCES];
    unsigned char never[MPIT_METRICS_MAX]; /* metric i: no source can ever come (metric_never) */
    int num_checked;                       /* entries [0, num_checked) were looked for in MPI_T */
    unsigned char *vanished;               /* entry i is a variable MPI_T no longer has */
} scan_snapshot_t;

static const char event_prefix[] = "event.";
static const char derived_prefix[] = "derived.";

static const char *const bind_names[] = {
    [MPIT_BIND_NONE] = "unbound",
    [MPIT_BIND_COMM] = "bound to a communicator",
    [MPIT_BIND_WIN] = "bound to an MPI window",
    [MPIT_BIND_FILE] = "bound to an MPI file",
    [MPIT_BIND_REQUEST] = "bound to an MPI request",
    [MPIT_BIND_OTHER] = "bound to an MPI object",
};

void mpit_catalog_clear(void)
{
    pthread_mutex_lock(&lock);
    int n = atomic_load(&size);
    for (int i = 0; i < n; i++) {
        free(entries[i]);
        entries[i] = NULL;
    }
    atomic_store(&size, 0);
    atomic_store(&scanned, 0);
    atomic_store(&settled, 0);
    num_listed = events_listed = scanned_before_init = 0;
    memset(metric_listed, 0, sizeof metric_listed);
    memset(metric_settled, 0, sizeof metric_settled);
    const mpit_backend_t *b = mpit_backend();
    int ready = atomic_exchange(&mpit_state, MPIT_INIT_NONE) == MPIT_INIT_DONE;
    pthread_mutex_unlock(&lock);
    if (ready && b) b->shutdown(); /* calls MPI: outside the lock */
}

int mpit_catalog_num_listed(void) { return num_listed; }

/* The entry a code names: a resolved pending entry stands for the one its
 * name means. */
const mpit_entry_t *mpit_catalog_get(int code)
{
    if (code < 0 || code >= atomic_load(&size)) return NULL;
    int alias = __atomic_load_n(&entries[code]->alias, __ATOMIC_ACQUIRE);
    return alias ? entries[alias - 1] : entries[code];
}

static int append(mpit_entry_t *e)
{
    int n = atomic_load(&size);
    if (n >= MPIT_CATALOG_MAX) {
        free(e);
        return -1;
    }
    if (e->listed) {
        e->base = n;
        num_listed++;
    }
    entries[n] = e;
    atomic_store(&size, n + 1); /* publish after the entry is complete */
    return n;
}

static mpit_entry_t *new_entry(int kind, const char *name)
{
    mpit_entry_t *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->kind = kind;
    e->parsed.comm = MPIT_COMM_WORLD;
    e->parsed.elem = -1;
    e->parsed.peer = -1;
    e->parsed.cls = -1;
    snprintf(e->parsed.base, sizeof e->parsed.base, "%s", name);
    snprintf(e->name, sizeof e->name, "%s", name);
    e->scale = 1;
    e->engine_id = -1;
    e->units = "";
    return e;
}

/* The listed pvar entry named name with class cls; with cls < 0 the one
 * listed under the plain name. */
static int find_variable(const char *name, int cls)
{
    int n = atomic_load(&size), any = -1;
    for (int i = 0; i < n; i++) {
        const mpit_entry_t *e = entries[i];
        if (e->kind != MPIT_KIND_PVAR || !e->listed || strcmp(e->info.name, name) != 0) continue;
        if (cls >= 0 ? e->info.cls == cls : e->parsed.cls < 0) return i;
        if (cls < 0 && any < 0) any = i;
    }
    return any;
}

/* When MPICH registers one name twice (a TIMER holding the time and a
 * COUNTER holding how many timings), the plain name is the one that means
 * most: lower rank wins. */
static int twin_rank(int cls)
{
    static const int rank[MPIT_CLASS_COUNT] = {
        [MPIT_CLASS_TIMER] = 0,        [MPIT_CLASS_COUNTER] = 1,    [MPIT_CLASS_AGGREGATE] = 2,
        [MPIT_CLASS_LEVEL] = 3,        [MPIT_CLASS_SIZE] = 4,       [MPIT_CLASS_HIGHWATERMARK] = 5,
        [MPIT_CLASS_LOWWATERMARK] = 6, [MPIT_CLASS_PERCENTAGE] = 7, [MPIT_CLASS_STATE] = 8,
        [MPIT_CLASS_GENERIC] = 9,
    };
    return cls >= 0 && cls < MPIT_CLASS_COUNT ? rank[cls] : MPIT_CLASS_COUNT;
}

/* The entry with this canonical name; pending ones only if asked for. */
static int find_exact(const char *canonical, int with_pending)
{
    int n = atomic_load(&size);
    for (int i = 0; i < n; i++)
        if ((with_pending || entries[i]->kind != MPIT_KIND_PENDING) &&
            strcmp(entries[i]->name, canonical) == 0)
            return i;
    return -1;
}

/* Appends "; did you mean X?" with the listed name of this kind closest to base. */
static void suggest_listed(const char *base, int kind, const char *prefix, char *why, int why_len)
{
    mpit_suggestion_t sug;
    mpit_suggest_begin(&sug, base);
    int n = atomic_load(&size);
    size_t plen = prefix ? strlen(prefix) : 0;
    for (int i = 0; i < n; i++)
        if (entries[i]->listed && entries[i]->kind == kind &&
            (!prefix || strncmp(entries[i]->name, prefix, plen) == 0))
            mpit_suggest_offer(&sug, entries[i]->name);
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

/* ---- where counting starts ------------------------------------------- */

/* A set started before MPI_Init counts from MPI_Init what MPI keeps from
 * MPI_Init on (continuous variables, levels, SPCs attached from MPI_Init and
 * read as they are).  Two sources count only from what the component does
 * once MPI runs, and it cannot act inside MPI_Init (it does not wrap it): an
 * MPI_T handle of a counter that is not continuous counts only from its
 * start, and MPI_T event callbacks exist only once registered.  Those are
 * started at the first PAPI call on the set after MPI_Init, and the
 * description says so (issue 31, case 3). */
static const char *late_start_reason(const mpit_entry_t *e)
{
    static const int counted_by_handle[MPIT_CLASS_COUNT] = {
        [MPIT_CLASS_COUNTER] = 1, [MPIT_CLASS_AGGREGATE] = 1, [MPIT_CLASS_TIMER] = 1};
    if (e->source == MPIT_SOURCE_EVENT) return "MPI_T event callbacks can be registered only once MPI runs";
    if (e->source == MPIT_SOURCE_PVAR && !e->info.continuous && e->info.cls >= 0 &&
        e->info.cls < MPIT_CLASS_COUNT && counted_by_handle[e->info.cls])
        return "an MPI_T handle of this variable counts only while started";
    return NULL;
}

static void note_counting_start(mpit_entry_t *e)
{
    const char *why = late_start_reason(e);
    size_t used = strlen(e->description);
    if (why && !strstr(e->description, "counts it from the first PAPI call"))
        snprintf(
            e->description + used, sizeof e->description - used,
            " Started before MPI_Init, its event set counts it from the first PAPI call on that set after "
            "MPI_Init (%s), or from MPI_Init when the tool's MPI_Init wrapper calls papi_mpit_after_init.",
            why);
}

/* ---- pvars ---------------------------------------------------------- */

/* Fills the derived fields of a pvar entry from its MPI_T info. */
static void describe_pvar(mpit_entry_t *e)
{
    const mpit_pvar_info_t *in = &e->info;
    const mpit_pvar_override_t *o = mpit_pvar_override(in->name);
    e->source = MPIT_SOURCE_PVAR;
    e->cls = o && o->cls >= 0 ? o->cls : in->cls;
    e->read_kind = mpit_class_semantics(e->cls)->read_kind;
    e->is_float = mpit_dtype_is_float(in->dtype);
    e->units = o && o->units ? o->units : mpit_pvar_units(in->name, e->cls, in->dtype);
    const char *bind = in->bind <= MPIT_BIND_OTHER ? bind_names[in->bind] : "bound";
    const char *note = o && o->note ? o->note : "";
    if (e->cls != in->cls)
        snprintf(e->description, sizeof e->description, "%s [MPI_T class %s, read as %s; %s]%s%s", in->desc,
                 mpit_class_name(in->cls), mpit_class_name(e->cls), bind, *note ? " " : "", note);
    else
        snprintf(e->description, sizeof e->description, "%s [MPI_T class %s; %s]%s%s", in->desc,
                 mpit_class_name(in->cls), bind, *note ? " " : "", note);
    e->unusable[0] = '\0';
    if (in->bind != MPIT_BIND_NONE && in->bind != MPIT_BIND_COMM)
        snprintf(e->unusable, sizeof e->unusable,
                 "%s is %s; mpit binds variables only to communicators (MPI_COMM_WORLD or MPI_COMM_SELF)",
                 in->name, bind);
    else if (!mpit_dtype_is_numeric(in->dtype))
        snprintf(e->unusable, sizeof e->unusable, "%s is not a number (MPI_T datatype not numeric)",
                 in->name);
}

/* MPI_T_init_thread once, by the first thread to need it (under scan_lock,
 * so no other thread can find it in progress). */
/* Why MPI_T could not be initialised the last time it was tried, kept for
 * the names that fail because of it ("" when it worked). */
static char mpit_init_why[MPIT_WHY_LEN];

static int ensure_mpit(const mpit_backend_t *b)
{
    char why[MPIT_WHY_LEN] = "";
    int expected = MPIT_INIT_NONE;
    if (atomic_compare_exchange_strong(&mpit_state, &expected, MPIT_INIT_BUSY)) {
        int ok = b->init(why, sizeof why) == MPIT_OK;
        snprintf(mpit_init_why, sizeof mpit_init_why, "%s", ok ? "" : why);
        atomic_store(&mpit_state, ok ? MPIT_INIT_DONE : MPIT_INIT_NONE);
        if (ok) {
            SUBDBG("mpit: MPI_T initialised\n");
        } else {
            SUBDBG("mpit: MPI_T cannot be initialised: %s\n", why);
        }
    }
    return atomic_load(&mpit_state) == MPIT_INIT_DONE;
}

static void scan_pvars(const scan_snapshot_t *snap)
{
    int from = atomic_load(&scanned);
    if (snap->num <= from) return;
    for (int i = from > snap->from ? from : snap->from; i < snap->num; i++) {
        /* Open MPI keeps stale indices of closed components: skip them. */
        if (!snap->valid[i - snap->from]) continue;
        const mpit_pvar_info_t *info = &snap->info[i - snap->from];
        if (find_variable(info->name, info->cls) >= 0) continue; /* re-registered */
        mpit_entry_t *e = new_entry(MPIT_KIND_PVAR, info->name);
        if (!e) break;
        e->info = *info;
        describe_pvar(e);
        note_counting_start(e);
        /* MPICH registers a TIMER and a COUNTER under one name: one keeps
         * the plain name, the other is named with its class.  Both arrive
         * in the same MPI_Init, before anyone can have looked the name up. */
        int twin = find_variable(info->name, -1);
        if (twin >= 0 && twin_rank(info->cls) < twin_rank(entries[twin]->info.cls)) {
            mpit_entry_t *t = entries[twin];
            t->parsed.cls = t->info.cls;
            mpit_name_format(&t->parsed, t->name, sizeof t->name);
        } else if (twin >= 0) {
            e->parsed.cls = info->cls;
        }
        mpit_name_format(&e->parsed, e->name, sizeof e->name);
        e->listed = 1;
        append(e);
    }
    atomic_store(&scanned, snap->num);
}

/* ---- event counters --------------------------------------------------- */

static void fill_event_entry(mpit_entry_t *e, int id)
{
    mpit_counter_info_t ci;
    e->source = MPIT_SOURCE_EVENT;
    e->engine_id = id;
    if (mpit_events_counter_info(id, &ci) == 0) {
        e->units = ci.units;
        e->read_kind = ci.value_kind == MPIT_VALUE_RUNNING ? MPIT_READ_DELTA : MPIT_READ_CURRENT;
        snprintf(e->description, sizeof e->description, "%s", ci.desc);
    }
}

static void list_events(void)
{
    if (events_listed || !mpit_events_ready()) return;
    events_listed = 1;
    for (int i = 0; i < mpit_events_num_types(); i++) {
        const char *ev = mpit_events_type_name(i);
        int id = *ev ? mpit_events_find(ev) : -1;
        if (id < 0) continue;
        char name[MPIT_MAX_NAME];
        snprintf(name, sizeof name, "%s%s", event_prefix, ev);
        mpit_entry_t *e = new_entry(MPIT_KIND_EVENT, name);
        if (!e) return;
        fill_event_entry(e, id);
        snprintf(
            e->description, sizeof e->description,
            "Occurrences of the MPI_T event %s since start: %s (qualifiers :sum=<element>, :max=<element>)",
            ev, mpit_events_type_desc(i));
        e->units = "events";
        e->listed = 1;
        note_counting_start(e);
        append(e);
    }
    for (int id = 0; id < mpit_events_num_derived(); id++) {
        mpit_counter_info_t ci;
        if (mpit_events_counter_info(id, &ci) != 0) continue;
        char name[MPIT_MAX_NAME];
        snprintf(name, sizeof name, "%s%s", derived_prefix, ci.name);
        mpit_entry_t *e = new_entry(MPIT_KIND_EVENT, name);
        if (!e) return;
        fill_event_entry(e, id);
        e->listed = 1;
        note_counting_start(e);
        append(e);
    }
}

/* ---- portable metrics ------------------------------------------------- */

/* The first source of metric m that this MPI has (per_peer: the first with
 * one element per rank): fills e; 0 if found. */
static int pick_metric_source(const mpit_metric_t *m, const unsigned char *collecting, int per_peer,
                              mpit_entry_t *e)
{
    for (int s = 0; s < MPIT_METRIC_SOURCES && m->sources[s].kind != MPIT_SOURCE_NONE; s++) {
        const mpit_metric_source_t *src = &m->sources[s];
        if (per_peer && !src->per_peer) continue;
        if (src->kind == MPIT_SOURCE_EVENT) {
            int id = mpit_events_find(src->name);
            if (id < 0) continue;
            fill_event_entry(e, id);
        } else {
            int v = find_variable(src->name, -1);
            if (v < 0 || entries[v]->unusable[0]) continue;
            /* an Open MPI SPC that is not attached would read zeros, one the MPI does not maintain a constant */
            if (!collecting[s]) continue;
            e->mended = 0;
            if (src->length) {
                int l = find_variable(src->level, -1), n = find_variable(src->length, -1);
                if (l < 0 || n < 0 || entries[l]->unusable[0] || entries[n]->unusable[0]) continue;
                e->mended = 1;
                e->mend_code[0] = l;
                e->mend_code[1] = n;
            }
            e->info = entries[v]->info;
            e->cls = entries[v]->cls;
            e->source = MPIT_SOURCE_PVAR;
            e->is_float = 0; /* portable metrics are integers: a double is rounded in its unit */
            e->read_kind = m->read_kind;
        }
        e->scale = src->scale;
        e->units = m->units;
        /* a maximum kept over a level the MPI publishes: seen at reads only */
        int sampled = src->kind == MPIT_SOURCE_PVAR && m->read_kind == MPIT_READ_HIGH &&
                      mpit_class_semantics(e->cls)->read_kind == MPIT_READ_CURRENT;
        if (src->length)
            snprintf(
                e->description, sizeof e->description,
                "%s (portable metric; here from the MPI_T watermark %s, which sees every peak, mended by %s "
                "where the level it follows, %s, is off)",
                m->desc, src->name, src->length, src->level);
        else
            snprintf(
                e->description, sizeof e->description, "%s (portable metric; here from %s %s%s)", m->desc,
                src->kind == MPIT_SOURCE_EVENT ? "the MPI_T event counter" : "the MPI_T variable", src->name,
                sampled ? ", the largest value seen when read (sampled): this MPI publishes the current "
                          "length only, so a peak between reads is missed"
                        : "");
        const char *caveat = mpit_metric_source_caveat(src->name);
        size_t used = strlen(e->description);
        if (caveat) snprintf(e->description + used, sizeof e->description - used, ". %s.", caveat);
        note_counting_start(e);
        return 0;
    }
    return -1;
}

/* 1 when the running library can never give this source, as known
 * before MPI_Init (mpit_backend_t.never_gives). */
static int source_never(const mpit_metric_source_t *src)
{
    const mpit_backend_t *b = mpit_backend();
    char why[MPIT_WHY_LEN];
    return b && b->never_gives &&
           b->never_gives(src->kind == MPIT_SOURCE_EVENT ? NULL : src->name, why, sizeof why);
}

/* 1 when no source of m can ever come: MPI_Init (or MPI_Session_init) would
 * not bring one, so the name is refused now, not left to read 0. */
static int metric_never(const mpit_metric_t *m)
{
    for (int s = 0; s < MPIT_METRIC_SOURCES && m->sources[s].kind != MPIT_SOURCE_NONE; s++)
        if (!source_never(&m->sources[s])) return 0;
    return 1;
}

static const char *metric_defect(const mpit_metric_t *m, char *buf, size_t len);

/* Why m cannot be added on the running MPI: the one sentence, before
 * MPI_Init, under a session, after MPI_Init and in the listing. */
static void metric_unavailable(const mpit_metric_t *m, char *why, size_t why_len)
{
    char defect[MPIT_WHY_LEN];
    metric_defect(m, defect, sizeof defect);
    snprintf(why, why_len, "%s is not available on the running %s: %s%s", m->name, mpit_backend()->family,
             *defect ? defect : "it ", *defect ? "" : m->needs);
}

/* A metric listed before MPI_Init picked its source among what MPI_T showed
 * then, and MPI_Init replaces that (Open MPI closes the components it does
 * not select, and 4.1 its pml monitoring): once MPI runs it is picked again,
 * in place, so that its code and name keep one meaning; or it is refused
 * with the reason a name looked up after MPI_Init gets. */
static void repick_metric(int i, const scan_snapshot_t *snap)
{
    mpit_entry_t *e = entries[metric_code[i]], *fresh = new_entry(MPIT_KIND_METRIC, mpit_metrics[i].name);
    if (!fresh) return;
    metric_settled[i] = 1;
    if (pick_metric_source(&mpit_metrics[i], snap->collecting[i], 0, fresh) == 0) {
        fresh->listed = 1;
        fresh->base = e->base;
        *e = *fresh;
    } else {
        metric_unavailable(&mpit_metrics[i], e->unusable, sizeof e->unusable);
    }
    free(fresh);
}

/* 1 when MPI_T lists a variable that is a source of m. */
static int shows_a_source(const mpit_metric_t *m)
{
    for (int s = 0; s < MPIT_METRIC_SOURCES && m->sources[s].kind != MPIT_SOURCE_NONE; s++)
        if (m->sources[s].kind == MPIT_SOURCE_PVAR && find_variable(m->sources[s].name, -1) >= 0) return 1;
    return 0;
}

static void list_metrics(const scan_snapshot_t *snap)
{
    int running = mpit_mpi_live(snap->state);
    memcpy(metric_collecting, snap->collecting, sizeof metric_collecting);
    for (int i = 0; i < mpit_num_metrics && i < (int)sizeof metric_listed; i++) {
        if (metric_listed[i] && !metric_settled[i] && running) repick_metric(i, snap);
        if (metric_listed[i]) continue;
        mpit_entry_t *e = new_entry(MPIT_KIND_METRIC, mpit_metrics[i].name);
        if (!e) return;
        if (pick_metric_source(&mpit_metrics[i], snap->collecting[i], 0, e) != 0 &&
            !(snap->never[i] && shows_a_source(&mpit_metrics[i]))) {
            free(e);
            continue;
        }
        if (e->source == MPIT_SOURCE_NONE) {
            /* its variable is listed but can never count: the listing says why */
            e->units = mpit_metrics[i].units;
            snprintf(e->description, sizeof e->description, "%s (portable metric)", mpit_metrics[i].desc);
            metric_unavailable(&mpit_metrics[i], e->unusable, sizeof e->unusable);
        }
        metric_listed[i] = 1;
        metric_settled[i] = running;
        e->listed = 1;
        metric_code[i] = append(e);
    }
}

/* 1 unless the MPI does not keep this variable up to date (an SPC not
 * attached, a known defect of the release). */
static int maintained(const mpit_backend_t *b, int state, const char *name)
{
    char why[MPIT_WHY_LEN];
    return (!b->pvar_collecting || !mpit_mpi_live(state) || b->pvar_collecting(name)) &&
           !(b->pvar_unavailable && b->pvar_unavailable(name, why, sizeof why));
}

/* Once MPI runs, after a listing before MPI_Init: the variables listed
 * then that MPI_Init removed (Open MPI closes the components it does not
 * select, 4.1 its pml monitoring too), by name and class. */
static void find_vanished(const mpit_backend_t *b, scan_snapshot_t *snap)
{
    int n = atomic_load(&size), index;
    snap->vanished = calloc((size_t)n + 1, 1);
    if (!snap->vanished) return;
    for (int i = 0; i < n; i++)
        if (entries[i]->kind == MPIT_KIND_PVAR && entries[i]->listed)
            snap->vanished[i] = b->pvar_index(entries[i]->info.name, entries[i]->info.cls, &index) != MPIT_OK;
    snap->num_checked = n;
}

/* The MPI side of a rescan; 0 when MPI_T cannot be used now. */
static int collect(scan_snapshot_t *snap)
{
    const mpit_backend_t *b = mpit_backend();
    memset(snap, 0, sizeof *snap);
    if (!b || !ensure_mpit(b)) return 0;
    snap->state = b->mpi_state();
    if (snap->state == MPIT_MPI_FINALIZED) return 0;
    snap->from = atomic_load(&scanned);
    if (b->pvar_num(&snap->num) != MPIT_OK || snap->num < snap->from) snap->num = snap->from;
    int n = snap->num - snap->from;
    if (n > 0) {
        snap->info = malloc((size_t)n * sizeof *snap->info);
        snap->valid = calloc((size_t)n, 1);
        if (!snap->info || !snap->valid) n = 0, snap->num = snap->from;
        for (int i = 0; i < n; i++) snap->valid[i] = b->pvar_info(snap->from + i, &snap->info[i]) == MPIT_OK;
    }
    if (mpit_mpi_live(snap->state) && scanned_before_init && !atomic_load(&settled)) find_vanished(b, snap);
    if (mpit_mpi_live(snap->state)) mpit_events_setup();
    for (int i = 0; i < mpit_num_metrics && i < (int)(sizeof snap->collecting / sizeof snap->collecting[0]);
         i++) {
        snap->never[i] = (unsigned char)metric_never(&mpit_metrics[i]);
        for (int k = 0; k < MPIT_METRIC_SOURCES; k++) {
            const mpit_metric_source_t *src = &mpit_metrics[i].sources[k];
            /* a variable the MPI does not maintain is no source either */
            snap->collecting[i][k] = src->kind == MPIT_SOURCE_PVAR && maintained(b, snap->state, src->name) &&
                                     (!src->level || maintained(b, snap->state, src->level)) &&
                                     !source_never(src);
        }
    }
    return 1;
}

static void merge_locked(const scan_snapshot_t *snap)
{
    if (!mpit_backend()) return;
    /* gone from MPI_T: no longer listed, nor a metric's source; a name
     * looked up is told so when it is bound */
    for (int i = 0; i < snap->num_checked; i++)
        if (snap->vanished[i] && entries[i]->listed) {
            SUBDBG("mpit: %s vanished from MPI_T in MPI_Init\n", entries[i]->name);
            entries[i]->listed = 0;
            num_listed--;
        }
    if (snap->state == MPIT_MPI_NOT_STARTED && snap->num > snap->from) scanned_before_init = 1;
    scan_pvars(snap);
    if (mpit_mpi_live(snap->state)) list_events();
    list_metrics(snap);
}

static void rescan_locked(void)
{
    scan_snapshot_t *snap = malloc(sizeof *snap);
    if (!snap) return;
    if (collect(snap)) {
        pthread_mutex_lock(&lock);
        int before = atomic_load(&size);
        merge_locked(snap);
        int after = atomic_load(&size);
        pthread_mutex_unlock(&lock);
        if (after > before) {
            SUBDBG("mpit: rescan (MPI state %d): %d pvar indices, %d entries added, %d listed\n", snap->state,
                   snap->num, after - before, num_listed);
        }
    }
    free(snap->info);
    free(snap->valid);
    free(snap->vanished);
    free(snap);
}

void mpit_catalog_rescan(void)
{
    pthread_mutex_lock(&scan_lock);
    rescan_locked();
    pthread_mutex_unlock(&scan_lock);
}

static void resolve_pending_locked(void);

int mpit_catalog_settle(void)
{
    if (atomic_load_explicit(&settled, memory_order_acquire)) return 1;
    const mpit_backend_t *b = mpit_backend();
    if (!b || !mpit_mpi_live(b->mpi_state())) return 0;
    pthread_mutex_lock(&scan_lock);
    if (!atomic_load(&settled)) {
        rescan_locked();
        pthread_mutex_lock(&lock);
        resolve_pending_locked();
        pthread_mutex_unlock(&lock);
        atomic_store_explicit(&settled, 1, memory_order_release);
        SUBDBG("mpit: caught up after MPI_Init: %d entries, %d listed\n", atomic_load(&size), num_listed);
    }
    pthread_mutex_unlock(&scan_lock);
    return 1;
}

int mpit_catalog_next_listed(int code)
{
    int n = atomic_load(&size);
    for (int i = code + 1; i < n; i++)
        if (entries[i]->listed) return i;
    return -1;
}

/* ---- qualifiers listed under events ------------------------------------ */

/* Variables: :comm=self where bound to a communicator, :elem= for every one
 * (whether MPI_T gives an array is known only once a handle exists), and
 * under the plain name of an MPICH twin the other classes registered with
 * it (listed too, as events of their own). */
static int pvar_qualifier(const mpit_entry_t *e, int q, char *name, int name_len, char *what, int what_len)
{
    mpit_name_t p = e->parsed;
    int k = 0;
    if (e->unusable[0]) return -1;
    const mpit_backend_t *b = mpit_backend();
    int self_ok =
        e->info.bind == MPIT_BIND_COMM && !(b && b->pvar_world_only && b->pvar_world_only(e->info.name));
    if (self_ok && k++ == q) {
        p.comm = MPIT_COMM_SELF;
        mpit_name_format(&p, name, name_len);
        snprintf(what, what_len, "bound to MPI_COMM_SELF (this process alone) instead of MPI_COMM_WORLD");
        return 0;
    }
    if (k++ == q) {
        p.elem = 0;
        mpit_name_format(&p, name, name_len);
        snprintf(what, what_len,
                 "element 0 only (:elem=N: element N) of a variable MPI_T gives as an array, "
                 "e.g. one value per peer; the plain name sums the elements");
        return 0;
    }
    if (e->parsed.cls >= 0) return -1;
    int n = atomic_load(&size);
    for (int i = 0; i < n; i++) {
        const mpit_entry_t *t = entries[i];
        if (t == e || t->kind != MPIT_KIND_PVAR || !t->listed || t->parsed.cls < 0 ||
            strcmp(t->info.name, e->info.name) != 0 || k++ != q)
            continue;
        p.cls = t->parsed.cls;
        mpit_name_format(&p, name, name_len);
        snprintf(what, what_len, "the variable of MPI_T class %s registered under the same name",
                 mpit_class_name(p.cls));
        return 0;
    }
    return -1;
}

/* event.<name>: :sum= and :max= of each integer element. */
static int event_qualifier(const mpit_entry_t *e, int q, char *name, int name_len, char *what, int what_len)
{
    const char *type = e->parsed.base + sizeof event_prefix - 1;
    int t = 0, k = 0;
    if (strncmp(e->parsed.base, event_prefix, sizeof event_prefix - 1) != 0) return -1;
    while (t < mpit_events_num_types() && strcmp(mpit_events_type_name(t), type) != 0) t++;
    for (int el = 0; el < MPIT_EVENT_MAX_ELEMS; el++) {
        const char *elem = mpit_events_summable_element(t, el);
        if (!elem) continue;
        for (int agg = MPIT_AGG_SUM; agg <= MPIT_AGG_MAX; agg++) {
            if (k++ != q) continue;
            mpit_name_t p = e->parsed;
            p.agg = agg;
            snprintf(p.agg_elem, sizeof p.agg_elem, "%s", elem);
            mpit_name_format(&p, name, name_len);
            if (agg == MPIT_AGG_SUM)
                snprintf(what, what_len, "sum of element %s over the events since start", elem);
            else
                snprintf(what, what_len, "largest value of element %s in the events since start", elem);
            return 0;
        }
    }
    return -1;
}

/* A portable metric with a source per peer: :peer=N. */
static int metric_qualifier(const mpit_entry_t *e, int q, char *name, int name_len, char *what, int what_len)
{
    const mpit_metric_t *m = mpit_metric_find(e->parsed.base);
    mpit_entry_t tmp;
    if (q != 0 || !m) return -1;
    pthread_mutex_lock(&lock);
    int has = pick_metric_source(m, metric_collecting[m - mpit_metrics], 1, &tmp) == 0;
    pthread_mutex_unlock(&lock);
    if (!has) return -1;
    mpit_name_t p = e->parsed;
    p.peer = 0;
    mpit_name_format(&p, name, name_len);
    snprintf(what, what_len,
             "rank 0 of MPI_COMM_WORLD only (:peer=N: rank N), from %s; the plain name sums every peer",
             tmp.info.name);
    return 0;
}

int mpit_catalog_qualifier(int code, int q, char *name, int name_len, char *what, int what_len)
{
    const mpit_entry_t *e = mpit_catalog_get(code);
    if (!e || !e->listed || q < 0) return -1;
    if (e->kind == MPIT_KIND_PVAR) return pvar_qualifier(e, q, name, name_len, what, what_len);
    if (e->kind == MPIT_KIND_EVENT) return event_qualifier(e, q, name, name_len, what, what_len);
    if (e->kind == MPIT_KIND_METRIC) return metric_qualifier(e, q, name, name_len, what, what_len);
    return -1; /* derived counters take none */
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
    int code = append(e);
    return code < 0 ? PAPI_ENOMEM : code;
}

/* A refinement of variable `base` by the qualifiers in parsed. */
static int pvar_variant(int base, const mpit_name_t *parsed, const char *canonical, char *why, int why_len)
{
    const mpit_entry_t *b = entries[base];
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
    if (!events_listed) {
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
    mpit_entry_t tmp = *entries[base];
    fill_event_entry(&tmp, id);
    snprintf(tmp.description, sizeof tmp.description, "%s of element %s of the MPI_T event %s since start",
             parsed->agg == MPIT_AGG_SUM ? "Sum" : "Maximum", parsed->agg_elem, rest);
    tmp.units = "";
    note_counting_start(&tmp);
    return appended_variant(&tmp, base, parsed, canonical);
}

/* The known defect of the running release that rules out a metric's
 * variables, else "": the reason to give instead of what the metric needs,
 * which the release has but must not use.  A variable the MPI publishes
 * first; then any (a variable that would appear only once the component
 * switched something on, which the defect forbids). */
static const char *metric_defect(const mpit_metric_t *m, char *buf, size_t len)
{
    const mpit_backend_t *b = mpit_backend();
    for (int published = 1; published >= 0; published--)
        for (int s = 0; b && b->pvar_unavailable && s < MPIT_METRIC_SOURCES; s++) {
            const char *name = m->sources[s].name;
            if (m->sources[s].kind != MPIT_SOURCE_PVAR || !name) continue;
            if (published && find_variable(name, -1) < 0) continue;
            if (b->pvar_unavailable(name, buf, len)) return buf;
        }
    buf[0] = '\0';
    return buf;
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
    mpit_entry_t *e = new_entry(MPIT_KIND_METRIC, canonical);
    if (!e) return PAPI_ENOMEM;
    if (pick_metric_source(m, metric_collecting[i], 1, e) != 0) {
        free(e);
        char defect[MPIT_WHY_LEN];
        metric_defect(m, defect, sizeof defect);
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
    int code = append(e);
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
    if (found >= 0 && entries[found]->kind == MPIT_KIND_METRIC) return found;
    metric_unavailable(m, why, (size_t)why_len);
    return PAPI_ENOEVNT;
}

static int lookup_pvar(const mpit_name_t *parsed, const char *canonical, char *why, int why_len)
{
    int base = find_variable(parsed->base, parsed->cls);
    if (base >= 0) return pvar_variant(base, parsed, canonical, why, why_len);
    if (parsed->cls >= 0 && find_variable(parsed->base, -1) >= 0)
        snprintf(why, why_len, "the MPI_T variable %s has no class %s", parsed->base,
                 mpit_class_name(parsed->cls));
    else if (scanned == 0)
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
    if (m && metric_never(m)) {
        /* nothing MPI_Init or MPI_Session_init brings can give it */
        metric_unavailable(m, why, (size_t)why_len);
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
    int n = atomic_load(&size);
    for (int i = 0; i < n; i++)
        if (entries[i]->kind == MPIT_KIND_PENDING && strcmp(entries[i]->name, canonical) == 0) return i;
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
    if (state == MPIT_MPI_FINALIZED && atomic_load(&mpit_state) != MPIT_INIT_DONE) {
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
        mpit_entry_t *e = new_entry(MPIT_KIND_PENDING, canonical);
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
        int pc = append(e);
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

/* A listing before MPI_Init initialised MPI_T on an MPI that reads its
 * parameters then (Open MPI registers every component's when MPI_T starts):
 * what a name asks the MPI for (monitoring on, an SPC attached) would come
 * too late for MPI_Init, and MPI_Init would close what the listing saw.  So
 * MPI_T is finalized again before a name waits for MPI_Init: MPI_Init then
 * starts from the parameters the names set, as it does without a listing,
 * and the catch-up starts MPI_T afresh (every index scanned again). */
static void release_listing_mpit(const mpit_backend_t *b)
{
    pthread_mutex_lock(&scan_lock);
    if (atomic_load(&mpit_state) == MPIT_INIT_DONE && b->mpi_state() == MPIT_MPI_NOT_STARTED) {
        b->shutdown();
        atomic_store(&mpit_state, MPIT_INIT_NONE);
        atomic_store(&scanned, 0);
        SUBDBG("mpit: MPI_T finalized again before MPI_Init: names wait for it\n");
    }
    pthread_mutex_unlock(&scan_lock);
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
        pthread_mutex_lock(&lock);
        int found = find_exact(canonical, 0);
        pthread_mutex_unlock(&lock);
        if (found >= 0) {
            *code = found;
            return PAPI_OK;
        }
    }
    int settled_now = mpit_catalog_settle(); /* the first lookup after MPI_Init waits for the catch-up */
    int state = b->mpi_state(), pending = 0, deferred = mpit_catalog_mpit_deferred();
    if (settled_now || !deferred) mpit_catalog_rescan(); /* MPI_T may have grown */
    pthread_mutex_lock(&lock);
    int err = mpit_backend()
                  ? lookup_locked(&parsed, canonical, state, deferred, code, &pending, why, why_len)
                  : PAPI_ECMP;
    if (err != PAPI_OK && atomic_load(&mpit_state) != MPIT_INIT_DONE && mpit_init_why[0])
        snprintf(why, why_len, "MPI_T cannot be used: %s", mpit_init_why); /* the cause, not its effect */
    pthread_mutex_unlock(&lock);
    if (pending && deferred) release_listing_mpit(b);
    if (pending) request_sources(b, &parsed); /* tells MPI: outside the lock */
    return err;
}

/* Pending entry i now stands for the one entry its name means now that MPI
 * runs (the entry already known by that name, else the one resolving it
 * makes, every qualifier kept), or keeps why it cannot. */
static void resolve_one_locked(int i)
{
    mpit_entry_t *p = entries[i];
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
    int n = atomic_load(&size); /* resolving may append variants: those are never pending */
    for (int i = 0; i < n; i++)
        if (unresolved(entries[i])) resolve_one_locked(i);
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
    pthread_mutex_lock(&lock);
    mpit_entry_t *p = entries[code];
    if (unresolved(p)) resolve_one_locked(code); /* named after the catch-up, before MPI_Finalize */
    int err = p->alias ? PAPI_OK : p->resolve_err ? p->resolve_err : PAPI_ENOEVNT;
    if (err != PAPI_OK) snprintf(why, why_len, "%s", p->resolve_why);
    pthread_mutex_unlock(&lock);
    return err;
}
