/* test_poisson.c — the `poisson` node: points at least `radius` apart, no free cell left, `on` respected,
   disconnected regions filled, 3-D, reproducibility; method="bridson" leaves free cells, fewer with more tries;
   radii and a radius picture: two points at least the larger of their radii apart. */
#include "unit.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../../src/engine/run.h"
#include "../../src/io/output.h"

static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static int below(uint64_t *s, int n) { return (int)(next_u64(s) % (uint64_t)n); }

/* Scatter `value` with `radius` over the picture (NULL: all 'B'); returns the final symbols (caller frees). */
static char *scatter(const char *attrs, int mx, int my, int mz, const char *picture, int seed, long *steps)
{
    char xml[256];
    snprintf(xml, sizeof xml, "<sequence values=\"BWTG\"><poisson %s/></sequence>", attrs);
    return unit_run_picture(xml, "poisson.xml", mx, my, mz, picture, seed, steps);
}

static int64_t d2_of(int a, int b, int mx, int my)
{
    int64_t dx = a % mx - b % mx, dy = a / mx % my - b / mx % my, dz = a / (mx * my) - b / (mx * my);
    return dx * dx + dy * dy + dz * dz;
}

/* Check by comparing every pair: points (cells that became `point`) lie only on `on` cells, every pair is at least
   `radius` apart, every `on` cell lies within `radius` of a point, nothing else changed. Returns the point count. */
static int check_brute(const char *before, const char *after, int mx, int my, int mz, double radius, const char *on, char point)
{
    int cells = mx * my * mz, count = 0;
    int *points = malloc((size_t)cells * sizeof *points);
    assert_non_null(points);
    for (int i = 0; i < cells; i++) {
        bool is_on = strchr(on, before[i]) != NULL;
        if (after[i] != before[i] || (is_on && after[i] == point)) {
            if (!is_on || after[i] != point) fail_msg("cell %d changed from %c to %c", i, before[i], after[i]);
            points[count++] = i;
        }
    }
    double r2 = radius * radius;
    for (int a = 0; a < count; a++)
        for (int b = a + 1; b < count; b++)
            if ((double)d2_of(points[a], points[b], mx, my) < r2) fail_msg("points %d and %d are nearer than %g", points[a], points[b], radius);
    for (int i = 0; i < cells; i++) {
        if (!strchr(on, before[i])) continue;
        bool covered = false;
        for (int a = 0; a < count && !covered; a++) covered = (double)d2_of(i, points[a], mx, my) < r2;
        if (!covered) fail_msg("cell %d matches on and is free: another point fits there (radius %g)", i, radius);
    }
    free(points);
    return count;
}

static char *random_picture(uint64_t *seed, int cells, int walls)
{
    char *p = malloc((size_t)cells + 1);
    assert_non_null(p);
    for (int i = 0; i < cells; i++) p[i] = below(seed, 100) < walls ? 'W' : 'B';
    p[cells] = 0;
    return p;
}

static void small_cases_hold_against_brute_force(void **state)
{
    (void)state;
    static const double radii[] = {0.5, 1, 1.5, 2, 2.5, 3, 4.7, 7, 30};
    uint64_t seed = 4242;
    for (int t = 0; t < 90; t++) {
        double r = radii[t % 9];
        bool d3 = t % 5 == 4;
        int mx = 1 + below(&seed, 30), my = 1 + below(&seed, 24), mz = d3 ? 1 + below(&seed, 8) : 1;
        char *before = random_picture(&seed, mx * my * mz, below(&seed, 60));
        char attrs[96];
        snprintf(attrs, sizeof attrs, "value=\"T\" on=\"B\" radius=\"%g\" k=\"%d\"", r, 1 + below(&seed, 40));
        char *after = scatter(attrs, mx, my, mz, before, t, NULL);
        check_brute(before, after, mx, my, mz, r, "B", 'T');
        free(before);
        free(after);
    }
}

