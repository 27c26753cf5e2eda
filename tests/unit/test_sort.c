/* test_sort.c — sort_u64 (src/core/sort.c) puts keys in ascending order, keeping every key, for
   empty, single, sorted, reversed, repeated and random inputs, by its radix sort and, when no
   buffer can be had (a spent memory budget), by its heap sort in place. */
#include "unit.h"
#include <stdlib.h>
#include <string.h>
#include "../../src/core/sort.h"
#include "../../src/core/mem.h"

static int by_value(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Sort a copy of keys[0 .. n) and compare with libc's qsort of another copy. */
static void sorts_like_qsort(const uint64_t *keys, int64_t n)
{
    uint64_t *ours = malloc((size_t)(n ? n : 1) * sizeof *ours), *theirs = malloc((size_t)(n ? n : 1) * sizeof *theirs);
    assert_non_null(ours);
    assert_non_null(theirs);
    if (n) memcpy(ours, keys, (size_t)n * sizeof *ours);
    if (n) memcpy(theirs, keys, (size_t)n * sizeof *theirs);
    sort_u64(ours, n);
    qsort(theirs, (size_t)n, sizeof *theirs, by_value);
    if (n) assert_memory_equal(ours, theirs, (size_t)n * sizeof *ours);
    free(ours);
    free(theirs);
}

static void every_shape(void)
{
    uint64_t keys[1000] = {0};
    sorts_like_qsort(keys, 0);
    keys[0] = 42;
    sorts_like_qsort(keys, 1);
    for (int k = 0; k < 1000; k++) keys[k] = (uint64_t)k;
    sorts_like_qsort(keys, 1000);
    for (int k = 0; k < 1000; k++) keys[k] = (uint64_t)(1000 - k) << 40;
    sorts_like_qsort(keys, 1000);
    for (int k = 0; k < 1000; k++) keys[k] = (uint64_t)(k % 7);
    sorts_like_qsort(keys, 1000);
    uint64_t seed = 1;
    for (int n = 2; n <= 1000; n += 37) {
        for (int k = 0; k < n; k++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            keys[k] = seed ^ (seed >> 29);
        }
        keys[n - 1] = UINT64_MAX;
        sorts_like_qsort(keys, n);
    }
}

static void ascending_for_every_shape(void **state)
{
    (void)state;
    every_shape();
}

/* With a budget of one byte, the radix sort's buffer is refused and the heap sort runs. */
static void ascending_without_a_buffer(void **state)
{
    (void)state;
    mem_budget tiny = {.limit = 1};
    mem_budget *caller = mem_enter(&tiny);
    every_shape();
    mem_enter(caller);
    assert_true(tiny.spent);
}

int run_sort_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ascending_for_every_shape),
        cmocka_unit_test(ascending_without_a_buffer),
    };
    return cmocka_run_group_tests_name("sort", tests, NULL, NULL);
}
