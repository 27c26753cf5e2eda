/* test_voronoi.c — the `voronoi` node: nearest sites exactly as brute force finds them (all metrics, 2-D and 3-D,
   ties to the lowest index), borders, `on`, random sites and reproducibility. */
#include "unit.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../src/engine/run.h"
#include "../../src/nodes/voronoi.h"

/* A small local generator for test cases (splitmix64). */
static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static int below(uint64_t *s, int n) { return (int)(next_u64(s) % (uint64_t)n); }

static int32_t brute_nearest(const int32_t *sx, const int32_t *sy, const int32_t *sz, int32_t count, voronoi_metric m, int x, int y,
                             int z)
{
    int64_t best = INT64_MAX;
    int32_t who = -1;
    for (int32_t i = 0; i < count; i++) {
        int64_t d = voronoi_distance(m, sx[i], sy[i], sz[i], x, y, z);
        if (d < best) {
            best = d;
            who = i;
        }
    }
    return who;
}

/* voronoi_nearest against brute force; returns how many cells were ties between sites. */
static long check_case(const int32_t *sx, const int32_t *sy, const int32_t *sz, int32_t count, int mx, int my, int mz, voronoi_metric m)
{
    int32_t *owner = malloc((size_t)mx * my * mz * sizeof *owner);
    assert_non_null(owner);
    assert_true(voronoi_nearest(sx, sy, sz, count, mx, my, mz, m, NULL, owner));
    long ties = 0;
    for (int z = 0, i = 0; z < mz; z++)
        for (int y = 0; y < my; y++)
            for (int x = 0; x < mx; x++, i++) {
                int32_t want = brute_nearest(sx, sy, sz, count, m, x, y, z);
                if (owner[i] != want)
                    fail_msg("%dx%dx%d, %d sites, metric %d: cell (%d,%d,%d) got site %d, brute force %d", mx, my, mz, count, m, x, y, z,
                             owner[i], want);
                int64_t d = voronoi_distance(m, sx[want], sy[want], sz[want], x, y, z);
                for (int32_t k = want + 1; k < count; k++)
                    if (voronoi_distance(m, sx[k], sy[k], sz[k], x, y, z) == d && (sx[k] != sx[want] || sy[k] != sy[want] || sz[k] != sz[want])) {
                        ties++;
                        break;
                    }
            }
    free(owner);
    return ties;
}

typedef enum layout { SPREAD, CLUSTER, LATTICE } layout;

static void random_case(uint64_t *seed, int mx, int my, int mz, int32_t count, layout how, voronoi_metric m, long *ties)
{
    int32_t *sx = malloc((size_t)count * sizeof *sx), *sy = malloc((size_t)count * sizeof *sy), *sz = malloc((size_t)count * sizeof *sz);
    assert_true(sx && sy && sz);
    int step = 2 + below(seed, 3);
    for (int32_t i = 0; i < count; i++) {
        if (how == CLUSTER) { /* all in a corner box: many equal distances far away, and repeated cells */
            sx[i] = below(seed, mx < 3 ? mx : 3);
            sy[i] = below(seed, my < 3 ? my : 3);
            sz[i] = below(seed, mz < 2 ? mz : 2);
        } else if (how == LATTICE) { /* on a regular lattice: ties along every bisector */
            sx[i] = below(seed, (mx + step - 1) / step) * step;
            sy[i] = below(seed, (my + step - 1) / step) * step;
            sz[i] = below(seed, (mz + step - 1) / step) * step;
        } else {
            sx[i] = below(seed, mx);
            sy[i] = below(seed, my);
            sz[i] = below(seed, mz);
        }
    }
    *ties += check_case(sx, sy, sz, count, mx, my, mz, m);
    free(sx);
    free(sy);
    free(sz);
}

static void nearest_matches_brute_force_on_small_grids(void **state)
{
    (void)state;
    uint64_t seed = 12345;
    long ties = 0;
    for (int t = 0; t < 1500; t++) {
        bool d3 = t % 3 == 2;
        int mx = 1 + below(&seed, 14), my = 1 + below(&seed, 14), mz = d3 ? 1 + below(&seed, 8) : 1;
        int32_t count = 1 + below(&seed, 40);
        random_case(&seed, mx, my, mz, count, (layout)(t / 3 % 3), (voronoi_metric)(t % 3 == 2 ? t / 9 % 3 : t % 3), &ties);
    }
    /* The cases must really exercise the tie rule. */
    assert_true(ties > 1000);
}

