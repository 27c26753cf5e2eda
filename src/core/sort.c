/* sort.c — heap sort of 64-bit keys (sort.h). Not libc's qsort: no comparison calls, and no more
   of libc's code resident in every run. */
#include "sort.h"

static void sift_down(uint64_t *a, int64_t root, int64_t n)
{
    for (int64_t child; (child = 2 * root + 1) < n; root = child) {
        if (child + 1 < n && a[child + 1] > a[child]) child++;
        if (a[root] >= a[child]) return;
        const uint64_t t = a[root];
        a[root] = a[child];
        a[child] = t;
    }
}

void sort_u64(uint64_t *keys, int64_t n)
{
    for (int64_t k = n / 2 - 1; k >= 0; k--) sift_down(keys, k, n);
    for (int64_t end = n - 1; end > 0; end--) {
        const uint64_t t = keys[0];
        keys[0] = keys[end];
        keys[end] = t;
        sift_down(keys, 0, end);
    }
}
