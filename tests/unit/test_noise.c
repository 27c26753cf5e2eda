/* test_noise.c — the `noise` node: value range and spread of every type and fractal, bands
   checked against the noise recomputed cell by cell, p fall-through, seeds and 3-D; issue 36's
   cellular options, ping-pong, value cubic and simplex smooth against references. */
#include "unit.h"
#include <math.h>
#include <string.h>
#include "smalti.h"
#include "../../src/engine/run.h"
#include "../../src/nodes/nodes.h"
#include "../../src/nodes/noise_fn.h"

static const char *const type_names[] = {"simplex", "perlin", "value", "cellular", "white", "valuecubic", "simplexsmooth"};
static const char *const fractal_names[] = {"none", "fbm", "ridged", "billow", "pingpong"};

/* A spec with the node's defaults for everything but these. */
static noise_spec spec_of(int type, int fractal, int octaves, double frequency)
{
    noise_spec spec = {.type = type,
                       .fractal = fractal,
                       .octaves = octaves,
                       .frequency = frequency,
                       .lacunarity = 2.0,
                       .gain = 0.5,
                       .cellular_distance = CELLULAR_EUCLIDEAN,
                       .cellular_return = CELLULAR_DISTANCE,
                       .cellular_jitter = 1.0,
                       .ping_pong_strength = 2.0};
    return spec;
}

/* Every type x fractal, in 2-D and 3-D: values in [-1, 1], a standard deviation that is
   neither flat nor all extremes, a wide range; fBm and plain noise (but Worley distances)
   centred on 0. noise_value agrees with noise_row bit for bit, on a row that is not a
   multiple of the vector width. */
static void values_lie_in_range_with_a_sane_spread(void **state)
{
    (void)state;
    enum { N = 150, PADDED = 152 };
    static float xs[NOISE_MAX_OCTAVES * PADDED], row[PADDED];
    for (int three_d = 0; three_d < 2; three_d++)
        for (int type = 0; type < NOISE_TYPES; type++)
            for (int fractal = 0; fractal <= FRACTAL_PINGPONG; fractal++) {
                noise_spec spec = spec_of(type, fractal, 4, type == NOISE_WHITE ? 1.0 : 0.1);
                noise_field nf;
                noise_field_init(&nf, &spec, three_d, 1234567u);
                noise_xcoords(&nf, PADDED, xs);
                double sum = 0, squares = 0, low = 2, high = -2;
                int count = 0;
                for (int z = 0; z < (three_d ? 4 : 1); z++)
                    for (int y = 0; y < N; y++) {
                        noise_row(&nf, xs, PADDED, y, z * 5, row);
                        for (int x = 0; x < N; x++) {
                            float v = row[x];
                            if (!(v >= -1.0f && v <= 1.0f))
                                fail_msg("%s %s %dD: value %g at %d,%d", type_names[type], fractal_names[fractal], 2 + three_d, v, x, y);
                            if ((x * 7 + y) % 13 == 0 && noise_value(&nf, x, y, z * 5) != v)
                                fail_msg("%s %s: noise_value differs from noise_row at %d,%d", type_names[type], fractal_names[fractal], x, y);
                            sum += v;
                            squares += (double)v * v;
                            low = v < low ? v : low;
                            high = v > high ? v : high;
                            count++;
                        }
                    }
                double mean = sum / count, sd = sqrt(squares / count - mean * mean);
                bool centred = fractal <= FRACTAL_FBM && type != NOISE_CELLULAR;
                /* Value cubic is divided by its rarely reached bound 2.25 (3.375 in 3-D): narrower. */
                bool narrow = type == NOISE_VALUE_CUBIC;
                if (sd < (narrow ? 0.06 : 0.12) || sd > 0.65 || fabs(mean) > (centred ? 0.1 : narrow ? 0.8 : 0.65) ||
                    high - low < (narrow ? 0.5 : 1.0))
                    fail_msg("%s %s %dD: mean %.3f, sd %.3f, range %.3f..%.3f", type_names[type], fractal_names[fractal], 2 + three_d,
                             mean, sd, low, high);
            }
}

/* Bits of the values of a fixed seed, for every type and fractal that existed before issue 36
   (simplex smooth, value cubic, ping-pong, cellular options): a change here means models give
   other pictures than before, or that this machine computes noise differently (it must not). */
