/* test_infer.c — fields, potentials and search on small grids worked out by hand. */
#include "unit.h"
#include <string.h>
#include "smalti.h"
#include "../../src/engine/run.h"
#include "../../src/nodes/field.h"

/* Load `xml` for an mx*my grid, start a run and lay `picture` over it. */
static smalti_run *start(const char *xml, const char *picture, int mx, int my, int32_t seed, smalti_model **model)
{
    *model = unit_load(xml, "infer.xml", mx, my, 1, NULL);
    smalti_run *run = smalti_run_new(*model, seed, NULL);
    assert_non_null(run);
    unit_lay_picture(run, picture);
    return run;
}

static void grid_text(smalti_run *run, char *out)
{
    int mx, my, mz;
    const unsigned char *g = smalti_run_grid(run, &mx, &my, &mz);
    for (int i = 0; i < mx * my * mz; i++) out[i] = smalti_run_legend(run)[g[i]];
    out[mx * my * mz] = 0;
}

/* Distances from the zero cell through the substrate, around walls; cells
   the field cannot reach get -1. */
static void field_distances_around_walls(void **state)
{
    (void)state;
    /* Z . . # .
       . # . # .
       . . . . .   (Z = 0, . = 1, # = 2) */
    const uint8_t grid[15] = {0, 1, 1, 2, 1, 1, 2, 1, 2, 1, 1, 1, 1, 1, 1};
    field f = {.value = 1, .zero = 1u << 0, .substrate = 1u << 1};
    int32_t potential[15], queue[15];
    uint8_t borders[15];
    field_borders(borders, 5, 3, 1);
    assert_true(field_compute(&f, potential, grid, borders, 5, 3, 1, queue, NULL));
    const int32_t expected[15] = {0, 1, 2, -1, 8, 1, -1, 3, -1, 7, 2, 3, 4, 5, 6};
    assert_memory_equal(potential, expected, sizeof expected);

    /* No zero cell: the field cannot be computed. */
    uint8_t empty[15];
    memset(empty, 1, sizeof empty);
    assert_false(field_compute(&f, potential, empty, borders, 5, 3, 1, queue, NULL));
}

/* The change of potential: new values' potentials minus old ones, with
   inversed fields counting the other way. */
static void field_delta_counts_changed_cells(void **state)
{
    (void)state;
    const uint8_t grid[3] = {0, 1, 1};
    int32_t p0[3] = {5, 6, 7}, p1[3] = {1, 2, -1};
    int32_t *potentials[2] = {p0, p1};
    bool inversed[2] = {false, false};
    delta_cell cells[2] = {{0, 1}, {1, 0}}; /* cell 0 becomes 1, cell 1 becomes 0 */
    int delta;
    assert_true(field_delta(grid, cells, 2, 0, potentials, inversed, &delta));
    assert_int_equal(delta, (1 - 5) + (6 - 2));
    inversed[0] = true; /* value 0's field pushes away: its terms flip sign */
    assert_true(field_delta(grid, cells, 2, 0, potentials, inversed, &delta));
    assert_int_equal(delta, (1 - 5) + 2 * 5 + (6 - 2) - 2 * 6);
    delta_cell unreachable[1] = {{2, 1}};
    assert_false(field_delta(grid, unreachable, 1, 0, potentials, inversed, &delta));
}

/* With a field towards G and no temperature, every step moves R closer. */
static void field_guides_the_walker(void **state)
{
    (void)state;
    const char *xml = "<one values=\"BRWG\" in=\"RB\" out=\"WR\" steps=\"7\"><field for=\"R\" to=\"G\" on=\"B\"/></one>";
    smalti_model *m;
    smalti_run *run = start(xml,
                        "GBBBB"
                        "BBBBB"
                        "BBBBB"
                        "BBBBB"
                        "BBBBR", 5, 5, 3, &m);
    smalti_run_to_end(run, 100);
    char g[26];
    grid_text(run, g);
    const char *r = strchr(g, 'R');
    assert_non_null(r);
    int at = (int)(r - g);
    assert_int_equal(at % 5 + at / 5, 1); /* next to G after 7 steps from distance 8 */
    int trail = 0;
    for (int i = 0; i < 25; i++) trail += g[i] == 'W';
    assert_int_equal(trail, 7);
    smalti_run_free(run);
    smalti_model_free(m);
}

/* Search finds a plan that visits every cell of a 3x3 grid and ends on the
   marked corner: a self-avoiding walk no greedy choice is sure to find. */
static void search_finds_the_covering_walk(void **state)
{
    (void)state;
    const char *xml = "<one values=\"BRWG\" in=\"RB\" out=\"WR\" search=\"True\">"
                      "<observe value=\"G\" from=\"B\" to=\"R\"/>"
                      "<observe value=\"R\" to=\"W\"/>"
                      "<observe value=\"B\" to=\"W\"/></one>";
    for (int32_t seed = 1; seed <= 3; seed++) {
        smalti_model *m;
        smalti_run *run = start(xml,
                            "RBB"
                            "BBB"
                            "BBG", 3, 3, seed, &m);
        /* Eight moves, one per step, then the plan is over and the node fails. */
        assert_int_equal(smalti_run_to_end(run, 100), 9);
        char g[10];
        grid_text(run, g);
        assert_string_equal(g, "WWWWWWWWR");
        smalti_run_free(run);
        smalti_model_free(m);
    }
}

/* A goal no sequence of moves reaches: no plan, and the node runs as a plain `one`. */
static void search_without_a_plan_runs_plainly(void **state)
{
    (void)state;
    const char *xml = "<one values=\"BRWG\" in=\"RB\" out=\"WR\" search=\"True\">"
                      "<observe value=\"G\" from=\"B\" to=\"G\"/>"
                      "<observe value=\"R\" to=\"W\"/></one>";
    smalti_model *m;
    smalti_run *run = start(xml, "RBBG", 4, 1, 1, &m);
    smalti_run_to_end(run, 100);
    char g[5];
    grid_text(run, g);
    assert_string_equal(g, "WWWR"); /* G became B and was walked over */
    smalti_run_free(run);
    smalti_model_free(m);
}

int run_infer_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(field_distances_around_walls),
        cmocka_unit_test(field_delta_counts_changed_cells),
        cmocka_unit_test(field_guides_the_walker),
        cmocka_unit_test(search_finds_the_covering_walk),
        cmocka_unit_test(search_without_a_plan_runs_plainly),
    };
    return cmocka_run_group_tests_name("infer", tests, NULL, NULL);
}
