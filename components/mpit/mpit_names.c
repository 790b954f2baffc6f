#include "mpit_names.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mpit_backend.h"

static const char *const class_names[MPIT_CLASS_COUNT] = {
    [MPIT_CLASS_STATE] = "state",
    [MPIT_CLASS_LEVEL] = "level",
    [MPIT_CLASS_SIZE] = "size",
    [MPIT_CLASS_PERCENTAGE] = "percentage",
    [MPIT_CLASS_HIGHWATERMARK] = "highwatermark",
    [MPIT_CLASS_LOWWATERMARK] = "lowwatermark",
    [MPIT_CLASS_COUNTER] = "counter",
    [MPIT_CLASS_AGGREGATE] = "aggregate",
    [MPIT_CLASS_TIMER] = "timer",
    [MPIT_CLASS_GENERIC] = "generic",
};

const char *mpit_class_name(int cls)
{
    return cls >= 0 && cls < MPIT_CLASS_COUNT ? class_names[cls] : "unknown";
}

int mpit_class_from_name(const char *text)
{
    for (int i = 0; i < MPIT_CLASS_COUNT; i++)
        if (strcasecmp(text, class_names[i]) == 0) return i;
    return -1;
}

/* Element indices and the like: decimal, no sign, no trailing junk. */
static int parse_index(const char *v, int *out)
{
    char *end;
    if (!isdigit((unsigned char)v[0])) return -1;
    long n = strtol(v, &end, 10);
    if (*end || n > 1 << 30) return -1;
    *out = (int)n;
    return 0;
}

static int parse_qualifier(char *key, char *value, mpit_name_t *out, unsigned *seen, char *why, int why_len)
{
    enum { K_COMM = 1, K_ELEM = 2, K_CLASS = 4, K_AGG = 8, K_PEER = 16 };
    unsigned bit;
    if (strcmp(key, "comm") == 0) {
        bit = K_COMM;
        if (strcasecmp(value, "world") == 0)
            out->comm = MPIT_COMM_WORLD;
        else if (strcasecmp(value, "self") == 0)
            out->comm = MPIT_COMM_SELF;
        else
            goto bad_value;
    } else if (strcmp(key, "elem") == 0) {
        bit = K_ELEM;
        if (parse_index(value, &out->elem)) goto bad_value;
    } else if (strcmp(key, "peer") == 0) {
        bit = K_PEER;
        if (parse_index(value, &out->peer)) goto bad_value;
    } else if (strcmp(key, "class") == 0) {
        bit = K_CLASS;
        if ((out->cls = mpit_class_from_name(value)) < 0) goto bad_value;
    } else if (strcmp(key, "sum") == 0 || strcmp(key, "max") == 0) {
        bit = K_AGG;
        out->agg = key[1] == 'u' ? MPIT_AGG_SUM : MPIT_AGG_MAX;
        if (strlen(value) >= sizeof out->agg_elem) goto bad_value;
        strcpy(out->agg_elem, value);
    } else {
        snprintf(why, why_len, "unknown qualifier ':%s' (known: comm, elem, peer, class, sum, max)", key);
        return MPIT_NAME_UNKNOWN_KEY;
    }
    if (*seen & bit) {
        snprintf(why, why_len, "qualifier ':%s' given twice", key);
        return MPIT_NAME_DUPLICATE_KEY;
    }
    *seen |= bit;
    return MPIT_NAME_OK;
bad_value:
    snprintf(why, why_len, "qualifier ':%s=%s' has a value it does not take", key, value);
    return MPIT_NAME_BAD_VALUE;
}

int mpit_name_parse(const char *text, mpit_name_t *out, char *why, int why_len)
{
    char buf[MPIT_MAX_NAME];
    unsigned seen = 0;
    memset(out, 0, sizeof *out);
    out->comm = MPIT_COMM_WORLD;
    out->elem = -1;
    out->peer = -1;
    out->cls = -1;
    why[0] = '\0';
    if (!text || strlen(text) >= sizeof buf) {
        snprintf(why, why_len, "event name too long");
        return MPIT_NAME_TOO_LONG;
    }
    strcpy(buf, text);
    char *colon = strchr(buf, ':');
    if (colon) *colon = '\0';
    if (!buf[0]) {
        snprintf(why, why_len, "empty event name");
        return MPIT_NAME_EMPTY;
    }
    strcpy(out->base, buf);
    while (colon) {
        char *key = colon + 1;
        colon = strchr(key, ':');
        if (colon) *colon = '\0';
        char *eq = strchr(key, '=');
        if (!eq || eq == key || !eq[1]) {
            snprintf(why, why_len, "malformed qualifier ':%s' (expected :key=value)", key);
            return MPIT_NAME_BAD_QUALIFIER;
        }
        *eq = '\0';
        int err = parse_qualifier(key, eq + 1, out, &seen, why, why_len);
        if (err) return err;
    }
    return MPIT_NAME_OK;
}

void mpit_name_format(const mpit_name_t *n, char *buf, int len)
{
    int used = snprintf(buf, len, "%s", n->base);
    if (n->cls >= 0 && used < len)
        used += snprintf(buf + used, len - used, ":class=%s", mpit_class_name(n->cls));
    if (n->comm == MPIT_COMM_SELF && used < len) used += snprintf(buf + used, len - used, ":comm=self");
    if (n->elem >= 0 && used < len) used += snprintf(buf + used, len - used, ":elem=%d", n->elem);
    if (n->peer >= 0 && used < len) used += snprintf(buf + used, len - used, ":peer=%d", n->peer);
    if (n->agg != MPIT_AGG_NONE && used < len)
        snprintf(buf + used, len - used, ":%s=%s", n->agg == MPIT_AGG_SUM ? "sum" : "max", n->agg_elem);
}
