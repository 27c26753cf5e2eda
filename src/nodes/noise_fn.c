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
   (simplex 3-D), 0.715263 (Perlin 2-D), 1.036346 (Perlin 3-D). The scales are rounded down;
   the clamp of the final sum catches any rounding beyond 1. */
#define SIMPLEX2_SCALE 92.42f
#define SIMPLEX3_SCALE 76.88f
#define PERLIN2_SCALE 1.398f
#define PERLIN3_SCALE 0.9649f

/* Scalar 32-bit mixer (lowbias32 by C. Wellons) for deriving octave seeds and offsets. */
INLINE uint32_t mix1(uint32_t h)
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
/* Lattice hashing, nested per axis: h(i, j) = H(H(i + s) ^ t ^ j) and h(i, j, k) =
   H(h(i, j) ^ k), with s and t the halves of the octave's seed and H a 16-bit
   xorshift-multiply hash (constants of hash16_xm2 from C. Wellons' hash prospector). Its
   multiplies are single 16-bit vector instructions, where SSE2 has no 32-bit one. Each
   32-bit lane hashes in its low half; the high half holds garbage that is never read. The
   lattice repeats every 65536 cells along each axis. */
typedef uint16_t vh __attribute__((vector_size(16)));

INLINE vu hash16(vu x)
{
    vh h = (vh)x;
    h ^= h >> 8;
    h *= 0xcf53;
    h ^= h >> 7;
    h *= 0xf4cb;
    h ^= h >> 10;
    return (vu)h;
}

/* The first level, per lattice index along x. */
INLINE vu hash_x(vi i, uint32_t seed) { return hash16((vu)i + seed) ^ (seed >> 16); }

/* The y and z indices enter the later levels times an odd constant: neighbours then differ
   in many bits, which removes a slight correlation between adjacent rows (H(c ^ j) against
   H(c ^ (j + 1))). (j + 1) SPREAD = j SPREAD + SPREAD in the low half. */
#define SPREAD 0x9e37u
INLINE vu spread(vi j) { return (vu)((vh)j * SPREAD); }

/* A lattice value in [-1, 1) from the 16 hash bits, exactly representable. */
INLINE vf lattice_value(vu h) { return to_f((vi)(h & 0xffffu)) * (1.0f / 32768.0f) - 1.0f; }

/* Dot product with one of 8 gradients 45 degrees apart, (+-1, +-t) and (+-t, +-1) with
   t = tan(22.5 degrees), chosen by the top 3 of the 16 hash bits. */
INLINE vf grad2(vu h, vf x, vf y)
{
    h <<= 16;
    vu swap = (vu)((vi)(h << 2) >> 31);
    vu both = ((vu)x ^ (vu)y) & swap;
    vf u = (vf)((vu)x ^ both), v = (vf)((vu)y ^ both);
    return (vf)((vu)u ^ (h & 0x80000000u)) + (vf)((vu)v ^ ((h << 1) & 0x80000000u)) * 0.41421356f;
}

/* Dot product with one of Perlin's 12 cube-edge gradients, chosen by the top 4 of the 16
   hash bits (16 entries, 4 of them repeated). */
