/* test_badinput.c — malformed models get a clear message with the right line, never a crash. */
#include "unit.h"
#include <stdio.h>
#include <string.h>
#include "smalti.h"

#define FIXTURES "tests/badinput/"

typedef struct bad_case {
    const char *file;
    smalti_status status;
    int line;
    const char *message; /* a part of the message */
} bad_case;

static const bad_case cases[] = {
    {"broken_xml.xml", SMALTI_ERR_MODEL, 3, "malformed XML"},
    {"unknown_node.xml", SMALTI_ERR_MODEL, 3, "unknown node type <grow>"},
    {"repeated_value.xml", SMALTI_ERR_MODEL, 2, "repeating value B"},
    {"bad_symmetry.xml", SMALTI_ERR_MODEL, 3, "unknown symmetry (xz)"},
    {"mismatched_sizes.xml", SMALTI_ERR_MODEL, 3, "non-matching pattern sizes"},
    {"unknown_value.xml", SMALTI_ERR_MODEL, 4, "input symbol 'X' is not in values"},
    {"not_rectangular.xml", SMALTI_ERR_MODEL, 2, "not rectangular"},
    {"bad_number.xml", SMALTI_ERR_MODEL, 2, "steps=\"many\""},
    {"no_values.xml", SMALTI_ERR_MODEL, 1, "no values"},
    {"unknown_element.xml", SMALTI_ERR_MODEL, 4, "unknown element <pattern>"},
    {"bad_union.xml", SMALTI_ERR_MODEL, 2, "union ?"},
    {"empty.xml", SMALTI_ERR_MODEL, 1, "malformed XML"},
    {"map_zero_scale.xml", SMALTI_ERR_MODEL, 3, "should be 3 positive factors"},
    {"map_two_factors.xml", SMALTI_ERR_MODEL, 2, "should be 3 positive factors"},
    {"map_huge_scale.xml", SMALTI_ERR_MODEL, 3, "which is absurdly large"},
    {"field_missing_on.xml", SMALTI_ERR_MODEL, 2, "<field> is missing its on attribute"},
    {"field_unknown_symbol.xml", SMALTI_ERR_MODEL, 2, "on=\"BX\" names a symbol that is not a value"},
    {"observe_unknown_value.xml", SMALTI_ERR_MODEL, 2, "observed value Q is not a value of the grid"},
    {"observe_missing_to.xml", SMALTI_ERR_MODEL, 2, "<observe> needs a to attribute"},
    {"conv_neighborhood.xml", SMALTI_ERR_MODEL, 2, "unknown neighborhood \"Hex\""},
    {"conv_missing_values.xml", SMALTI_ERR_MODEL, 3, "missing \"values\""},
    {"conv_bad_sum.xml", SMALTI_ERR_MODEL, 4, "sum=\"0..x\""},
    {"conv_values_space.xml", SMALTI_ERR_MODEL, 3, "values=\"B W\" of <rule>: ' ' is not a value of the grid (values are \"BW\"); list the values to count one character each, with no spaces"},
    {"rule_empty_row.xml", SMALTI_ERR_MODEL, 1, "input pattern \" B\" has an empty row: it starts with a space (which separates layers) or a '/'"},
    {"path_missing_on.xml", SMALTI_ERR_MODEL, 3, "<path> is missing the \"on\" attribute"},
    {"path_missing_from.xml", SMALTI_ERR_MODEL, 2, "<path> is missing the \"from\" attribute"},
    {"path_unknown_value.xml", SMALTI_ERR_MODEL, 4, "to=\"WX\" of <path>: X is not a value of the grid"},
    {"path_bad_color.xml", SMALTI_ERR_MODEL, 2, "color=\"G\" of <path> is not a value"},
    {"path_union.xml", SMALTI_ERR_MODEL, 3, "? is a union; <path> takes values only"},
    {"path_empty_from.xml", SMALTI_ERR_MODEL, 2, "empty \"from\" needs a \"color\""},
    /* Rule images live in tests/badinput/rules/ (the test's resource root). */
    {"rule_image_broken.xml", SMALTI_ERR_MODEL, 3, "broken.png: broken PNG image: the file ends inside a chunk"},
    /* Chunk names are told in our words, never as stb's raw bytes (here 01 fe 'Z' 'z'). */
    {"rule_image_binary_chunk.xml", SMALTI_ERR_MODEL, 3, "binary_chunk.png: broken PNG image: a chunk whose name is not four letters"},
    {"rule_image_critical_chunk.xml", SMALTI_ERR_MODEL, 3, "critical_chunk.png: unsupported PNG image: its critical chunk QQQQ is not one smalti reads"},
    {"rule_image_missing.xml", SMALTI_ERR_MODEL, 2, "rule image \"nothere\" not found"},
    {"rule_image_escape.xml", SMALTI_ERR_MODEL, 3, "--allow-any-path"},
    {"rule_image_no_legend.xml", SMALTI_ERR_MODEL, 1, "needs a legend"},
    {"rule_image_odd_width.xml", SMALTI_ERR_MODEL, 2, "odd width 3"},
    {"rule_image_colours.xml", SMALTI_ERR_MODEL, 4, "more colours than legend \"W\" has symbols"},
    {"rule_image_file_and_in.xml", SMALTI_ERR_MODEL, 3, "cannot also have in"},
    {"chain_missing_sample.xml", SMALTI_ERR_MODEL, 2, "convchain needs a sample attribute"},
    {"chain_sample_not_found.xml", SMALTI_ERR_MODEL, 3, "sample \"NoSuchSample\" not found"},
    {"chain_bad_n.xml", SMALTI_ERR_MODEL, 2, "n=\"7\": the pattern size must be from 1 to 4"},
    {"chain_black_not_value.xml", SMALTI_ERR_MODEL, 3, "black=\"K\" is not a value of the grid"},
    {"wfc_sample_missing.xml", SMALTI_ERR_MODEL, 3, "sample \"NoSuchSample\" not found"},
    {"wfc_bad_n.xml", SMALTI_ERR_MODEL, 2, "n=\"0\": the pattern size must be from 1 to 8"},
    {"wfc_no_model.xml", SMALTI_ERR_MODEL, 3, "<wfc> needs a sample (overlap model) or a tileset"},
    {"wfc_tileset_missing.xml", SMALTI_ERR_MODEL, 2, "tileset \"NoSuchTileset\" not found"},
    /* Tilesets live in tests/badinput/tilesets/; errors inside one point at the <wfc> and name the tileset's line. */
    {"wfc_unknown_neighbor_tile.xml", SMALTI_ERR_MODEL, 2, "Bad.xml line 8: unknown tile Nope in right=\"z Nope\""},
    {"wfc_unknown_rule_tile.xml", SMALTI_ERR_MODEL, 4, "unknown tilename Nope in out=\"B|Nope\""},
    {"wfc_rule_not_value.xml", SMALTI_ERR_MODEL, 4, "in=\"Q\" is not a value of the grid"},
    {"wfc_tile_missing.xml", SMALTI_ERR_MODEL, 3, "tile \"A\" not found"},
    {"wfc_too_many_colours.xml", SMALTI_ERR_MODEL, 2, "more than 2 colours in the tiles of Bad"},
    {"runner_unknown_brush.xml", SMALTI_ERR_MODEL, 2, "brush=\"star\" of <runner> must be one of: circle, diamond, square, octagon"},
    {"runner_backward_range.xml", SMALTI_ERR_MODEL, 2, "strength=\"8..4\" of <runner>: the range runs backwards"},
    {"runner_bad_jitter.xml", SMALTI_ERR_MODEL, 2, "jitter=\"1.5\" of <runner> must be at least 0 and below 1"},
    {"runner_bad_wind.xml", SMALTI_ERR_MODEL, 2, "wind=\"1\" of <runner> must be two numbers \"dx,dy\""},
    {"runner_bad_wave.xml", SMALTI_ERR_MODEL, 2, "wave=\"30\" of <runner> must be two numbers \"amplitude,revolutions\""},
    {"runner_start_outside.xml", SMALTI_ERR_MODEL, 2, "y=\"99\" of <runner> must lie between 0 and 15"},
    {"runner_fractional_life.xml", SMALTI_ERR_MODEL, 2, "life=\"2.5..9\" of <runner> must be whole numbers"},
    {"runner_missing_value.xml", SMALTI_ERR_MODEL, 2, "<runner> needs a value attribute"},
    {"lsystem_multi_in.xml", SMALTI_ERR_MODEL, 3, "in=\"FF\" of <rule> must be exactly one symbol"},
    {"lsystem_empty_in.xml", SMALTI_ERR_MODEL, 4, "in=\"\" of <rule> must be exactly one symbol"},
    {"lsystem_draw_value.xml", SMALTI_ERR_MODEL, 4, "value=\"G\" of <draw> is not a value of the grid"},
    {"lsystem_draw_command.xml", SMALTI_ERR_MODEL, 3, "symbol=\"+\" of <draw> is a turtle command"},
    {"lsystem_pen.xml", SMALTI_ERR_MODEL, 2, "pen=\"Q\" of <lsystem> is not a value of the grid"},
    {"lsystem_angle.xml", SMALTI_ERR_MODEL, 3, "angle=\"ninety\""},
    {"lsystem_mode.xml", SMALTI_ERR_MODEL, 2, "mode=\"spiral\" of <lsystem> must be one of: turtle, scan"},
    {"lsystem_no_iterations.xml", SMALTI_ERR_MODEL, 2, "turtle mode needs an iterations attribute"},
    {"lsystem_bad_p.xml", SMALTI_ERR_MODEL, 3, "p=\"0\" of <rule> must be positive"},
    {"lsystem_child.xml", SMALTI_ERR_MODEL, 3, "unknown element <rules> inside <lsystem>"},
    {"lsystem_axiom_space.xml", SMALTI_ERR_MODEL, 2, "axiom=\"F F\" of <lsystem>: symbols must be printable ASCII"},
    {"lsystem_axiom_too_long.xml", SMALTI_ERR_MODEL, 2, "axiom of <lsystem> is longer than maxLength=4"},
    {"lsystem_no_axiom_no_rules.xml", SMALTI_ERR_MODEL, 2, "needs an axiom, or rules to draw a random one from"},
    {"lsystem_width.xml", SMALTI_ERR_MODEL, 2, "width=\"0\" of <lsystem> must lie between 1 and 64"},
    {"lsystem_max_length.xml", SMALTI_ERR_MODEL, 2, "maxLength=\"1000000000\" of <lsystem> must lie between 1 and 268435456"},
    /* Density pictures (samples/ in tests/badinput/) and single tile variants in rules: smalti's own. */
    {"wfc_density_missing.xml", SMALTI_ERR_MODEL, 3, "density picture \"NoSuchPicture\" not found (looked for tests/badinput/samples/NoSuchPicture.png"},
    {"wfc_density_bad_d.xml", SMALTI_ERR_MODEL, 4, "d=\"1.5\" must be from 0 to 1"},
    {"wfc_density_bad_power.xml", SMALTI_ERR_MODEL, 2, "densityPower=\"-1\" must be from 0 to 16"},
    {"wfc_density_no_picture.xml", SMALTI_ERR_MODEL, 4, "<density> needs a density picture"},
    {"wfc_density_unknown_tile.xml", SMALTI_ERR_MODEL, 3, "unknown tilename C in tile=\"A|C\""},
    {"wfc_tileset_bad_density.xml", SMALTI_ERR_MODEL, 2, "Dense.xml line 4: density=\"high\" of tile B must be a number from 0 to 1"},
    {"wfc_rule_bad_variant.xml", SMALTI_ERR_MODEL, 4, "out=\"A 1\": tile A has 1 variant, 0 to 0"},
    /* Issue 33: a large negative overlap once wrapped the grid's size and wrote outside its cells. */
    {"wfc_tile_negative_overlap.xml", SMALTI_ERR_MODEL, 2, "overlap=\"-2147483600\" of <wfc> must lie between -268435456 and 268435456"},
    {"wfc_rule_bad_turn.xml", SMALTI_ERR_MODEL, 3, "unknown tilename zq A in out=\"zq A\""},
    {"wfc_rule_turn_needs_cube.xml", SMALTI_ERR_MODEL, 3, "x turns about a horizontal axis, which needs cubic tiles"},
    {"wfc_overlap_density_value.xml", SMALTI_ERR_MODEL, 4, "value=\"Q\": \"Q\" does not start with a value of the wfc's grid"},
    {"noise_unknown_type.xml", SMALTI_ERR_MODEL, 2, "type=\"worley\" of <noise> must be one of: simplex, perlin"},
    {"noise_unknown_fractal.xml", SMALTI_ERR_MODEL, 2, "fractal=\"turbulence\" of <noise> must be one of: none, fbm"},
    {"noise_octaves_zero.xml", SMALTI_ERR_MODEL, 2, "octaves=\"0\" of <noise> must lie between 1 and 16"},
    {"noise_octaves_absurd.xml", SMALTI_ERR_MODEL, 2, "octaves=\"1000\" of <noise> must lie between 1 and 16"},
    {"noise_frequency_reach.xml", SMALTI_ERR_MODEL, 2, "keep it below 65536"},
    {"noise_band_order.xml", SMALTI_ERR_MODEL, 4, "<band to=\"-0.1\"> is below the previous band's to=\"0.2\""},
    {"noise_band_after_rest.xml", SMALTI_ERR_MODEL, 4, "this <band> is never reached"},
    {"noise_band_value.xml", SMALTI_ERR_MODEL, 4, "value=\"Q\" of <band> is not a value of the grid"},
    {"noise_band_p.xml", SMALTI_ERR_MODEL, 3, "p=\"1.5\" of <band> must lie between 0 and 1"},
    {"noise_band_to.xml", SMALTI_ERR_MODEL, 3, "to=\"2\" of <band> must lie between -1 and 1"},
    {"noise_no_bands.xml", SMALTI_ERR_MODEL, 2, "<noise> needs at least one <band"},
    {"noise_unknown_child.xml", SMALTI_ERR_MODEL, 3, "unknown element <rule> inside <noise>"},
    {"voronoi_bad_metric.xml", SMALTI_ERR_MODEL, 2, "metric=\"hexagonal\" of <voronoi> must be one of: euclidean, manhattan, chebyshev"},
    {"voronoi_zero_sites.xml", SMALTI_ERR_MODEL, 3, "sites=\"0\" of <voronoi> must lie between 1 and the grid's 256 cells"},
    {"voronoi_too_many_sites.xml", SMALTI_ERR_MODEL, 2, "sites=\"100000\" of <voronoi> must lie between 1 and the grid's 256 cells"},
    {"voronoi_unknown_value.xml", SMALTI_ERR_MODEL, 2, "values=\"WRX\" of <voronoi>: 'X' is not a value of the grid"},
    {"voronoi_distinct_short.xml", SMALTI_ERR_MODEL, 2, "with distinct=\"True\" needs as many values, but values=\"WR\" has 2"},
    {"voronoi_no_sites.xml", SMALTI_ERR_MODEL, 2, "<voronoi> needs a sites or a from attribute"},
    {"voronoi_from_values.xml", SMALTI_ERR_MODEL, 2, "values and distinct go with sites"},
    {"voronoi_bad_border.xml", SMALTI_ERR_MODEL, 2, "border=\"Z\" of <voronoi> is not a value of the grid"},
    {"poisson_zero_radius.xml", SMALTI_ERR_MODEL, 2, "radius=\"0\" of <poisson> must be above 0"},
    {"poisson_huge_radius.xml", SMALTI_ERR_MODEL, 2, "radius=\"1e9\" of <poisson> must be above 0 and at most 65536"},
    {"poisson_no_radius.xml", SMALTI_ERR_MODEL, 2, "<poisson> needs a radius attribute"},
    {"poisson_bad_k.xml", SMALTI_ERR_MODEL, 2, "k=\"0\" of <poisson> must lie between 1 and 10000"},
    {"poisson_no_value.xml", SMALTI_ERR_MODEL, 2, "<poisson> needs a value attribute"},
    {"poisson_bad_method.xml", SMALTI_ERR_MODEL, 2, "method=\"dart\" of <poisson> must be one of: maximal, bridson"},
    {"poisson_bad_radii.xml", SMALTI_ERR_MODEL, 2, "radii=\"B2 Gx\" of <poisson>: G needs a radius above 0 and at most 65536 right after it"},
    {"poisson_radii_not_on.xml", SMALTI_ERR_MODEL, 2, "radii=\"B2 G4\" of <poisson>: G is not an \"on\" value"},
    {"poisson_picture_no_white.xml", SMALTI_ERR_MODEL, 2, "radiuspicture of <poisson> needs a whiteradius: the radius at white"},
    {"poisson_radii_and_picture.xml", SMALTI_ERR_MODEL, 2, "<poisson> takes radii or a radiuspicture, not both"},
    {"poisson_bad_on.xml", SMALTI_ERR_MODEL, 2, "on=\"BQ\" of <poisson> must be grid values, unions or '*'"},
    {"wfc_bad_backtrack.xml", SMALTI_ERR_MODEL, 3, "backtrack=\"-3\" must be from 0 to 1000000"},
};

