/* noise_fn.h — the deterministic noise functions behind the `noise` node: simplex, simplex
   smooth (OpenSimplex2S-like), Perlin, value, value cubic,
   cellular (Worley, with FastNoiseLite's distance functions and return types) and white noise in
   2-D and 3-D, summed over octaves as fBm, ridged, billow or ping-pong.

   Every value is a single-precision float computed with + - * / , float<->int conversions,
   integer hashing and (cellular only) sqrt: operations IEEE 754 rounds exactly, so a seed gives
   the same bits on every machine. noise_fn.c turns off fused multiply-add contraction, which
   would change roundings. The kernels avoid subnormal intermediates, so flush-to-zero modes
   do not matter in practice. Four cells are computed at once in vectors, lane by lane the same
   operations as one cell alone: noise_row and noise_value agree bit for bit. */
#ifndef SMALTI_NOISE_FN_H
#define SMALTI_NOISE_FN_H
#include <stdbool.h>
#include <stdint.h>

/* New types go last: a type's number picks its loop in noise_fn.c. */
enum noise_type {
    NOISE_SIMPLEX,
    NOISE_PERLIN,
    NOISE_VALUE,
    NOISE_CELLULAR,
    NOISE_WHITE,
    NOISE_VALUE_CUBIC,
    NOISE_SIMPLEX_SMOOTH,
    NOISE_TYPES
};
enum noise_fractal { FRACTAL_NONE, FRACTAL_FBM, FRACTAL_RIDGED, FRACTAL_BILLOW, FRACTAL_PINGPONG };
/* How cellular noise measures the way from a cell to a feature point. */
enum noise_cellular_distance { CELLULAR_EUCLIDEAN, CELLULAR_EUCLIDEAN_SQ, CELLULAR_MANHATTAN, CELLULAR_HYBRID };
/* What cellular noise returns: the nearest point's cell's random value, or a function of the
   distances to the nearest (F1) and second nearest (F2) points. */
enum noise_cellular_return {
    CELLULAR_CELL_VALUE,
    CELLULAR_DISTANCE,
    CELLULAR_DISTANCE2,
    CELLULAR_DISTANCE2_ADD,
    CELLULAR_DISTANCE2_SUB,
    CELLULAR_DISTANCE2_MUL,
    CELLULAR_DISTANCE2_DIV
};

#define NOISE_MAX_OCTAVES 16
/* Coordinates (cell * frequency * lacunarity^octave) stay below this, so that a float still
   resolves 1/128 of a lattice cell and lattice indices convert to int exactly. */
#define NOISE_MAX_COORD 65536.0
/* noise_row works on rows padded to a multiple of this. */
#define NOISE_LANES 4

typedef struct noise_spec {
    int type, fractal, octaves;
    double frequency, lacunarity, gain;
    int cellular_distance, cellular_return;
    double cellular_jitter; /* 0 (points at cell centres) to 1 (anywhere in their cell) */
    double ping_pong_strength; /* how many times ping-pong folds an octave's range, over 2 */
} noise_spec;

/* A spec bound to a seed and a dimension: everything noise_value needs. */
typedef struct noise_field {
    int type, fractal, octaves;
    bool three_d;
    float freq[NOISE_MAX_OCTAVES], amp[NOISE_MAX_OCTAVES], offset[NOISE_MAX_OCTAVES][3];
    uint32_t seed[NOISE_MAX_OCTAVES];
    float norm; /* 1 / the sum of amplitudes */
    int cellular_distance, cellular_return;
    float cellular_jitter, ping_pong_strength;
} noise_field;

/* The largest coordinate a grid of the given longest side reaches (for validation). */
double noise_max_coord(const noise_spec *spec, int side);
void noise_field_init(noise_field *nf, const noise_spec *spec, bool three_d, uint32_t seed);
/* The noise value of cell (x, y, z), in [-1, 1]. */
float noise_value(const noise_field *nf, int x, int y, int z);
/* Cells 0..n-1 of row (y, z) into out; n is a multiple of NOISE_LANES. xcoords holds
   noise_xcoords' result for the same n. */
void noise_row(const noise_field *nf, const float *xcoords, int n, int y, int z, float *out);
/* The x coordinates of every octave: out[octave * n + x]. */
void noise_xcoords(const noise_field *nf, int n, float *out);

/* Simplex smooth's kernel (r^2 - d^2)^4 summed with r^2 = 2/3 over a triangular lattice (2-D)
   and r^2 = 3/4 over two interleaved cubic lattices (3-D, body-centred cubic), times these
   scales: 1 / the largest sum with each point's best gradient, found by a search over a fine
   grid of positions, rounded down. */
#define SIMPLEX_SMOOTH2_SCALE 17.1f
#define SIMPLEX_SMOOTH3_SCALE 9.04f
/* For tests: the gradient term of one lattice point, as simplex smooth computes it. 2-D: point
   (i, j) of the skewed lattice; 3-D: point (i, j, k) of the cubic lattice (0) or of the one
   shifted by 1/2 (1). (x, y, z) is the offset from the point. */
float noise_smooth_gradient2(uint32_t seed, int i, int j, float x, float y);
float noise_smooth_gradient3(uint32_t seed, int lattice, int i, int j, int k, float x, float y, float z);

/* In noise.c, for tests: the field a loaded `noise` node paints with after drawing `seed`. */
struct node;
void noise_node_field(const struct node *n, bool three_d, uint32_t seed, noise_field *out);
#endif