static void nearest_matches_brute_force_on_larger_grids(void **state)
{
    (void)state;
    uint64_t seed = 777;
    long ties = 0;
    for (int m = 0; m < 3; m++) {
        random_case(&seed, 160, 120, 1, 300, SPREAD, (voronoi_metric)m, &ties);
        random_case(&seed, 97, 131, 1, 50, LATTICE, (voronoi_metric)m, &ties);
        random_case(&seed, 90, 70, 1, 200, CLUSTER, (voronoi_metric)m, &ties);
        random_case(&seed, 30, 25, 20, 120, SPREAD, (voronoi_metric)m, &ties);
        random_case(&seed, 24, 24, 24, 60, LATTICE, (voronoi_metric)m, &ties);
        random_case(&seed, 200, 3, 1, 40, SPREAD, (voronoi_metric)m, &ties);
    }
    assert_true(ties > 100);
}

static void distance_is_exact_far_apart(void **state)
{
    (void)state;
    /* 3e9 squared does not fit 32 bits; sums of such do not fit 63 bits as doubles exactly. */
    assert_int_equal(voronoi_distance(VORONOI_EUCLIDEAN, 0, 0, 0, 100000, 3, 0), 10000000009LL);
    assert_int_equal(voronoi_distance(VORONOI_MANHATTAN, -5, 2, 1, 5, -2, 0), 15);
    assert_int_equal(voronoi_distance(VORONOI_CHEBYSHEV, -5, 2, 1, 5, -2, 0), 10);
}

/* Run a model over a laid picture to its end; return the final grid's symbols (caller frees). */
static char *run_picture(const char *xml, int mx, int my, int mz, const char *picture, int seed, long *steps)
{
    return unit_run_picture(xml, "voronoi.xml", mx, my, mz, picture, seed, steps);
}

/* The expected result of `from`: sites in scanline order, each `on` cell takes its nearest site's value, or `border`
   when a 4/6-neighbour matching `on` is nearer another site. */
static void expect_from(const char *picture, const char *got, int mx, int my, int mz, const char *from, const char *on,
                        voronoi_metric m, char border)
{
    int cells = mx * my * mz, count = 0;
    int32_t *sx = malloc((size_t)cells * sizeof *sx), *sy = malloc((size_t)cells * sizeof *sy), *sz = malloc((size_t)cells * sizeof *sz);
    int32_t *owner = malloc((size_t)cells * sizeof *owner);
    char *value = malloc((size_t)cells);
    assert_true(sx && sy && sz && owner && value);
    for (int i = 0; i < cells; i++)
        if (strchr(from, picture[i])) {
            sx[count] = i % mx, sy[count] = i / mx % my, sz[count] = i / (mx * my), value[count] = picture[i];
            count++;
        }
    for (int i = 0; i < cells; i++) owner[i] = brute_nearest(sx, sy, sz, count, m, i % mx, i / mx % my, i / (mx * my));
    for (int i = 0; i < cells; i++) {
        int x = i % mx, y = i / mx % my, z = i / (mx * my);
        char want = picture[i];
        if (strchr(on, picture[i])) {
            want = value[owner[i]];
            int nb[6][3] = {{x - 1, y, z}, {x + 1, y, z}, {x, y - 1, z}, {x, y + 1, z}, {x, y, z - 1}, {x, y, z + 1}};
            for (int k = 0; k < 6 && border; k++) {
                int nx = nb[k][0], ny = nb[k][1], nz = nb[k][2];
                if (nx < 0 || ny < 0 || nz < 0 || nx >= mx || ny >= my || nz >= mz) continue;
                int j = nx + ny * mx + nz * mx * my;
                if (strchr(on, picture[j]) && owner[j] != owner[i]) want = border;
            }
        }
        if (got[i] != want) fail_msg("cell (%d,%d,%d): got %c, expected %c", x, y, z, got[i], want);
    }
    free(sx), free(sy), free(sz), free(owner), free(value);
}

static void from_sites_paint_nearest_values(void **state)
{
    (void)state;
    static const char *const metrics[] = {"euclidean", "manhattan", "chebyshev"};
    uint64_t seed = 99;
    for (int t = 0; t < 60; t++) {
        int m = t % 3;
        bool d3 = t % 4 == 3, with_border = t % 2 == 1;
        int mx = 2 + below(&seed, 20), my = 2 + below(&seed, 16), mz = d3 ? 2 + below(&seed, 6) : 1, cells = mx * my * mz;
        char *picture = malloc((size_t)cells + 1);
        assert_non_null(picture);
        int density = 2 + below(&seed, 30);
        for (int i = 0; i < cells; i++) {
            int roll = below(&seed, 100);
            picture[i] = roll < density ? "RGUYP"[below(&seed, 5)] : roll < 85 ? 'B' : 'W';
        }
        picture[below(&seed, cells)] = 'R'; /* at least one site */
        picture[cells] = 0;
        char xml[256];
        snprintf(xml, sizeof xml, "<sequence values=\"BWRGUYPE\"><voronoi from=\"RGUYP\" metric=\"%s\" on=\"B\"%s/></sequence>", metrics[m],
                 with_border ? " border=\"E\"" : "");
        char *got = run_picture(xml, mx, my, mz, picture, 1, NULL);
        expect_from(picture, got, mx, my, mz, "RGUYP", "B", (voronoi_metric)m, with_border ? 'E' : 0);
        free(got);
        free(picture);
    }
}

