/*
 * papi-mpit-report: why a run hangs (report_hang.h).
 *
 * The wait graph: an edge from rank r to rank p when a thread of r waits
 * in a point-to-point call for p (a receive, probe or completion from p, a
 * blocking send to p), and from r to every member of a communicator that
 * has not entered the collective r waits in (MPI_Finalize counts as a
 * collective of MPI_COMM_WORLD: the tool's collection waits there).  A
 * cycle is a deadlock.  The messages in flight come from the wrappers'
 * counts: what s's sends to r were (posted, for nonblocking ones) against
 * what r's receive sites got from s; no MPI here gives its unexpected
 * queue by sender and tag at a moment, so a mismatch is said as likely,
 * with what could not be checked.
 */
#include <jansson.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report.h"
#include "report_hang.h"
#include "site_fn.h"
#include "site_job.h"

#define MAX_FINDINGS 12

void hang_init(hang_t *h, int nprocs)
{
    memset(h, 0, sizeof *h);
    h->nprocs = nprocs;
    size_t n = (size_t)nprocs;
    h->st = calloc(n, sizeof *h->st);
    h->sent = calloc(n * n, sizeof *h->sent);
    h->recvd = calloc(n * n, sizeof *h->recvd);
    h->mixed = calloc(n * n, 1);
    h->has_t = calloc(n, 1);
    h->unexpected = malloc(n * sizeof *h->unexpected);
    for (int r = 0; h->unexpected && r < nprocs; r++) h->unexpected[r] = -1;
}

void hang_free(hang_t *h)
{
    for (int i = 0; i < h->ncalls; i++) free(h->calls[i].module);
    for (int i = 0; i < h->nlines; i++) free(h->lines[i]);
    free(h->calls), free(h->lines), free(h->st), free(h->sent), free(h->recvd), free(h->mixed),
        free(h->has_t);
    free(h->unexpected);
    memset(h, 0, sizeof *h);
}

static const char *kind_of_fn(int fn) { return fn >= 0 && fn < SITES_NFN ? sites_fn[fn].kind : ""; }

static int is_recv_kind(const char *k)
{
    return !strcmp(k, "recv") || !strcmp(k, "irecv") || !strcmp(k, "precv") || !strcmp(k, "mrecv") ||
           !strcmp(k, "imrecv");
}

static void add_call(hang_t *h, int rank, char **f)
{
    if (h->ncalls == h->cap_calls) {
        int cap = h->cap_calls ? 2 * h->cap_calls : 16;
        hang_call_t *c = realloc(h->calls, sizeof *c * (size_t)cap);
        if (!c) return;
        h->calls = c, h->cap_calls = cap;
    }
    hang_call_t *c = &h->calls[h->ncalls];
    memset(c, 0, sizeof *c);
    c->rank = rank;
    c->tid = atol(f[0]);
    snprintf(c->fn, sizeof c->fn, "%s", f[1]);
    snprintf(c->kind, sizeof c->kind, "%s", f[2]);
    c->module = strdup(f[3]);
    if (!c->module) return;
    c->off = strtoul(f[4], NULL, 16);
    c->age = strtod(f[5], NULL);
    c->peer = atoi(f[6]);
    c->has_tag = strcmp(f[7], "-") != 0;
    c->tag = c->has_tag ? atoi(f[7]) : 0;
    c->any_source = atoi(f[8]);
    c->any_tag = atoi(f[9]);
    snprintf(c->comm, sizeof c->comm, "%s", f[10]);
    snprintf(c->members, sizeof c->members, "%s", strcmp(f[11], "-") ? f[11] : "");
    h->ncalls++;
}

