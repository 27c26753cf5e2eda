/* test_lsystem.c — the `lsystem` node: strings read back from scan-mode grids, turtle figures, steps and limits. */
#include "unit.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smalti.h"
#include "../../src/engine/run.h"
#include "../../src/core/rng.h"

typedef struct scene {
    smalti_model *model;
    smalti_run *run;
    long node_steps;     /* steps in which a node acted */
    size_t last_changed; /* cells changed by the last step */
} scene;

static void count_steps(void *userdata, const smalti_step_event *ev)
{
    scene *s = userdata;
    if (ev->node_id >= 0) s->node_steps++;
    s->last_changed = ev->changed_count;
}

static scene *setup(const char *xml, int mx, int my, int32_t seed)
{
    scene *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->model = unit_load(xml, "lsystem.xml", mx, my, 1, NULL);
    s->run = smalti_run_new(s->model, seed, NULL);
    assert_non_null(s->run);
    smalti_run_set_observer(s->run, count_steps, s);
    return s;
}

static void teardown(scene *s)
{
    smalti_run_free(s->run);
    smalti_model_free(s->model);
    free(s);
}

/* The grid as legend symbols, x fastest; the caller frees it. */
static char *grid_text(const scene *s)
{
    int mx, my, mz;
    const unsigned char *g = smalti_run_grid(s->run, &mx, &my, &mz);
    const char *legend = smalti_run_legend(s->run);
    char *text = malloc((size_t)(mx * my * mz) + 1);
    assert_non_null(text);
    for (int i = 0; i < mx * my * mz; i++) text[i] = legend[g[i]];
    text[mx * my * mz] = 0;
    return text;
}

/* In scan mode on a blank ('.') grid, the string is the painted prefix. */
static void assert_string_is(const scene *s, const char *expected)
{
    char *text = grid_text(s);
    char *end = strchr(text, '.');
    if (end) *end = 0;
    assert_string_equal(text, expected);
    free(text);
}

static long count_of(const char *text, char c)
{
    long n = 0;
    for (; *text; text++) n += *text == c;
    return n;
}

static const char *village_rules = "<rule in=\"O\" out=\"OWO\"/><rule in=\"W\" out=\"WB\"/><rule in=\"B\" out=\"BWO\"/>";

/* Generation g (the axiom is generation 0) is painted by step g + 1. */
static void village_grammar_lengths(void **state)
{
    (void)state;
    char xml[512];
    snprintf(xml, sizeof xml, "<sequence values=\".OWB\"><lsystem mode=\"scan\" axiom=\"OWB\" iterations=\"8\">%s</lsystem></sequence>",
             village_rules);
    scene *s = setup(xml, 100, 70, 1);
    const long lengths[] = {3, 8, 21, 55, 144, 377, 987, 2584, 6765};
    for (int g = 0; g < 9; g++) {
        assert_int_equal(smalti_run_step(s->run), 1);
        char *text = grid_text(s);
        assert_int_equal(100 * 70 - count_of(text, '.'), lengths[g]);
        if (g == 1) assert_true(strncmp(text, "OWOWBBWO.", 9) == 0);
        free(text);
    }
    assert_false(smalti_run_finished(s->run));
    smalti_run_to_end(s->run, 0);
    assert_true(smalti_run_finished(s->run));
    assert_int_equal(s->node_steps, 9); /* generations + 1 */
    teardown(s);
}

/* Without iterations, rewriting stops at the first string that covers the
   72x40 grid: generation 8 (6765 symbols), whose first 2880 symbols hold
   1099 O, 1100 W and 681 B. */
static void village_fills_72x40(void **state)
{
    (void)state;
    char xml[512];
    snprintf(xml, sizeof xml, "<sequence values=\".OWB\"><lsystem mode=\"scan\" axiom=\"OWB\">%s</lsystem></sequence>", village_rules);
    scene *s = setup(xml, 72, 40, 1);
    smalti_run_to_end(s->run, 0);
    assert_int_equal(s->node_steps, 9);
    char *text = grid_text(s);
    assert_int_equal(count_of(text, 'O'), 1099);
    assert_int_equal(count_of(text, 'W'), 1100);
    assert_int_equal(count_of(text, 'B'), 681);
    free(text);
    teardown(s);
}

