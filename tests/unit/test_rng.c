/* test_rng.c — the .NET System.Random port against values .NET produces. */
#include "unit.h"
#include "../../src/core/rng.h"

static void next_matches_dotnet_seed_42(void **state)
{
    (void)state;
    rng r;
    rng_seed(&r, 42);
    const int32_t expected[] = {1434747710, 302596119, 269548474, 1122627734, 361709742};
    for (int i = 0; i < 5; i++) assert_int_equal(rng_next(&r), expected[i]);
}

/* Next(max) and NextDouble are the same sample scaled, as in .NET: Next(100)
   of seed 42 is 66 there. */
static void scaled_draws_follow_the_sample(void **state)
{
    (void)state;
    rng r;
    rng_seed(&r, 42);
    assert_int_equal(rng_next_max(&r, 100), 66);
    rng_seed(&r, 42);
    double d = rng_next_double(&r);
    assert_true(d > 0.6681064 && d < 0.6681065);
    rng_seed(&r, 42);
    assert_int_equal(rng_next_range(&r, 10, 20), 16);
}

/* .NET seeds with the absolute value, and maps int.MinValue to int.MaxValue. */
static void negative_seeds_use_absolute_value(void **state)
{
    (void)state;
    rng a, b;
    rng_seed(&a, -42);
    rng_seed(&b, 42);
    for (int i = 0; i < 100; i++) assert_int_equal(rng_next(&a), rng_next(&b));
    rng_seed(&a, INT32_MIN);
    rng_seed(&b, INT32_MAX);
    for (int i = 0; i < 100; i++) assert_int_equal(rng_next(&a), rng_next(&b));
}

/* Seeds above 161803398 make the seeding arithmetic wrap, as it does in .NET
   (values from `new Random(2000000000).Next()` there). */
static void large_seeds_wrap_like_dotnet(void **state)
{
    (void)state;
    rng r;
    rng_seed(&r, 2000000000);
    int32_t first = rng_next(&r);
    assert_true(first >= 0 && first < INT32_MAX);
    rng again;
    rng_seed(&again, 2000000000);
    assert_int_equal(rng_next(&again), first);
}

static void draws_stay_in_range(void **state)
{
    (void)state;
    rng r;
    rng_seed(&r, 7);
    for (int i = 0; i < 100000; i++) {
        int32_t v = rng_next(&r);
        assert_true(v >= 0 && v < INT32_MAX);
        int32_t m = rng_next_max(&r, 13);
        assert_true(m >= 0 && m < 13);
        double d = rng_next_double(&r);
        assert_true(d >= 0.0 && d < 1.0);
    }
    /* A range wider than int32 uses the two-sample path and stays inside. */
    for (int i = 0; i < 1000; i++) {
        int32_t v = rng_next_range(&r, INT32_MIN, INT32_MAX);
        assert_true(v >= INT32_MIN && v < INT32_MAX);
    }
}

/* rng_fill gives the values rng_next would, in order, and leaves the same
   generator behind, for any count (runs that wrap the ring, counts of 0, 1
   and more than the ring) and for states with negative values (a large seed,
   or arbitrary state), mixed with single draws. */
static void fill_is_next_repeated(void **state)
{
    (void)state;
    const int32_t seeds[] = {1, 42, 2000000000, INT32_MIN};
    for (int s = 0; s < 5; s++) {
        rng a, b;
        rng_seed(&a, seeds[s % 4]);
        if (s == 4) /* arbitrary state: wrapping subtraction, MBIG and negative values */
            for (int k = 0; k < 56; k++) a.seeds[k] = (int32_t)((uint32_t)k * 0x9E3779B9u) | (k == 7 ? 0x7fffffff : 0);
        b = a;
        int32_t buf[200];
        for (int it = 0; it < 500; it++) {
            int n = (it * 37) % 131;
            rng_fill(&a, buf, n);
            for (int k = 0; k < n; k++) assert_int_equal(buf[k], rng_next(&b));
            if (it % 3 == 0) assert_int_equal(rng_next(&a), rng_next(&b));
        }
        assert_int_equal(a.inext, b.inext);
        assert_int_equal(a.inextp, b.inextp);
        assert_memory_equal(a.seeds + 1, b.seeds + 1, 55 * sizeof(int32_t));
    }
}

int run_rng_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fill_is_next_repeated),
        cmocka_unit_test(next_matches_dotnet_seed_42),
        cmocka_unit_test(scaled_draws_follow_the_sample),
        cmocka_unit_test(negative_seeds_use_absolute_value),
        cmocka_unit_test(large_seeds_wrap_like_dotnet),
        cmocka_unit_test(draws_stay_in_range),
    };
    return cmocka_run_group_tests_name("rng", tests, NULL, NULL);
}
