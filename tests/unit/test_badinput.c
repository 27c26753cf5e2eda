/* test_badinput.c — malformed models get a clear message with the right line, never a crash. */
#include "unit.h"
#include <stdio.h>
#include <string.h>
#include "tessera.h"

#define FIXTURES "tests/badinput/"

typedef struct bad_case {
    const char *file;
    ts_status status;
    int line;
    const char *message; /* a part of the message */
} bad_case;

static const bad_case cases[] = {
    {"broken_xml.xml", TS_ERR_MODEL, 3, "malformed XML"},
    {"unknown_node.xml", TS_ERR_MODEL, 3, "unknown node type <grow>"},
    {"repeated_value.xml", TS_ERR_MODEL, 2, "repeating value B"},
    {"bad_symmetry.xml", TS_ERR_MODEL, 3, "unknown symmetry (xz)"},
    {"mismatched_sizes.xml", TS_ERR_MODEL, 3, "non-matching pattern sizes"},
    {"unknown_value.xml", TS_ERR_MODEL, 4, "input code X"},
    {"not_rectangular.xml", TS_ERR_MODEL, 2, "not rectangular"},
    {"bad_number.xml", TS_ERR_MODEL, 2, "steps=\"many\""},
    {"no_values.xml", TS_ERR_MODEL, 1, "no values"},
    {"unknown_element.xml", TS_ERR_MODEL, 4, "unknown element <pattern>"},
    {"bad_union.xml", TS_ERR_MODEL, 2, "union ?"},
    {"empty.xml", TS_ERR_MODEL, 1, "malformed XML"},
    {"map_zero_scale.xml", TS_ERR_MODEL, 3, "should be 3 positive factors"},
    {"map_two_factors.xml", TS_ERR_MODEL, 2, "should be 3 positive factors"},
    {"map_huge_scale.xml", TS_ERR_MODEL, 3, "which is absurdly large"},
    {"field_missing_on.xml", TS_ERR_MODEL, 2, "<field> is missing its on attribute"},
    {"field_unknown_symbol.xml", TS_ERR_MODEL, 2, "on=\"BX\" names a symbol that is not a value"},
    {"observe_unknown_value.xml", TS_ERR_MODEL, 2, "observed value Q is not a value of the grid"},
    {"observe_missing_to.xml", TS_ERR_MODEL, 2, "<observe> needs a to attribute"},
    {"conv_neighborhood.xml", TS_ERR_MODEL, 2, "unknown neighborhood \"Hex\""},
    {"conv_missing_values.xml", TS_ERR_MODEL, 3, "missing \"values\""},
    {"conv_bad_sum.xml", TS_ERR_MODEL, 4, "sum=\"0..x\""},
    {"path_missing_on.xml", TS_ERR_MODEL, 3, "<path> is missing the \"on\" attribute"},
    {"path_missing_from.xml", TS_ERR_MODEL, 2, "<path> is missing the \"from\" attribute"},
    {"path_unknown_value.xml", TS_ERR_MODEL, 4, "to=\"WX\" of <path>: X is not a value of the grid"},
    {"path_bad_color.xml", TS_ERR_MODEL, 2, "color=\"G\" of <path> is not a value"},
    {"path_union.xml", TS_ERR_MODEL, 3, "? is a union; <path> takes values only"},
    {"path_empty_from.xml", TS_ERR_MODEL, 2, "empty \"from\" needs a \"color\""},
    /* Rule images live in tests/badinput/rules/ (the test's resource root). */
    {"rule_image_broken.xml", TS_ERR_MODEL, 3, "broken PNG"},
    {"rule_image_missing.xml", TS_ERR_MODEL, 2, "rule image \"nothere\" not found"},
    {"rule_image_escape.xml", TS_ERR_MODEL, 3, "--allow-any-path"},
    {"rule_image_no_legend.xml", TS_ERR_MODEL, 1, "needs a legend"},
    {"rule_image_odd_width.xml", TS_ERR_MODEL, 2, "odd width 3"},
    {"rule_image_colours.xml", TS_ERR_MODEL, 4, "more colours than legend \"W\" has symbols"},
    {"rule_image_file_and_in.xml", TS_ERR_MODEL, 3, "cannot also have in"},
    {"chain_missing_sample.xml", TS_ERR_MODEL, 2, "convchain needs a sample attribute"},
    {"chain_sample_not_found.xml", TS_ERR_MODEL, 3, "sample \"NoSuchSample\" not found"},
    {"chain_bad_n.xml", TS_ERR_MODEL, 2, "n=\"7\": the pattern size must be from 1 to 4"},
    {"chain_black_not_value.xml", TS_ERR_MODEL, 3, "black=\"K\" is not a value of the grid"},
    {"wfc_sample_missing.xml", TS_ERR_MODEL, 3, "sample \"NoSuchSample\" not found"},
    {"wfc_bad_n.xml", TS_ERR_MODEL, 2, "n=\"0\": the pattern size must be from 1 to 8"},
    {"wfc_no_model.xml", TS_ERR_MODEL, 3, "<wfc> needs a sample (overlap model) or a tileset"},
    {"wfc_tileset_missing.xml", TS_ERR_MODEL, 2, "tileset \"NoSuchTileset\" not found"},
    /* Tilesets live in tests/badinput/tilesets/; errors inside one point at the <wfc> and name the tileset's line. */
    {"wfc_unknown_neighbor_tile.xml", TS_ERR_MODEL, 2, "Bad.xml line 8: unknown tile Nope in right=\"z Nope\""},
    {"wfc_unknown_rule_tile.xml", TS_ERR_MODEL, 4, "unknown tilename Nope in out=\"B|Nope\""},
    {"wfc_rule_not_value.xml", TS_ERR_MODEL, 4, "in=\"Q\" is not a value of the grid"},
    {"wfc_tile_missing.xml", TS_ERR_MODEL, 3, "tile \"A\" not found"},
    {"wfc_too_many_colours.xml", TS_ERR_MODEL, 2, "more than 2 colours in the tiles of Bad"},
    {"wfc_bad_backtrack.xml", TS_ERR_MODEL, 3, "backtrack=\"-3\" must be from 0 to 1000000"},
};