static void fibonacci_words(void **state)
{
    (void)state;
    scene *s = setup("<sequence values=\".ab\"><lsystem mode=\"scan\" axiom=\"b\" iterations=\"5\">"
                     "<rule in=\"a\" out=\"ab\"/><rule in=\"b\" out=\"a\"/></lsystem></sequence>",
                     10, 1, 1);
    const char *words[] = {"b", "a", "ab", "aba", "abaab", "abaababa"};
    for (int g = 0; g < 6; g++) {
        assert_int_equal(smalti_run_step(s->run), 1);
        assert_string_is(s, words[g]);
    }
    smalti_run_to_end(s->run, 0);
    assert_int_equal(s->node_steps, 6);
    teardown(s);
}

/* c has no rule and copies itself; x is not a grid value and leaves its cell. */
static void symbols_without_rules_are_kept(void **state)
{
    (void)state;
    scene *s = setup("<sequence values=\".abc\"><lsystem mode=\"scan\" axiom=\"cxac\" iterations=\"2\">"
                     "<rule in=\"a\" out=\"ab\"/></lsystem></sequence>",
                     8, 1, 1);
    smalti_run_to_end(s->run, 0);
    char *text = grid_text(s);
    assert_string_equal(text, "c.abbc..");
    free(text);
    teardown(s);
}

/* Scan mode lays the string over the `on` cells only, in scanline order. */
static void scan_follows_on_cells(void **state)
{
    (void)state;
    scene *s = setup("<sequence values=\".#ab\"><lsystem mode=\"scan\" axiom=\"abbab\" iterations=\"0\" on=\".\"/></sequence>", 4, 2, 1);
    unit_lay_picture(s->run, "#..#"
                             "..#.");
    smalti_run_to_end(s->run, 0);
    char *text = grid_text(s);
    assert_string_equal(text, "#ab#"
                              "ba#b");
    free(text);
    teardown(s);
}

/* A known word of 10 symbols on a 4x3 grid, laid in each scan order: the
   grid is exactly the word in that order, the last two cells left as they were. */