/* The value itself may match `on`: the points are then told apart from a picture with no T. */
static void value_inside_on_and_radius_one(void **state)
{
    (void)state;
    char *before = malloc(12 * 9 + 1);
    assert_non_null(before);
    memset(before, 'B', 12 * 9);
    before[12 * 9] = 0;
    char *after = scatter("value=\"T\" radius=\"1\"", 12, 9, 1, before, 3, NULL);
    /* Radius 1: neighbours are 1 apart, so every cell takes a point. */
    for (int i = 0; i < 12 * 9; i++) assert_int_equal(after[i], 'T');
    free(after);
    after = scatter("value=\"T\" on=\"*\" radius=\"2.2\"", 12, 9, 1, before, 3, NULL);
    assert_true(check_brute(before, after, 12, 9, 1, 2.2, "B", 'T') > 6);
    free(after);
    free(before);
}

/* Walls cut the grid into rooms that no annulus can reach across: each still fills. */
static void disconnected_regions_fill(void **state)
{
    (void)state;
    int mx = 60, my = 40;
    char *before = malloc((size_t)mx * my + 1);
    assert_non_null(before);
    for (int i = 0; i < mx * my; i++) {
        int x = i % mx, y = i / mx;
        before[i] = (x / 6) % 2 == 1 || y % 13 < 9 ? 'W' : 'B';
    }
    before[mx * my] = 0;
    /* Islands 6 wide and 4 tall, 7 columns and 10 rows apart: farther than the annulus [3, 6) reaches. */
    char *after = scatter("value=\"T\" on=\"B\" radius=\"3\" k=\"3\"", mx, my, 1, before, 8, NULL);
    check_brute(before, after, mx, my, 1, 3, "B", 'T');
    for (int iy = 9; iy < my; iy += 13)
        for (int ix = 0; ix < mx; ix += 12) {
            bool any = false;
            for (int y = iy; y < iy + 4 && y < my; y++)
                for (int x = ix; x < ix + 6; x++) any |= after[x + y * mx] == 'T';
            assert_true(any);
        }
    free(before);
    free(after);
}

/* A bigger grid, checked through a neighbourhood scan instead of all pairs. */
static void check_large(int mx, int my, double radius, int seed)
{
    int cells = mx * my;
    uint64_t pick = (uint64_t)seed;
    char *before = random_picture(&pick, cells, 10);
    char attrs[64];
    snprintf(attrs, sizeof attrs, "value=\"T\" on=\"B\" radius=\"%g\"", radius);
    long steps;
    char *after = scatter(attrs, mx, my, 1, before, seed, &steps);
    assert_int_equal(steps, 1);
    int reach = (int)ceil(radius);
    int points = 0, on = 0;
    for (int i = 0; i < cells; i++) {
        int x = i % mx, y = i / mx;
        on += before[i] == 'B';
        if (after[i] == 'T') {
            assert_int_equal(before[i], 'B');
            points++;
        } else {
            assert_int_equal(after[i], before[i]);
        }
        bool near_point = false;
        for (int dy = -reach; dy <= reach; dy++)
            for (int dx = -reach; dx <= reach; dx++) {
                int nx = x + dx, ny = y + dy;
                if ((dx == 0 && dy == 0) || nx < 0 || ny < 0 || nx >= mx || ny >= my || after[nx + ny * mx] != 'T') continue;
                bool near = (double)(dx * dx + dy * dy) < radius * radius;
                if (after[i] == 'T' && near) fail_msg("radius %g: points (%d,%d) and (%d,%d) are too near", radius, x, y, nx, ny);
                near_point |= near;
            }
        if (before[i] == 'B' && after[i] != 'T' && !near_point) fail_msg("radius %g: (%d,%d) is free", radius, x, y);
    }
    /* A sane density: fewer points than a hexagonal packing of radius r, more than one per (2r)^2. */
    assert_true(points < on / (radius * radius * 0.86) + 50 && points > on / (4 * radius * radius));
    free(before);
    free(after);
}

static void large_grid_spacing_and_coverage(void **state)
{
    (void)state;
    check_large(256, 200, 4, 11);
    check_large(120, 90, 3, 12);     /* the disc's rim holds (2,2): d2 = 8 < 9 */
    check_large(120, 90, 1.5, 13);
    check_large(120, 90, 5.1, 14);
}

