/* noise_fn.c — simplex, Perlin, value, cellular and white noise, four cells at a time in float
   vectors (GCC/Clang vector extensions), and their fractal sums. See noise_fn.h for determinism. */

/* A fused multiply-add rounds once where a*b+c rounds twice: letting the compiler contract
   would make results depend on the target. GCC in ISO C mode (our -std=c11) never contracts;
   Clang does unless told not to. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__) && !defined(__STRICT_ANSI__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "noise_fn.h"
#include <math.h>
#include <string.h>

typedef float vf __attribute__((vector_size(16)));
typedef int32_t vi __attribute__((vector_size(16)));
typedef uint32_t vu __attribute__((vector_size(16)));

#define INLINE static inline __attribute__((always_inline))

/* Gradient noise scaled by 1 / its largest possible value, so that it spans [-1, 1]. Each
   corner's term is a non-negative weight times a dot product, so the largest value is found by
   a search over positions with each corner's best gradient: 0.0108196 (simplex 2-D), 0.013006
   (simplex 3-D), 0.715263 (Perlin 2-D), 1.036346 (Perlin 3-D). The scales are rounded down, and
   a clamp catches rounding. */
#define SIMPLEX2_SCALE 92.42f
#define SIMPLEX3_SCALE 76.88f
#define PERLIN2_SCALE 1.398f
#define PERLIN3_SCALE 0.9649f

/* Lattice hashing: each axis index times an odd constant, xored, then a 32-bit mixer
   (lowbias32 by C. Wellons) so every output bit depends on every input bit. */
#define PX 0x8da6b343u
#define PY 0xd8163841u
#define PZ 0xcb1ab31fu