INLINE vf grad3(vu h, vf x, vf y, vf z)
{
    vu g = (h >> 12) & 15u;
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
    vu a0 = hash_x(i, seed), a1 = hash_x(i + 1, seed), uj = spread(j);
    vu h0 = hash16(a0 ^ uj);
    vu h1 = hash16(a0 ^ ((a0 ^ a1) & (vu)x_first) ^ (uj + ((vu)~x_first & SPREAD)));
    vu h2 = hash16(a1 ^ (uj + SPREAD));
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
    vu a0 = hash_x(i, seed), a1 = hash_x(i + 1, seed), ad = a0 ^ a1, uj = spread(j), uk = spread(k);
    vu h0 = hash16(hash16(a0 ^ uj) ^ uk);
    vu h1 = hash16(hash16(a0 ^ (ad & (vu)i1) ^ (uj + ((vu)j1 & SPREAD))) ^ (uk + ((vu)k1 & SPREAD)));
    vu h2 = hash16(hash16(a0 ^ (ad & (vu)i2) ^ (uj + ((vu)j2 & SPREAD))) ^ (uk + ((vu)k2 & SPREAD)));
    vu h3 = hash16(hash16(a1 ^ (uj + SPREAD)) ^ (uk + SPREAD));
    vf n = kernel3(x0, y0, z0) * grad3(h0, x0, y0, z0) + kernel3(x1, y1, z1) * grad3(h1, x1, y1, z1) +
           kernel3(x2, y2, z2) * grad3(h2, x2, y2, z2) + kernel3(x3, y3, z3) * grad3(h3, x3, y3, z3);
    return n * SIMPLEX3_SCALE;
}

INLINE vf perlin2(vf x, vf y, uint32_t seed)
{
    vi i = trunc_i(x), j = trunc_i(y);
    vf fx = x - to_f(i), fy = y - to_f(j);
    vu a0 = hash_x(i, seed), a1 = hash_x(i + 1, seed), uj = spread(j), uj1 = uj + SPREAD;
    vf a = lerp(grad2(hash16(a0 ^ uj), fx, fy), grad2(hash16(a1 ^ uj), fx - 1.0f, fy), fade(fx));
    vf b = lerp(grad2(hash16(a0 ^ uj1), fx, fy - 1.0f), grad2(hash16(a1 ^ uj1), fx - 1.0f, fy - 1.0f), fade(fx));
    return lerp(a, b, fade(fy)) * PERLIN2_SCALE;
}

INLINE vf perlin3(vf x, vf y, vf z, uint32_t seed)
{
    vi i = trunc_i(x), j = trunc_i(y), k = trunc_i(z);
    vf fx = x - to_f(i), fy = y - to_f(j), fz = z - to_f(k);
    vf gx = fx - 1.0f, gy = fy - 1.0f, gz = fz - 1.0f;
    vu a0 = hash_x(i, seed), a1 = hash_x(i + 1, seed), uj = spread(j), uk = spread(k), uk1 = uk + SPREAD;
    vu b00 = hash16(a0 ^ uj), b10 = hash16(a1 ^ uj), b01 = hash16(a0 ^ (uj + SPREAD)), b11 = hash16(a1 ^ (uj + SPREAD));
    vf u = fade(fx), v = fade(fy), w = fade(fz);
    vf a = lerp(grad3(hash16(b00 ^ uk), fx, fy, fz), grad3(hash16(b10 ^ uk), gx, fy, fz), u);
    vf b = lerp(grad3(hash16(b01 ^ uk), fx, gy, fz), grad3(hash16(b11 ^ uk), gx, gy, fz), u);
    vf c = lerp(grad3(hash16(b00 ^ uk1), fx, fy, gz), grad3(hash16(b10 ^ uk1), gx, fy, gz), u);
    vf d = lerp(grad3(hash16(b01 ^ uk1), fx, gy, gz), grad3(hash16(b11 ^ uk1), gx, gy, gz), u);
    return lerp(lerp(a, b, v), lerp(c, d, v), w) * PERLIN3_SCALE;
}

INLINE vf value2(vf x, vf y, uint32_t seed)
{
    vi i = trunc_i(x), j = trunc_i(y);
    vf u = fade(x - to_f(i)), v = fade(y - to_f(j));
    vu a0 = hash_x(i, seed), a1 = hash_x(i + 1, seed), uj = spread(j), uj1 = uj + SPREAD;
    vf a = lerp(lattice_value(hash16(a0 ^ uj)), lattice_value(hash16(a1 ^ uj)), u);
    vf b = lerp(lattice_value(hash16(a0 ^ uj1)), lattice_value(hash16(a1 ^ uj1)), u);
    return lerp(a, b, v);
}