static void fixed_seed_gives_fixed_bits(void **state)
{
    (void)state;
    enum { OLD_TYPES = 5, OLD_FRACTALS = 4 };
    static const uint32_t expected[2][OLD_FRACTALS][OLD_TYPES] = {{{0x20e4f216, 0x216d1fcf, 0x4fc6b364, 0xd3b72d95, 0x0890c83f},
         {0x81aeee89, 0x8f2d1c32, 0x51f5fcd5, 0xbe85d3d5, 0x24eca753},
         {0x816443df, 0xb39a7fa9, 0x8c0e052a, 0xcdc1f3ea, 0xb4ffebf1},
         {0x5a8b99ee, 0x0f3fc3fb, 0xd57157a2, 0x6b69cced, 0x23b3fa0d}},
        {{0xe350b1fa, 0x0dfdd770, 0xc0d6f3d5, 0x74ec2117, 0xca8b783f},
         {0x80c8753b, 0xe2931d47, 0xcab3256c, 0xa5ad7e7d, 0xa68b749b},
         {0x13a341e7, 0x2364b3f3, 0x4d053cde, 0xc40d4eeb, 0x43fb4fde},
         {0x0d3089b8, 0x6abd674d, 0x2a7f2c8a, 0x3b2bd487, 0xbec3d02d}}};
    for (int three_d = 0; three_d < 2; three_d++)
        for (int fractal = 0; fractal < OLD_FRACTALS; fractal++)
            for (int type = 0; type < OLD_TYPES; type++) {
                noise_spec spec = spec_of(type, fractal, 5, 0.07);
                noise_field nf;
                noise_field_init(&nf, &spec, three_d, 42u);
                uint32_t hash = 2166136261u;
                for (int z = 0; z < 3; z++)
                    for (int y = 0; y < 23; y++)
                        for (int x = 0; x < 37; x++) {
                            float v = noise_value(&nf, x, y, z);
                            uint32_t bits;
                            memcpy(&bits, &v, sizeof bits);
                            hash = (hash ^ bits) * 16777619u;
                        }
                if (hash != expected[three_d][fractal][type])
                    print_message("noise %dD %s %s: 0x%08x\n", 2 + three_d, type_names[type], fractal_names[fractal], hash);
                assert_int_equal(hash, expected[three_d][fractal][type]);
            }
}

typedef struct noise_run {
    smalti_model *model;
    smalti_run *run;
    noise_field field;
    rng before;          /* the stream as the noise node began */
} noise_run;

static const node *find_noise(const smalti_model *m, int which)
{
    for (int i = 0; i < m->node_count; i++)
        if (m->nodes[i]->kind == &node_kind_noise && which-- == 0) return m->nodes[i];
    fail_msg("no noise node");
    return NULL;
}

/* Load, run one step (the first noise node paints) and rebuild the field it painted with. */
static noise_run paint(const char *xml, int mx, int my, int mz, int32_t seed)
{
    noise_run s;
    s.model = unit_load(xml, "noise.xml", mx, my, mz, NULL);
    s.run = smalti_run_new(s.model, seed, NULL);
    assert_non_null(s.run);
    s.before = s.run->rs.random;
    assert_int_equal(smalti_run_step(s.run), 1);
    rng draw = s.before;
    noise_node_field(find_noise(s.model, 0), mz > 1, (uint32_t)rng_next(&draw), &s.field);
    return s;
}

static void finish(noise_run *s)
{
    smalti_run_free(s->run);
    smalti_model_free(s->model);
}

/* Each cell takes the first band whose `to` is above its value: checked cell by cell
   against the recomputed noise, on a grid that hits every band. */
