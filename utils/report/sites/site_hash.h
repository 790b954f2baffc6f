/*
 * papi-mpit-report: the hash of the call-site tables' keys (addresses and
 * handles; the tables are open-addressed, a power of two in size).
 */
#ifndef PAPI_MPIT_SITES_HASH_H
#define PAPI_MPIT_SITES_HASH_H

#include <stdint.h>

static inline unsigned hash_ptr(uintptr_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (unsigned)k;
}

#endif