INLINE vf value3(vf x, vf y, vf z, uint32_t seed)
{
    vi i = trunc_i(x), j = trunc_i(y), k = trunc_i(z);
    vf u = fade(x - to_f(i)), v = fade(y - to_f(j)), w = fade(z - to_f(k));
    vu a0 = hash_x(i, seed), a1 = hash_x(i + 1, seed), uj = spread(j), uk = spread(k), uk1 = uk + SPREAD;
    vu b00 = hash16(a0 ^ uj), b10 = hash16(a1 ^ uj), b01 = hash16(a0 ^ (uj + SPREAD)), b11 = hash16(a1 ^ (uj + SPREAD));
    vf a = lerp(lattice_value(hash16(b00 ^ uk)), lattice_value(hash16(b10 ^ uk)), u);
    vf b = lerp(lattice_value(hash16(b01 ^ uk)), lattice_value(hash16(b11 ^ uk)), u);
    vf c = lerp(lattice_value(hash16(b00 ^ uk1)), lattice_value(hash16(b10 ^ uk1)), u);
    vf d = lerp(lattice_value(hash16(b01 ^ uk1)), lattice_value(hash16(b11 ^ uk1)), u);
    return lerp(lerp(a, b, v), lerp(c, d, v), w);
}

/* Value cubic: the values of the 4 x 4 (x 4) nearest lattice points a, b, c, d along each axis
   in turn joined by FastNoiseLite's cubic: from b at t = 0 to c at t = 1 with slopes c - a and
   d - b (twice Catmull-Rom's), t^3 p + t^2 (a - b - p) + t (c - a) + b with
   p = (d - c) - (a - b). Along one axis it can overshoot its values by half (to 1.5), so the
   sum is divided by 1.5 per axis to stay within [-1, 1]. */
INLINE vf cubic(vf a, vf b, vf c, vf d, vf t)
{
    vf p = (d - c) - (a - b);
    return t * t * t * p + t * t * ((a - b) - p) + t * (c - a) + b;
}

#define CUBIC2_SCALE (1.0f / 2.25f)
#define CUBIC3_SCALE (1.0f / 3.375f)

/* Lattice values along x at i - 1 .. i + 2 of the row whose level-two hash input is `row`,
   joined at t. */
INLINE vf cubic_row(const vu *columns, vu row, vf t)
{
    return cubic(lattice_value(hash16(columns[0] ^ row)), lattice_value(hash16(columns[1] ^ row)),
                 lattice_value(hash16(columns[2] ^ row)), lattice_value(hash16(columns[3] ^ row)), t);
}

INLINE vf value_cubic2(vf x, vf y, uint32_t seed)
{
    vi i = trunc_i(x), j = trunc_i(y);
    vf tx = x - to_f(i), ty = y - to_f(j);
    vu columns[4], uj = spread(j);
    for (int dx = -1; dx <= 2; dx++) columns[dx + 1] = hash_x(i + dx, seed);
    vf rows[4];
    for (int dy = -1; dy <= 2; dy++) rows[dy + 1] = cubic_row(columns, uj + (uint32_t)dy * SPREAD, tx);
    return cubic(rows[0], rows[1], rows[2], rows[3], ty) * CUBIC2_SCALE;
}

/* The same in 3-D: value3's hashing (h(i, j) then ^ k) over 4 x 4 x 4 points. */
INLINE vf value_cubic3(vf x, vf y, vf z, uint32_t seed)
{
    vi i = trunc_i(x), j = trunc_i(y), k = trunc_i(z);
    vf tx = x - to_f(i), ty = y - to_f(j), tz = z - to_f(k);
    vu columns[4], uj = spread(j), uk = spread(k);
    for (int dx = -1; dx <= 2; dx++) columns[dx + 1] = hash_x(i + dx, seed);
    vf layers[4];
    for (int dz = -1; dz <= 2; dz++) {
        vf rows[4];
        for (int dy = -1; dy <= 2; dy++) {
            vu plane[4], row = uj + (uint32_t)dy * SPREAD;
            for (int dx = 0; dx < 4; dx++) plane[dx] = hash16(columns[dx] ^ row);
            rows[dy + 1] = cubic_row(plane, uk + (uint32_t)dz * SPREAD, tx);
        }
        layers[dz + 1] = cubic(rows[0], rows[1], rows[2], rows[3], ty);
    }
    return cubic(layers[0], layers[1], layers[2], layers[3], tz) * CUBIC3_SCALE;
}