static void ties_go_to_the_site_first_in_scanline_order(void **state)
{
    (void)state;
    /* The middle column is as near R as G; R comes first in scanline order, so it wins there. */
    const char *picture = "R.G"
                          "..."
                          "...";
    char *p = strdup(picture);
    for (char *c = p; *c; c++) if (*c == '.') *c = 'B';
    char *got = run_picture("<sequence values=\"BRG\"><voronoi from=\"RG\" on=\"B\"/></sequence>", 3, 3, 1, p, 1, NULL);
    assert_string_equal(got, "RRGRRGRRG");
    free(got);
    /* G first now: the middle column goes to G. */
    p[0] = 'G', p[2] = 'R';
    got = run_picture("<sequence values=\"BRG\"><voronoi from=\"RG\" on=\"B\"/></sequence>", 3, 3, 1, p, 1, NULL);
    assert_string_equal(got, "GGRGGRGGR");
    free(got);
    free(p);
}

static void random_sites_are_reproducible_and_respect_on(void **state)
{
    (void)state;
    const char *xml = "<sequence values=\"BWRGUYE\"><voronoi sites=\"20\" values=\"RGUY\" metric=\"manhattan\" on=\"B\"/></sequence>";
    int mx = 40, my = 30;
    char *picture = malloc((size_t)mx * my + 1);
    assert_non_null(picture);
    for (int i = 0; i < mx * my; i++) picture[i] = (i % mx) % 7 == 3 || (i / mx) == 11 ? 'W' : 'B';
    picture[mx * my] = 0;
    long steps;
    char *a = run_picture(xml, mx, my, 1, picture, 5, &steps);
    char *b = run_picture(xml, mx, my, 1, picture, 5, NULL);
    char *c = run_picture(xml, mx, my, 1, picture, 6, NULL);
    assert_string_equal(a, b);
    assert_string_not_equal(a, c);
    assert_int_equal(steps, 1); /* one step */
    for (int i = 0; i < mx * my; i++) {
        if (picture[i] == 'W') assert_int_equal(a[i], 'W');
        else assert_non_null(strchr("RGUY", a[i]));
    }
    free(a), free(b), free(c), free(picture);
}

/* With distinct values and as many sites as values, every value owns a region (its site's own cell at least). */
static void distinct_values_all_appear(void **state)
{
    (void)state;
    const char *xml = "<sequence values=\"BRGUYPOW\"><voronoi sites=\"7\" values=\"RGUYPOW\" distinct=\"True\" metric=\"chebyshev\"/></sequence>";
    for (int seed = 1; seed <= 20; seed++) {
        char *g = run_picture(xml, 30, 20, 1, NULL, seed, NULL);
        for (const char *v = "RGUYPOW"; *v; v++) assert_non_null(strchr(g, *v));
        assert_null(strchr(g, 'B'));
        free(g);
    }
    /* More sites than cells matching `on`: every such cell becomes a site. */
    char *g = run_picture("<sequence values=\"BRW\"><voronoi sites=\"6\" values=\"R\" on=\"W\"/></sequence>", 8, 1, 1, "BWBBWBBB", 1, NULL);
    assert_string_equal(g, "BRBBRBBB");
    free(g);
}

/* A border is two cells thick: both cells facing each other across a boundary take it; cells next to sites outside
   `on` do not. */
static void borders_are_two_sided(void **state)
{
    (void)state;
    const char *picture = "R.......G.";
    char *p = strdup(picture);
    for (char *c = p; *c; c++) if (*c == '.') *c = 'B';
    char *got = run_picture("<sequence values=\"BRGE\"><voronoi from=\"RG\" on=\"B\" border=\"E\"/></sequence>", 10, 1, 1, p, 1, NULL);
    /* Cells 1..4 go to R (4 is a tie, R comes first), 5..9 to G; cells 4 and 5 face each other across the boundary. */
    assert_string_equal(got, "RRRREEGGGG");
    free(got);
    free(p);
}

int run_voronoi_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nearest_matches_brute_force_on_small_grids),
        cmocka_unit_test(nearest_matches_brute_force_on_larger_grids),
        cmocka_unit_test(distance_is_exact_far_apart),
        cmocka_unit_test(from_sites_paint_nearest_values),
        cmocka_unit_test(ties_go_to_the_site_first_in_scanline_order),
        cmocka_unit_test(random_sites_are_reproducible_and_respect_on),
        cmocka_unit_test(distinct_values_all_appear),
        cmocka_unit_test(borders_are_two_sided),
    };
    return cmocka_run_group_tests_name("voronoi", tests, NULL, NULL);
}
