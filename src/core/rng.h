/* rng.h — the seeded .NET System.Random stream (Knuth's subtractive generator). */
#ifndef SMALTI_RNG_H
#define SMALTI_RNG_H
#include <stdint.h>

typedef struct rng {
    int32_t seeds[56];
    int inext, inextp;
} rng;

void rng_seed(rng *r, int32_t seed);
int32_t rng_next_range(rng *r, int32_t min, int32_t max); /* [min, max) */

#define RNG_MBIG 2147483647

/* One step of the subtractive generator on a ring `seeds` whose indices the caller keeps (in
   locals, say, where no store through a pointer can make the compiler reload them). */
static inline int32_t rng_step(int32_t *seeds, int *inext, int *inextp)
{
    int next = *inext + 1;
    if (next >= 56) next = 1;
    int nextp = *inextp + 1;
    if (nextp >= 56) nextp = 1;
    /* Wrapping, as .NET's int: a large seed leaves negative state behind. */
    int32_t value = (int32_t)((uint32_t)seeds[next] - (uint32_t)seeds[nextp]);
    if (value == RNG_MBIG) value--;
    /* value < 0: add MBIG, without a branch (its sign is a coin toss). */
    value = (int32_t)((uint32_t)value + ((uint32_t)(value >> 31) & RNG_MBIG));
    seeds[next] = value;
    *inext = next;
    *inextp = nextp;
    return value;
}

/* [0, 2^31-1): one step of the subtractive generator. Inline: it runs once
   per candidate match in `prl` nodes. */
static inline int32_t rng_next(rng *r) { return rng_step(r->seeds, &r->inext, &r->inextp); }

/* The next n values of rng_next, in order, into out (the generator advances
   by n). Runs of the ring that neither index wraps in are computed as one
   vector loop: `prl` draws once per match, hundreds of thousands a step. */
void rng_fill(rng *r, int32_t *out, int n);

/* [0, 1) */
static inline double rng_next_double(rng *r) { return rng_next(r) * (1.0 / RNG_MBIG); }

/* [0, max) */
static inline int32_t rng_next_max(rng *r, int32_t max) { return (int32_t)(rng_next_double(r) * max); }
#endif
