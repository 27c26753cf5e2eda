/* test_growgrid.c — Growing Grid lattices: on the shape's support, unfolded, denser where the picture is
   brighter, reproducible for a seed, grown to exactly the target size; and the node through the API. */
#include "unit.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../../src/nodes/growgrid.h"

static const growgrid_params defaults = {.epoch = 5, .rate_start = 0.1, .rate_end = 0.01, .sigma_start = 0.7, .sigma_end = 0.35};

/* A w*w picture's weights: 4 inside a disc of radius 0.45*w, 0 outside. */
static uint8_t *disc_weights(int w, int64_t *total)
{
    uint8_t *wt = malloc((size_t)w * w);
    *total = 0;
    for (int y = 0; y < w; y++)
        for (int x = 0; x < w; x++) {
            double dx = x + 0.5 - w / 2.0, dy = y + 0.5 - w / 2.0;
            wt[x + y * w] = dx * dx + dy * dy <= 0.45 * 0.45 * w * w ? 4 : 0;
            *total += wt[x + y * w];
        }
    return wt;
}

static geometry *fit(const uint8_t *wt, int w, int h, int64_t total, int nx, int ny, int seed)
{
    growgrid_params p = defaults;
    p.nx = nx;
    p.ny = ny;
    geometry *g = geometry_new(nx, ny);
    assert_non_null(g);
    rng r;
    rng_seed(&r, seed);
    assert_true(growgrid_fit(&p, wt, w, h, total, &r, NULL, g));
    return g;
}

static double mean_area(const geometry *g)
{
    double sum = 0;
    for (int j = 0; j < g->ny - 1; j++)
        for (int i = 0; i < g->nx - 1; i++) sum += growgrid_quad_area(g, i, j);
    return sum / ((g->nx - 1) * (g->ny - 1));
}

static void check_unfolded(const geometry *g)
{
    double floor_area = 1e-3 * mean_area(g);
    for (int j = 0; j < g->ny - 1; j++)
        for (int i = 0; i < g->nx - 1; i++) {
            double a = growgrid_quad_area(g, i, j);
            if (!(a > floor_area)) fail_msg("quad (%d,%d) of %dx%d has area %g (mean %g): folded or degenerate", i, j, g->nx, g->ny, a, mean_area(g));
        }
}

static void test_on_support(void **s)
{
    (void)s;
    int w = 128;
    int64_t total;
    uint8_t *wt = disc_weights(w, &total);
    geometry *g = fit(wt, w, w, total, 17, 17, 11);
    double quad = sqrt(mean_area(g)); /* one quad's size, in lattice units */
    double per_pixel = 16.0 / w;
    for (int k = 0; k < g->nx * g->ny; k++) {
        double best = INFINITY;
        for (int y = 0; y < w; y++)
            for (int x = 0; x < w; x++) {
                if (!wt[x + y * w]) continue;
                double dx = (x + 0.5) * per_pixel - g->x[k], dy = (y + 0.5) * per_pixel - g->y[k], d = sqrt(dx * dx + dy * dy);
                if (d < best) best = d;
            }
        if (best > quad) fail_msg("point %d at (%g,%g) is %g from the disc; a quad is %g across", k, g->x[k], g->y[k], best, quad);
    }
    geometry_free(g);
    free(wt);
}

static void test_unfolded(void **s)
{
    (void)s;
    int w = 128;
    int64_t total;
    uint8_t *wt = disc_weights(w, &total);
    for (int seed = 1; seed <= 4; seed++) {
        geometry *g = fit(wt, w, w, total, 9 + 8 * (seed % 2), 9 + 4 * (seed / 2), seed);
        check_unfolded(g);
        geometry_free(g);
    }
    free(wt);
}

static void test_density(void **s)
{
    (void)s;
    /* the right half four times as dense as the left */
    int w = 128;
    uint8_t *wt = malloc((size_t)w * w);
    int64_t total = 0;
    for (int k = 0; k < w * w; k++) total += wt[k] = (uint8_t)(k % w < w / 2 ? 1 : 4);
    geometry *g = fit(wt, w, w, total, 17, 17, 11);
    check_unfolded(g);
    double area[2] = {0, 0};
    int count[2] = {0, 0};
    for (int j = 0; j < g->ny - 1; j++)
        for (int i = 0; i < g->nx - 1; i++) {
            int a = i + j * g->nx;
            double cx = (g->x[a] + g->x[a + 1] + g->x[a + 1 + g->nx] + g->x[a + g->nx]) / 4;
            int side = cx >= 8; /* the lattice spans 0..16 */
            area[side] += growgrid_quad_area(g, i, j);
            count[side]++;
        }
    double sparse = area[0] / count[0], dense = area[1] / count[1];
    if (!(dense < 0.8 * sparse)) fail_msg("mean quad area %g on the dense half, %g on the sparse half", dense, sparse);
    geometry_free(g);
    free(wt);
}

static void test_same_seed(void **s)
{
    (void)s;
    int w = 96;
    int64_t total;
    uint8_t *wt = disc_weights(w, &total);
    geometry *a = fit(wt, w, w, total, 13, 9, 42), *b = fit(wt, w, w, total, 13, 9, 42), *c = fit(wt, w, w, total, 13, 9, 43);
    assert_memory_equal(a->x, b->x, 13 * 9 * sizeof *a->x);
    assert_memory_equal(a->y, b->y, 13 * 9 * sizeof *a->y);
    assert_true(memcmp(a->x, c->x, 13 * 9 * sizeof *a->x) != 0);
    geometry_free(a);
    geometry_free(b);
    geometry_free(c);
    free(wt);
}

