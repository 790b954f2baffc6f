/* Conversion of raw MPI_T pvar buffers to 64-bit values (hot path: no allocation). */
#ifndef MPIT_VALUES_H
#define MPIT_VALUES_H

#include <stddef.h>
#include <stdint.h>

/* A value as read: integers are kept as int64, doubles as double. */
typedef union mpit_value {
    int64_t i;
    double d;
} mpit_value_t;

size_t mpit_dtype_size(int dtype);
int mpit_dtype_is_float(int dtype);
/* 1 for types a PAPI event can carry (numbers), 0 for strings and unknowns. */
int mpit_dtype_is_numeric(int dtype);

/* Element elem of raw, or the sum of all count elements when elem < 0. */
mpit_value_t mpit_value_extract(const void *raw, int dtype, int count, int elem);

#endif
