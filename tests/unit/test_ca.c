/* test_ca.c — cellular automata through `convolution`: Game of Life patterns on a wrapping grid. */
#include "unit.h"
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "smalti.h"

/* B3/S23 on a torus: D dead, A alive. */
static const char *const life_xml =
    "<convolution values=\"DA\" neighborhood=\"Moore\" periodic=\"True\">"
    "  <rule in=\"D\" out=\"A\" values=\"A\" sum=\"3\"/>"
    "  <rule in=\"A\" out=\"D\" values=\"A\" sum=\"0,1,4..8\"/>"
    "</convolution>";

/* The grid as legend symbols, row after row. */
static void grid_text(smalti_run *run, char *out)
{
    int mx, my, mz;
    const unsigned char *cells = smalti_run_grid(run, &mx, &my, &mz);
    const char *legend = smalti_run_legend(run);
    for (int i = 0; i < mx * my * mz; i++) out[i] = legend[cells[i]];
    out[mx * my * mz] = 0;
}

static smalti_run *life_start(smalti_model **model, int size, const char *picture)
{
    *model = unit_load(life_xml, "life", size, size, 1, NULL);
    smalti_error err;
    smalti_run *run = smalti_run_new(*model, 1, &err);
    assert_non_null(run);
    unit_lay_picture(run, picture);
    return run;
}

/* A blinker flips between a row and a column and is back after two generations. */
static void test_blinker(void **state)
{
    (void)state;
    const char *horizontal = "DDDDD" "DDDDD" "DAAAD" "DDDDD" "DDDDD";
    const char *vertical   = "DDDDD" "DDADD" "DDADD" "DDADD" "DDDDD";
    smalti_model *model;
    smalti_run *run = life_start(&model, 5, horizontal);
    char text[64];
    for (int generation = 1; generation <= 6; generation++) {
        assert_int_equal(smalti_run_step(run), 1);
        grid_text(run, text);
        assert_string_equal(text, generation % 2 ? vertical : horizontal);
    }
    smalti_run_free(run);
    smalti_model_free(model);
}

/* A block is still: the first generation changes nothing, so the node is
   done and the run ends with the block in place. */
static void test_block(void **state)
{
    (void)state;
    const char *block = "DDDD" "DAAD" "DAAD" "DDDD";
    smalti_model *model;
    smalti_run *run = life_start(&model, 4, block);
    assert_int_equal(smalti_run_to_end(run, 10), 1);
    assert_true(smalti_run_finished(run));
    char text[32];
    grid_text(run, text);
    assert_string_equal(text, block);
    smalti_run_free(run);
    smalti_model_free(model);
}

/* The grid moved one cell right and one down, wrapping (8x8). */
static void shifted_diagonally(const char *grid, char *out)
{
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) out[(x + 1) % 8 + 8 * ((y + 1) % 8)] = grid[x + 8 * y];
    out[64] = 0;
}

/* A glider crosses the wrapping grid diagonally: its first generation is
   the known next phase, every four generations it is itself moved one cell
   right and down, it keeps its five cells, and after 32 it is back. */
static void test_glider(void **state)
{
    (void)state;
    const char *start = "DDDDDDDD" "DDADDDDD" "DDDADDDD" "DAAADDDD" "DDDDDDDD" "DDDDDDDD" "DDDDDDDD" "DDDDDDDD";
    const char *first = "DDDDDDDD" "DDDDDDDD" "DADADDDD" "DDAADDDD" "DDADDDDD" "DDDDDDDD" "DDDDDDDD" "DDDDDDDD";
    smalti_model *model;
    smalti_run *run = life_start(&model, 8, start);
    char history[33][65], moved[65];
    strcpy(history[0], start);
    for (int g = 1; g <= 32; g++) {
        assert_int_equal(smalti_run_step(run), 1);
        grid_text(run, history[g]);
        int alive = 0;
        for (int i = 0; i < 64; i++) alive += history[g][i] == 'A';
        assert_int_equal(alive, 5);
        if (g >= 4) {
            shifted_diagonally(history[g - 4], moved);
            assert_string_equal(history[g], moved);
        }
    }
    assert_string_equal(history[1], first);
    assert_string_equal(history[32], start);
    smalti_run_free(run);
    smalti_model_free(model);
}

/* A convolution with random draws, overlapping rules and sums, on the given
   grid; `heavy`: one rule weighs a value 32 times, which makes the node count
   neighbours one by one instead of by byte rows (its sum="0" means the same). */
static void conv_mixed_run(bool heavy, bool periodic, int mx, int my, int mz, char *out)
{
    char xml[1024], heavy_values[40];
    memset(heavy_values, 'D', 32);
    heavy_values[32] = 0;
    snprintf(xml, sizeof xml,
             "<convolution values=\"DAB\" neighborhood=\"%s\" periodic=\"%s\" steps=\"7\">"
             "  <rule in=\"D\" out=\"A\" p=\"0.4\"/>"
             "  <rule in=\"A\" out=\"B\" values=\"A\" sum=\"3..8\"/>"
             "  <rule in=\"B\" out=\"D\" values=\"%s\" sum=\"0\"/>"
             "  <rule in=\"A\" out=\"D\" values=\"AB\" sum=\"0..2\" p=\"0.7\"/>"
             "  <rule in=\"B\" out=\"A\" values=\"B\" sum=\"4..27\"/>"
             "</convolution>",
             mz > 1 ? "NoCorners" : "Moore", periodic ? "True" : "False", heavy ? heavy_values : "D");
    smalti_model *model = unit_load(xml, "mixed", mx, my, mz, NULL);
    smalti_error err;
    smalti_run *run = smalti_run_new(model, 5, &err);
    assert_non_null(run);
    smalti_run_to_end(run, 100);
    grid_text(run, out);
    smalti_run_free(run);
    smalti_model_free(model);
}

/* The row-sum step and the cell-by-cell step agree on every grid shape,
   wrapping or not, thin ones included (a side of 1 or 2 wraps onto itself). */
static void test_row_sums_match_cell_sums(void **state)
{
    (void)state;
    const int shapes[][3] = {{1, 1, 1}, {3, 1, 1}, {1, 4, 1}, {6, 5, 1}, {37, 19, 1}, {2, 2, 2},
                             {1, 3, 2}, {3, 1, 4}, {5, 4, 3}, {17, 9, 6}};
    static char fast[4096], slow[4096];
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
        for (int periodic = 0; periodic < 2; periodic++) {
            conv_mixed_run(false, periodic, shapes[k][0], shapes[k][1], shapes[k][2], fast);
            conv_mixed_run(true, periodic, shapes[k][0], shapes[k][1], shapes[k][2], slow);
            assert_string_equal(fast, slow);
        }
}

int run_ca_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blinker),
        cmocka_unit_test(test_block),
        cmocka_unit_test(test_glider),
        cmocka_unit_test(test_row_sums_match_cell_sums),
    };
    return cmocka_run_group_tests_name("cellular automata", tests, NULL, NULL);
}