static void each_fixture_reports_file_line_and_message(void **state)
{
    (void)state;
    ts_load_options opt = ts_load_defaults();
    opt.quiet = 1;
    const char *roots[] = {"tests/badinput"};
    opt.resource_dirs = roots;
    opt.resource_dir_count = 1;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[256];
        snprintf(path, sizeof path, FIXTURES "%s", cases[i].file);
        ts_error err;
        memset(&err, 0, sizeof err);
        ts_model *m = ts_model_load(path, &opt, &err);
        if (m) fail_msg("%s loaded but should not", path);
        if (err.status != cases[i].status || err.line != cases[i].line || !strstr(err.message, cases[i].message) ||
            strcmp(err.file, path) != 0)
            fail_msg("%s: got %s:%d: %s (status %d); expected line %d and \"%s\"", cases[i].file, err.file, err.line,
                     err.message, err.status, cases[i].line, cases[i].message);
    }
}

static void missing_file_is_an_io_error(void **state)
{
    (void)state;
    ts_error err;
    assert_null(ts_model_load(FIXTURES "does_not_exist.xml", NULL, &err));
    assert_int_equal(err.status, TS_ERR_IO);
    assert_non_null(strstr(err.message, "cannot open"));
}

static void absurd_sizes_are_refused(void **state)
{
    (void)state;
    ts_load_options opt = ts_load_defaults();
    opt.mx = 100000; opt.my = 100000; opt.mz = 1;
    ts_error err;
    assert_null(ts_model_load_string("<one values=\"BW\" in=\"B\" out=\"W\"/>", "big.xml", &opt, &err));
    assert_int_equal(err.status, TS_ERR_USAGE);
    assert_non_null(strstr(err.message, "absurd"));
    opt.mx = 0;
    assert_null(ts_model_load_string("<one values=\"BW\" in=\"B\" out=\"W\"/>", "zero.xml", &opt, &err));
    assert_non_null(strstr(err.message, "at least 1"));
    /* Sides whose product overflows even 64 bits. */
    opt.mx = opt.my = opt.mz = 2000000000;
    assert_null(ts_model_load_string("<one values=\"BW\" in=\"B\" out=\"W\"/>", "huge.xml", &opt, &err));
    assert_int_equal(err.status, TS_ERR_USAGE);
    assert_non_null(strstr(err.message, "absurd"));
}

typedef struct warnings {
    int count, line;
    char message[256];
} warnings;

static void collect(void *ud, const char *file, int line, const char *message)
{
    (void)file;
    warnings *w = ud;
    w->count++;
    w->line = line;
    snprintf(w->message, sizeof w->message, "%s", message);
}

/* The reference ignores unknown attributes; tessera loads the model but warns. */
static void unknown_attribute_is_a_warning_with_line(void **state)
{
    (void)state;
    ts_load_options opt = ts_load_defaults();
    warnings w = {0};
    opt.warn = collect;
    opt.warn_userdata = &w;
    ts_error err;
    ts_model *m = ts_model_load(FIXTURES "typo_attribute.xml", &opt, &err);
    assert_non_null(m);
    assert_int_equal(w.count, 1);
    assert_int_equal(w.line, 3);
    assert_non_null(strstr(w.message, "symetry"));
    ts_model_free(m);
}

/* Deep nesting and long garbage must fail cleanly too. */
static void deep_nesting_fails_cleanly(void **state)
{
    (void)state;
    enum { DEPTH = 5000 };
    static char xml[DEPTH * 22 + 200];
    char *p = xml;
    p += sprintf(p, "<sequence values=\"BW\">");
    for (int i = 0; i < DEPTH; i++) p += sprintf(p, "<sequence>");
    p += sprintf(p, "<one in=\"B\" out=\"W\"/>");
    for (int i = 0; i < DEPTH; i++) p += sprintf(p, "</sequence>");
    sprintf(p, "</sequence>");
    ts_error err;
    ts_model *m = ts_model_load_string(xml, "deep.xml", NULL, &err);
    if (m) ts_model_free(m);
    else assert_true(err.message[0] != 0);
}

int run_badinput_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_fixture_reports_file_line_and_message),
        cmocka_unit_test(missing_file_is_an_io_error),
        cmocka_unit_test(absurd_sizes_are_refused),
        cmocka_unit_test(unknown_attribute_is_a_warning_with_line),
        cmocka_unit_test(deep_nesting_fails_cleanly),
    };
    return cmocka_run_group_tests_name("bad input", tests, NULL, NULL);
}