static void same_seed_same_grid(void **state)
{
    (void)state;
    char *a = scatter("value=\"T\" radius=\"3\"", 50, 40, 1, NULL, 7, NULL);
    char *b = scatter("value=\"T\" radius=\"3\"", 50, 40, 1, NULL, 7, NULL);
    char *c = scatter("value=\"T\" radius=\"3\"", 50, 40, 1, NULL, 8, NULL);
    assert_string_equal(a, b);
    assert_string_not_equal(a, c);
    free(a), free(b), free(c);
    a = scatter("value=\"T\" radius=\"2.5\"", 12, 10, 9, NULL, 7, NULL);
    b = scatter("value=\"T\" radius=\"2.5\"", 12, 10, 9, NULL, 7, NULL);
    assert_string_equal(a, b);
    char *before = malloc(12 * 10 * 9 + 1);
    memset(before, 'B', 12 * 10 * 9);
    before[12 * 10 * 9] = 0;
    check_brute(before, a, 12, 10, 9, 2.5, "B", 'T');
    free(a), free(b), free(before);
}

/* A huge radius holds one point per grid; and nothing matching `on` means no step. */
static void huge_radius_and_nothing_to_do(void **state)
{
    (void)state;
    char *g = scatter("value=\"T\" radius=\"60000\" k=\"5\"", 40, 30, 1, NULL, 1, NULL);
    int points = 0;
    for (const char *c = g; *c; c++) points += *c == 'T';
    assert_int_equal(points, 1);
    free(g);
    long steps;
    g = scatter("value=\"T\" on=\"G\" radius=\"2\"", 6, 5, 1, NULL, 1, &steps);
    assert_int_equal(steps, 0);
    free(g);
}

/* Checks that every two points (cells turned to `point` from `on`) are at least `radius` apart and nothing else
   changed; returns how many `on` cells are still free: at least `radius` from every point, so one more would fit. */
static int free_cells(const char *before, const char *after, int mx, int my, int mz, double radius, const char *on, char point)
{
    int cells = mx * my * mz, count = 0, free_count = 0;
    int *points = malloc((size_t)cells * sizeof *points);
    assert_non_null(points);
    for (int i = 0; i < cells; i++) {
        if (after[i] == before[i]) continue;
        if (!strchr(on, before[i]) || after[i] != point) fail_msg("cell %d changed from %c to %c", i, before[i], after[i]);
        points[count++] = i;
    }
    double r2 = radius * radius;
    for (int a = 0; a < count; a++)
        for (int b = a + 1; b < count; b++)
            if ((double)d2_of(points[a], points[b], mx, my) < r2) fail_msg("points %d and %d are nearer than %g", points[a], points[b], radius);
    for (int i = 0; i < cells; i++) {
        if (!strchr(on, before[i]) || after[i] == point) continue;
        bool covered = false;
        for (int a = 0; a < count && !covered; a++) covered = (double)d2_of(i, points[a], mx, my) < r2;
        free_count += !covered;
    }
    free(points);
    return free_count;
}

/* The test: Bridson with k = 1 leaves cells that could take a point, and with k = 30 leaves fewer. */
static void bridson_k1_leaves_free_cells_k30_fewer(void **state)
{
    (void)state;
    int mx = 48, my = 40;
    char *before = malloc((size_t)mx * my + 1);
    assert_non_null(before);
    memset(before, 'B', (size_t)mx * my);
    before[mx * my] = 0;
    char *k1 = scatter("value=\"T\" on=\"B\" radius=\"3\" k=\"1\" method=\"bridson\"", mx, my, 1, before, 5, NULL);
    char *k30 = scatter("value=\"T\" on=\"B\" radius=\"3\" k=\"30\" method=\"bridson\"", mx, my, 1, before, 5, NULL);
    int free1 = free_cells(before, k1, mx, my, 1, 3, "B", 'T'), free30 = free_cells(before, k30, mx, my, 1, 3, "B", 'T');
    assert_true(free1 > 0);
    assert_true(free30 < free1);
    /* The default keeps reseeding: on the same grid it leaves none. */
    char *maximal = scatter("value=\"T\" on=\"B\" radius=\"3\" k=\"1\"", mx, my, 1, before, 5, NULL);
    assert_int_equal(free_cells(before, maximal, mx, my, 1, 3, "B", 'T'), 0);
    free(before), free(k1), free(k30), free(maximal);
}

