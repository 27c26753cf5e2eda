/* test_settings.c — a model's own settings: the <smalti> element, on every root kind, and the grid it asks for. */
#include "unit.h"
#include <stdio.h>
#include <string.h>
#include "smalti.h"
#include "../../src/nodes/settings.h"

static smalti_model *load_own_size(const char *xml, smalti_error *err)
{
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = opt.my = opt.mz = 0; /* the model's own size */
    opt.quiet = 1;
    return smalti_model_load_string(xml, "own.xml", &opt, err);
}

/* Every kind that can be the root reads its children without taking <smalti> for one of them. */
static void every_root_kind_accepts_settings(void **state)
{
    (void)state;
    static const char *const roots[] = {
        "<one values=\"BW\" in=\"B\" out=\"W\">%s</one>",
        "<all values=\"BW\" in=\"B\" out=\"W\">%s</all>",
        "<prl values=\"BW\" in=\"B\" out=\"W\">%s</prl>",
        "<one values=\"BW\">%s<rule in=\"B\" out=\"W\"/></one>",
        "<markov values=\"BW\">%s<one in=\"B\" out=\"W\"/></markov>",
        "<sequence values=\"BW\">%s<one in=\"B\" out=\"W\"/></sequence>",
        "<convolution values=\"DA\" neighborhood=\"Moore\">%s<rule in=\"D\" out=\"A\" sum=\"5..8\" values=\"A\"/></convolution>",
        "<path values=\"BRWP\" from=\"R\" to=\"W\" on=\"B\" color=\"P\">%s</path>",
        "<map values=\"YB\" scale=\"2/1 2/1 1/1\">%s<rule in=\"Y\" out=\"B\"/></map>",
        "<noise values=\"AC\" type=\"white\" on=\"A\">%s<band value=\"C\"/></noise>",
        "<poisson values=\"BWTG\" radius=\"2\" value=\"W\" on=\"B\">%s</poisson>",
        "<lsystem values=\".OWB\" mode=\"scan\" axiom=\"OWB\" iterations=\"2\">%s<rule in=\"O\" out=\"OW\"/></lsystem>",
    };
    for (size_t i = 0; i < sizeof roots / sizeof *roots; i++) {
        char xml[512];
        snprintf(xml, sizeof xml, roots[i], "\n<smalti length=\"7\" width=\"5\" seed=\"9\"/>");
        smalti_error err;
        smalti_model *m = load_own_size(xml, &err);
        if (!m) fail_msg("%s: %s:%d: %s", roots[i], err.file, err.line, err.message);
        int mx, my, mz;
        smalti_model_grid_size(m, &mx, &my, &mz);
        assert_int_equal(mx, 7);
        assert_int_equal(my, 5);
        assert_int_equal(mz, 1);
        smalti_settings s;
        smalti_model_settings(m, &s);
        assert_true(s.has_seed);
        assert_int_equal(s.seed, 9);
        /* The settings are no node: the tree is what it is without them. */
        snprintf(xml, sizeof xml, roots[i], "");
        smalti_model *plain = load_own_size(xml, &err);
        assert_non_null(plain);
        assert_int_equal(smalti_model_node_count(m), smalti_model_node_count(plain));
        smalti_model_free(plain);
        smalti_run *run = smalti_run_new(m, 9, &err);
        assert_non_null(run);
        smalti_run_to_end(run, 100);
        assert_false(smalti_run_error(run, NULL));
        smalti_run_free(run);
        smalti_model_free(m);
    }
}

static void settings_fields_and_colours(void **state)
{
    (void)state;
    smalti_error err;
    smalti_model *m = load_own_size("<sequence values=\"BWR\">\n"
                                    "  <smalti size=\"12\" d=\"3\" steps=\"0\" seed=\"-4\" pixelsize=\"6\" iso=\"True\">\n"
                                    "    <color symbol=\"R\" value=\"D04030\"/><color symbol=\"W\" value=\"ffffff\"/>\n"
                                    "  </smalti>\n"
                                    "  <one in=\"B\" out=\"W\"/>\n"
                                    "</sequence>",
                                    &err);
    assert_non_null(m);
    smalti_settings s;
    smalti_model_settings(m, &s);
    assert_int_equal(s.size, 12);
    assert_int_equal(s.dim, 3);
    assert_int_equal(s.length, 0);
    assert_true(s.has_steps);
    assert_int_equal(s.steps, 0);
    assert_int_equal(s.seed, -4);
    assert_int_equal(s.pixel_size, 6);
    assert_int_equal(s.iso, 1);
    assert_int_equal(s.color_count, 2);
    assert_string_equal(s.color_symbols, "RW");
    assert_int_equal(s.color_rgb[0], 0xD04030);
    assert_int_equal(s.color_rgb[1], 0xFFFFFF);
    int mx, my, mz;
    smalti_model_grid_size(m, &mx, &my, &mz);
    assert_int_equal(mz, 12); /* d="3": a cube */
    smalti_model_free(m);

    /* Without settings: nothing given, and a zero size is smalti's default sides. */
    m = load_own_size("<one values=\"BW\" in=\"B\" out=\"W\"/>", &err);
    assert_non_null(m);
    smalti_model_settings(m, &s);
    assert_false(s.has_seed || s.has_steps || s.size || s.dim || s.pixel_size || s.color_count);
    assert_int_equal(s.iso, -1);
    smalti_model_grid_size(m, &mx, &my, &mz);
    assert_true(mx == SMALTI_DEFAULT_SIDE_2D && my == SMALTI_DEFAULT_SIDE_2D && mz == 1);
    smalti_model_free(m);

    /* An explicit size wins over the settings. */
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = 3, opt.my = 4, opt.mz = 1;
    m = smalti_model_load_string("<one values=\"BW\" in=\"B\" out=\"W\"><smalti size=\"30\"/></one>", "o.xml", &opt, &err);
    assert_non_null(m);
    smalti_model_grid_size(m, &mx, &my, &mz);
    assert_true(mx == 3 && my == 4 && mz == 1);
    smalti_model_free(m);
}

