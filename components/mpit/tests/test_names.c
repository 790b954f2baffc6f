/* Unit test of the mpit event-name parser (pure logic, no MPI, no PAPI). */
#include <stdio.h>
#include <string.h>

#include "mpit_backend.h"
#include "mpit_names.h"

static int passed, failed;

#define EXPECT(cond)                                                                                         \
    do {                                                                                                     \
        if (cond)                                                                                            \
            passed++;                                                                                        \
        else {                                                                                               \
            failed++;                                                                                        \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                                           \
        }                                                                                                    \
    } while (0)

static int parse(const char *text, mpit_name_t *n)
{
    char why[256];
    int rc = mpit_name_parse(text, n, why, sizeof why);
    if (rc != MPIT_NAME_OK && why[0] == '\0') {
        failed++;
        printf("FAIL: no reason given for '%s'\n", text);
    }
    return rc;
}

static void canonical(const char *text, const char *expected)
{
    mpit_name_t n;
    char buf[1024];
    EXPECT(parse(text, &n) == MPIT_NAME_OK);
    mpit_name_format(&n, buf, sizeof buf);
    if (strcmp(buf, expected) != 0) {
        failed++;
        printf("FAIL: canonical('%s') = '%s', expected '%s'\n", text, buf, expected);
    } else {
        passed++;
    }
}

int main(void)
{
    mpit_name_t n;

    EXPECT(parse("pml_ob1_unexpected_msgq_length", &n) == MPIT_NAME_OK);
    EXPECT(strcmp(n.base, "pml_ob1_unexpected_msgq_length") == 0);
    EXPECT(n.comm == MPIT_COMM_WORLD && n.elem == -1 && n.cls == -1 && n.agg == MPIT_AGG_NONE);
    EXPECT(n.peer == -1);
    EXPECT(parse("BYTES_SENT:peer=3", &n) == MPIT_NAME_OK && n.peer == 3 && n.elem == -1);

    EXPECT(parse("x:comm=self:elem=3", &n) == MPIT_NAME_OK);
    EXPECT(n.comm == MPIT_COMM_SELF && n.elem == 3);
    EXPECT(parse("x:class=counter", &n) == MPIT_NAME_OK && n.cls == MPIT_CLASS_COUNTER);
    EXPECT(parse("x:class=TIMER", &n) == MPIT_NAME_OK && n.cls == MPIT_CLASS_TIMER);
    EXPECT(parse("event.unexp_message_enqueued:sum=0", &n) == MPIT_NAME_OK);
    EXPECT(n.agg == MPIT_AGG_SUM && strcmp(n.agg_elem, "0") == 0);
    EXPECT(parse("event.x:max=length", &n) == MPIT_NAME_OK && n.agg == MPIT_AGG_MAX);

    /* errors, each with its own code */
    EXPECT(parse("", &n) == MPIT_NAME_EMPTY);
    EXPECT(parse(":elem=1", &n) == MPIT_NAME_EMPTY);
    EXPECT(parse("x:", &n) == MPIT_NAME_BAD_QUALIFIER);
    EXPECT(parse("x:elem", &n) == MPIT_NAME_BAD_QUALIFIER);
    EXPECT(parse("x:elem=", &n) == MPIT_NAME_BAD_QUALIFIER);
    EXPECT(parse("x:=3", &n) == MPIT_NAME_BAD_QUALIFIER);
    EXPECT(parse("x:color=red", &n) == MPIT_NAME_UNKNOWN_KEY);
    EXPECT(parse("x:comm=universe", &n) == MPIT_NAME_BAD_VALUE);
    EXPECT(parse("x:elem=-1", &n) == MPIT_NAME_BAD_VALUE);
    EXPECT(parse("x:elem=1x", &n) == MPIT_NAME_BAD_VALUE);
    EXPECT(parse("x:elem=99999999999", &n) == MPIT_NAME_BAD_VALUE);
    EXPECT(parse("x:class=bogus", &n) == MPIT_NAME_BAD_VALUE);
    EXPECT(parse("x:elem=1:elem=2", &n) == MPIT_NAME_DUPLICATE_KEY);
    EXPECT(parse("X:peer=1:peer=2", &n) == MPIT_NAME_DUPLICATE_KEY);
    EXPECT(parse("X:peer=-1", &n) == MPIT_NAME_BAD_VALUE);
    EXPECT(parse("X:peer=one", &n) == MPIT_NAME_BAD_VALUE);
    EXPECT(parse("x:sum=a:max=b", &n) == MPIT_NAME_DUPLICATE_KEY);
    char big[2000];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    EXPECT(parse(big, &n) == MPIT_NAME_TOO_LONG);
    EXPECT(parse(NULL, &n) == MPIT_NAME_TOO_LONG);

    /* one canonical spelling per event: defaults dropped, fixed order */
    canonical("x", "x");
    canonical("x:comm=world", "x");
    canonical("x:elem=2:comm=self", "x:comm=self:elem=2");
    canonical("x:comm=SELF:class=counter", "x:class=counter:comm=self");
    canonical("event.e:max=len", "event.e:max=len");
    canonical("BYTES_SENT:peer=07", "BYTES_SENT:peer=7");

    /* no canonical name may end in a segment starting with a digit (HPCToolkit thresholds) */
    canonical("x:elem=0", "x:elem=0");

    EXPECT(mpit_class_from_name("highwatermark") == MPIT_CLASS_HIGHWATERMARK);
    EXPECT(strcmp(mpit_class_name(MPIT_CLASS_LEVEL), "level") == 0);
    EXPECT(strcmp(mpit_class_name(99), "unknown") == 0);

    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