/* Bridson keeps every pair at least `radius` apart, for any k, radius (1 and below too), wall picture and 2-D or 3-D. */
static void bridson_points_are_radius_apart(void **state)
{
    (void)state;
    static const double radii[] = {0.5, 1, 1.5, 2, 2.5, 3, 4.7, 7};
    uint64_t seed = 777;
    int leaving_free = 0;
    for (int t = 0; t < 64; t++) {
        double r = radii[t % 8];
        bool d3 = t % 4 == 3;
        int mx = 1 + below(&seed, 30), my = 1 + below(&seed, 24), mz = d3 ? 1 + below(&seed, 8) : 1;
        char *before = random_picture(&seed, mx * my * mz, below(&seed, 40));
        char attrs[128];
        snprintf(attrs, sizeof attrs, "value=\"T\" on=\"B\" radius=\"%g\" k=\"%d\" method=\"bridson\"", r, 1 + below(&seed, 5));
        char *after = scatter(attrs, mx, my, mz, before, t, NULL);
        leaving_free += free_cells(before, after, mx, my, mz, r, "B", 'T') > 0;
        free(before);
        free(after);
    }
    assert_true(leaving_free > 0); /* few tries and walls: some runs stop short, unlike the default */
}

/* method="maximal" is the default, draw for draw. */
static void maximal_is_the_default(void **state)
{
    (void)state;
    char *a = scatter("value=\"T\" radius=\"2.5\" k=\"4\"", 40, 30, 1, NULL, 9, NULL);
    char *b = scatter("value=\"T\" radius=\"2.5\" k=\"4\" method=\"maximal\"", 40, 30, 1, NULL, 9, NULL);
    assert_string_equal(a, b);
    free(a), free(b);
}

/* The radius of a cell under radii="B<rb> G<rg>": from its value before the step. */
static double radius_at(const char *before, int cell, double rb, double rg) { return before[cell] == 'G' ? rg : rb; }

/* With radii: every two points a, b are at least max(r_a, r_b) apart, points only on B or G, and (when
   `maximal`) every B or G cell c that is not a point has a point p nearer than max(r_c, r_p). */
static int check_radii(const char *before, const char *after, int mx, int my, int mz, double rb, double rg, bool maximal)
{
    int cells = mx * my * mz, count = 0;
    int *points = malloc((size_t)cells * sizeof *points);
    assert_non_null(points);
    for (int i = 0; i < cells; i++) {
        if (after[i] == before[i]) continue;
        if (!strchr("BG", before[i]) || after[i] != 'T') fail_msg("cell %d changed from %c to %c", i, before[i], after[i]);
        points[count++] = i;
    }
    for (int a = 0; a < count; a++)
        for (int b = a + 1; b < count; b++) {
            double ra = radius_at(before, points[a], rb, rg), rbb = radius_at(before, points[b], rb, rg), m = ra > rbb ? ra : rbb;
            if ((double)d2_of(points[a], points[b], mx, my) < m * m)
                fail_msg("points %d (%c) and %d (%c) are nearer than %g", points[a], before[points[a]], points[b], before[points[b]], m);
        }
    for (int i = 0; maximal && i < cells; i++) {
        if (!strchr("BG", before[i]) || after[i] == 'T') continue;
        bool covered = false;
        for (int a = 0; a < count && !covered; a++) {
            double rc = radius_at(before, i, rb, rg), rp = radius_at(before, points[a], rb, rg), m = rc > rp ? rc : rp;
            covered = (double)d2_of(i, points[a], mx, my) < m * m;
        }
        if (!covered) fail_msg("cell %d (%c) is free: another point fits there", i, before[i]);
    }
    free(points);
    return count;
}