static void every_cell_takes_the_first_band_above_its_value(void **state)
{
    (void)state;
    const char *xml = "<noise values=\"BACDE\" type=\"simplex\" fractal=\"fbm\" octaves=\"3\" frequency=\"0.07\">"
                      "<band to=\"-0.3\" value=\"A\"/><band to=\"0\" value=\"C\"/><band to=\"0\" value=\"B\"/>"
                      "<band to=\"0.35\" value=\"D\"/><band value=\"E\"/></noise>";
    noise_run s = paint(xml, 97, 61, 1, 7);
    const unsigned char *g = s.run->rs.state;
    int seen[5] = {0};
    for (int y = 0; y < 61; y++)
        for (int x = 0; x < 97; x++) {
            float v = noise_value(&s.field, x, y, 0);
            int want = v < -0.3f ? 1 : v < 0.0f ? 2 : v < 0.35f ? 3 : 4;
            if (g[x + y * 97] != want) fail_msg("cell %d,%d of value %g holds %d, not %d", x, y, v, g[x + y * 97], want);
            seen[want]++;
        }
    for (int k = 1; k < 5; k++) assert_true(seen[k] > 100);
    assert_int_equal(s.run->rs.acting_node, find_noise(s.model, 0)->id);
    smalti_run_step(s.run); /* one step paints everything; the next finds the node done */
    assert_int_equal(s.run->rs.acting_node, -1);
    assert_true(smalti_run_finished(s.run));
    finish(&s);
}

/* A p band takes about p of the cells that reach it; the others fall through to the next
   band. The stream advances once for the seed and once per cell reaching the p band. */
static void p_band_falls_through_at_the_right_rate(void **state)
{
    (void)state;
    const char *xml = "<noise values=\"BAC\" type=\"perlin\" fractal=\"none\" frequency=\"0.05\">"
                      "<band to=\"0.1\" value=\"A\" p=\"0.3\"/><band value=\"C\"/></noise>";
    noise_run s = paint(xml, 200, 150, 1, 11);
    const unsigned char *g = s.run->rs.state;
    int reached = 0, taken = 0;
    for (int y = 0; y < 150; y++)
        for (int x = 0; x < 200; x++) {
            unsigned char c = g[x + y * 200];
            if (noise_value(&s.field, x, y, 0) < 0.1f) {
                reached++;
                taken += c == 1;
                assert_true(c == 1 || c == 2);
            } else
                assert_int_equal(c, 2);
        }
    assert_true(reached > 5000);
    double rate = (double)taken / reached;
    if (fabs(rate - 0.3) > 0.02) fail_msg("p=0.3 band took %.3f of %d cells", rate, reached);
    rng expect = s.before;
    for (int k = 0; k < 1 + reached; k++) rng_next(&expect);
    assert_memory_equal(&expect, &s.run->rs.random, sizeof expect);
    finish(&s);
}

/* Only cells matching `on` change, and a cell no band takes is left as it is: a first noise
   paints A where its value is below 0 and leaves the rest B; a second one, on A only,
   repaints all of those C. */
static void on_and_unbanded_cells_are_left_alone(void **state)
{
    (void)state;
    const char *xml = "<sequence values=\"BAC\"><noise type=\"value\" frequency=\"0.1\"><band to=\"0\" value=\"A\"/></noise>"
                      "<noise type=\"white\" on=\"A\"><band value=\"C\"/></noise></sequence>";
    noise_run s = paint(xml, 64, 48, 1, 3);
    smalti_run_to_end(s.run, 0);
    const unsigned char *g = s.run->rs.state;
    int c_cells = 0;
    for (int i = 0; i < 64 * 48; i++) {
        bool below = noise_value(&s.field, i % 64, i / 64, 0) < 0.0f;
        assert_int_equal(g[i], below ? 2 : 0);
        c_cells += below;
    }
    assert_true(c_cells > 300 && c_cells < 64 * 48 - 300);
    finish(&s);
}

static void copy_grid(const smalti_model *m, int32_t seed, unsigned char *out, int cells)
{
    smalti_run *run = smalti_run_new(m, seed, NULL);
    smalti_run_to_end(run, 0);
    memcpy(out, smalti_run_grid(run, NULL, NULL, NULL), (size_t)cells);
    smalti_run_free(run);
}

/* The same seed gives a byte-identical grid, another seed another grid; in 3-D too, where
   the layers differ from each other and follow the 3-D noise. */