static void each_fixture_reports_file_line_and_message(void **state)
{
    (void)state;
    smalti_load_options opt = smalti_load_defaults();
    opt.quiet = 1;
    const char *roots[] = {"tests/badinput"};
    opt.resource_dirs = roots;
    opt.resource_dir_count = 1;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[256];
        snprintf(path, sizeof path, FIXTURES "%s", cases[i].file);
        smalti_error err;
        memset(&err, 0, sizeof err);
        smalti_model *m = smalti_model_load(path, &opt, &err);
        if (m) fail_msg("%s loaded but should not", path);
        for (const char *c = err.message; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f) fail_msg("%s: byte %02x in the message \"%s\"", cases[i].file, (unsigned char)*c, err.message);
        if (err.status != cases[i].status || err.line != cases[i].line || !strstr(err.message, cases[i].message) ||
            strcmp(err.file, path) != 0)
            fail_msg("%s: got %s:%d: %s (status %d); expected line %d and \"%s\"", cases[i].file, err.file, err.line,
                     err.message, err.status, cases[i].line, cases[i].message);
    }
}

static void missing_file_is_an_io_error(void **state)
{
    (void)state;
    smalti_error err;
    assert_null(smalti_model_load(FIXTURES "does_not_exist.xml", NULL, &err));
    assert_int_equal(err.status, SMALTI_ERR_IO);
    assert_non_null(strstr(err.message, "cannot open"));
    /* A folder opens, and libxml2 would print its own line on reading it. */
    assert_null(smalti_model_load(FIXTURES "rules", NULL, &err));
    assert_int_equal(err.status, SMALTI_ERR_IO);
    assert_string_equal(err.message, "is a directory, not a model file");
}