/* Random pictures of B, G and walls W; radii for B and G, both methods, 2-D and 3-D. */
static void radii_keep_the_larger_radius_apart(void **state)
{
    (void)state;
    static const double pairs[][2] = {{1, 3}, {2, 5.5}, {4.2, 1.5}, {0.5, 7}, {3, 3}, {2.5, 9}};
    uint64_t seed = 99;
    for (int t = 0; t < 72; t++) {
        double rb = pairs[t % 6][0], rg = pairs[t % 6][1];
        bool d3 = t % 4 == 3, maximal = t % 3 != 2;
        int mx = 1 + below(&seed, 30), my = 1 + below(&seed, 24), mz = d3 ? 1 + below(&seed, 7) : 1, cells = mx * my * mz;
        char *before = malloc((size_t)cells + 1);
        assert_non_null(before);
        int band = 1 + below(&seed, 8); /* stripes of B and G, some walls: borders between radii everywhere */
        for (int i = 0; i < cells; i++) before[i] = below(&seed, 100) < 8 ? 'W' : (i % mx) / band % 2 ? 'G' : 'B';
        before[cells] = 0;
        char attrs[160];
        snprintf(attrs, sizeof attrs, "value=\"T\" on=\"BG\" radius=\"3\" radii=\"B%g G%g\" k=\"%d\" method=\"%s\"", rb, rg, 1 + below(&seed, 30),
                 maximal ? "maximal" : "bridson");
        char *after = scatter(attrs, mx, my, mz, before, t, NULL);
        check_radii(before, after, mx, my, mz, rb, rg, maximal);
        free(before);
        free(after);
    }
}

/* Half the grid B with radius 2, half G with radius 6: the B half holds many more points. */
static void radii_set_the_density(void **state)
{
    (void)state;
    int mx = 80, my = 40;
    char *before = malloc((size_t)mx * my + 1);
    assert_non_null(before);
    for (int i = 0; i < mx * my; i++) before[i] = i % mx < mx / 2 ? 'B' : 'G';
    before[mx * my] = 0;
    char *after = scatter("value=\"T\" on=\"BG\" radius=\"4\" radii=\"B2 G6\"", mx, my, 1, before, 21, NULL);
    check_radii(before, after, mx, my, 1, 2, 6, true);
    int dense = 0, sparse = 0;
    for (int i = 0; i < mx * my; i++)
        if (after[i] == 'T') *(before[i] == 'B' ? &dense : &sparse) += 1;
    assert_true(dense > 4 * sparse); /* (6/2)^2 = 9 times as dense, less the border */
    free(before);
    free(after);
}

/* Listing a value with the node's own radius changes nothing, draw for draw: the disc code for radii
   takes the same cells off in the same order as the code for one radius. */
static void radii_equal_to_radius_change_nothing(void **state)
{
    (void)state;
    char *a = scatter("value=\"T\" on=\"B\" radius=\"3.5\"", 50, 40, 1, NULL, 4, NULL);
    char *b = scatter("value=\"T\" on=\"B\" radius=\"3.5\" radii=\"B3.5\"", 50, 40, 1, NULL, 4, NULL);
    assert_string_equal(a, b);
    free(a), free(b);
    a = scatter("value=\"T\" radius=\"2.5\" method=\"bridson\"", 12, 10, 9, NULL, 6, NULL);
    b = scatter("value=\"T\" radius=\"2.5\" radii=\"B2.5\" method=\"bridson\"", 12, 10, 9, NULL, 6, NULL);
    assert_string_equal(a, b);
    free(a), free(b);
}

/* Every two points a, b (cells that became T) at least max(r_a, r_b) apart, with radius[] per cell; and when
   `maximal`, every cell that is not a point has a point p nearer than max(r_c, r_p). All cells are `on`. */
static void check_per_cell(const double *radius, const char *after, int mx, int my, bool maximal)
{
    int cells = mx * my, count = 0;
    int *points = malloc((size_t)cells * sizeof *points);
    assert_non_null(points);
    for (int i = 0; i < cells; i++)
        if (after[i] == 'T') points[count++] = i;
    for (int a = 0; a < count; a++)
        for (int b = a + 1; b < count; b++) {
            double m = fmax(radius[points[a]], radius[points[b]]);
            if ((double)d2_of(points[a], points[b], mx, my) < m * m) fail_msg("points %d and %d are nearer than %g", points[a], points[b], m);
        }
    for (int i = 0; maximal && i < cells; i++) {
        if (after[i] == 'T') continue;
        bool covered = false;
        for (int a = 0; a < count && !covered; a++) {
            double m = fmax(radius[i], radius[points[a]]);
            covered = (double)d2_of(i, points[a], mx, my) < m * m;
        }
        if (!covered) fail_msg("cell %d is free: another point fits there", i);
    }
    free(points);
}