/* Simplex smooth (after OpenSimplex2S): in 2-D the simplex lattice with the wider kernel
   r^2 = 2/3, which reaches the 8 lattice points listed here around the skewed cell (found by
   search; at most 4 at once are within reach). Wider kernels overlap more: smoother noise,
   fewer visible triangles. */
#define SMOOTH2_R2 0.66666667f
static const int smooth2_points[8][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {-1, 0}, {0, -1}, {2, 1}, {1, 2}};

INLINE vu smooth2_hash(vi i, vi j, uint32_t seed) { return hash16(hash_x(i, seed) ^ spread(j)); }

INLINE vf simplex_smooth2(vf x, vf y, uint32_t seed)
{
    vf s = (x + y) * F2;
    vi i = trunc_i(x + s), j = trunc_i(y + s);
    vf t = to_f(i + j) * G2;
    vf x0 = x - (to_f(i) - t), y0 = y - (to_f(j) - t);
    vf n = splat(0.0f);
    for (int p = 0; p < 8; p++) {
        int di = smooth2_points[p][0], dj = smooth2_points[p][1];
        /* The point's unskewed offset from the cell's base point. */
        float ox = (float)di - (float)(di + dj) * G2, oy = (float)dj - (float)(di + dj) * G2;
        vf px = x0 - ox, py = y0 - oy;
        n += kernel(SMOOTH2_R2 - px * px - py * py) * grad2(smooth2_hash(i + di, j + dj, seed), px, py);
    }
    return n * SIMPLEX_SMOOTH2_SCALE;
}

/* In 3-D the body-centred cubic lattice as two cubic lattices, the second shifted by 1/2 on
   every axis and hashed with another seed, with r^2 = 3/4: exactly the distance between
   neighbours of the two lattices, so only the 8 corners of the cube around the point in each
   lattice are within reach. Coordinates are never negative: truncation of p + 1/2 is
   floor(p - 1/2) + 1. */
#define SMOOTH3_R2 0.75f
#define SMOOTH3_SHIFTED_SEED 0x9e3779b9u

INLINE vu smooth3_hash(vi i, vi j, vi k, uint32_t seed) { return hash16(hash16(hash_x(i, seed) ^ spread(j)) ^ spread(k)); }

INLINE vf smooth3_cube(vf x, vf y, vf z, vi i, vi j, vi k, uint32_t seed)
{
    vf fx = x - to_f(i), fy = y - to_f(j), fz = z - to_f(k), n = splat(0.0f);
    for (int c = 0; c < 8; c++) {
        int di = c & 1, dj = (c >> 1) & 1, dk = c >> 2;
        vf px = fx - (float)di, py = fy - (float)dj, pz = fz - (float)dk;
        n += kernel(SMOOTH3_R2 - px * px - py * py - pz * pz) * grad3(smooth3_hash(i + di, j + dj, k + dk, seed), px, py, pz);
    }
    return n;
}

INLINE vf simplex_smooth3(vf x, vf y, vf z, uint32_t seed)
{
    vf n = smooth3_cube(x, y, z, trunc_i(x), trunc_i(y), trunc_i(z), seed);
    vf xs = x - 0.5f, ys = y - 0.5f, zs = z - 0.5f;
    n += smooth3_cube(xs, ys, zs, trunc_i(x + 0.5f) - 1, trunc_i(y + 0.5f) - 1, trunc_i(z + 0.5f) - 1, seed ^ SMOOTH3_SHIFTED_SEED);
    return n * SIMPLEX_SMOOTH3_SCALE;
}