static void absurd_sizes_are_refused(void **state)
{
    (void)state;
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = 100000; opt.my = 100000; opt.mz = 1;
    smalti_error err;
    assert_null(smalti_model_load_string("<one values=\"BW\" in=\"B\" out=\"W\"/>", "big.xml", &opt, &err));
    assert_int_equal(err.status, SMALTI_ERR_USAGE);
    assert_non_null(strstr(err.message, "absurd"));
    opt.mx = 0;
    assert_null(smalti_model_load_string("<one values=\"BW\" in=\"B\" out=\"W\"/>", "zero.xml", &opt, &err));
    assert_non_null(strstr(err.message, "at least 1"));
    /* Sides whose product overflows even 64 bits. */
    opt.mx = opt.my = opt.mz = 2000000000;
    assert_null(smalti_model_load_string("<one values=\"BW\" in=\"B\" out=\"W\"/>", "huge.xml", &opt, &err));
    assert_int_equal(err.status, SMALTI_ERR_USAGE);
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

/* The reference ignores unknown attributes; smalti loads the model but warns. */
static void unknown_attribute_is_a_warning_with_line(void **state)
{
    (void)state;
    smalti_load_options opt = smalti_load_defaults();
    warnings w = {0};
    opt.warn = collect;
    opt.warn_userdata = &w;
    smalti_error err;
    smalti_model *m = smalti_model_load(FIXTURES "typo_attribute.xml", &opt, &err);
    assert_non_null(m);
    assert_int_equal(w.count, 1);
    assert_int_equal(w.line, 3);
    assert_non_null(strstr(w.message, "symetry"));
    smalti_model_free(m);
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
    smalti_error err;
    smalti_model *m = smalti_model_load_string(xml, "deep.xml", NULL, &err);
    if (m) smalti_model_free(m);
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