static void seeds_and_three_d(void **state)
{
    (void)state;
    const char *xml = "<noise values=\"BWR\" type=\"simplex\" frequency=\"0.08\" octaves=\"3\">"
                      "<band to=\"-0.1\" value=\"W\"/><band to=\"0.2\" value=\"R\"/></noise>";
    static unsigned char a[40 * 30 * 12], b[40 * 30 * 12], c[40 * 30 * 12];
    for (int mz = 1; mz <= 12; mz += 11) {
        int cells = 40 * 30 * mz;
        smalti_model *m = unit_load(xml, "noise.xml", 40, 30, mz, NULL);
        copy_grid(m, 5, a, cells);
        copy_grid(m, 5, b, cells);
        copy_grid(m, 6, c, cells);
        assert_memory_equal(a, b, (size_t)cells);
        assert_true(memcmp(a, c, (size_t)cells) != 0);
        smalti_model_free(m);
    }
    noise_run s = paint(xml, 40, 30, 12, 5);
    assert_memory_equal(s.run->rs.state, a, sizeof a);
    assert_true(memcmp(a, a + 40 * 30 * 6, 40 * 30) != 0);
    for (int i = 0; i < 40 * 30 * 12; i++) {
        float v = noise_value(&s.field, i % 40, i / 40 % 30, i / 1200);
        assert_int_equal(a[i], v < -0.1f ? 1 : v < 0.2f ? 2 : 0);
    }
    finish(&s);
}

/* One octave of cellular noise with the given options. */
static void cellular_field(noise_field *nf, bool three_d, int distance, int result, double jitter, double frequency)
{
    noise_spec spec = spec_of(NOISE_CELLULAR, FRACTAL_NONE, 1, frequency);
    spec.cellular_distance = distance;
    spec.cellular_return = result;
    spec.cellular_jitter = jitter;
    noise_field_init(nf, &spec, three_d, 99u);
}

static double metric(int distance, const double *p)
{
    double manhattan = fabs(p[0]) + fabs(p[1]) + fabs(p[2]), squared = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
    switch (distance) {
    case CELLULAR_EUCLIDEAN: return sqrt(squared);
    case CELLULAR_EUCLIDEAN_SQ: return squared;
    case CELLULAR_MANHATTAN: return manhattan;
    default: return manhattan + squared;
    }
}

/* With jitter 0 every feature point sits at its lattice cell's centre, so F1 and F2 are known:
   each distance function and distance return type is checked against them, recomputed in
   double precision from the sample point, in 2-D and 3-D. */
static void cellular_distances_match_the_lattice_centres(void **state)
{
    (void)state;
    static const char *const distance_names[] = {"euclidean", "euclideansq", "manhattan", "hybrid"};
    for (int three_d = 0; three_d < 2; three_d++)
        for (int distance = CELLULAR_EUCLIDEAN; distance <= CELLULAR_HYBRID; distance++)
            for (int result = CELLULAR_DISTANCE; result <= CELLULAR_DISTANCE2_DIV; result++) {
                noise_field nf;
                cellular_field(&nf, three_d, distance, result, 0.0, 0.13);
                for (int y = 0; y < 20; y++)
                    for (int x = 0; x < 20; x++) {
                        int z = three_d ? (x + y) % 7 : 0, cell[3] = {x, y, z};
                        double p[3], f1 = 1e9, f2 = 1e9;
                        for (int a = 0; a < 3; a++) p[a] = ((float)cell[a] + 0.5f) * nf.freq[0] + nf.offset[0][a];
                        for (int dz = -2; dz <= (three_d ? 2 : -2); dz++)
                            for (int dy = -2; dy <= 2; dy++)
                                for (int dx = -2; dx <= 2; dx++) {
                                    double v[3] = {floor(p[0]) + dx + 0.5 - p[0], floor(p[1]) + dy + 0.5 - p[1],
                                                   three_d ? floor(p[2]) + dz + 0.5 - p[2] : 0};
                                    double d = metric(distance, v);
                                    if (d < f1) f2 = f1, f1 = d;
                                    else if (d < f2) f2 = d;
                                }
                        double want = result == CELLULAR_DISTANCE        ? 2 * f1 - 1
                                      : result == CELLULAR_DISTANCE2     ? 2 * f2 - 1
                                      : result == CELLULAR_DISTANCE2_ADD ? f1 + f2 - 1
                                      : result == CELLULAR_DISTANCE2_SUB ? 2 * (f2 - f1) - 1
                                      : result == CELLULAR_DISTANCE2_MUL ? 2 * f1 * f2 - 1
                                                                         : 2 * f1 / f2 - 1;
                        want = want > 1 ? 1 : want;
                        float got = noise_value(&nf, x, y, z);
                        if (fabs(got - want) > 1e-5)
                            fail_msg("%dD %s return %d at %d,%d,%d: %.7f, not %.7f", 2 + three_d, distance_names[distance], result, x, y, z,
                                     got, want);
                    }
            }
}

