/* Unit test of the record sequences of the collection (report_records.c):
 * records written against the one before come back whole, sequences joined
 * as the collection tree joins them come back in order, the repeated lines
 * shrink to a few bytes, and malformed input is refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_records.h"

#include "expect.h"

#define N 6
static const char *const recs[N] = {
    "H\tnode0\t1.250000000\nE\tmpit:::UNEXPECTED_QUEUE_MAX\tmessages\ti\t301\n"
    "S\tmpit:::OOS_MSGS\tnot available on the running Open MPI: needs SPCs\n",
    /* the same lines, other values */
    "H\tnode0\t1.5\nE\tmpit:::UNEXPECTED_QUEUE_MAX\tmessages\ti\t7\n"
    "S\tmpit:::OOS_MSGS\tnot available on the running Open MPI: needs SPCs\n",
    /* another host, a line more */
    "H\tnode1\t1.5\nE\tmpit:::UNEXPECTED_QUEUE_MAX\tmessages\ti\t7\n"
    "S\tmpit:::OOS_MSGS\tnot available on the running Open MPI: needs SPCs\nM\t2\t0\t4\t1:3,2:5\n",
    /* lines that look like the encoding's, a value with no tab before */
    "=3\n~x\n\\y\nH\n",
    /* empty */
    "",
    /* no final newline, an empty line inside */
    "H\tnode1\t2\n\nE\ta\t\ti\t5",
};
/* what comes back: the lines, each with '\n', no empty one */
static const char *const back[N] = {NULL, NULL, NULL, NULL, "", "H\tnode1\t2\nE\ta\t\ti\t5\n"};

static const char *want(int i) { return back[i] ? back[i] : recs[i]; }

/* decodes seq, checking it holds recs[first .. first+n-1] */
static void check_seq(const records_buf_t *seq, const int *order, int n, const char *what)
{
    records_buf_t prev = {0}, cur = {0};
    size_t pos = 0;
    for (int k = 0; k < n; k++) {
        int rc = records_get(seq->s, seq->len, &pos, k ? &prev : NULL, &cur);
        EXPECT(rc == 0 && strcmp(cur.s, want(order[k])) == 0, "%s: record %d: rc %d, got [%s] want [%s]",
               what, k, rc, cur.s ? cur.s : "", want(order[k]));
        records_buf_t t = prev;
        prev = cur, cur = t;
    }
    EXPECT(pos == seq->len, "%s: %zu bytes left", what, seq->len - pos);
    EXPECT(records_get(seq->s, seq->len, &pos, &prev, &cur) == -1, "%s: a record past the end", what);
    records_free(&prev);
    records_free(&cur);
}

/* a sequence of recs[order[0..n-1]], each written against the one before */
static void make_seq(records_buf_t *seq, const int *order, int n)
{
    records_buf_t prev = {0};
    for (int k = 0; k < n; k++) {
        records_put(seq, k ? &prev : NULL, recs[order[k]], strlen(recs[order[k]]));
        records_free(&prev);
        prev.s = strdup(want(order[k]));
        prev.len = prev.cap = strlen(prev.s);
    }
    records_free(&prev);
}

