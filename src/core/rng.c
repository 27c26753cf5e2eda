/* rng.c — bit-exact port of how `new System.Random(int)` behaves on .NET.
   The seeded constructor keeps the legacy algorithm for compatibility, and the
   reference outputs depend on every draw, so the arithmetic follows it exactly. */
#include "rng.h"

/* .NET int arithmetic wraps; C signed overflow is undefined, so wrap by hand. */
static int32_t wrap_sub(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }
static int32_t wrap_add(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }

#define RNG_MSEED 161803398

void rng_seed(rng *r, int32_t seed)
{
    int32_t subtraction = seed == INT32_MIN ? INT32_MAX : (seed < 0 ? -seed : seed);
    int32_t mj = wrap_sub(RNG_MSEED, subtraction);
    r->seeds[55] = mj;
    int32_t mk = 1;
    int ii = 0;
    for (int i = 1; i < 55; i++) {
        ii += 21;
        if (ii >= 55) ii -= 55;
        r->seeds[ii] = mk;
        mk = wrap_sub(mj, mk);
        if (mk < 0) mk = wrap_add(mk, RNG_MBIG);
        mj = r->seeds[ii];
    }
    for (int k = 1; k < 5; k++) {
        for (int i = 1; i < 56; i++) {
            int n = i + 30;
            if (n >= 55) n -= 55;
            r->seeds[i] = wrap_sub(r->seeds[i], r->seeds[1 + n]);
            if (r->seeds[i] < 0) r->seeds[i] = wrap_add(r->seeds[i], RNG_MBIG);
        }
    }
    r->inext = 0;
    r->inextp = 21;
}

/* For ranges wider than 2^31-1 .NET combines two samples into one with 2^32 levels. */
static double rng_large_sample(rng *r)
{
    int32_t result = rng_next(r);
    int negative = rng_next(r) % 2 == 0;
    if (negative) result = -result;
    double d = result;
    d += RNG_MBIG - 1;
    d /= 2.0 * RNG_MBIG - 1;
    return d;
}

int32_t rng_next_range(rng *r, int32_t min, int32_t max)
{
    int64_t range = (int64_t)max - min;
    if (range <= INT32_MAX) return (int32_t)(rng_next_double(r) * range) + min;
    return (int32_t)((int64_t)(rng_large_sample(r) * range) + min);
}