int hang_read(hang_t *h, int rank, const char *text)
{
    if (rank < 0 || rank >= h->nprocs) return -1;
    char *copy = strdup(text), *save = NULL;
    if (!copy) return -1;
    int n = h->nprocs, seen_r = 0;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (!line[0] || line[1] != '\t') continue;
        char kind = line[0], *f[16];
        int nf = report_split(line + 2, '\t', f, 16);
        if (kind == 'R' && nf >= 7) {
            hang_state_t *s = &h->st[rank];
            s->present = seen_r = 1;
            snprintf(s->why, sizeof s->why, "%s", f[2]);
            s->signo = atoi(f[3]);
            s->wall = strtod(f[4], NULL);
            s->seq = atol(f[5]);
            s->elapsed = strtod(f[6], NULL);
        } else if (kind == 'D' && nf >= 1) {
            h->st[rank].took = strtod(f[0], NULL);
        } else if (kind == 'A' && nf >= 12) {
            add_call(h, rank, f);
        } else if (kind == 'T' && nf >= 2) {
            h->has_t[rank] = 1;
            if (!strcmp(f[0], "-")) continue;
            for (char *p = f[0], *next; p && *p; p = next) {
                next = strchr(p, ',');
                if (next) *next++ = '\0';
                char *q[3];
                if (report_split(p, ':', q, 3) == 3) {
                    int r = atoi(q[0]);
                    if (r >= 0 && r < n) h->sent[(size_t)rank * (size_t)n + (size_t)r] += atoll(q[1]);
                }
            }
        } else if (kind == 'C' && nf >= 6) {
            const char *k = kind_of_fn(atoi(f[2]));
            int recv = is_recv_kind(k), mixed = !strcmp(k, "sendrecv");
            if ((!recv && !mixed) || !strcmp(f[4], "-")) continue;
            for (char *p = f[4], *next; p && *p; p = next) {
                next = strchr(p, ',');
                if (next) *next++ = '\0';
                char *q[3];
                if (report_split(p, ':', q, 3) != 3) continue;
                int s = atoi(q[0]);
                if (s < 0 || s >= n) continue;
                if (recv)
                    h->recvd[(size_t)rank * (size_t)n + (size_t)s] += atoll(q[1]);
                else
                    h->mixed[(size_t)rank * (size_t)n + (size_t)s] = 1;
            }
        } else if (kind == 'Z' && nf >= 2 && strstr(f[0], "UNEXPECTED_QUEUE_LENGTH")) {
            const char *last = strrchr(f[1], ':');
            if (last && h->unexpected) h->unexpected[rank] = strtod(last + 1, NULL);
        }
    }
    free(copy);
    return seen_r ? 0 : -1;
}

/* ---- sentences */
static void say(hang_t *h, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (h->nlines == h->cap_lines) {
        int cap = h->cap_lines ? 2 * h->cap_lines : 16;
        char **l = realloc(h->lines, sizeof *l * (size_t)cap);
        if (!l) return;
        h->lines = l, h->cap_lines = cap;
    }
    h->lines[h->nlines] = strdup(buf);
    if (h->lines[h->nlines]) h->nlines++;
}

/* "0, 2 and 5" or "0-3" style lists of ranks where flag[r] */
static void rank_list(char *b, size_t len, const unsigned char *flag, int n)
{
    size_t k = 0;
    int count = 0, total = 0;
    b[0] = '\0';
    for (int r = 0; r < n; r++) total += flag[r] != 0;
    for (int r = 0; r < n;) {
        if (!flag[r]) {
            r++;
            continue;
        }
        int e = r;
        while (e + 1 < n && flag[e + 1]) e++;
        count += e - r + 1;
        const char *sep = k == 0 ? "" : count == total ? " and " : ", ";
        int w = e == r ? snprintf(b + k, k < len ? len - k : 0, "%s%d", sep, r)
                       : snprintf(b + k, k < len ? len - k : 0, "%s%d-%d", sep, r, e);
        if (w > 0) k += (size_t)w;
        if (k >= len) break;
        r = e + 1;
    }
}

static int parse_members(const char *s, unsigned char *flag, int n)
{
    int count = 0;
    memset(flag, 0, (size_t)n);
    for (const char *p = s; p && *p;) {
        char *end;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p) break;
        if (*end == '-') hi = strtol(end + 1, &end, 10);
        for (long r = lo; r <= hi; r++)
            if (r >= 0 && r < n && !flag[r]) flag[r] = 1, count++;
        p = *end == ',' ? end + 1 : NULL;
    }
    return count;
}