int main(void)
{
    int all[N] = {0, 1, 2, 3, 4, 5};
    records_buf_t seq = {0};
    make_seq(&seq, all, N);
    check_seq(&seq, all, N, "sequence");
    records_free(&seq);

    /* a record like the one before: its values only */
    int two[2] = {0, 1};
    make_seq(&seq, two, 2);
    size_t first = strlen(recs[0]) + 1;
    EXPECT(seq.len - first == strlen("~1.5\n~7\n=1\n\n"), "second record: %zu bytes [%s]", seq.len - first,
           seq.s + first);
    records_free(&seq);

    /* joined as the tree joins them: own record, then each child's sequence */
    int a[2] = {1, 2}, b[3] = {3, 0, 4}, joined[6] = {0, 1, 2, 3, 0, 4};
    records_buf_t sa = {0}, sb = {0}, out = {0}, last = {0};
    make_seq(&sa, a, 2);
    make_seq(&sb, b, 3);
    records_put(&out, NULL, recs[0], strlen(recs[0]));
    last.s = strdup(recs[0]);
    last.len = last.cap = strlen(recs[0]);
    EXPECT(records_join(&out, &last, sa.s, sa.len, NULL) == 2, "join a");
    EXPECT(records_join(&out, &last, sb.s, sb.len, NULL) == 3, "join b");
    EXPECT(strcmp(last.s, recs[4]) == 0, "last record [%s]", last.s);
    check_seq(&out, joined, 6, "joined");
    /* joining put record 1 against record 0: its values only, not whole */
    EXPECT(out.len < sa.len + sb.len + strlen(recs[0]) + 1, "join shrinks: %zu", out.len);

    /* malformed: a run longer than the record before, a "~" with no line
     * before, no end; out is left as it was */
    size_t before = out.len;
    EXPECT(records_join(&out, &last, "H\n\n=5\n\n", 7, NULL) == -1, "too long a run");
    EXPECT(records_join(&out, &last, "~1\n\n", 4, NULL) == -1, "~ without a line before");
    EXPECT(records_join(&out, &last, "H\tx\n", 4, NULL) == -1, "no end");
    EXPECT(out.len == before, "out unchanged");

    /* a line whose values sit between names (a call site's): only the
     * fields that differ travel; a line starting with '^' is escaped */
    const char *site0 =
        "C\t/usr/bin/app\t1a2b\t3\t10:64\t1:64:512\t64:9000:64:512:0:0:0:300:100\t-\t-\t-\t-\n"
        "^x\n";
    const char *site1 =
        "C\t/usr/bin/app\t1a2b\t3\t10:64\t2:64:512\t64:9100:64:512:0:0:0:310:100\t-\t-\t-\t-\n"
        "^x\n";
    records_buf_t s0 = {.s = (char *)site0, .len = strlen(site0)}, sseq = {0}, sgot = {0};
    records_put(&sseq, &s0, site1, strlen(site1));
    EXPECT(strcmp(sseq.s, "^60\t2:64:512\t64:9100:64:512:0:0:0:310:100\n=1\n\n") == 0, "site line: [%s]",
           sseq.s);
    size_t spos = 0;
    EXPECT(records_get(sseq.s, sseq.len, &spos, &s0, &sgot) == 0 && strcmp(sgot.s, site1) == 0,
           "site line back: [%s]", sgot.s ? sgot.s : "");
    records_free(&sseq);
    records_put(&sseq, NULL, site0, strlen(site0));
    EXPECT(strstr(sseq.s, "\n\\^x\n"), "'^' escaped: [%s]", sseq.s);
    spos = 0;
    EXPECT(records_get(sseq.s, sseq.len, &spos, NULL, &sgot) == 0 && strcmp(sgot.s, site0) == 0,
           "escaped back");
    records_free(&sseq);
    /* malformed: more fields than the mask names, a bit past the line's
     * fields, no line before */
    const char *bad[] = {"^60\ta\tb\tc\n=1\n\n", "^1000\ta\n=1\n\n", "^zz\ta\n=1\n\n"};
    for (int i = 0; i < 3; i++) {
        spos = 0;
        EXPECT(records_get(bad[i], strlen(bad[i]), &spos, &s0, &sgot) == -1, "malformed '^' %d accepted", i);
    }
    spos = 0;
    EXPECT(records_get("^1\ta\n\n", 6, &spos, NULL, &sgot) == -1, "'^' with no line before accepted");
    records_free(&sgot);

    /* templates: the values gone, the reasons kept; records 0 and 1 share
     * theirs, record 2 (another host) does not */
    records_buf_t t0 = {0}, t1 = {0}, t2 = {0}, seq2 = {0};
    records_template(recs[0], strlen(recs[0]), &t0);
    records_template(recs[1], strlen(recs[1]), &t1);
    records_template(recs[2], strlen(recs[2]), &t2);
    EXPECT(strcmp(t0.s, "H\tnode0\t\nE\tmpit:::UNEXPECTED_QUEUE_MAX\tmessages\ti\t\n"
                        "S\tmpit:::OOS_MSGS\tnot available on the running Open MPI: needs SPCs\n") == 0,
           "template [%s]", t0.s);
    EXPECT(records_hash(&t0) == records_hash(&t1) && records_hash(&t0) != records_hash(&t2), "hashes");
    /* a sequence whose first record is written against a template: joined
     * with that template as its reference */
    records_put(&seq2, &t1, recs[1], strlen(recs[1]));
    records_put(&seq2, &(records_buf_t){.s = (char *)recs[1], .len = strlen(recs[1])}, recs[2],
                strlen(recs[2]));
    EXPECT(strncmp(seq2.s, "~1.5\n~7\n=1\n\n", 12) == 0, "against the template: [%s]", seq2.s);
    records_buf_t o2 = {0}, l2 = {0};
    EXPECT(records_join(&o2, &l2, seq2.s, seq2.len, &t0) == 2, "join against a template");
    int order2[2] = {1, 2};
    check_seq(&o2, order2, 2, "template join");
    records_free(&t0);
    records_free(&t1);
    records_free(&t2);
    records_free(&seq2);
    records_free(&o2);
    records_free(&l2);
    records_free(&sa);
    records_free(&sb);
    records_free(&out);
    records_free(&last);
    if (failures) return 1;
    printf("PASS report records\n");
    return 0;
}
