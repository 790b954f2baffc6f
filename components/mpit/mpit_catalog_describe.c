/*
 * What a catalog entry says of itself: the description, units and read
 * kind of a variable or an event counter, and when its counting starts.
 */
#include <stdio.h>
#include <string.h>

#include "mpit_catalog_internal.h"
#include "mpit_events.h"
#include "mpit_semantics.h"
#include "mpit_values.h"

static const char *const bind_names[] = {
    [MPIT_BIND_NONE] = "unbound",
    [MPIT_BIND_COMM] = "bound to a communicator",
    [MPIT_BIND_WIN] = "bound to an MPI window",
    [MPIT_BIND_FILE] = "bound to an MPI file",
    [MPIT_BIND_REQUEST] = "bound to an MPI request",
    [MPIT_BIND_OTHER] = "bound to an MPI object",
};

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

void catalog_note_counting_start(mpit_entry_t *e)
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

void catalog_describe_pvar(mpit_entry_t *e)
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

/* ---- event counters --------------------------------------------------- */

void catalog_fill_event_entry(mpit_entry_t *e, int id)
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