INLINE uint32_t mix1(uint32_t h)
{
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

INLINE vu mix(vu h)
{
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

INLINE vf splat(float a) { return (vf){a, a, a, a}; }
INLINE vi trunc_i(vf a) { return __builtin_convertvector(a, vi); }
INLINE vf to_f(vi a) { return __builtin_convertvector(a, vf); }
/* mask ? a : b, lane by lane (masks are all ones or all zeros). */
INLINE vf pick(vi mask, vf a, vf b) { return (vf)((mask & (vi)a) | (~mask & (vi)b)); }
/* 1.0f where mask is set, else 0. */
INLINE vf ones(vi mask) { return (vf)(mask & (vi)splat(1.0f)); }
/* Flip a's sign where bit 0 of `bit` is set. */
INLINE vf flip(vf a, vu bit) { return (vf)((vu)a ^ (bit << 31)); }
INLINE vf clamp1(vf a) { return pick(a > 1.0f, splat(1.0f), pick(a < -1.0f, splat(-1.0f), a)); }
INLINE vf absv(vf a) { return (vf)((vu)a & 0x7fffffffu); }
/* Perlin's quintic fade 6t^5 - 15t^4 + 10t^3. */
INLINE vf fade(vf t) { return t * t * t * (t * (t * 6.0f - 15.0f) + 10.0f); }
INLINE vf lerp(vf a, vf b, vf t) { return a + t * (b - a); }
/* A lattice value in [-1, 1): the top 24 bits of a hash, exactly representable. */
INLINE vf lattice_value(vu h) { return to_f((vi)(h >> 8)) * (1.0f / 8388608.0f) - 1.0f; }

/* Dot product with one of 8 gradients 45 degrees apart, (+-1, +-t) and (+-t, +-1) with
   t = tan(22.5 degrees), chosen by the top 3 hash bits. */
INLINE vf grad2(vu h, vf x, vf y)
{
    vi swap = (vi)(h << 2) >> 31;
    vf u = pick(swap, y, x), v = pick(swap, x, y);
    return (vf)((vu)u ^ (h & 0x80000000u)) + (vf)((vu)v ^ ((h << 1) & 0x80000000u)) * 0.41421356f;
}

/* Dot product with one of Perlin's 12 cube-edge gradients, chosen by the top 4 hash bits
   (16 entries, 4 of them repeated). */
INLINE vf grad3(vu h, vf x, vf y, vf z)
{
    vu g = h >> 28;
    vi high = (vi)(g & 8u) != 0;          /* g >= 8 */
    vi not_low = (vi)(g & 12u) != 0;      /* g >= 4 */
    vi x_instead = (vi)(g & 13u) == 12;   /* g is 12 or 14 */
    vf u = pick(high, y, x);
    vf v = pick(not_low, pick(x_instead, x, z), y);
    return flip(u, g) + flip(v, g >> 1);
}

/* The simplex kernel (r^2 - d^2)^4 with r^2 = 1/2. Below 2^-16 it is taken as 0, so that its
   fourth power never reaches the subnormal range. */
INLINE vf kernel(vf t)
{
    t = (vf)((vi)t & (t > 0x1p-16f));
    t *= t;
    return t * t;
}

#define F2 0.36602540378f /* (sqrt(3) - 1) / 2 */
#define G2 0.21132486541f /* (3 - sqrt(3)) / 6 */
#define G2_TWICE_MINUS_1 -0.57735026919f

INLINE vf simplex2(vf x, vf y, uint32_t seed)
{
    /* Skew to the lattice of squares made of two triangles; coordinates are never negative,
       so truncation is floor. */
    vf s = (x + y) * F2;
    vi i = trunc_i(x + s), j = trunc_i(y + s);
    vf t = to_f(i + j) * G2;
    vf x0 = x - (to_f(i) - t), y0 = y - (to_f(j) - t);
    vi x_first = x0 > y0;
    vf x1 = x0 - ones(x_first) + G2, y1 = y0 - ones(~x_first) + G2;
    vf x2 = x0 + G2_TWICE_MINUS_1, y2 = y0 + G2_TWICE_MINUS_1;
    vu hx = (vu)i * PX + seed, hy = (vu)j * PY;
    vu h0 = mix(hx ^ hy);
    vu h1 = mix((hx + ((vu)x_first & PX)) ^ (hy + ((vu)~x_first & PY)));
    vu h2 = mix((hx + PX) ^ (hy + PY));
    vf n = kernel(0.5f - x0 * x0 - y0 * y0) * grad2(h0, x0, y0) + kernel(0.5f - x1 * x1 - y1 * y1) * grad2(h1, x1, y1) +
           kernel(0.5f - x2 * x2 - y2 * y2) * grad2(h2, x2, y2);
    return n * SIMPLEX2_SCALE;
}

#define F3 0.33333333333f
#define G3 0.16666666667f
#define G3_TWICE 0.33333333333f

INLINE vf kernel3(vf x, vf y, vf z) { return kernel(0.5f - x * x - y * y - z * z); }

INLINE vf simplex3(vf x, vf y, vf z, uint32_t seed)
{
    vf s = (x + y + z) * F3;
    vi i = trunc_i(x + s), j = trunc_i(y + s), k = trunc_i(z + s);
    vf t = to_f(i + j + k) * G3;
    vf x0 = x - (to_f(i) - t), y0 = y - (to_f(j) - t), z0 = z - (to_f(k) - t);
    /* The second and third corners of the tetrahedron follow the order of x0, y0, z0. */
    vi xy = x0 >= y0, yz = y0 >= z0, xz = x0 >= z0;
    vi i1 = xy & xz, j1 = ~xy & yz, k1 = ~xz & ~yz;
    vi i2 = xy | xz, j2 = ~xy | yz, k2 = ~(xz & yz);
    vf x1 = x0 - ones(i1) + G3, y1 = y0 - ones(j1) + G3, z1 = z0 - ones(k1) + G3;
    vf x2 = x0 - ones(i2) + G3_TWICE, y2 = y0 - ones(j2) + G3_TWICE, z2 = z0 - ones(k2) + G3_TWICE;
    vf x3 = x0 - 0.5f, y3 = y0 - 0.5f, z3 = z0 - 0.5f;
    vu hx = (vu)i * PX + seed, hy = (vu)j * PY, hz = (vu)k * PZ;
    vu h0 = mix(hx ^ hy ^ hz);
    vu h1 = mix((hx + ((vu)i1 & PX)) ^ (hy + ((vu)j1 & PY)) ^ (hz + ((vu)k1 & PZ)));
    vu h2 = mix((hx + ((vu)i2 & PX)) ^ (hy + ((vu)j2 & PY)) ^ (hz + ((vu)k2 & PZ)));
    vu h3 = mix((hx + PX) ^ (hy + PY) ^ (hz + PZ));
    vf n = kernel3(x0, y0, z0) * grad3(h0, x0, y0, z0) + kernel3(x1, y1, z1) * grad3(h1, x1, y1, z1) +
           kernel3(x2, y2, z2) * grad3(h2, x2, y2, z2) + kernel3(x3, y3, z3) * grad3(h3, x3, y3, z3);
    return n * SIMPLEX3_SCALE;
}

INLINE vf perlin2(vf x, vf y, uint32_t seed)
{
    vi i = trunc_i(x), j = trunc_i(y);
    vf fx = x - to_f(i), fy = y - to_f(j);
    vu hx = (vu)i * PX + seed, hy = (vu)j * PY;
    vf a = lerp(grad2(mix(hx ^ hy), fx, fy), grad2(mix((hx + PX) ^ hy), fx - 1.0f, fy), fade(fx));
    vf b = lerp(grad2(mix(hx ^ (hy + PY)), fx, fy - 1.0f), grad2(mix((hx + PX) ^ (hy + PY)), fx - 1.0f, fy - 1.0f), fade(fx));
    return lerp(a, b, fade(fy)) * PERLIN2_SCALE;
}

INLINE vf perlin3(vf x, vf y, vf z, uint32_t seed)
{
    vi i = trunc_i(x), j = trunc_i(y), k = trunc_i(z);
    vf fx = x - to_f(i), fy = y - to_f(j), fz = z - to_f(k);
    vf gx = fx - 1.0f, gy = fy - 1.0f, gz = fz - 1.0f;
    vu hx = (vu)i * PX + seed, hy = (vu)j * PY, hz = (vu)k * PZ;
    vu hx1 = hx + PX, hy1 = hy + PY, hz1 = hz + PZ;
    vf u = fade(fx), v = fade(fy), w = fade(fz);
    vf a = lerp(grad3(mix(hx ^ hy ^ hz), fx, fy, fz), grad3(mix(hx1 ^ hy ^ hz), gx, fy, fz), u);
    vf b = lerp(grad3(mix(hx ^ hy1 ^ hz), fx, gy, fz), grad3(mix(hx1 ^ hy1 ^ hz), gx, gy, fz), u);
    vf c = lerp(grad3(mix(hx ^ hy ^ hz1), fx, fy, gz), grad3(mix(hx1 ^ hy ^ hz1), gx, fy, gz), u);
    vf d = lerp(grad3(mix(hx ^ hy1 ^ hz1), fx, gy, gz), grad3(mix(hx1 ^ hy1 ^ hz1), gx, gy, gz), u);
    return lerp(lerp(a, b, v), lerp(c, d, v), w) * PERLIN3_SCALE;
}

INLINE vf value2(vf x, vf y, uint32_t seed)
{
    vi i = trunc_i(x), j = trunc_i(y);
    vf u = fade(x - to_f(i)), v = fade(y - to_f(j));
    vu hx = (vu)i * PX + seed, hy = (vu)j * PY;
    vf a = lerp(lattice_value(mix(hx ^ hy)), lattice_value(mix((hx + PX) ^ hy)), u);
    vf b = lerp(lattice_value(mix(hx ^ (hy + PY))), lattice_value(mix((hx + PX) ^ (hy + PY))), u);
    return lerp(a, b, v);
}

INLINE vf value3(vf x, vf y, vf z, uint32_t seed)
{
    vi i = trunc_i(x), j = trunc_i(y), k = trunc_i(z);
    vf u = fade(x - to_f(i)), v = fade(y - to_f(j)), w = fade(z - to_f(k));
    vu hx = (vu)i * PX + seed, hy = (vu)j * PY, hz = (vu)k * PZ;
    vu hx1 = hx + PX, hy1 = hy + PY, hz1 = hz + PZ;
    vf a = lerp(lattice_value(mix(hx ^ hy ^ hz)), lattice_value(mix(hx1 ^ hy ^ hz)), u);
    vf b = lerp(lattice_value(mix(hx ^ hy1 ^ hz)), lattice_value(mix(hx1 ^ hy1 ^ hz)), u);
    vf c = lerp(lattice_value(mix(hx ^ hy ^ hz1)), lattice_value(mix(hx1 ^ hy ^ hz1)), u);
    vf d = lerp(lattice_value(mix(hx ^ hy1 ^ hz1)), lattice_value(mix(hx1 ^ hy1 ^ hz1)), u);
    return lerp(lerp(a, b, v), lerp(c, d, v), w);
}

INLINE vf sqrt_lanes(vf a)
{
    for (int l = 0; l < NOISE_LANES; l++) a[l] = sqrtf(a[l]);
    return a;
}

/* Worley F1: the distance to the nearest feature point, one point jittered inside each
   lattice cell, mapped by 2 F1 - 1. F1 is below 1 but for a fraction of a percent of points
   (it can reach sqrt(2), sqrt(3) in 3-D, in theory); those clip to 1. */
INLINE vf cellular2(vf x, vf y, uint32_t seed)
{
    vi i = trunc_i(x), j = trunc_i(y);
    vf fx = x - to_f(i), fy = y - to_f(j);
    vu hx = (vu)i * PX + seed, hy = (vu)j * PY;
    vf best = splat(8.0f);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            vu h = mix((hx + (uint32_t)dx * PX) ^ (hy + (uint32_t)dy * PY));
            vf px = (float)dx + to_f((vi)(h & 0xffffu)) * (1.0f / 65536.0f) - fx;
            vf py = (float)dy + to_f((vi)(h >> 16)) * (1.0f / 65536.0f) - fy;
            vf d = px * px + py * py;
            best = pick(d < best, d, best);
        }
    return sqrt_lanes(best) * 2.0f - 1.0f;
}

/* The same in 3-D: 27 cells, 10 or 11 hash bits of jitter per axis. */
INLINE vf cellular3(vf x, vf y, vf z, uint32_t seed)
{
    vi i = trunc_i(x), j = trunc_i(y), k = trunc_i(z);
    vf fx = x - to_f(i), fy = y - to_f(j), fz = z - to_f(k);
    vu hx = (vu)i * PX + seed, hy = (vu)j * PY, hz = (vu)k * PZ;
    vf best = splat(8.0f);
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                vu h = mix((hx + (uint32_t)dx * PX) ^ (hy + (uint32_t)dy * PY) ^ (hz + (uint32_t)dz * PZ));
                vf px = (float)dx + to_f((vi)(h & 0x3ffu)) * (1.0f / 1024.0f) - fx;
                vf py = (float)dy + to_f((vi)((h >> 10) & 0x7ffu)) * (1.0f / 2048.0f) - fy;
                vf pz = (float)dz + to_f((vi)(h >> 21)) * (1.0f / 2048.0f) - fz;
                vf d = px * px + py * py + pz * pz;
                best = pick(d < best, d, best);
            }
    return sqrt_lanes(best) * 2.0f - 1.0f;
}