static void scan_orders_lay_the_word(void **state)
{
    (void)state;
    const struct { const char *order, *grid; } cases[] = {
        {"rows", "abcd" "efgh" "ij.."},
        {"rowsBottomUp", "ij.." "efgh" "abcd"},
        {"columns", "adgj" "beh." "cfi."},
        {"columnsRightToLeft", "jgda" ".heb" ".ifc"},
        {"serpentine", "abcd" "hgfe" "ij.."},
        {"serpentineColumns", "afg." "beh." "cdij"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char xml[256];
        snprintf(xml, sizeof xml,
                 "<sequence values=\".abcdefghij\"><lsystem mode=\"scan\" scan=\"%s\" axiom=\"abcdefghij\" iterations=\"0\"/></sequence>",
                 cases[k].order);
        scene *s = setup(xml, 4, 3, 1);
        smalti_run_to_end(s->run, 0);
        char *text = grid_text(s);
        if (strcmp(text, cases[k].grid) != 0) fail_msg("scan=\"%s\": %s, not %s", cases[k].order, text, cases[k].grid);
        free(text);
        teardown(s);
    }
}

/* Column order skips the cells outside `on` as row order does. */
static void column_scan_follows_on_cells(void **state)
{
    (void)state;
    scene *s = setup("<sequence values=\".#ab\"><lsystem mode=\"scan\" scan=\"columns\" axiom=\"abbab\" iterations=\"0\" on=\".\"/></sequence>",
                     3, 2, 1);
    unit_lay_picture(s->run, "#.."
                             ".#.");
    smalti_run_to_end(s->run, 0);
    char *text = grid_text(s);
    assert_string_equal(text, "#bb"
                              "a#a");
    free(text);
    teardown(s);
}

static void unknown_scan_order_is_a_load_error(void **state)
{
    (void)state;
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = opt.my = 8;
    opt.quiet = 1;
    smalti_error err;
    smalti_model *m = smalti_model_load_string(
        "<sequence values=\"BW\">\n  <lsystem mode=\"scan\" scan=\"diagonal\" axiom=\"W\"/>\n</sequence>", "scan.xml", &opt, &err);
    assert_null(m);
    assert_int_equal(err.line, 2);
    assert_non_null(strstr(err.message, "scan=\"diagonal\" of <lsystem> must be one of: rows, rowsBottomUp, columns"));
}

/* Each step repaints over the grid as it was before the node: a string that
   shrinks gives its cells back, and only changed cells are reported. */
static void steps_repaint_over_the_old_grid(void **state)
{
    (void)state;
    scene *s = setup("<sequence values=\".ab\"><lsystem mode=\"scan\" axiom=\"aab\" iterations=\"2\">"
                     "<rule in=\"a\" out=\"\"/><rule in=\"b\" out=\"bb\"/></lsystem></sequence>",
                     6, 1, 1);
    smalti_run_step(s->run);
    assert_string_is(s, "aab");
    assert_int_equal(s->last_changed, 3);
    smalti_run_step(s->run);
    assert_string_is(s, "bb");
    assert_int_equal(s->last_changed, 3); /* cells 0 and 1 turn from a to b, cell 2 goes back to . */
    smalti_run_step(s->run);
    assert_string_is(s, "bbbb");
    assert_int_equal(s->last_changed, 2);
    teardown(s);
}

static void steps_attribute_caps_generations(void **state)
{
    (void)state;
    scene *s = setup("<sequence values=\".ab\"><lsystem mode=\"scan\" axiom=\"b\" iterations=\"5\" steps=\"3\">"
                     "<rule in=\"a\" out=\"ab\"/><rule in=\"b\" out=\"a\"/></lsystem></sequence>",
                     10, 1, 1);
    smalti_run_to_end(s->run, 0);
    assert_int_equal(s->node_steps, 3);
    assert_string_is(s, "ab");
    teardown(s);
}

/* Without iterations, systems that can never cover the grid stop: one whose
   rules never lengthen a string, and one that reaches a fixed point. */
static void scan_without_iterations_stops_when_stuck(void **state)
{
    (void)state;
    scene *s = setup("<sequence values=\".ab\"><lsystem mode=\"scan\" axiom=\"ab\">"
                     "<rule in=\"a\" out=\"b\"/><rule in=\"b\" out=\"a\"/></lsystem></sequence>",
                     10, 1, 1);
    smalti_run_to_end(s->run, 1000);
    assert_true(smalti_run_finished(s->run));
    assert_int_equal(s->node_steps, 1);
    teardown(s);
    s = setup("<sequence values=\".ab\"><lsystem mode=\"scan\" axiom=\"a\">"
              "<rule in=\"a\" out=\"ab\"/><rule in=\"b\" out=\"\"/></lsystem></sequence>",
              10, 1, 1);
    smalti_run_to_end(s->run, 1000);
    assert_true(smalti_run_finished(s->run));
    assert_int_equal(s->node_steps, 3); /* a, ab, ab */
    assert_string_is(s, "ab");
    teardown(s);
}

/* One draw per symbol with several rules, in string order, choosing by the
   running sum of the weights; the same seed gives the same grid. */
static void stochastic_rules_follow_the_seed(void **state)
{
    (void)state;
    enum { N = 2000 };
    static char xml[N + 512];
    char *p = xml + sprintf(xml, "<sequence values=\".abc\"><lsystem mode=\"scan\" iterations=\"1\" axiom=\"");
    for (int i = 0; i < N; i++) *p++ = i % 3 ? 'a' : 'c';
    sprintf(p, "\"><rule in=\"a\" out=\"b\" p=\"1\"/><rule in=\"a\" out=\"c\" p=\"3\"/></lsystem></sequence>");
    char *first = NULL;
    for (int32_t seed = 5; seed <= 6; seed++)
        for (int again = 0; again < 2; again++) {
            scene *s = setup(xml, N, 1, seed);
            smalti_run_step(s->run);
            char *text = grid_text(s);
            assert_int_equal(count_of(text, 'a'), N - N / 3 - 1); /* step 1 shows the axiom */
            free(text);
            smalti_run_to_end(s->run, 0);
            text = grid_text(s);
            rng expect;
            rng_seed(&expect, seed);
            for (int i = 0; i < N; i++) {
                char want = i % 3 ? (rng_next_double(&expect) * 4 < 1 ? 'b' : 'c') : 'c';
                if (text[i] != want) fail_msg("seed %d cell %d: %c, expected %c", seed, i, text[i], want);
            }
            long b = count_of(text, 'b'), a_cells = N - N / 3 - 1;
            assert_true(b > a_cells / 4 - 100 && b < a_cells / 4 + 100); /* p(b) = 1/4, sd about 18 */
            if (!first) first = text;
            else {
                assert_true((strcmp(first, text) == 0) == (seed == 5));
                free(text);
            }
            teardown(s);
        }
    free(first);
}

/* Without an axiom: 1..axiomLength symbols (one draw) from the symbols with rules (one draw each). */
static void random_axiom_comes_from_the_stream(void **state)
{
    (void)state;
    for (int32_t seed = 1; seed <= 20; seed++) {
        scene *s = setup("<sequence values=\".ab\"><lsystem mode=\"scan\" iterations=\"0\" axiomLength=\"6\">"
                         "<rule in=\"b\" out=\"ba\"/><rule in=\"a\" out=\"b\"/></lsystem></sequence>",
                         8, 1, seed);
        smalti_run_to_end(s->run, 0);
        rng expect;
        rng_seed(&expect, seed);
        char want[8] = {0};
        int len = 1 + rng_next_max(&expect, 6);
        for (int i = 0; i < len; i++) want[i] = "ba"[rng_next_max(&expect, 2)];
        assert_string_is(s, want);
        teardown(s);
    }
}

static void max_length_stops_the_run_with_the_line(void **state)
{
    (void)state;
    scene *s = setup("<sequence values=\".a\">\n<lsystem mode=\"scan\" axiom=\"a\" iterations=\"20\" maxLength=\"1000\">"
                     "<rule in=\"a\" out=\"aa\"/></lsystem></sequence>",
                     4, 4, 1);
    smalti_run_to_end(s->run, 0);
    assert_int_equal(s->node_steps, 10); /* 1, 2, ..., 512 symbols */
    smalti_error err;
    assert_true(smalti_run_error(s->run, &err));
    assert_int_equal(err.line, 2);
    assert_non_null(strstr(err.message, "generation 10 would be longer than maxLength=1000"));
    teardown(s);
}

/* A → [A[A opens 2^(g+1) - 2 brackets by generation g: the turtle refuses 2^20. */
static void deep_brackets_stop_the_run(void **state)
{
    (void)state;
    scene *s = setup("<sequence values=\".#\">\n<lsystem axiom=\"A\" iterations=\"20\"><rule in=\"A\" out=\"[A[A\"/></lsystem></sequence>", 4, 4,
                     1);
    smalti_run_to_end(s->run, 0);
    assert_int_equal(s->node_steps, 20); /* generations 0..19; generation 19 opens 2^20 - 2 */
    smalti_error err;
    assert_true(smalti_run_error(s->run, &err));
    assert_int_equal(err.line, 2);
    assert_non_null(strstr(err.message, "generation 20 opens more than 1048576 brackets"));
    teardown(s);
}

static void three_d_grid_is_a_load_error(void **state)
{
    (void)state;
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = opt.my = opt.mz = 8;
    opt.quiet = 1;
    smalti_error err;
    smalti_model *m = smalti_model_load_string("<sequence values=\"BW\">\n  <lsystem axiom=\"F\" iterations=\"1\"/>\n</sequence>", "3d.xml",
                                       &opt, &err);
    assert_null(m);
    assert_int_equal(err.line, 2);
    assert_non_null(strstr(err.message, "2-D grids only"));
}

/* The cells painted by a turtle model of one step, as a '#'/'.' picture. */
static char *turtle_picture(const char *axiom, const char *attrs, int size)
{
    char xml[4096];
    snprintf(xml, sizeof xml,
             "<sequence values=\".#R\"><lsystem axiom=\"%s\" iterations=\"0\" pen=\"#\" %s><draw symbol=\"D\" value=\"R\"/></lsystem></sequence>",
             axiom, attrs);
    scene *s = setup(xml, size, size, 1);
    smalti_run_to_end(s->run, 0);
    char *text = grid_text(s);
    teardown(s);
    return text;
}

/* F+F+F+F paints a closed square outline, and with a fourth + the turtle is back at its
   start and heading: a last D retraces exactly the first side. */
static void turtle_square_closes(void **state)
{
    (void)state;
    char *text = turtle_picture("F+F+F+F+D", "angle=\"90\" step=\"5\" heading=\"0\" x=\"3\" y=\"9\"", 12);
    for (int y = 0; y < 12; y++)
        for (int x = 0; x < 12; x++) {
            bool inside = x >= 3 && x <= 8 && y >= 4 && y <= 9, border = inside && (x == 3 || x == 8 || y == 4 || y == 9);
            char want = !border ? '.' : y == 9 ? 'R' : '#';
            if (text[x + y * 12] != want) fail_msg("cell %d,%d is %c, expected %c", x, y, text[x + y * 12], want);
        }
    free(text);
}

/* Regular polygons at 45, 72 and 25 degrees (the last one winding five
   times) also come back: D paints the cells a lone first side paints. */
static void turtle_polygons_close(void **state)
{
    (void)state;
    const struct { const char *angle; int sides; } cases[] = {{"45", 8}, {"72", 5}, {"25", 72}, {"-25", 72}};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char axiom[512] = "", attrs[128];
        for (int i = 0; i < cases[k].sides; i++) strcat(axiom, "F+");
        strcat(axiom, "D");
        snprintf(attrs, sizeof attrs, "angle=\"%s\" step=\"7\" heading=\"10\"", cases[k].angle);
        char *figure = turtle_picture(axiom, attrs, 96), *side = turtle_picture("D", attrs, 96);
        long rs = 0;
        for (int i = 0; i < 96 * 96; i++) {
            if ((figure[i] == 'R') != (side[i] == 'R')) fail_msg("angle %s: cell %d differs", cases[k].angle, i);
            rs += side[i] == 'R';
        }
        assert_true(rs >= 7 && rs <= 9);
        assert_true(count_of(figure, '#') > cases[k].sides);
        free(figure);
        free(side);
    }
}

