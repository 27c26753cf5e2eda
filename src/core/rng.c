/* rng.c — bit-exact port of how `new System.Random(int)` behaves on .NET.
   The seeded constructor keeps the legacy algorithm for compatibility, and the
   reference outputs depend on every draw, so the arithmetic follows it exactly. */
#include "rng.h"
#include <string.h>

/* Four lanes of the generator at once (GCC/Clang vector extensions; unsigned, so they wrap). */
typedef uint32_t rng_v4u __attribute__((vector_size(16)));
typedef int32_t rng_v4i __attribute__((vector_size(16)));

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

void rng_fill(rng *r, int32_t *out, int n)
{
    int next = r->inext, nextp = r->inextp;
    while (n > 0) {
        next = next + 1 >= 56 ? 1 : next + 1;
        nextp = nextp + 1 >= 56 ? 1 : nextp + 1;
        /* Up to where either index wraps: the two runs of the ring then never
           overlap (nextp is 21 ahead of next, or 34 behind it with at most 20
           steps to go), so every step of the run is independent. */
        int m = 56 - next < 56 - nextp ? 56 - next : 56 - nextp;
        if (m > n) m = n;
        int32_t *a = r->seeds + next;
        const int32_t *b = r->seeds + nextp;
        int j = 0;
        for (; j + 4 <= m; j += 4) {
            rng_v4u va, vb;
            memcpy(&va, a + j, sizeof va);
            memcpy(&vb, b + j, sizeof vb);
            rng_v4u value = va - vb;
            value += (rng_v4u)(value == RNG_MBIG);                           /* -1 where equal */
            value += (rng_v4u)((rng_v4i)value < 0) & (rng_v4u){RNG_MBIG, RNG_MBIG, RNG_MBIG, RNG_MBIG};
            memcpy(a + j, &value, sizeof value);
            memcpy(out + j, &value, sizeof value);
        }
        for (; j < m; j++) {
            int32_t value = wrap_sub(a[j], b[j]);
            if (value == RNG_MBIG) value--;
            if (value < 0) value = wrap_add(value, RNG_MBIG);
            a[j] = value;
            out[j] = value;
        }
        next += m - 1;
        nextp += m - 1;
        out += m;
        n -= m;
    }
    r->inext = next;
    r->inextp = nextp;
}