/* White noise: one independent value per lattice cell, no interpolation. */
INLINE vf white2(vf x, vf y, uint32_t seed) { return lattice_value(mix(((vu)trunc_i(x) * PX + seed) ^ ((vu)trunc_i(y) * PY))); }

INLINE vf white3(vf x, vf y, vf z, uint32_t seed)
{
    return lattice_value(mix(((vu)trunc_i(x) * PX + seed) ^ ((vu)trunc_i(y) * PY) ^ ((vu)trunc_i(z) * PZ)));
}

/* kind = type * 2 + (3-D ? 1 : 0); with a constant kind the switch folds away. */
INLINE vf sample(int kind, vf x, vf y, vf z, uint32_t seed)
{
    switch (kind) {
    case NOISE_SIMPLEX * 2: return clamp1(simplex2(x, y, seed));
    case NOISE_SIMPLEX * 2 + 1: return clamp1(simplex3(x, y, z, seed));
    case NOISE_PERLIN * 2: return clamp1(perlin2(x, y, seed));
    case NOISE_PERLIN * 2 + 1: return clamp1(perlin3(x, y, z, seed));
    case NOISE_VALUE * 2: return clamp1(value2(x, y, seed));
    case NOISE_VALUE * 2 + 1: return clamp1(value3(x, y, z, seed));
    case NOISE_CELLULAR * 2: return clamp1(cellular2(x, y, seed));
    case NOISE_CELLULAR * 2 + 1: return clamp1(cellular3(x, y, z, seed));
    case NOISE_WHITE * 2: return white2(x, y, seed);
    default: return white3(x, y, z, seed);
    }
}

