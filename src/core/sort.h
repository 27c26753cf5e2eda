/* sort.h — an in-place sort of 64-bit keys, for tables built at load and scans that must come out in a fixed order. */
#ifndef SMALTI_SORT_H
#define SMALTI_SORT_H
#include <stdint.h>

/* Ascending, in linear time (a radix sort on a buffer the size of the keys; in place, n log n, when
   none can be had). */
void sort_u64(uint64_t *keys, int64_t n);
#endif
