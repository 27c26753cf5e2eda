/* sort.c — ascending sort of 64-bit keys (sort.h): a byte-wise radix sort, passes over bytes that
   every key shares skipped; insertion for a few keys, and a heap sort in place when no buffer can
   be had. Not libc's qsort: no comparison calls, and no more of libc's code resident in every run. */
#include "sort.h"
#include "mem.h"
#include <string.h>

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

static void heap_sort(uint64_t *a, int64_t n)
{
    for (int64_t k = n / 2 - 1; k >= 0; k--) sift_down(a, k, n);
    for (int64_t end = n - 1; end > 0; end--) {
        const uint64_t t = a[0];
        a[0] = a[end];
        a[end] = t;
        sift_down(a, 0, end);
    }
}

void sort_u64(uint64_t *keys, int64_t n)
{
    if (n <= 32) {
        for (int64_t k = 1; k < n; k++) {
            const uint64_t key = keys[k];
            int64_t m = k;
            for (; m > 0 && keys[m - 1] > key; m--) keys[m] = keys[m - 1];
            keys[m] = key;
        }
        return;
    }
    uint64_t *buffer = mem_malloc((size_t)n * sizeof *buffer);
    if (!buffer) {
        heap_sort(keys, n);
        return;
    }
    uint64_t *from = keys, *to = buffer;
    for (int shift = 0; shift < 64; shift += 8) {
        int64_t start[257] = {0};
        for (int64_t k = 0; k < n; k++) start[((from[k] >> shift) & 255) + 1]++;
        if (start[((from[0] >> shift) & 255) + 1] == n) continue; /* every key has this byte */
        for (int b = 0; b < 256; b++) start[b + 1] += start[b];
        for (int64_t k = 0; k < n; k++) to[start[(from[k] >> shift) & 255]++] = from[k];
        uint64_t *t = from;
        from = to;
        to = t;
    }
    if (from != keys) memcpy(keys, from, (size_t)n * sizeof *keys);
    mem_free(buffer);
}