/* What one octave adds, before its amplitude: fBm the noise itself, billow 2|n| - 1 (round
   puffs with sharp creases), ridged 2(1 - |n|)^2 - 1 (sharp crests where the noise crosses 0). */
INLINE vf shape(int fractal, vf n)
{
    switch (fractal) {
    case FRACTAL_BILLOW: return absv(n) * 2.0f - 1.0f;
    case FRACTAL_RIDGED: {
        vf r = 1.0f - absv(n);
        return r * r * 2.0f - 1.0f;
    }
    default: return n;
    }
}

INLINE float coord(int cell, float freq, float offset) { return ((float)cell + 0.5f) * freq + offset; }

INLINE void octave_row(int kind, const noise_field *nf, int o, const float *xs, int n, float y, float z, float *acc)
{
    vf yv = splat(y), zv = splat(z);
    uint32_t seed = nf->seed[o];
    float amp = nf->amp[o];
    int fractal = nf->fractal;
    for (int x = 0; x < n; x += NOISE_LANES) {
        vf xv, a;
        memcpy(&xv, xs + x, sizeof xv);
        memcpy(&a, acc + x, sizeof a);
        a += shape(fractal, sample(kind, xv, yv, zv, seed)) * amp;
        memcpy(acc + x, &a, sizeof a);
    }
}

