/* sort.h — an in-place sort of 64-bit keys, for tables built at load and scans that must come out in a fixed order. */
#ifndef SMALTI_SORT_H
#define SMALTI_SORT_H
#include <stdint.h>

/* Ascending; heap sort: no extra memory, n log n for any input. */
void sort_u64(uint64_t *keys, int64_t n);
#endif
