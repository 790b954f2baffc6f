/*
 * papi-mpit-report: why a run hangs (report_hang.h): its renderings, the
 * text's section, report.html's and report.json's member "hang".
 */
#include <jansson.h>

#include <stdio.h>

#include "report.h"
#include "report_hang.h"

int hang_write_text(FILE *out, const hang_t *h)
{
    fputs("Why the run did not end\n", out);
    if (!h->nfindings)
        fputs("  No deadlock, incomplete collective or waiting mismatch found in the states.\n", out);
    for (int i = 0; i < h->nlines; i++) {
        if (i == h->nfindings) fputs("Where each rank was\n", out);
        fprintf(out, "  %s\n", h->lines[i]);
    }
    fputs("\n", out);
    return ferror(out) ? -1 : 0;
}

int hang_write_html(FILE *out, const hang_t *h)
{
    fputs("<h2 id=\"hang\">Why the run did not end</h2>\n", out);
    if (!h->nfindings)
        fputs("<p>No deadlock, incomplete collective or waiting mismatch found in the states.</p>\n", out);
    if (h->nfindings) fputs("<ul class=\"findings\">\n", out);
    for (int i = 0; i < h->nfindings; i++)
        fputs("<li>", out), report_xml_str(out, h->lines[i]), fputs("</li>\n", out);
    if (h->nfindings) fputs("</ul>\n", out);
    fputs("<h3>Where each rank was</h3>\n<ul>\n", out);
    for (int i = h->nfindings; i < h->nlines; i++)
        fputs("<li>", out), report_xml_str(out, h->lines[i]), fputs("</li>\n", out);
    fputs("</ul>\n", out);
    return ferror(out) ? -1 : 0;
}

/* report.json: every rank's state and every call, as columns (one array
 * per field, an entry per rank or call: compact at any size); a call's
 * site is an index into "sites" */
static int put(json_t *o, const char *key, json_t *v) { return !v || json_object_set_new(o, key, v); }

int hang_json(json_t *obj, const hang_t *h)
{
    int bad = 0;
    json_t *o = json_object(), *find = json_array(), *where = json_array(), *missing = json_array();
    json_t *st = json_object(), *s_rank = json_array(), *s_why = json_array(), *s_sig = json_array(),
           *s_time = json_array(), *s_seq = json_array(), *s_el = json_array(), *s_took = json_array();
    json_t *calls = json_object(), *c_rank = json_array(), *c_call = json_array(), *c_site = json_array(),
           *c_sec = json_array(), *c_comm = json_array(), *c_peer = json_array(), *c_tag = json_array(),
           *sites = json_array(), *site_ix = json_object();
    if (!o || !find || !where || !missing || !st || !s_rank || !s_why || !s_sig || !s_time || !s_seq ||
        !s_el || !s_took || !calls || !c_rank || !c_call || !c_site || !c_sec || !c_comm || !c_peer ||
        !c_tag || !sites || !site_ix)
        bad = 1;
    for (int r = 0; !bad && r < h->nprocs; r++) {
        const hang_state_t *s = &h->st[r];
        if (!s->present) {
            bad |= json_array_append_new(missing, json_integer(r));
            continue;
        }
        bad |= json_array_append_new(s_rank, json_integer(r));
        bad |= json_array_append_new(s_why, json_string(s->why));
        bad |= json_array_append_new(s_sig, json_integer(s->signo));
        bad |= json_array_append_new(s_time, json_real(s->wall));
        bad |= json_array_append_new(s_seq, json_integer(s->seq));
        bad |= json_array_append_new(s_el, json_real(s->elapsed));
        bad |= json_array_append_new(s_took, json_real(s->took));
    }
    for (int k = 0; !bad && k < h->ncalls; k++) {
        const hang_call_t *c = &h->calls[h->by_rank ? h->by_rank[k] : k];
        json_t *ix = json_object_get(site_ix, c->label);
        if (!ix) {
            ix = json_integer((json_int_t)json_array_size(sites));
            bad |= json_array_append_new(sites, json_string(c->label)) ||
                   json_object_set_new(site_ix, c->label, ix);
        }
        bad |= json_array_append_new(c_rank, json_integer(c->rank));
        bad |= json_array_append_new(c_call, json_string(c->fn));
        bad |= json_array_append(c_site, ix);
        bad |= json_array_append_new(c_sec, json_real(c->age));
        bad |= json_array_append_new(c_comm, json_string(c->comm));
        bad |= json_array_append_new(c_peer, c->any_source  ? json_string("any")
                                             : c->peer >= 0 ? json_integer(c->peer)
                                                            : json_null());
        bad |= json_array_append_new(c_tag, c->any_tag   ? json_string("any")
                                            : c->has_tag ? json_integer(c->tag)
                                                         : json_null());
    }
    json_decref(site_ix);
    for (int i = 0; !bad && i < h->nlines; i++)
        bad |= json_array_append_new(i < h->nfindings ? find : where, json_string(h->lines[i]));
    bad |= put(st, "rank", s_rank) | put(st, "why", s_why) | put(st, "signal", s_sig) |
           put(st, "time", s_time) | put(st, "seq", s_seq) | put(st, "elapsed_s", s_el) |
           put(st, "write_s", s_took);
    bad |= put(calls, "rank", c_rank) | put(calls, "call", c_call) | put(calls, "site", c_site) |
           put(calls, "seconds", c_sec) | put(calls, "comm", c_comm) | put(calls, "peer", c_peer) |
           put(calls, "tag", c_tag);
    bad |= put(o, "ranks_missing", missing) | put(o, "states", st) | put(o, "sites", sites) |
           put(o, "calls", calls) | put(o, "findings", find) | put(o, "where", where);
    return bad || json_object_set_new(obj, "hang", o) ? -1 : 0;
}
