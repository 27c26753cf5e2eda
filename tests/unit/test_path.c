/* test_path.c — the `path` node on hand-made grids whose shortest paths are known. */
#include "unit.h"
#include <string.h>
#include "smalti.h"
#include "../../src/engine/run.h"

typedef struct scene {
    smalti_model *model;
    smalti_run *run;
} scene;

/* Load `xml` for a grid of the given size, start a run and lay `picture`
   (rows of legend symbols, x fastest, then y, then z) over its grid. */
static scene setup(const char *xml, const char *picture, int mx, int my, int mz, int32_t seed)
{
    scene s;
    s.model = unit_load(xml, "path.xml", mx, my, mz, NULL);
    s.run = smalti_run_new(s.model, seed, NULL);
    assert_non_null(s.run);
    unit_lay_picture(s.run, picture);
    return s;
}

static void assert_grid(const scene *s, const char *expected)
{
    const char *legend = smalti_run_legend(s->run);
    int mx, my, mz;
    const unsigned char *g = smalti_run_grid(s->run, &mx, &my, &mz);
    char got[256];
    assert_true((size_t)(mx * my * mz) < sizeof got);
    for (int i = 0; i < mx * my * mz; i++) got[i] = legend[g[i]];
    got[mx * my * mz] = 0;
    assert_string_equal(got, expected);
}

static void teardown(scene *s)
{
    smalti_run_free(s->run);
    smalti_model_free(s->model);
}

/* Around a wall there is one shortest route; it is drawn with `color`, then
   the node fails because no `on` cell is left between the ends. */
static void draws_the_only_shortest_route(void **state)
{
    (void)state;
    const char *xml = "<path values=\"BRWGP\" from=\"R\" to=\"W\" on=\"B\" color=\"P\"/>";
    scene s = setup(xml,
                    "RBBBB"
                    "GGGGB"
                    "WBBBB"
                    "BBBBB", 5, 4, 1, 1);
    assert_int_equal(smalti_run_step(s.run), 1);
    assert_grid(&s, "RPPPP"
                    "GGGGP"
                    "WPPPP"
                    "BBBBB");
    assert_false(smalti_run_finished(s.run));
    assert_int_equal(smalti_run_to_end(s.run, 0), 2);
    assert_true(smalti_run_finished(s.run));
    teardown(&s);
}

/* The nearer start is taken, or with longest="True" the farther one. */
static void longest_picks_the_farther_start(void **state)
{
    (void)state;
    const char *row = "RBBBWBBR";
    scene s = setup("<path values=\"BRWP\" from=\"R\" to=\"W\" on=\"B\" color=\"P\"/>", row, 8, 1, 1, 3);
    smalti_run_step(s.run);
    assert_grid(&s, "RBBBWPPR");
    teardown(&s);
    s = setup("<path values=\"BRWP\" from=\"R\" to=\"W\" on=\"B\" color=\"P\" longest=\"True\"/>", row, 8, 1, 1, 3);
    smalti_run_step(s.run);
    assert_grid(&s, "RPPPWBBR");
    teardown(&s);
}

/* Without `color` the path is drawn with the first `from` value. `from`
   cells get a distance but the search does not pass through them, so the
   far R behind the near one is out of reach even for longest="True". */
static void default_color_and_starts_block(void **state)
{
    (void)state;
    scene s = setup("<path values=\"BRWA\" from=\"AR\" to=\"W\" on=\"B\" longest=\"True\"/>", "RBRBW", 5, 1, 1, 1);
    smalti_run_step(s.run);
    assert_grid(&s, "RBRAW");
    teardown(&s);
}

/* edges="True" allows diagonal steps in 2-D; the diagonal is then the only shortest path. */
static void edges_step_diagonally(void **state)
{
    (void)state;
    const char *picture = "RBBB"
                          "BBBB"
                          "BBBB"
                          "BBBW";
    scene s = setup("<path values=\"BRWP\" from=\"R\" to=\"W\" on=\"B\" color=\"P\" edges=\"True\"/>", picture, 4, 4, 1, 5);
    smalti_run_step(s.run);
    assert_grid(&s, "RBBB"
                    "BPBB"
                    "BBPB"
                    "BBBW");
    teardown(&s);
    /* Without diagonals the route has 5 inner cells. */
    s = setup("<path values=\"BRWP\" from=\"R\" to=\"W\" on=\"B\" color=\"P\"/>", picture, 4, 4, 1, 5);
    smalti_run_step(s.run);
    int painted = 0;
    const unsigned char *g = smalti_run_grid(s.run, NULL, NULL, NULL);
    for (int i = 0; i < 16; i++) painted += g[i] == 3;
    assert_int_equal(painted, 5);
    teardown(&s);
}

/* vertices="True" in 3-D steps through the cube's corner diagonal. */
static void vertices_step_through_corners(void **state)
{
    (void)state;
    char picture[28], expected[28];
    memset(picture, 'B', 27);
    picture[27] = 0;
    picture[0] = 'R';
    picture[26] = 'W';
    memcpy(expected, picture, sizeof expected);
    expected[13] = 'P';
    scene s = setup("<path values=\"BRWP\" from=\"R\" to=\"W\" on=\"B\" color=\"P\" vertices=\"True\"/>", picture, 3, 3, 3, 2);
    smalti_run_step(s.run);
    assert_grid(&s, expected);
    teardown(&s);
}

/* With inertia on an open grid the path keeps its direction while that
   still leads closer, so it turns exactly once. */
static void inertia_turns_once(void **state)
{
    (void)state;
    const char *picture = "RBBBBB"
                          "BBBBBB"
                          "BBBBBB"
                          "BBBBBB"
                          "BBBBBB"
                          "BBBBBW";
    for (int32_t seed = 1; seed <= 8; seed++) {
        scene s = setup("<path values=\"BRWP\" from=\"R\" to=\"W\" on=\"B\" color=\"P\" inertia=\"True\"/>", picture, 6, 6, 1,
                        seed);
        smalti_run_step(s.run);
        const unsigned char *g = smalti_run_grid(s.run, NULL, NULL, NULL);
        bool along_top = g[1] == 3; /* first step along x, else along y */
        for (int k = 1; k < 6; k++) {
            int top = k, left = k * 6, right = 5 + k * 6, bottom = k + 30;
            if (along_top) {
                assert_int_equal(g[top], 3);
                if (k < 5) assert_int_equal(g[right], 3);
            } else {
                assert_int_equal(g[left], 3);
                if (k < 5) assert_int_equal(g[bottom], 3);
            }
        }
        int painted = 0;
        for (int i = 0; i < 36; i++) painted += g[i] == 3;
        assert_int_equal(painted, 9);
        teardown(&s);
    }
}

int run_path_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(draws_the_only_shortest_route),
        cmocka_unit_test(longest_picks_the_farther_start),
        cmocka_unit_test(default_color_and_starts_block),
        cmocka_unit_test(edges_step_diagonally),
        cmocka_unit_test(vertices_step_through_corners),
        cmocka_unit_test(inertia_turns_once),
    };
    return cmocka_run_group_tests_name("path", tests, NULL, NULL);
}