float noise_smooth_gradient2(uint32_t seed, int i, int j, float x, float y)
{
    return grad2(smooth2_hash((vi){i, i, i, i}, (vi){j, j, j, j}, seed), splat(x), splat(y))[0];
}

float noise_smooth_gradient3(uint32_t seed, int lattice, int i, int j, int k, float x, float y, float z)
{
    uint32_t s = lattice ? seed ^ SMOOTH3_SHIFTED_SEED : seed;
    return grad3(smooth3_hash((vi){i, i, i, i}, (vi){j, j, j, j}, (vi){k, k, k, k}, s), splat(x), splat(y), splat(z))[0];
}

INLINE vf sqrt_lanes(vf a)
{
    for (int l = 0; l < NOISE_LANES; l++) a[l] = sqrtf(a[l]);
    return a;
}

/* Cellular (Worley) noise: one feature point per lattice cell, at (its cell's centre + a hashed
   offset in [-1/2, 1/2) per axis times the jitter); among the points of the 3 x 3 (x 3) nearest
   cells, F1 and F2 are the distances to the nearest and second nearest. */
typedef struct cell_opts {
    int distance, result;
    float jitter;
} cell_opts;

/* The offset of a feature point along one axis from 8 hash bits. With jitter 1 it is exactly
   bits / 256, the point anywhere in its cell, as before jitter existed. */
INLINE vf jittered(vu bits, float jitter) { return (to_f((vi)(bits & 0xffu)) * (1.0f / 256.0f) - 0.5f) * jitter + 0.5f; }

/* The distance measure before any square root: squared for both Euclidean kinds. */
INLINE vf measure(int distance, vf px, vf py, vf pz)
{
    vf squared = px * px + py * py + pz * pz;
    switch (distance) {
    case CELLULAR_MANHATTAN: return absv(px) + absv(py) + absv(pz);
    case CELLULAR_HYBRID: return absv(px) + absv(py) + absv(pz) + squared;
    default: return squared;
    }
}

/* Keeps the nearest (its cell's value too) and second nearest measures. */
typedef struct nearest {
    vf first, second, value;
} nearest;

INLINE void consider(nearest *n, vf d, vf value)
{
    vi closer = d < n->first;
    n->second = pick(closer, n->first, pick(d < n->second, d, n->second));
    n->value = pick(closer, value, n->value);
    n->first = pick(closer, d, n->first);
}

/* A cell's random value: its feature point's hash bits hashed again (a bijection, so cells
   differ but for equal hashes). */
INLINE vf cell_value(vu h) { return lattice_value(hash16(h ^ 0xa5a5u)); }

/* The returned value, mapped so that typical values spread over [-1, 1]; F1 is below 1 but for
   a fraction of a percent of points (it can reach sqrt(2), sqrt(3) in 3-D, in theory): the
   clamp after this catches what goes beyond. */
INLINE vf cell_result(const cell_opts *o, nearest n)
{
    if (o->result == CELLULAR_CELL_VALUE) return n.value;
    vf f1 = n.first, f2 = n.second;
    if (o->distance == CELLULAR_EUCLIDEAN) {
        f1 = sqrt_lanes(f1);
        if (o->result != CELLULAR_DISTANCE) f2 = sqrt_lanes(f2);
    }
    switch (o->result) {
    case CELLULAR_DISTANCE: return f1 * 2.0f - 1.0f;
    case CELLULAR_DISTANCE2: return f2 * 2.0f - 1.0f;
    case CELLULAR_DISTANCE2_ADD: return f1 + f2 - 1.0f;
    case CELLULAR_DISTANCE2_SUB: return (f2 - f1) * 2.0f - 1.0f;
    case CELLULAR_DISTANCE2_MUL: return f1 * f2 * 2.0f - 1.0f;
    default: return pick(f2 > 0.0f, f1 / pick(f2 > 0.0f, f2, splat(1.0f)), splat(0.0f)) * 2.0f - 1.0f;
    }
}