static int is_coll(const hang_call_t *c) { return !strcmp(c->kind, "coll") || !strcmp(c->kind, "finalize"); }
static int waits_for_peer(const hang_call_t *c) { return !is_coll(c) && c->peer >= 0 && !c->any_source; }
static int sends(const hang_call_t *c) { return !strcmp(c->kind, "send"); }

/* what rank r's calls are, in words, for "which ..." (first call only) */
static const hang_call_t *first_call(const hang_t *h, int r)
{
    for (int i = 0; i < h->ncalls; i++)
        if (h->calls[i].rank == r) return &h->calls[i];
    return NULL;
}

static void describe(char *b, size_t len, const hang_call_t *c)
{
    char tag[48] = "";
    if (c->any_tag)
        snprintf(tag, sizeof tag, ", any tag,");
    else if (c->has_tag)
        snprintf(tag, sizeof tag, ", tag %d,", c->tag);
    if (!strcmp(c->kind, "finalize"))
        snprintf(b, len, "is in MPI_Finalize (the tool's collection waits for every rank there)");
    else if (is_coll(c) && c->peer >= 0)
        snprintf(b, len, "waits in %s (root %d) at %s", c->fn, c->peer, c->label);
    else if (is_coll(c))
        snprintf(b, len, "waits in %s at %s", c->fn, c->label);
    else if (sends(c) && c->peer >= 0)
        snprintf(b, len, "waits in %s to rank %d%s at %s", c->fn, c->peer, tag, c->label);
    else if (c->any_source)
        snprintf(b, len, "waits in %s from any rank%s at %s", c->fn, tag, c->label);
    else if (c->peer >= 0)
        snprintf(b, len, "waits in %s from rank %d%s at %s", c->fn, c->peer, tag, c->label);
    else
        snprintf(b, len, "is in %s at %s", c->fn, c->label);
}

static void state_of(char *b, size_t len, const hang_t *h, int r)
{
    const hang_call_t *c = first_call(h, r);
    if (r < 0 || r >= h->nprocs || !h->st[r].present)
        snprintf(b, len, "whose state is missing");
    else if (c) {
        char d[1024];
        describe(d, sizeof d, c);
        snprintf(b, len, "which %s", d);
    } else
        snprintf(b, len,
                 "which is in no wrapped MPI call (it computes, or is in a call the tool does not wrap)");
}

static void name_sites(hang_t *h)
{
    sites_job_t j;
    sites_job_init(&j, 1);
    j.sites = calloc((size_t)h->ncalls + 1, sizeof *j.sites);
    for (int i = 0; j.sites && i < h->ncalls; i++) {
        if (!strcmp(h->calls[i].module, "-") || !strcmp(h->calls[i].module, "?")) continue;
        site_agg_t *s = &j.sites[j.nsites++];
        s->module = strdup(h->calls[i].module);
        s->off = h->calls[i].off;
        s->line = i; /* which call, until named */
    }
    int *of = malloc(sizeof *of * ((size_t)j.nsites + 1));
    for (int k = 0; of && k < j.nsites; k++) of[k] = j.sites[k].line;
    if (of) sites_name_all(&j);
    for (int k = 0; of && k < j.nsites; k++)
        snprintf(h->calls[of[k]].label, sizeof h->calls[0].label, "%s", j.sites[k].label);
    for (int i = 0; i < h->ncalls; i++)
        if (!h->calls[i].label[0])
            snprintf(h->calls[i].label, sizeof h->calls[i].label, "the tool's MPI_Finalize");
    free(of);
    sites_job_free(&j);
}

/* the wait graph's edges: to[e], from[e], call[e] */
typedef struct edge {
    int from, to, call;
} edge_t;

