/*
 * papi-mpit-report: the call sites' members of report.json (through
 * jansson).  No MPI.
 */
#include <jansson.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "site_figures.h"
#include "site_job.h"

static json_t *site_json(const sites_job_t *j, const site_agg_t *s)
{
    double mean;
    int lo = sites_extreme_rank(s, j->nprocs, 0, &mean), hi = sites_extreme_rank(s, j->nprocs, 1, &mean);
    json_t *hist = json_array(), *pairs = json_array(), *time = json_array(), *calls = json_array();
    for (int b = 0; b < SITES_JOB_HIST; b++)
        if (s->hist[b])
            json_array_append_new(
                hist, json_pack("{s:I,s:I,s:I}", "from", (json_int_t)(b ? 1LL << (b - 1) : 0), "below",
                                (json_int_t)(b ? 1LL << b : 1), "count", (json_int_t)s->hist[b]));
    for (int p = 0; p < s->npairs; p++) {
        const site_pair_t *x = &s->pairs[p];
        json_t *peer = x->peer >= 0 ? json_integer(x->peer) : json_null();
        json_array_append_new(pairs, json_pack("{s:i,s:o,s:I,s:I}", "rank", x->rank, "peer", peer, "messages",
                                               (json_int_t)x->msgs, "bytes", (json_int_t)x->bytes));
    }
    json_t *longest = json_array(), *shortest = json_array();
    for (int r = 0; r < j->nprocs; r++) {
        json_array_append_new(time, json_integer(s->rank_ns[r]));
        json_array_append_new(calls, json_integer(s->rank_calls[r]));
        /* null where the rank made no call here */
        json_array_append_new(longest, s->rank_calls[r] ? json_integer(s->rank_max[r]) : json_null());
        json_array_append_new(shortest, s->rank_calls[r] ? json_integer(s->rank_min[r]) : json_null());
    }
    long long cmin, cmax, lmax, lmin;
    int cmin_rank, cmax_rank, lmin_rank;
    double cmean;
    sites_calls_spread(s, j->nprocs, &cmin, &cmin_rank, &cmean, &cmax, &cmax_rank);
    int lmax_rank = sites_call_extremes(s, j->nprocs, &lmax, &lmin, &lmin_rank);
    json_t *o = json_pack(
        "{s:s,s:s,s:i,s:s,s:s,s:s,s:I,s:I,s:I,s:{s:I,s:i,s:f,s:I,s:i},s:I,s:I,s:I,s:I,s:o,s:o,s:o,s:o}",
        "call", sites_fn_name(s->fn), "file", s->file, "line", s->line, "function", s->func, "label",
        s->label, "module", s->module, "offset", (json_int_t)s->off, "calls", (json_int_t)s->calls, "time_ns",
        (json_int_t)s->ns, "time_per_rank", "min_ns", (json_int_t)(lo >= 0 ? s->rank_ns[lo] : 0), "min_rank",
        lo, "mean_ns", mean, "max_ns", (json_int_t)(hi >= 0 ? s->rank_ns[hi] : 0), "max_rank", hi,
        "messages_sent", (json_int_t)s->msgs_out, "bytes_sent", (json_int_t)s->bytes_out, "messages_received",
        (json_int_t)s->msgs_in, "bytes_received", (json_int_t)s->bytes_in, "sizes", hist, "pairs", pairs,
        "rank_time_ns", time, "rank_calls", calls);
    /* null where the MPI does not tell (no MPI_T event for it) */
    if (o) json_object_set_new(o, "found_waiting", j->watched ? json_integer(s->found) : json_null());
    /* mpiP's figures: the calls' spread over the ranks, and the longest
     * and shortest single call, per rank and over them */
    if (o) {
        json_object_set_new(o, "calls_per_rank",
                            json_pack("{s:I,s:i,s:f,s:I,s:i}", "min", (json_int_t)cmin, "min_rank", cmin_rank,
                                      "mean", cmean, "max", (json_int_t)cmax, "max_rank", cmax_rank));
        json_object_set_new(o, "call_ns",
                            lmax_rank < 0
                                ? json_null()
                                : json_pack("{s:I,s:i,s:I,s:i}", "max", (json_int_t)lmax, "max_rank",
                                            lmax_rank, "min", (json_int_t)lmin, "min_rank", lmin_rank));
        json_object_set_new(o, "rank_max_call_ns", longest);
        json_object_set_new(o, "rank_min_call_ns", shortest);
    } else {
        json_decref(longest), json_decref(shortest);
    }
    /* where the program line comes from (site_frames.h), and the library's
     * caller frame behind it */
    static const char *const how[] = {"own", "behind_library", "python", "not_found", "python_unreadable"};
    if (o)
        json_object_set_new(o, "program_line", json_string(s->how >= 0 && s->how <= 4 ? how[s->how] : "?"));
    json_t *via = json_null();
    if (s->how == SITES_PROG_NATIVE || s->how == SITES_PROG_PYTHON)
        via =
            json_pack("{s:s,s:s,s:i,s:s,s:s,s:I}", "label", s->via, "file", s->via_file, "line", s->via_line,
                      "function", s->via_func, "module", s->module, "offset", (json_int_t)s->off);
    if (o)
        json_object_set_new(o, "via", via ? via : json_null());
    else
        json_decref(via);
    return o;
}