/* A resource root in a fresh temporary folder holding samples/Ramp.png: `count` grey columns from black to white. */
static char *ramp_root(const uint32_t *columns, int count)
{
    char *dir = malloc(64);
    assert_non_null(dir);
    snprintf(dir, 64, "/tmp/smalti-poisson-XXXXXX");
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/samples", dir);
    assert_int_equal(mkdir(path, 0777), 0);
    snprintf(path, sizeof path, "%s/samples/Ramp.png", dir);
    smalti_error err;
    if (!save_png_rgb(path, columns, count, 1, NULL, &err)) fail_msg("%s", err.message);
    return dir;
}

static void remove_ramp_root(char *dir)
{
    char path[128];
    snprintf(path, sizeof path, "%s/samples/Ramp.png", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/samples", dir);
    rmdir(path);
    rmdir(dir);
    free(dir);
}

/* Run a model over all-B with resources under root; the final symbols (caller frees). */
static char *run_with_root(const char *xml, int mx, int my, const char *root, int seed)
{
    smalti_model *m = unit_load(xml, "poisson.xml", mx, my, 1, root);
    smalti_run *run = smalti_run_new(m, seed, NULL);
    assert_non_null(run);
    smalti_run_to_end(run, 0);
    assert_false(smalti_run_error(run, NULL));
    int gx, gy, gz;
    const unsigned char *cells = smalti_run_grid(run, &gx, &gy, &gz);
    const char *legend = smalti_run_legend(run);
    char *out = malloc((size_t)gx * gy * gz + 1);
    assert_non_null(out);
    for (int i = 0; i < gx * gy * gz; i++) out[i] = legend[cells[i]];
    out[gx * gy * gz] = 0;
    smalti_run_free(run);
    smalti_model_free(m);
    return out;
}

/* A picture of four grey columns (0, 85, 170, 255) stretched over the grid: each cell's radius is
   radius + (whiteradius - radius) * grey / 255 of the column under its centre; points keep the larger
   radius of each pair apart, and the maximal method leaves no free cell. */
static void picture_radius_keeps_the_larger_apart(void **state)
{
    (void)state;
    static const uint32_t columns[4] = {0x000000, 0x555555, 0xaaaaaa, 0xffffff};
    char *root = ramp_root(columns, 4);
    int mx = 60, my = 30;
    double *radius = malloc((size_t)mx * my * sizeof *radius);
    assert_non_null(radius);
    for (int i = 0; i < mx * my; i++) radius[i] = 1.5 + (7.0 - 1.5) * ((i % mx) * 4 / mx * 85) / 255.0;
    for (int seed = 1; seed <= 6; seed++) {
        bool maximal = seed % 2;
        char xml[256];
        snprintf(xml, sizeof xml, "<sequence values=\"BT\"><poisson value=\"T\" radius=\"1.5\" radiuspicture=\"Ramp\" whiteradius=\"7\" "
                 "k=\"%d\" method=\"%s\"/></sequence>", seed * 5, maximal ? "maximal" : "bridson");
        char *after = run_with_root(xml, mx, my, root, seed);
        check_per_cell(radius, after, mx, my, maximal);
        if (maximal) { /* the black quarter is far denser than the white one */
            int black = 0, white = 0;
            for (int i = 0; i < mx * my; i++)
                if (after[i] == 'T' && i % mx < mx / 4) black++;
                else if (after[i] == 'T' && i % mx >= 3 * mx / 4) white++;
            assert_true(black > 4 * white);
        }
        free(after);
    }
    free(radius);
    remove_ramp_root(root);
}

int run_poisson_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(small_cases_hold_against_brute_force),
        cmocka_unit_test(value_inside_on_and_radius_one),
        cmocka_unit_test(disconnected_regions_fill),
        cmocka_unit_test(large_grid_spacing_and_coverage),
        cmocka_unit_test(same_seed_same_grid),
        cmocka_unit_test(huge_radius_and_nothing_to_do),
        cmocka_unit_test(bridson_k1_leaves_free_cells_k30_fewer),
        cmocka_unit_test(bridson_points_are_radius_apart),
        cmocka_unit_test(maximal_is_the_default),
        cmocka_unit_test(radii_keep_the_larger_radius_apart),
        cmocka_unit_test(radii_set_the_density),
        cmocka_unit_test(radii_equal_to_radius_change_nothing),
        cmocka_unit_test(picture_radius_keeps_the_larger_apart),
    };
    return cmocka_run_group_tests_name("poisson", tests, NULL, NULL);
}