/* One loop per kind, each with its noise inlined. */
static void add_octave(const noise_field *nf, int o, const float *xs, int n, float y, float z, float *acc)
{
    switch (nf->type * 2 + nf->three_d) {
    case 0: octave_row(0, nf, o, xs, n, y, z, acc); break;
    case 1: octave_row(1, nf, o, xs, n, y, z, acc); break;
    case 2: octave_row(2, nf, o, xs, n, y, z, acc); break;
    case 3: octave_row(3, nf, o, xs, n, y, z, acc); break;
    case 4: octave_row(4, nf, o, xs, n, y, z, acc); break;
    case 5: octave_row(5, nf, o, xs, n, y, z, acc); break;
    case 6: octave_row(6, nf, o, xs, n, y, z, acc); break;
    case 7: octave_row(7, nf, o, xs, n, y, z, acc); break;
    case 8: octave_row(8, nf, o, xs, n, y, z, acc); break;
    default: octave_row(9, nf, o, xs, n, y, z, acc); break;
    }
}

void noise_xcoords(const noise_field *nf, int n, float *out)
{
    for (int o = 0; o < nf->octaves; o++)
        for (int x = 0; x < n; x++) out[o * n + x] = coord(x, nf->freq[o], nf->offset[o][0]);
}

void noise_row(const noise_field *nf, const float *xcoords, int n, int y, int z, float *out)
{
    memset(out, 0, (size_t)n * sizeof *out);
    for (int o = 0; o < nf->octaves; o++)
        add_octave(nf, o, xcoords + (size_t)o * n, n, coord(y, nf->freq[o], nf->offset[o][1]),
                   coord(z, nf->freq[o], nf->offset[o][2]), out);
    for (int x = 0; x < n; x += NOISE_LANES) {
        vf a;
        memcpy(&a, out + x, sizeof a);
        a = clamp1(a * nf->norm);
        memcpy(out + x, &a, sizeof a);
    }
}

float noise_value(const noise_field *nf, int x, int y, int z)
{
    vf acc = splat(0.0f);
    int kind = nf->type * 2 + nf->three_d;
    for (int o = 0; o < nf->octaves; o++) {
        vf xv = splat(coord(x, nf->freq[o], nf->offset[o][0]));
        vf yv = splat(coord(y, nf->freq[o], nf->offset[o][1])), zv = splat(coord(z, nf->freq[o], nf->offset[o][2]));
        acc += shape(nf->fractal, sample(kind, xv, yv, zv, nf->seed[o])) * nf->amp[o];
    }
    return clamp1(acc * nf->norm)[0];
}

double noise_max_coord(const noise_spec *spec, int side)
{
    int octaves = spec->fractal == FRACTAL_NONE ? 1 : spec->octaves;
    double f = spec->frequency, most = 0;
    for (int o = 0; o < octaves; o++, f *= spec->lacunarity)
        if ((side + 0.5) * f + 1.0 > most) most = (side + 0.5) * f + 1.0;
    return most;
}

void noise_field_init(noise_field *nf, const noise_spec *spec, bool three_d, uint32_t seed)
{
    memset(nf, 0, sizeof *nf);
    nf->type = spec->type;
    nf->fractal = spec->fractal;
    nf->octaves = spec->fractal == FRACTAL_NONE ? 1 : spec->octaves;
    nf->three_d = three_d;
    double f = spec->frequency, a = 1.0, sum = 0.0;
    for (int o = 0; o < nf->octaves; o++) {
        nf->freq[o] = (float)f;
        nf->amp[o] = (float)a;
        sum += nf->amp[o];
        f *= spec->lacunarity;
        a *= spec->gain;
        /* Each octave its own lattice seed, and an offset in [0, 1) per axis so that lattice
           points (where gradient noise is 0) do not line up with cell centres. */
        uint32_t h = mix1(seed ^ mix1(0x9e3779b9u * (uint32_t)(o + 1)));
        nf->seed[o] = h;
        for (int axis = 0; axis < 3; axis++) {
            h = mix1(h + 0x632be5abu);
            nf->offset[o][axis] = (float)(h >> 8) * (1.0f / 16777216.0f);
        }
    }
    nf->norm = (float)(1.0 / sum);
}