int sites_json(json_t *obj, const sites_job_t *j)
{
    json_t *sites = json_array(), *cells = json_array(), *colls = json_array();
    for (int i = 0; i < j->nsites; i++) json_array_append_new(sites, site_json(j, &j->sites[i]));
    for (int i = 0; i < j->ncells; i++)
        json_array_append_new(cells, json_pack("{s:i,s:i,s:I,s:I}", "sender", j->cells[i].sender, "receiver",
                                               j->cells[i].receiver, "messages", (json_int_t)j->cells[i].msgs,
                                               "bytes", (json_int_t)j->cells[i].bytes));
    for (int i = 0; i < j->ncolls; i++) {
        json_t *root = j->colls[i].root >= 0 ? json_integer(j->colls[i].root) : json_null();
        json_array_append_new(colls, json_pack("{s:s,s:o,s:I,s:I}", "call", sites_fn_name(j->colls[i].fn),
                                               "root", root, "calls", (json_int_t)j->colls[i].calls, "bytes",
                                               (json_int_t)j->colls[i].bytes));
    }
    json_t *doc = json_pack(
        "{s:{s:s,s:o,s:{s:I,s:I,s:I},s:s},s:{s:s,s:o,s:I},s:{s:s,s:o}}", "call_sites", "counts",
        "per call site of the program (the caller's address): calls and wall time inside the call, per rank "
        "and summed, with the longest and shortest single call per rank (ns); bytes and messages sent and "
        "received by the messages each site posted",
        "sites", sites, "not_recorded", "calls", (json_int_t)j->overflow_sites, "collectives",
        (json_int_t)j->overflow_colls, "requests", (json_int_t)j->untracked, "why_none", j->off_reason,
        "program_matrix", "counts",
        "point-to-point messages and bytes by sender and receiver (ranks of MPI_COMM_WORLD) as the program's "
        "send "
        "calls asked for them, counted in the tool's wrappers on every MPI; not the wire-level traffic of "
        "matrix (Open MPI's monitoring, --matrix)",
        "cells", cells, "to_other", (json_int_t)j->p2p_other, "collectives", "counts",
        "calls (summed over ranks) and bytes each rank put in (its send side), by call and root (rank of "
        "MPI_COMM_WORLD, null for none)",
        "by_call_and_root", colls);
    if (!doc) return -1;
    json_t *cs = json_object_get(doc, "call_sites");
    json_object_set_new(cs, "unseen", j->unseen[0] ? json_string(j->unseen) : json_null());
    json_object_set_new(cs, "found_waiting_ranks", json_integer(j->watched));
    json_object_set_new(cs, "found_waiting_outside_calls",
                        j->watched ? json_integer(j->found_outside) : json_null());
    json_t *nolines = json_array();
    for (int i = 0; i < j->nnolines; i++) json_array_append_new(nolines, json_string(j->nolines[i]));
    json_object_set_new(cs, "depth", json_integer(j->depth));
    json_object_set_new(cs, "program_lines_off", j->frames_why[0] ? json_string(j->frames_why) : json_null());
    json_object_set_new(cs, "modules_without_lines", nolines);
    /* the members of report.json's object, in this order */
    int bad = json_object_update(obj, doc);
    json_decref(doc);
    return bad ? -1 : 0;
}