INLINE vf cellular2(vf x, vf y, uint32_t seed, const cell_opts *o)
{
    vi i = trunc_i(x), j = trunc_i(y);
    vf fx = x - to_f(i), fy = y - to_f(j);
    vu column[3];
    for (int dx = -1; dx <= 1; dx++) column[dx + 1] = hash_x(i + dx, seed);
    nearest n = {splat(8.0f), splat(8.0f), splat(0.0f)};
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            vu h = hash16(column[dx + 1] ^ (spread(j) + (uint32_t)dy * SPREAD));
            vf px = (float)dx + jittered(h, o->jitter) - fx;
            vf py = (float)dy + jittered(h >> 8, o->jitter) - fy;
            consider(&n, measure(o->distance, px, py, splat(0.0f)), o->result == CELLULAR_CELL_VALUE ? cell_value(h) : n.value);
        }
    return cell_result(o, n);
}

/* The same in 3-D over 27 cells; z's jitter hashes the complemented z index, an input no
   nearby cell uses. */
INLINE vf cellular3(vf x, vf y, vf z, uint32_t seed, const cell_opts *o)
{
    vi i = trunc_i(x), j = trunc_i(y), k = trunc_i(z);
    vf fx = x - to_f(i), fy = y - to_f(j), fz = z - to_f(k);
    vu column[3][3];
    for (int dx = -1; dx <= 1; dx++) {
        vu a = hash_x(i + dx, seed);
        for (int dy = -1; dy <= 1; dy++) column[dx + 1][dy + 1] = hash16(a ^ (spread(j) + (uint32_t)dy * SPREAD));
    }
    nearest n = {splat(8.0f), splat(8.0f), splat(0.0f)};
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                vu b = column[dx + 1][dy + 1], uk = spread(k) + (uint32_t)dz * SPREAD;
                vu h = hash16(b ^ uk), g = hash16(b ^ ~uk);
                vf px = (float)dx + jittered(h, o->jitter) - fx;
                vf py = (float)dy + jittered(h >> 8, o->jitter) - fy;
                vf pz = (float)dz + jittered(g, o->jitter) - fz;
                consider(&n, measure(o->distance, px, py, pz), o->result == CELLULAR_CELL_VALUE ? cell_value(g) : n.value);
            }
    return cell_result(o, n);
}

/* White noise: one independent value per lattice cell, no interpolation. */
INLINE vf white2(vf x, vf y, uint32_t seed) { return lattice_value(hash16(hash_x(trunc_i(x), seed) ^ spread(trunc_i(y)))); }

INLINE vf white3(vf x, vf y, vf z, uint32_t seed)
{
    return lattice_value(hash16(hash16(hash_x(trunc_i(x), seed) ^ spread(trunc_i(y))) ^ spread(trunc_i(z))));
}

/* kind = type * 2 + (3-D ? 1 : 0); with a constant kind the switch folds away. Only cellular
   needs a clamp here: the others stay within [-1, 1] up to a rounding (or, for simplex
   smooth, whose scales come from a search on a grid of positions, up to a sliver), which the
   clamp of the final sum catches. */
INLINE vf sample(int kind, const cell_opts *cell, vf x, vf y, vf z, uint32_t seed)
{
    switch (kind) {
    case NOISE_SIMPLEX * 2: return simplex2(x, y, seed);
    case NOISE_SIMPLEX * 2 + 1: return simplex3(x, y, z, seed);
    case NOISE_PERLIN * 2: return perlin2(x, y, seed);
    case NOISE_PERLIN * 2 + 1: return perlin3(x, y, z, seed);
    case NOISE_VALUE * 2: return value2(x, y, seed);
    case NOISE_VALUE * 2 + 1: return value3(x, y, z, seed);
    case NOISE_CELLULAR * 2: return clamp1(cellular2(x, y, seed, cell));
    case NOISE_CELLULAR * 2 + 1: return clamp1(cellular3(x, y, z, seed, cell));
    case NOISE_WHITE * 2: return white2(x, y, seed);
    case NOISE_WHITE * 2 + 1: return white3(x, y, z, seed);
    case NOISE_VALUE_CUBIC * 2: return value_cubic2(x, y, seed);
    case NOISE_VALUE_CUBIC * 2 + 1: return value_cubic3(x, y, z, seed);
    case NOISE_SIMPLEX_SMOOTH * 2: return simplex_smooth2(x, y, seed);
    default: return simplex_smooth3(x, y, z, seed);
    }
}