static int find_cycles(hang_t *h, const edge_t *e, int ne)
{
    int n = h->nprocs, found = 0;
    int *color = calloc((size_t)n, sizeof *color), *via = malloc(sizeof *via * (size_t)n),
        *stack = malloc(sizeof *stack * (size_t)n), *pos = malloc(sizeof *pos * (size_t)n);
    unsigned char *in_cycle = calloc((size_t)n, 1);
    if (!color || !via || !stack || !pos || !in_cycle) goto out;
    /* iterative DFS over ranks, edges scanned by index */
    for (int s = 0; s < n && found < 5; s++) {
        if (color[s]) continue;
        int sp = 0;
        stack[sp++] = s, pos[s] = 0, color[s] = 1;
        while (sp && found < 5) {
            int u = stack[sp - 1], k;
            for (k = pos[u]; k < ne; k++)
                if (e[k].from == u) break;
            if (k == ne) {
                color[u] = 2, sp--;
                continue;
            }
            pos[u] = k + 1;
            int v = e[k].to;
            if (v < 0 || v >= n) continue;
            if (color[v] == 0) {
                via[v] = k, color[v] = 1, pos[v] = 0, stack[sp++] = v;
            } else if (color[v] == 1 && !in_cycle[v]) { /* back edge: the cycle v -> ... -> u -> v */
                char text[4096];
                size_t w = 0;
                int len = 0, i0 = 0;
                for (int i = 0; i < sp; i++)
                    if (stack[i] == v) i0 = i;
                len = sp - i0;
                w += (size_t)snprintf(text + w, sizeof text - w, "Deadlock: ");
                for (int i = i0; i < sp && w < sizeof text; i++) {
                    int r = stack[i], ek = i + 1 < sp ? via[stack[i + 1]] : k;
                    char d[1024];
                    describe(d, sizeof d, &h->calls[e[ek].call]);
                    w +=
                        (size_t)snprintf(text + w, sizeof text - w, "%srank %d %s", i > i0 ? "; " : "", r, d);
                    in_cycle[r] = 1;
                }
                snprintf(text + (w < sizeof text ? w : sizeof text - 1),
                         sizeof text - (w < sizeof text ? w : sizeof text - 1),
                         ": a cycle of %d rank%s, none of which can go on.", len, len == 1 ? "" : "s");
                say(h, "%s", text);
                found++;
            }
        }
        for (int i = 0; i < sp; i++) color[stack[i]] = 2;
    }
out:
    free(color), free(via), free(stack), free(pos), free(in_cycle);
    return found;
}

static void fmt_wall(char *b, size_t len, double t)
{
    time_t s = (time_t)t;
    struct tm tm;
    char hms[32];
    strftime(hms, sizeof hms, "%Y-%m-%d %H:%M:%S", localtime_r(&s, &tm));
    snprintf(b, len, "%s.%03d", hms, (int)((t - (double)s) * 1000));
}

static const char *why_words(const hang_state_t *s, char *b, size_t len)
{
    if (!strcmp(s->why, "signal"))
        snprintf(b, len, "on signal %d (%s)", s->signo,
                 s->signo == 15  ? "SIGTERM"
                 : s->signo == 2 ? "SIGINT"
                                 : "?");
    else if (!strcmp(s->why, "on-demand"))
        snprintf(b, len, "on demand (SIGUSR1)");
    else if (!strcmp(s->why, "periodic"))
        snprintf(b, len, "periodically (--snapshot-period)");
    else if (!strcmp(s->why, "watchdog"))
        snprintf(b, len, "by the watchdog (no MPI call returned)");
    else
        snprintf(b, len, "(%s)", s->why);
    return b;
}