/* Through the node: a 24x12 grid in blocks of 4 gets exactly 7x4 points, all used (none left at the
   start square), the same for the same seed; the grid's values stay as they were. */
static void test_node_target(void **s)
{
    (void)s;
    const char *xml = "<sequence values=\"BW\"><growgrid shape=\"Disc\" block=\"4\"/></sequence>";
    smalti_model *m = unit_load(xml, "growgrid.xml", 24, 12, 1, "models/resources");
    smalti_run *run = smalti_run_new(m, 5, NULL);
    assert_non_null(run);
    const double *px, *py;
    int nx, ny;
    assert_int_equal(smalti_run_geometry(run, &px, &py, &nx, &ny), 0);
    smalti_run_to_end(run, 0);
    assert_int_equal(smalti_run_error(run, NULL), 0);
    assert_int_equal(smalti_run_geometry(run, &px, &py, &nx, &ny), 1);
    assert_int_equal(nx, 7);
    assert_int_equal(ny, 4);
    geometry g = {.nx = nx, .ny = ny, .x = (double *)px, .y = (double *)py};
    check_unfolded(&g);
    double *first = malloc(2 * 28 * sizeof *first);
    memcpy(first, px, 28 * sizeof *px);
    memcpy(first + 28, py, 28 * sizeof *py);
    int mx, my, mz;
    const unsigned char *cells = smalti_run_grid(run, &mx, &my, &mz);
    for (int k = 0; k < mx * my; k++) assert_int_equal(cells[k], 0);
    smalti_run_reset(run, 5);
    assert_int_equal(smalti_run_geometry(run, &px, &py, &nx, &ny), 0);
    smalti_run_to_end(run, 0);
    assert_int_equal(smalti_run_geometry(run, &px, &py, &nx, &ny), 1);
    assert_memory_equal(first, px, 28 * sizeof *px);
    assert_memory_equal(first + 28, py, 28 * sizeof *py);
    free(first);
    smalti_run_free(run);
    smalti_model_free(m);
}

/* Two discs of radius w/5 side by side, at a quarter and three quarters across: a wide shape on a square picture. */
static uint8_t *two_blobs(int w, int64_t *total)
{
    uint8_t *wt = malloc((size_t)w * w);
    *total = 0;
    for (int y = 0; y < w; y++)
        for (int x = 0; x < w; x++) {
            double dy = y + 0.5 - w / 2.0, dl = x + 0.5 - w * 0.27, dr = x + 0.5 - w * 0.73, r2 = w * w / 25.0;
            wt[x + y * w] = dl * dl + dy * dy <= r2 || dr * dr + dy * dy <= r2 ? 4 : 0;
            *total += wt[x + y * w];
        }
    return wt;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median over the quads of (longer / shorter) of the mean widths and heights, the lattice scaled
   by sx across and sy down (to cells): 1 for squares. */
static double median_side_ratio(const geometry *g, double sx, double sy)
{
    int quads = (g->nx - 1) * (g->ny - 1);
    double *ratio = malloc((size_t)quads * sizeof *ratio);
    for (int j = 0; j < g->ny - 1; j++)
        for (int i = 0; i < g->nx - 1; i++) {
            int a = i + j * g->nx, b = a + 1, c = b + g->nx, d = a + g->nx;
#define SIDE(p, q) hypot((g->x[q] - g->x[p]) * sx, (g->y[q] - g->y[p]) * sy)
            double across = (SIDE(a, b) + SIDE(d, c)) / 2, down = (SIDE(a, d) + SIDE(b, c)) / 2;
#undef SIDE
            ratio[i + j * (g->nx - 1)] = across > down ? across / down : down / across;
        }
    qsort(ratio, (size_t)quads, sizeof *ratio, by_value);
    double m = ratio[quads / 2];
    free(ratio);
    return m;
}

/* Free growth on two blobs side by side: at most `points` points, more columns than rows, and quads
   nearer to square than the fixed 17x17 lattice's on the same picture (its quads are squashed). */
static void test_free_growth(void **s)
{
    (void)s;
    int w = 128;
    int64_t total;
    uint8_t *wt = two_blobs(w, &total);
    geometry *fixed = fit(wt, w, w, total, 17, 17, 11);
    double fixed_ratio = median_side_ratio(fixed, 1, 1);
    growgrid_params p = defaults;
    p.points = 17 * 17;
    geometry *g = geometry_new(p.points, 1);
    assert_non_null(g);
    rng r;
    rng_seed(&r, 11);
    assert_true(growgrid_fit(&p, wt, w, w, total, &r, NULL, g));
    assert_true(g->nx * g->ny <= p.points);
    assert_true(g->nx * g->ny > p.points / 2);
    assert_true(g->nx > g->ny);
    check_unfolded(g);
    /* the grid's frame spans the lattice's [0, nx-1] x [0, ny-1]: a square picture, cells square */
    double free_ratio = median_side_ratio(g, 1.0 / (g->nx - 1), 1.0 / (g->ny - 1));
    if (!(free_ratio < 1.3 && free_ratio < fixed_ratio - 0.3))
        fail_msg("median side ratio %g free (%dx%d points) against %g fixed (17x17)", free_ratio, g->nx, g->ny, fixed_ratio);
    geometry_free(fixed);
    geometry_free(g);
    free(wt);
}

int run_growgrid_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_on_support), cmocka_unit_test(test_unfolded), cmocka_unit_test(test_density),
        cmocka_unit_test(test_same_seed), cmocka_unit_test(test_node_target),
        cmocka_unit_test(test_free_growth),
    };
    return cmocka_run_group_tests_name("growgrid", tests, NULL, NULL);
}
