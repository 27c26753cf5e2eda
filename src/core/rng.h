/* rng.h — the seeded .NET System.Random stream (Knuth's subtractive generator). */
#ifndef TS_RNG_H
#define TS_RNG_H
#include <stdint.h>

typedef struct rng {
    int32_t seeds[56];
    int inext, inextp;
} rng;

void rng_seed(rng *r, int32_t seed);
int32_t rng_next(rng *r);                             /* [0, 2^31-1) */
int32_t rng_next_max(rng *r, int32_t max);            /* [0, max) */
int32_t rng_next_range(rng *r, int32_t min, int32_t max); /* [min, max) */
double rng_next_double(rng *r);                       /* [0, 1) */
#endif