/* Jitter moves each feature point at most jitter/2 per axis from its cell's centre: F1 is at
   most the distance to the nearest centre plus that. Jitter 0.3 keeps within it and still
   moves points (F1 differs from jitter 0's). */
static void cellular_jitter_bounds_the_points(void **state)
{
    (void)state;
    noise_field still, jittered;
    cellular_field(&still, false, CELLULAR_EUCLIDEAN, CELLULAR_DISTANCE, 0.0, 0.11);
    cellular_field(&jittered, false, CELLULAR_EUCLIDEAN, CELLULAR_DISTANCE, 0.3, 0.11);
    int moved = 0;
    for (int y = 0; y < 60; y++)
        for (int x = 0; x < 60; x++) {
            double f1_still = (noise_value(&still, x, y, 0) + 1) / 2, f1 = (noise_value(&jittered, x, y, 0) + 1) / 2;
            assert_true(f1 <= f1_still + 0.15 * sqrt(2.0) + 1e-5);
            moved += fabs(f1 - f1_still) > 0.01;
        }
    assert_true(moved > 1000);
}

/* Cell value gives each Voronoi cell one value: neighbouring grid cells hold different values
   only near a border, where F2 - F1 (distance2sub, same seed: same points) is at most twice
   the step between them; the regions of equal value are as many as the feature points the
   grid covers, and no two share a value. */
static void cell_value_gives_regions_of_one_value(void **state)
{
    (void)state;
    enum { N = 120 };
    static float value[N * N];
    static int region[N * N], stack[N * N];
    noise_field cells, gap;
    cellular_field(&cells, false, CELLULAR_EUCLIDEAN, CELLULAR_CELL_VALUE, 1.0, 0.05);
    cellular_field(&gap, false, CELLULAR_EUCLIDEAN, CELLULAR_DISTANCE2_SUB, 1.0, 0.05);
    for (int i = 0; i < N * N; i++) value[i] = noise_value(&cells, i % N, i / N, 0);
    int borders = 0;
    for (int i = 0; i < N * N; i++)
        for (int step = 1; step <= N; step += N - 1) {
            int j = i + step;
            if (j >= N * N || (step == 1 && j % N == 0) || value[i] == value[j]) continue;
            borders++;
            for (int k = 0; k < 2; k++) {
                int c = k ? j : i;
                double f2_minus_f1 = (noise_value(&gap, c % N, c / N, 0) + 1) / 2;
                if (f2_minus_f1 > 2 * 0.05 + 1e-5) fail_msg("cell %d,%d: value changes but F2 - F1 is %g", c % N, c / N, f2_minus_f1);
            }
        }
    assert_true(borders > 200);
    /* Flood the regions of equal value (4-neighbours). */
    memset(region, -1, sizeof region);
    int regions = 0;
    for (int i = 0; i < N * N; i++) {
        if (region[i] >= 0) continue;
        int top = 0;
        stack[top++] = i;
        region[i] = regions;
        while (top) {
            int c = stack[--top], next[4] = {c % N ? c - 1 : -1, c % N < N - 1 ? c + 1 : -1, c - N, c + N};
            for (int k = 0; k < 4; k++)
                if (next[k] >= 0 && next[k] < N * N && region[next[k]] < 0 && value[next[k]] == value[c]) {
                    region[next[k]] = regions;
                    stack[top++] = next[k];
                }
        }
        for (int j = 0; j < i; j++)
            if (region[j] != regions && value[j] == value[i]) fail_msg("two regions share the value %g", value[i]);
        regions++;
    }
    /* 120 cells at frequency 0.05 span 6 lattice cells: 36 to 49 points touch the grid. */
    if (regions < 30 || regions > 55) fail_msg("%d regions", regions);
}

static void count_warning(void *userdata, const char *file, int line, const char *message)
{
    (void)file;
    assert_int_equal(line, 2);
    assert_true(strstr(message, "cellularReturn") || strstr(message, "pingPongStrength"));
    ++*(int *)userdata;
}

