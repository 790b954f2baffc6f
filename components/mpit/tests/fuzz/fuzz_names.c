/*
 * libFuzzer target for the event-name parser (mpit_names.c).
 *   clang -fsanitize=fuzzer,address,undefined -I../.. fuzz_names.c ../../mpit_names.c
 * Besides memory safety it checks what the parser promises: an error always
 * has a reason, a canonical name parses back to the same event and is its
 * own canonical form, and short buffers get a NUL-terminated prefix of the
 * full text (buffers are allocated at their exact size so ASan sees any
 * write past them).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mpit_backend.h"
#include "mpit_names.h"

#define REQUIRE(c)                                                                                           \
    do {                                                                                                     \
        if (!(c)) {                                                                                          \
            fprintf(stderr, "fuzz_names: %s:%d: %s\n", __FILE__, __LINE__, #c);                              \
            abort();                                                                                         \
        }                                                                                                    \
    } while (0)

static int same_event(const mpit_name_t *a, const mpit_name_t *b)
{
    return !strcmp(a->base, b->base) && a->comm == b->comm && a->elem == b->elem && a->cls == b->cls &&
           a->agg == b->agg && (a->agg == MPIT_AGG_NONE || !strcmp(a->agg_elem, b->agg_elem));
}

/* A NUL-terminated prefix of full, as snprintf into len bytes leaves it. */
static int is_prefix(const char *part, const char *full, size_t len)
{
    size_t n = strnlen(part, len);
    return n < len && n == (strlen(full) < len - 1 ? strlen(full) : len - 1) && !strncmp(part, full, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), why[256], canon[1100], again[1100];
    size_t small = 1 + size % 61; /* exact-size buffers for truncation */
    char *why_small = malloc(small), *fmt_small = malloc(small);
    mpit_name_t n, n2, n3;
    int rc, cls;

    REQUIRE(text && why_small && fmt_small);
    memcpy(text, data, size);
    text[size] = '\0';

    rc = mpit_name_parse(text, &n, why, sizeof why);
    REQUIRE(rc >= MPIT_NAME_OK && rc <= MPIT_NAME_TOO_LONG);
    REQUIRE(mpit_name_parse(text, &n2, why_small, (int)small) == rc);
    REQUIRE(is_prefix(why_small, why, small));
    if (rc != MPIT_NAME_OK) {
        REQUIRE(why[0] != '\0');
    } else {
        REQUIRE(n.base[0] && strlen(n.base) < sizeof n.base);
        REQUIRE(n.comm == MPIT_COMM_WORLD || n.comm == MPIT_COMM_SELF);
        REQUIRE(n.elem >= -1 && n.cls >= -1 && n.cls < MPIT_CLASS_COUNT);
        REQUIRE(n.agg >= MPIT_AGG_NONE && n.agg <= MPIT_AGG_MAX);
        mpit_name_format(&n, canon, sizeof canon);
        REQUIRE(strlen(canon) <= strlen(text)); /* defaults dropped, numbers shortened */
        REQUIRE(mpit_name_parse(canon, &n3, why, sizeof why) == MPIT_NAME_OK);
        REQUIRE(same_event(&n, &n3));
        mpit_name_format(&n3, again, sizeof again);
        REQUIRE(!strcmp(canon, again));
        mpit_name_format(&n, fmt_small, (int)small);
        REQUIRE(is_prefix(fmt_small, canon, small));
    }

    cls = mpit_class_from_name(text);
    REQUIRE(cls >= -1 && cls < MPIT_CLASS_COUNT);
    if (cls >= 0)
        REQUIRE(!strcasecmp(mpit_class_name(cls), text));
    else
        REQUIRE(!strcmp(mpit_class_name(cls), "unknown"));

    free(text);
    free(why_small);
    free(fmt_small);
    return 0;
}