static void bad_settings_name_their_line(void **state)
{
    (void)state;
    static const struct { const char *settings; int line; const char *message; } cases[] = {
        {"<smalti size=\"0\"/>", 2, "size=\"0\""},
        {"<smalti size=\"big\"/>", 2, "not an integer"},
        {"<smalti d=\"4\"/>", 2, "dimension must be 2 or 3"},
        {"<smalti pixelsize=\"65\"/>", 2, "pixelsize"},
        {"<smalti iso=\"maybe\"/>", 2, "iso"},
        {"<smalti seed=\"1.5\"/>", 2, "seed"},
        {"<smalti>\n<color symbol=\"R\" value=\"red\"/></smalti>", 3, "RRGGBB"},
        {"<smalti>\n<colour symbol=\"R\" value=\"FF0000\"/></smalti>", 3, "RRGGBB"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char xml[256];
        snprintf(xml, sizeof xml, "<markov values=\"BW\">\n%s\n<one in=\"B\" out=\"W\"/></markov>", cases[i].settings);
        smalti_error err;
        smalti_model *m = load_own_size(xml, &err);
        assert_null(m);
        assert_int_equal(err.status, SMALTI_ERR_MODEL);
        assert_int_equal(err.line, cases[i].line);
        if (!strstr(err.message, cases[i].message)) fail_msg("%s: %s", cases[i].settings, err.message);
    }
    /* Anywhere but first, or twice: said so, not "unknown node". */
    const char *misplaced[] = {
        "<markov values=\"BW\">\n<one in=\"B\" out=\"W\"/>\n<smalti size=\"5\"/></markov>",
        "<markov values=\"BW\">\n<smalti size=\"5\"/>\n<smalti size=\"5\"/><one in=\"B\" out=\"W\"/></markov>",
        "<markov values=\"BW\">\n<sequence>\n<smalti size=\"5\"/><one in=\"B\" out=\"W\"/></sequence></markov>",
    };
    for (size_t i = 0; i < sizeof misplaced / sizeof *misplaced; i++) {
        smalti_error err;
        assert_null(load_own_size(misplaced[i], &err));
        assert_int_equal(err.line, 3);
        assert_non_null(strstr(err.message, "first child of the root"));
    }
}

/* The precedence of sizes: the caller's options, then the settings, then the defaults. */
static void grid_precedence(void **state)
{
    (void)state;
    smalti_settings s;
    settings_clear(&s);
    int mx, my, mz;
    settings_grid(&s, &(grid_request){0}, 64, 24, &mx, &my, &mz);
    assert_true(mx == 64 && my == 64 && mz == 1);
    settings_grid(&s, &(grid_request){.dim = 3}, 64, 24, &mx, &my, &mz);
    assert_true(mx == 24 && my == 24 && mz == 24);
    s.size = 48;
    s.width = 30;
    settings_grid(&s, &(grid_request){0}, 64, 24, &mx, &my, &mz);
    assert_true(mx == 48 && my == 30 && mz == 1);
    settings_grid(&s, &(grid_request){.length = 10}, 64, 24, &mx, &my, &mz);
    assert_true(mx == 10 && my == 30 && mz == 1);
    /* A size on the command line replaces every side the file gives. */
    settings_grid(&s, &(grid_request){.size = 20}, 64, 24, &mx, &my, &mz);
    assert_true(mx == 20 && my == 20 && mz == 1);
    settings_grid(&s, &(grid_request){.size = 20, .dim = 3}, 64, 24, &mx, &my, &mz);
    assert_true(mx == 20 && my == 20 && mz == 20);
    s.dim = 3;
    s.height = 8;
    settings_grid(&s, &(grid_request){0}, 64, 24, &mx, &my, &mz);
    assert_true(mx == 48 && my == 30 && mz == 8);
    settings_grid(&s, &(grid_request){.dim = 2}, 64, 24, &mx, &my, &mz);
    assert_true(mx == 48 && my == 30 && mz == 1);
}

int run_settings_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_root_kind_accepts_settings),
        cmocka_unit_test(settings_fields_and_colours),
        cmocka_unit_test(bad_settings_name_their_line),
        cmocka_unit_test(grid_precedence),
    };
    return cmocka_run_group_tests_name("settings", tests, NULL, NULL);
}