/* A bad cellular option is a load error on its line; one on another type warns. */
static void bad_cellular_options_are_load_errors(void **state)
{
    (void)state;
    static const char *const bad[] = {"cellularJitter=\"1.5\"", "cellularJitter=\"-0.1\"", "cellularDistance=\"chebyshev\"",
                                      "cellularReturn=\"distance3\""};
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = opt.my = 8;
    opt.mz = 1;
    opt.quiet = 1;
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        char xml[256];
        snprintf(xml, sizeof xml, "<sequence values=\"BW\">\n<noise type=\"cellular\" %s><band value=\"W\"/></noise>\n</sequence>", bad[k]);
        smalti_error err;
        smalti_model *m = smalti_model_load_string(xml, "bad.xml", &opt, &err);
        if (m) fail_msg("%s loaded", bad[k]);
        assert_int_equal(err.status, SMALTI_ERR_MODEL);
        assert_int_equal(err.line, 2);
    }
    int warnings = 0;
    opt.quiet = 0;
    opt.warn = count_warning;
    opt.warn_userdata = &warnings;
    smalti_error err;
    smalti_model *m = smalti_model_load_string("<sequence values=\"BW\">\n<noise type=\"perlin\" cellularReturn=\"cellvalue\">"
                                               "<band value=\"W\"/></noise>\n</sequence>",
                                               "warn.xml", &opt, &err);
    assert_non_null(m);
    assert_int_equal(warnings, 1);
    smalti_model_free(m);
}

/* Ping-pong folds each octave's noise n: the octave adds 2 pp((n + 1) s) - 1, pp the triangle
   wave between 0 and 1 of period 2. Checked against each octave's plain noise (the same
   lattice seed, frequency and offset alone, fractal none), summed by amplitude, for several
   strengths and types, in 2-D and 3-D. */
static void ping_pong_folds_each_octave(void **state)
{
    (void)state;
    static const double strengths[] = {2.0, 0.7, 3.5};
    static const int types[] = {NOISE_SIMPLEX, NOISE_PERLIN, NOISE_CELLULAR};
    for (int three_d = 0; three_d < 2; three_d++)
        for (int t = 0; t < 3; t++)
            for (int k = 0; k < 3; k++) {
                noise_spec spec = spec_of(types[t], FRACTAL_PINGPONG, 3, 0.09);
                spec.ping_pong_strength = strengths[k];
                noise_field nf, plain[3];
                noise_field_init(&nf, &spec, three_d, 4242u);
                noise_spec one = spec_of(types[t], FRACTAL_NONE, 1, 0.09);
                for (int o = 0; o < 3; o++) {
                    noise_field_init(&plain[o], &one, three_d, 0u);
                    plain[o].freq[0] = nf.freq[o];
                    plain[o].seed[0] = nf.seed[o];
                    memcpy(plain[o].offset[0], nf.offset[o], sizeof nf.offset[o]);
                }
                int folded = 0;
                for (int y = 0; y < 40; y++)
                    for (int x = 0; x < 40; x++) {
                        double sum = 0;
                        for (int o = 0; o < 3; o++) {
                            double u = (noise_value(&plain[o], x, y, 2) + 1.0) * strengths[k];
                            u -= 2.0 * floor(u / 2.0);
                            folded += u != (noise_value(&plain[o], x, y, 2) + 1.0) * strengths[k];
                            sum += (2.0 * (u < 1 ? u : 2 - u) - 1.0) * nf.amp[o];
                        }
                        double want = sum * nf.norm;
                        want = want > 1 ? 1 : want < -1 ? -1 : want;
                        float got = noise_value(&nf, x, y, 2);
                        if (fabs(got - want) > 1e-5)
                            fail_msg("%s %dD strength %g at %d,%d: %.7f, not %.7f", type_names[types[t]], 2 + three_d, strengths[k], x, y, got,
                                     want);
                    }
                if (strengths[k] >= 2.0) assert_true(folded > 100); /* the fold is exercised */
            }
}