void hang_finish(hang_t *h)
{
    int n = h->nprocs;
    name_sites(h);
    unsigned char *flag = calloc((size_t)n + 1, 1), *entered = calloc((size_t)n + 1, 1);
    edge_t *e = malloc(sizeof *e * ((size_t)h->ncalls * 65 + 1));
    int ne = 0, present = 0;
    if (!flag || !entered || !e) goto out;
    char list[4096], when[64], why[64];
    for (int r = 0; r < n; r++) present += h->st[r].present;
    for (int r = 0; r < n; r++) flag[r] = !h->st[r].present;
    if (present < n) {
        rank_list(list, sizeof list, flag, n);
        say(h,
            "%d of %d ranks left no state: rank%s %s (killed before writing it, or snapshots off there); "
            "what "
            "they did is unknown.",
            n - present, n, n - present == 1 ? "" : "s", list);
    }

    /* the edges */
    for (int i = 0; i < h->ncalls; i++) {
        const hang_call_t *c = &h->calls[i];
        if (waits_for_peer(c)) e[ne++] = (edge_t){c->rank, c->peer, i};
    }
    /* collectives: by communicator and call, who entered; who is missing */
    unsigned char *done = calloc((size_t)h->ncalls + 1, 1);
    for (int i = 0; done && i < h->ncalls; i++) {
        const hang_call_t *c = &h->calls[i];
        if (done[i] || !is_coll(c)) continue;
        int nm = c->members[0] ? parse_members(c->members, flag, n) : 0;
        if (!strcmp(c->kind, "finalize")) {
            memset(flag, 1, (size_t)n);
            nm = n;
        }
        memset(entered, 0, (size_t)n);
        int nin = 0, other_call = 0;
        for (int k = i; k < h->ncalls; k++) {
            const hang_call_t *d = &h->calls[k];
            if (!is_coll(d) || strcmp(d->comm, c->comm)) continue;
            if (strcmp(d->fn, c->fn)) {
                other_call = k;
                continue;
            }
            done[k] = 1;
            if (!entered[d->rank]) entered[d->rank] = 1, nin++;
        }
        if (!nm || !strcmp(c->comm, "?")) {
            say(h,
                "%s at %s: on a communicator the tool does not know (made by a call it does not wrap), so "
                "which ranks should have entered it could not be checked.",
                c->fn, c->label);
            continue;
        }
        if (nin >= nm) continue;
        char in_list[2048], members[512];
        rank_list(in_list, sizeof in_list, entered, n);
        rank_list(members, sizeof members, flag, n);
        char missing_text[8192];
        size_t w = 0;
        int nmissing = 0;
        for (int r = 0; r < n; r++) {
            if (!flag[r] || entered[r]) continue;
            if (nmissing < 8) {
                char st[1200];
                state_of(st, sizeof st, h, r);
                w += (size_t)snprintf(missing_text + w, w < sizeof missing_text ? sizeof missing_text - w : 0,
                                      "%srank %d, %s", nmissing ? "; nor by " : "", r, st);
            }
            nmissing++;
            if (nmissing <= 64)
                for (int k = 0; k < h->ncalls; k++)
                    if (h->calls[k].rank != r && entered[h->calls[k].rank] &&
                        !strcmp(h->calls[k].comm, c->comm) && !strcmp(h->calls[k].fn, c->fn))
                        e[ne++] = (edge_t){h->calls[k].rank, r, k};
        }
        if (w >= sizeof missing_text) w = sizeof missing_text - 1;
        if (nmissing > 8) snprintf(missing_text + w, sizeof missing_text - w, "; and %d more", nmissing - 8);
        const char *comm = !strcmp(c->comm, "world") ? "MPI_COMM_WORLD" : "a communicator";
        say(h, "%s on %s of ranks %s (at %s): entered by rank%s %s, not by %s.%s", c->fn, comm, members,
            c->label, nin == 1 ? "" : "s", in_list, missing_text,
            other_call ? " Some members are in another collective on the same communicator: a mismatched "
                         "order of collectives."
                       : "");
    }
    free(done);
    int ncycles = find_cycles(h, e, ne);

    /* receives that wait while messages from that peer were sent and not received */
    for (int i = 0; i < h->ncalls; i++) {
        const hang_call_t *c = &h->calls[i];
        if (sends(c) || is_coll(c) || c->any_source || c->peer < 0 || c->peer >= n) continue;
        int r = c->rank, p = c->peer;
        if (!h->st[p].present || !h->has_t[p]) continue;
        long long sent = h->sent[(size_t)p * (size_t)n + (size_t)r],
                  got = h->recvd[(size_t)r * (size_t)n + (size_t)p];
        if (h->mixed[(size_t)r * (size_t)n + (size_t)p] || sent <= got) continue;
        char tag[48], unexp[160] = "";
        if (c->any_tag)
            snprintf(tag, sizeof tag, "any tag");
        else
            snprintf(tag, sizeof tag, "tag %d", c->tag);
        if (h->unexpected && h->unexpected[r] > 0)
            snprintf(unexp, sizeof unexp, " Its unexpected queue held %g message%s at the last sample.",
                     h->unexpected[r], h->unexpected[r] == 1 ? "" : "s");
        say(h,
            "Rank %d waits in %s for %s from rank %d at %s, while %lld message%s rank %d sent it %s not been "
            "received: a tag or communicator mismatch is likely (this MPI does not give its unexpected queue "
            "by "
            "sender and tag, so the tags of the waiting messages could not be checked).%s",
            r, c->fn, tag, p, c->label, sent - got, sent - got == 1 ? "" : "s", p,
            sent - got == 1 ? "has" : "have", unexp);
    }
    (void)ncycles;
    h->nfindings = h->nlines;

    /* the states and the wait graph, a line per rank */
    for (int r = 0; r < n; r++) {
        if (!h->st[r].present) continue;
        fmt_wall(when, sizeof when, h->st[r].wall);
        why_words(&h->st[r], why, sizeof why);
        int any = 0;
        for (int i = 0; i < h->ncalls; i++) {
            const hang_call_t *c = &h->calls[i];
            if (c->rank != r) continue;
            char d[1024];
            describe(d, sizeof d, c);
            say(h, "Rank %d %s, for %.3g s (state taken %s, %s).", r, d, c->age, why, when);
            any = 1;
        }
        if (!any) say(h, "Rank %d was in no wrapped MPI call (state taken %s, %s).", r, why, when);
    }
out:
    free(flag), free(entered), free(e);
}

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