/* Heading 90 faces row 0; + turns counterclockwise on screen, | turns around,
   [ ] come back, f moves without painting, width thickens. */
static void turtle_commands(void **state)
{
    (void)state;
    char *text = turtle_picture("F", "step=\"3\" heading=\"90\" x=\"2\" y=\"5\"", 6);
    assert_string_equal(text, "......"
                              "......"
                              "..#..."
                              "..#..."
                              "..#..."
                              "..#...");
    free(text);
    text = turtle_picture("[+F]f|D", "step=\"2\" angle=\"90\" heading=\"90\" x=\"2\" y=\"3\"", 6);
    assert_string_equal(text, "......"
                              "..R..."
                              "..R..."
                              "##R..."
                              "......"
                              "......");
    free(text);
    text = turtle_picture("F", "step=\"3\" heading=\"0\" x=\"1\" y=\"2\" width=\"3\"", 6);
    assert_string_equal(text, "......"
                              "######"
                              "######"
                              "######"
                              "......"
                              "......");
    free(text);
}

int run_lsystem_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(village_grammar_lengths),
        cmocka_unit_test(village_fills_72x40),
        cmocka_unit_test(fibonacci_words),
        cmocka_unit_test(symbols_without_rules_are_kept),
        cmocka_unit_test(scan_follows_on_cells),
        cmocka_unit_test(scan_orders_lay_the_word),
        cmocka_unit_test(column_scan_follows_on_cells),
        cmocka_unit_test(unknown_scan_order_is_a_load_error),
        cmocka_unit_test(steps_repaint_over_the_old_grid),
        cmocka_unit_test(steps_attribute_caps_generations),
        cmocka_unit_test(scan_without_iterations_stops_when_stuck),
        cmocka_unit_test(stochastic_rules_follow_the_seed),
        cmocka_unit_test(random_axiom_comes_from_the_stream),
        cmocka_unit_test(max_length_stops_the_run_with_the_line),
        cmocka_unit_test(deep_brackets_stop_the_run),
        cmocka_unit_test(three_d_grid_is_a_load_error),
        cmocka_unit_test(turtle_square_closes),
        cmocka_unit_test(turtle_polygons_close),
        cmocka_unit_test(turtle_commands),
    };
    return cmocka_run_group_tests_name("lsystem", tests, NULL, NULL);
}