/* pingPongStrength must be above 0 and at most 16; on another fractal it warns. */
static void bad_ping_pong_strength_is_a_load_error(void **state)
{
    (void)state;
    static const char *const bad[] = {"0", "-1", "17", "two"};
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = opt.my = 8;
    opt.mz = 1;
    opt.quiet = 1;
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        char xml[256];
        snprintf(xml, sizeof xml, "<sequence values=\"BW\">\n<noise fractal=\"pingpong\" pingPongStrength=\"%s\"><band value=\"W\"/></noise>\n</sequence>",
                 bad[k]);
        smalti_error err;
        smalti_model *m = smalti_model_load_string(xml, "bad.xml", &opt, &err);
        if (m) fail_msg("pingPongStrength=\"%s\" loaded", bad[k]);
        assert_int_equal(err.status, SMALTI_ERR_MODEL);
        assert_int_equal(err.line, 2);
    }
    opt.quiet = 0;
    opt.warn = count_warning;
    int warnings = 0;
    opt.warn_userdata = &warnings;
    smalti_error err;
    smalti_model *m = smalti_model_load_string("<sequence values=\"BW\">\n<noise fractal=\"ridged\" pingPongStrength=\"3\">"
                                               "<band value=\"W\"/></noise>\n</sequence>",
                                               "warn.xml", &opt, &err);
    assert_non_null(m);
    assert_int_equal(warnings, 1);
    smalti_model_free(m);
}

static double hermite(const double *v, double t)
{
    /* The cubic through v[1] at t = 0 and v[2] at t = 1 with slopes v[2] - v[0] and
       v[3] - v[1] (FastNoiseLite's; Catmull-Rom would halve them), in Hermite form. */
    double m1 = v[2] - v[0], m2 = v[3] - v[1], t2 = t * t, t3 = t2 * t;
    return (2 * t3 - 3 * t2 + 1) * v[1] + (t3 - 2 * t2 + t) * m1 + (-2 * t3 + 3 * t2) * v[2] + (t3 - t2) * m2;
}

/* Value cubic is the cubic Hermite spline through the lattice values of plain value noise (the
   same lattice seed): those are read from value noise sampled exactly at lattice points
   (frequency 1, offset 1/2), and the spline is recomputed in double precision, divided by
   1.5 per axis, in 2-D and 3-D. At lattice points value cubic thus takes value noise's values. */
static void value_cubic_is_the_spline_through_the_lattice_values(void **state)
{
    (void)state;
    for (int three_d = 0; three_d < 2; three_d++) {
        noise_spec cubic_spec = spec_of(NOISE_VALUE_CUBIC, FRACTAL_NONE, 1, 0.37), value_spec = spec_of(NOISE_VALUE, FRACTAL_NONE, 1, 1.0);
        noise_field cubic, value;
        noise_field_init(&cubic, &cubic_spec, three_d, 777u);
        noise_field_init(&value, &value_spec, three_d, 777u);
        value.seed[0] = cubic.seed[0];
        for (int a = 0; a < 3; a++) {
            cubic.offset[0][a] = 2.25f + 0.25f * (float)a; /* lattice indices from 2 up: every neighbour is readable */
            value.offset[0][a] = 0.5f;
        }
        int dims = three_d ? 3 : 2;
        for (int y = 0; y < 24; y++)
            for (int x = 0; x < 24; x++) {
                int z = three_d ? (x * 3 + y) % 9 : 0, cell[3] = {x, y, z}, base[3];
                double t[3] = {0, 0, 0};
                for (int a = 0; a < dims; a++) {
                    float p = ((float)cell[a] + 0.5f) * cubic.freq[0] + cubic.offset[0][a];
                    base[a] = (int)p;
                    t[a] = p - (float)base[a];
                }
                /* Lattice value L(i, j, k) is value noise at cell (i - 1, j - 1, k - 1). */
                double layers[4];
                for (int dz = 0; dz < (three_d ? 4 : 1); dz++) {
                    double rows[4];
                    for (int dy = 0; dy < 4; dy++) {
                        double v[4];
                        for (int dx = 0; dx < 4; dx++)
                            v[dx] = noise_value(&value, base[0] + dx - 2, base[1] + dy - 2, three_d ? base[2] + dz - 2 : 0);
                        rows[dy] = hermite(v, t[0]);
                    }
                    layers[dz] = hermite(rows, t[1]);
                }
                double want = three_d ? hermite(layers, t[2]) / 3.375 : layers[0] / 2.25;
                float got = noise_value(&cubic, x, y, z);
                if (fabs(got - want) > 1e-5) fail_msg("%dD at %d,%d,%d: %.7f, not %.7f", 2 + three_d, x, y, z, got, want);
            }
    }
}