int hang_json(json_t *obj, const hang_t *h)
{
    json_t *o = json_object(), *states = json_array(), *calls = json_array(), *find = json_array(),
           *where = json_array(), *missing = json_array();
    for (int r = 0; r < h->nprocs; r++) {
        const hang_state_t *s = &h->st[r];
        if (!s->present) {
            json_array_append_new(missing, json_integer(r));
            continue;
        }
        json_array_append_new(states, json_pack("{s:i,s:s,s:i,s:f,s:i,s:f,s:f}", "rank", r, "why", s->why,
                                                "signal", s->signo, "time", s->wall, "seq", (int)s->seq,
                                                "elapsed_s", s->elapsed, "write_s", s->took));
    }
    for (int i = 0; i < h->ncalls; i++) {
        const hang_call_t *c = &h->calls[i];
        json_t *j = json_pack("{s:i,s:s,s:s,s:f,s:s}", "rank", c->rank, "call", c->fn, "site", c->label,
                              "seconds", c->age, "comm", c->comm);
        if (c->peer >= 0) json_object_set_new(j, "peer", json_integer(c->peer));
        if (c->any_source) json_object_set_new(j, "any_source", json_true());
        if (c->has_tag && !c->any_tag) json_object_set_new(j, "tag", json_integer(c->tag));
        if (c->any_tag) json_object_set_new(j, "any_tag", json_true());
        json_array_append_new(calls, j);
    }
    for (int i = 0; i < h->nlines; i++)
        json_array_append_new(i < h->nfindings ? find : where, json_string(h->lines[i]));
    json_object_set_new(o, "ranks_missing", missing);
    json_object_set_new(o, "states", states);
    json_object_set_new(o, "calls", calls);
    json_object_set_new(o, "findings", find);
    json_object_set_new(o, "where", where);
    return json_object_set_new(obj, "hang", o) ? -1 : 0;
}