/* FastNoiseLite's ping-pong: t folded back and forth between 0 and 1 (a triangle wave of
   period 2), for t >= 0, where truncation is floor. */
INLINE vf ping_pong(vf t)
{
    t -= to_f(trunc_i(t * 0.5f)) * 2.0f;
    return pick(t < 1.0f, t, 2.0f - t);
}

/* What one octave adds, before its amplitude: fBm the noise itself, billow 2|n| - 1 (round
   puffs with sharp creases), ridged 2(1 - |n|)^2 - 1 (sharp crests where the noise crosses 0),
   ping-pong 2 pp((n + 1) strength) - 1 (n's range folded into bands). */
INLINE vf shape(int fractal, float strength, vf n)
{
    switch (fractal) {
    case FRACTAL_PINGPONG: return ping_pong((n + 1.0f) * strength) * 2.0f - 1.0f;
    case FRACTAL_BILLOW: return absv(n) * 2.0f - 1.0f;
    case FRACTAL_RIDGED: {
        vf r = 1.0f - absv(n);
        return r * r * 2.0f - 1.0f;
    }
    default: return n;
    }
}

INLINE cell_opts cell_opts_of(const noise_field *nf)
{
    return (cell_opts){nf->cellular_distance, nf->cellular_return, nf->cellular_jitter};
}

INLINE float coord(int cell, float freq, float offset) { return ((float)cell + 0.5f) * freq + offset; }

INLINE void octave_row(int kind, const noise_field *nf, int o, const float *xs, int n, float y, float z, float *acc)
{
    vf yv = splat(y), zv = splat(z);
    uint32_t seed = nf->seed[o];
    float amp = nf->amp[o];
    int fractal = nf->fractal;
    cell_opts cell = cell_opts_of(nf);
    for (int x = 0; x < n; x += NOISE_LANES) {
        vf xv, a;
        memcpy(&xv, xs + x, sizeof xv);
        memcpy(&a, acc + x, sizeof a);
        a += shape(fractal, nf->ping_pong_strength, sample(kind, &cell, xv, yv, zv, seed)) * amp;
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
    case 9: octave_row(9, nf, o, xs, n, y, z, acc); break;
    case 10: octave_row(10, nf, o, xs, n, y, z, acc); break;
    case 11: octave_row(11, nf, o, xs, n, y, z, acc); break;
    case 12: octave_row(12, nf, o, xs, n, y, z, acc); break;
    default: octave_row(13, nf, o, xs, n, y, z, acc); break;
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
    cell_opts cell = cell_opts_of(nf);
    for (int o = 0; o < nf->octaves; o++) {
        vf xv = splat(coord(x, nf->freq[o], nf->offset[o][0]));
        vf yv = splat(coord(y, nf->freq[o], nf->offset[o][1])), zv = splat(coord(z, nf->freq[o], nf->offset[o][2]));
        acc += shape(nf->fractal, nf->ping_pong_strength, sample(kind, &cell, xv, yv, zv, nf->seed[o])) * nf->amp[o];
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
    nf->cellular_distance = spec->cellular_distance;
    nf->cellular_return = spec->cellular_return;
    nf->cellular_jitter = (float)spec->cellular_jitter;
    nf->ping_pong_strength = (float)spec->ping_pong_strength;
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
