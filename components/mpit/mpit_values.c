#include "mpit_values.h"

#include <string.h>

#include "mpit_backend.h"

static const size_t dtype_sizes[MPIT_TYPE_NUM] = {
    [MPIT_TYPE_INT] = sizeof(int),
    [MPIT_TYPE_UNSIGNED] = sizeof(unsigned),
    [MPIT_TYPE_LONG] = sizeof(long),
    [MPIT_TYPE_UNSIGNED_LONG] = sizeof(unsigned long),
    [MPIT_TYPE_LONG_LONG] = sizeof(long long),
    [MPIT_TYPE_UNSIGNED_LONG_LONG] = sizeof(unsigned long long),
    [MPIT_TYPE_DOUBLE] = sizeof(double),
    [MPIT_TYPE_COUNT_T] = 8, /* MPI_Count is 64-bit in both families */
    [MPIT_TYPE_CHAR] = 1,
};

size_t mpit_dtype_size(int dtype) { return dtype > 0 && dtype < MPIT_TYPE_NUM ? dtype_sizes[dtype] : 0; }

int mpit_dtype_is_float(int dtype) { return dtype == MPIT_TYPE_DOUBLE; }

int mpit_dtype_is_numeric(int dtype)
{
    return dtype != MPIT_TYPE_UNKNOWN && dtype != MPIT_TYPE_CHAR && dtype < MPIT_TYPE_NUM;
}

/* memcpy: event data may sit at any offset of a buffer (one load, inlined) */
#define ELEMENT(type, raw, i)                                                                                \
    ({                                                                                                       \
        type element_;                                                                                       \
        memcpy(&element_, (const char *)(raw) + (size_t)(i) * sizeof element_, sizeof element_);             \
        element_;                                                                                            \
    })

static int64_t element_int(const void *raw, int dtype, int i)
{
    switch (dtype) {
    case MPIT_TYPE_INT: return ELEMENT(int, raw, i);
    case MPIT_TYPE_UNSIGNED: return ELEMENT(unsigned, raw, i);
    case MPIT_TYPE_LONG: return ELEMENT(long, raw, i);
    case MPIT_TYPE_UNSIGNED_LONG: return (int64_t)ELEMENT(unsigned long, raw, i);
    case MPIT_TYPE_LONG_LONG: return ELEMENT(long long, raw, i);
    case MPIT_TYPE_UNSIGNED_LONG_LONG: return (int64_t)ELEMENT(unsigned long long, raw, i);
    case MPIT_TYPE_COUNT_T: return ELEMENT(int64_t, raw, i);
    case MPIT_TYPE_CHAR: return ELEMENT(signed char, raw, i);
    default: return 0;
    }
}

mpit_value_t mpit_value_extract(const void *raw, int dtype, int count, int elem)
{
    mpit_value_t v = {0};
    int first = elem < 0 ? 0 : elem, last = elem < 0 ? count : elem + 1;
    if (mpit_dtype_is_float(dtype)) {
        for (int i = first; i < last; i++) v.d += ELEMENT(double, raw, i);
    } else {
        for (int i = first; i < last; i++) v.i += element_int(raw, dtype, i);
    }
    return v;
}