/* Simplex smooth is the sum, over every lattice point, of (r^2 - d^2)^4 times the point's
   gradient term, for the points within reach: recomputed by brute force over a wide block of
   lattice points (so a point the kernel reaches but the noise skips would show), in 2-D
   (triangular lattice, r^2 = 2/3) and 3-D (two cubic lattices, r^2 = 3/4). */
static void simplex_smooth_sums_every_point_within_reach(void **state)
{
    (void)state;
    const double g2 = (3 - sqrt(3.0)) / 6, f2 = (sqrt(3.0) - 1) / 2;
    for (int three_d = 0; three_d < 2; three_d++) {
        noise_spec spec = spec_of(NOISE_SIMPLEX_SMOOTH, FRACTAL_NONE, 1, 0.31);
        noise_field nf;
        noise_field_init(&nf, &spec, three_d, 31337u);
        double largest = 0;
        for (int y = 0; y < 30; y++)
            for (int x = 0; x < 30; x++) {
                int z = three_d ? (x + 2 * y) % 5 : 0, cell[3] = {x, y, z};
                double p[3], sum = 0;
                for (int a = 0; a < 3; a++) p[a] = ((float)cell[a] + 0.5f) * nf.freq[0] + nf.offset[0][a];
                if (!three_d) {
                    double skew = (p[0] + p[1]) * f2;
                    int i = (int)floor(p[0] + skew), j = (int)floor(p[1] + skew);
                    for (int di = -3; di <= 4; di++)
                        for (int dj = -3; dj <= 4; dj++) {
                            double unskew = (i + di + j + dj) * g2, dx = p[0] - (i + di - unskew), dy = p[1] - (j + dj - unskew);
                            double k = 2.0 / 3 - dx * dx - dy * dy;
                            if (k > 0) sum += k * k * k * k * noise_smooth_gradient2(nf.seed[0], i + di, j + dj, (float)dx, (float)dy);
                        }
                    sum *= SIMPLEX_SMOOTH2_SCALE;
                } else {
                    for (int lattice = 0; lattice < 2; lattice++) {
                        double shift = lattice * 0.5;
                        int base[3];
                        for (int a = 0; a < 3; a++) base[a] = (int)floor(p[a] - shift);
                        for (int di = -2; di <= 3; di++)
                            for (int dj = -2; dj <= 3; dj++)
                                for (int dk = -2; dk <= 3; dk++) {
                                    double dx = p[0] - (base[0] + di + shift), dy = p[1] - (base[1] + dj + shift),
                                           dz = p[2] - (base[2] + dk + shift);
                                    double k = 0.75 - dx * dx - dy * dy - dz * dz;
                                    if (k > 0)
                                        sum += k * k * k * k *
                                               noise_smooth_gradient3(nf.seed[0], lattice, base[0] + di, base[1] + dj, base[2] + dk, (float)dx,
                                                                      (float)dy, (float)dz);
                                }
                    }
                    sum *= SIMPLEX_SMOOTH3_SCALE;
                }
                float got = noise_value(&nf, x, y, z);
                if (fabs(got - sum) > 2e-5) fail_msg("%dD at %d,%d,%d: %.7f, not %.7f", 2 + three_d, x, y, z, got, sum);
                largest = fabs(sum) > largest ? fabs(sum) : largest;
            }
        assert_true(largest > 0.5);
    }
}

int run_noise_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(values_lie_in_range_with_a_sane_spread),
        cmocka_unit_test(fixed_seed_gives_fixed_bits),
        cmocka_unit_test(every_cell_takes_the_first_band_above_its_value),
        cmocka_unit_test(p_band_falls_through_at_the_right_rate),
        cmocka_unit_test(on_and_unbanded_cells_are_left_alone),
        cmocka_unit_test(seeds_and_three_d),
        cmocka_unit_test(cellular_distances_match_the_lattice_centres),
        cmocka_unit_test(cellular_jitter_bounds_the_points),
        cmocka_unit_test(cell_value_gives_regions_of_one_value),
        cmocka_unit_test(bad_cellular_options_are_load_errors),
        cmocka_unit_test(ping_pong_folds_each_octave),
        cmocka_unit_test(bad_ping_pong_strength_is_a_load_error),
        cmocka_unit_test(value_cubic_is_the_spline_through_the_lattice_values),
        cmocka_unit_test(simplex_smooth_sums_every_point_within_reach),
    };
    return cmocka_run_group_tests_name("noise", tests, NULL, NULL);
}
