/*
 * Recorded streams (streams/NAME.stream) fed through the real rule table.
 *
 *
 * Stream format, one directive a line, '#' starts a comment:
 *   event <name> <elem>:<i|u|o> ...   describe the next event type (id 0, 1, ...);
 *                                     elem "-" = unnamed; i signed, u unsigned, o other
 *   bind [t0]                         bind the built-in rules (implicit, t0 0)
 *   <ts> <event> [<elem>=<value>...]  dispatch, passing as many elements as
 *                                     mpit_engine_elements_to_read says (a
 *                                     front end would read only those)
 *   expect <counter> <value> [@<now>] read (now defaults to 0)
 *   available <rule> | unavailable <rule> [<words of the reason>]
 *   absent <counter>                  no such counter
 *   reads <event> <n>                 mpit_engine_elements_to_read
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test_engine.h"

#define MAXEV 32
#define MAXEL 16

typedef struct stream {
    mpit_engine_t *eng;
    int nev, bound;
    char name[MAXEV][128];
    char elem[MAXEV][MAXEL][64];
    int nelem[MAXEV];
} stream_t;

static int ev_id(const stream_t *s, const char *name)
{
    for (int i = 0; i < s->nev; i++)
        if (!strcmp(s->name[i], name)) return i;
    return -1;
}

static void run_stream(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024], where[1100];
    stream_t *s = calloc(1, sizeof *s);
    int lineno = 0;

    CHECK(f && s, "cannot open %s", path);
    if (!f || !s) {
        free(s);
        if (f) fclose(f);
        return;
    }
    s->eng = mpit_engine_create(MAXEV, 0);
    while (fgets(line, sizeof line, f)) {
        char *tok[MAXEL + 4], *save = NULL, *c = strchr(line, '#');
        int nt = 0;

        lineno++;
        snprintf(where, sizeof where, "%s line %d", path, lineno);
        if (c) *c = 0;
        for (char *t = strtok_r(line, " \t\r\n", &save); t && nt < MAXEL + 4;
             t = strtok_r(NULL, " \t\r\n", &save))
            tok[nt++] = t;
        if (!nt) continue;

        if (!strcmp(tok[0], "event")) {
            const char *names[MAXEL];
            int kinds[MAXEL], id = s->nev++;
            CHECK(!s->bound && nt >= 2 && id < MAXEV, "%s: bad event line", where);
            if (s->bound || nt < 2 || id >= MAXEV) break;
            snprintf(s->name[id], sizeof s->name[id], "%s", tok[1]);
            for (int i = 2; i < nt && i - 2 < MAXEL; i++) {
                char *colon = strchr(tok[i], ':');
                int k = i - 2;
                kinds[k] = !colon            ? MPIT_ELEM_SIGNED
                           : colon[1] == 'u' ? MPIT_ELEM_UNSIGNED
                           : colon[1] == 'o' ? MPIT_ELEM_OTHER
                                             : MPIT_ELEM_SIGNED;
                if (colon) *colon = 0;
                if (!strcmp(tok[i], "-"))
                    snprintf(s->elem[id][k], sizeof s->elem[id][k], "%d", k);
                else
                    snprintf(s->elem[id][k], sizeof s->elem[id][k], "%s", tok[i]);
                names[k] = strcmp(tok[i], "-") ? s->elem[id][k] : NULL;
                s->nelem[id]++;
            }
            CHECK(mpit_engine_describe_event(s->eng, id, s->name[id], s->nelem[id], names, kinds) == 0,
                  "%s: describe", where);
            continue;
        }
        if (!s->bound) {
            uint64_t t0 = (!strcmp(tok[0], "bind") && nt > 1) ? strtoull(tok[1], NULL, 0) : 0;
            CHECK(mpit_engine_bind(s->eng, mpit_rules, mpit_num_rules, t0) > 0, "%s: bind", where);
            s->bound = 1;
            if (!strcmp(tok[0], "bind")) continue;
        }

        if (tok[0][0] >= '0' && tok[0][0] <= '9') {
            int64_t el[MAXEL] = {0};
            int id = nt > 1 ? ev_id(s, tok[1]) : -1, n;
            CHECK(id >= 0, "%s: unknown event", where);
            if (id < 0) continue;
            for (int i = 2; i < nt; i++) {
                char *eq = strchr(tok[i], '=');
                int k;
                for (k = 0; eq && k < s->nelem[id]; k++)
                    if (strlen(s->elem[id][k]) == (size_t)(eq - tok[i]) &&
                        !strncmp(s->elem[id][k], tok[i], (size_t)(eq - tok[i])))
                        break;
                CHECK(eq && k < s->nelem[id], "%s: unknown element %s", where, tok[i]);
                if (eq && k < s->nelem[id]) el[k] = strtoll(eq + 1, NULL, 0);
            }
            n = mpit_engine_elements_to_read(s->eng, id);
            mpit_engine_dispatch(s->eng, id, strtoull(tok[0], NULL, 0), n ? el : NULL, n);
        } else if (!strcmp(tok[0], "expect") && nt >= 3) {
            uint64_t now = (nt > 3 && tok[3][0] == '@') ? strtoull(tok[3] + 1, NULL, 0) : 0;
            int id = mpit_engine_find_counter(s->eng, tok[1]);
            long long want = strtoll(tok[2], NULL, 0), got;
            CHECK(id >= 0, "%s: no counter %s", where, tok[1]);
            if (id < 0) continue;
            got = (long long)mpit_engine_read(s->eng, id, now);
            CHECK(got == want, "%s: %s = %lld, want %lld", where, tok[1], got, want);
        } else if (!strcmp(tok[0], "available") && nt == 2) {
            char why[256];
            CHECK(mpit_engine_rule_available(s->eng, tok[1], why, sizeof why) == 1, "%s: %s unavailable: %s",
                  where, tok[1], why);
        } else if (!strcmp(tok[0], "unavailable") && nt >= 2) {
            char why[256];
            CHECK(mpit_engine_rule_available(s->eng, tok[1], why, sizeof why) == 0, "%s: %s available", where,
                  tok[1]);
            for (int i = 2; i < nt; i++)
                CHECK(strstr(why, tok[i]) != NULL, "%s: reason \"%s\" lacks \"%s\"", where, why, tok[i]);
        } else if (!strcmp(tok[0], "absent") && nt == 2) {
            CHECK(mpit_engine_find_counter(s->eng, tok[1]) < 0, "%s: %s exists", where, tok[1]);
        } else if (!strcmp(tok[0], "reads") && nt == 3) {
            int id = ev_id(s, tok[1]);
            EQ(mpit_engine_elements_to_read(s->eng, id), atoi(tok[2]), where);
        } else {
            CHECK(0, "%s: cannot parse", where);
        }
    }
    fclose(f);
    mpit_engine_destroy(s->eng);
    free(s);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

void run_streams(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char *files[64], path[1024];
    int n = 0;

    CHECK(d != NULL, "no stream directory %s", dir);
    if (!d) return;
    while ((de = readdir(d)) && n < 64) {
        size_t l = strlen(de->d_name);
        if (l > 7 && !strcmp(de->d_name + l - 7, ".stream")) files[n++] = strdup(de->d_name);
    }
    closedir(d);
    CHECK(n >= 5, "only %d streams in %s", n, dir);
    qsort(files, (size_t)n, sizeof *files, by_name);
    for (int i = 0; i < n; i++) {
        int before = failed;
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        run_stream(path);
        printf("%-40s %s\n", files[i], failed == before ? "ok" : "FAILED");
        free(files[i]);
    }
}
