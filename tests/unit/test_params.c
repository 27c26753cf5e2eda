/* test_params.c — a model's parameters: declared in <smalti>, put into attribute values, overridden by the load options. */
#include "unit.h"
#include <stdio.h>
#include <string.h>
#include "smalti.h"

/* A line of `side` cells grown by steps="{n}" white cells; the side from the settings' {side}. */
static const char line_model[] =
    "<sequence values=\"BW\">\n"
    "  <smalti length=\"{side}\" width=\"1\">\n"
    "    <param name=\"side\" value=\"9\"/>\n"
    "    <param name=\"n\" value=\"3\"/>\n"
    "  </smalti>\n"
    "  <one in=\"B\" out=\"W\" steps=\"{n}\"/>\n"
    "</sequence>\n";

static smalti_model *load_with(const char *xml, const char *const *sets, int count, smalti_error *err)
{
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = opt.my = opt.mz = 0; /* the model's own size, which a parameter may give */
    opt.quiet = 1;
    opt.params = sets;
    opt.param_count = count;
    return smalti_model_load_string(xml, "p.xml", &opt, err);
}

static int white_cells(const smalti_model *m)
{
    smalti_run *run = smalti_run_new(m, 1, NULL);
    assert_non_null(run);
    smalti_run_to_end(run, 1000);
    int mx, my, mz, white = 0;
    const unsigned char *cells = smalti_run_grid(run, &mx, &my, &mz);
    for (int i = 0; i < mx * my * mz; i++) white += cells[i] == 1;
    smalti_run_free(run);
    return white;
}

static void defaults_and_overrides_reach_attributes(void **state)
{
    (void)state;
    smalti_error err;
    smalti_model *m = load_with(line_model, NULL, 0, &err);
    if (!m) fail_msg("%s:%d: %s", err.file, err.line, err.message);
    int mx, my, mz;
    smalti_model_grid_size(m, &mx, &my, &mz);
    assert_int_equal(mx, 9);
    assert_int_equal(white_cells(m), 3);
    smalti_model_free(m);
    const char *const sets[] = {"n=5", "side=12", "n=7"}; /* the last of a name wins */
    m = load_with(line_model, sets, 3, &err);
    if (!m) fail_msg("%s:%d: %s", err.file, err.line, err.message);
    smalti_model_grid_size(m, &mx, &my, &mz);
    assert_int_equal(mx, 12);
    assert_int_equal(white_cells(m), 7);
    smalti_settings s;
    smalti_model_settings(m, &s);
    assert_int_equal(s.length, 12);
    smalti_model_free(m);
}

static void params_are_listed(void **state)
{
    (void)state;
    const char *const sets[] = {"n=4"};
    smalti_error err;
    smalti_model *m = load_with(line_model, sets, 1, &err);
    assert_non_null(m);
    assert_int_equal(smalti_model_param_count(m), 2);
    smalti_param_info p;
    assert_true(smalti_model_param(m, 0, &p));
    assert_string_equal(p.name, "side");
    assert_string_equal(p.default_value, "9");
    assert_string_equal(p.value, "9");
    assert_false(p.overridden);
    assert_int_equal(p.line, 3);
    assert_true(smalti_model_param(m, 1, &p));
    assert_string_equal(p.name, "n");
    assert_string_equal(p.default_value, "3");
    assert_string_equal(p.value, "4");
    assert_true(p.overridden);
    assert_false(smalti_model_param(m, 2, &p));
    assert_false(smalti_model_param(m, -1, &p));
    smalti_model_free(m);
    /* A model without parameters lists none. */
    m = load_with("<one values=\"BW\" in=\"B\" out=\"W\"/>", NULL, 0, &err);
    assert_non_null(m);
    assert_int_equal(smalti_model_param_count(m), 0);
    smalti_model_free(m);
}

/* One load that must fail: its status, line and a piece of its message. */
static void expect_error(const char *xml, const char *const *sets, int count, smalti_status status, int line, const char *words)
{
    smalti_error err;
    smalti_model *m = load_with(xml, sets, count, &err);
    if (m) fail_msg("loaded, expected: %s", words);
    assert_int_equal(err.status, status);
    assert_int_equal(err.line, line);
    if (!strstr(err.message, words)) fail_msg("message \"%s\" lacks \"%s\"", err.message, words);
}

static void mistakes_are_named(void **state)
{
    (void)state;
    expect_error("<one values=\"BW\" in=\"B\" out=\"W\" steps=\"{n}\">\n<smalti><param name=\"count\" value=\"2\"/></smalti></one>",
                 NULL, 0, SMALTI_ERR_MODEL, 1, "{n} in steps=\"{n}\" of <one>: no parameter 'n' is declared");
    expect_error("<sequence values=\"BW\">\n<smalti><param name=\"rooms\" value=\"2\"/></smalti>\n<one in=\"B\" out=\"W\" steps=\"{room}\"/>"
                 "</sequence>",
                 NULL, 0, SMALTI_ERR_MODEL, 3, "did you mean 'rooms'?");
    expect_error("<one values=\"BW\" in=\"B\" out=\"W\" steps=\"{n}\"/>", NULL, 0, SMALTI_ERR_MODEL, 1, "declares no parameters");
    const char *const sets[] = {"romos=3"};
    expect_error(line_model, sets, 1, SMALTI_ERR_USAGE, 0, "cannot set the parameter 'romos'");
    const char *const near[] = {"sid=3"};
    expect_error(line_model, near, 1, SMALTI_ERR_USAGE, 0, "did you mean 'side'?");
    const char *const no_eq[] = {"side"};
    expect_error(line_model, no_eq, 1, SMALTI_ERR_USAGE, 0, "expected NAME=VALUE");
    expect_error("<one values=\"BW\" in=\"B\" out=\"W\">\n<smalti><param name=\"a-b\" value=\"2\"/></smalti></one>", NULL, 0,
                 SMALTI_ERR_MODEL, 2, "letters, digits and '_'");
    expect_error("<one values=\"BW\" in=\"B\" out=\"W\">\n<smalti><param name=\"a\"/></smalti></one>", NULL, 0, SMALTI_ERR_MODEL, 2,
                 "needs a name and a value");
    expect_error("<one values=\"BW\" in=\"B\" out=\"W\">\n<smalti>\n<param name=\"a\" value=\"1\"/><param name=\"a\" value=\"2\"/>"
                 "</smalti></one>",
                 NULL, 0, SMALTI_ERR_MODEL, 3, "declared twice");
}

/* {{ is a literal brace, and a brace not starting {name} stays as it is: the values here hold one. */
static void braces_that_are_no_reference(void **state)
{
    (void)state;
    smalti_error err;
    smalti_model *m = load_with("<one values=\"B{{W}\" in=\"B\" out=\"{\"/>", NULL, 0, &err);
    if (!m) fail_msg("%s:%d: %s", err.file, err.line, err.message);
    assert_string_equal(smalti_model_legend(m), "B{W}");
    smalti_run *run = smalti_run_new(m, 1, NULL);
    smalti_run_to_end(run, 0);
    int mx, my, mz;
    const unsigned char *cells = smalti_run_grid(run, &mx, &my, &mz);
    assert_int_equal(cells[0], 1); /* every cell became '{', the legend's second symbol */
    smalti_run_free(run);
    smalti_model_free(m);
    m = load_with("<one values=\"B{W\" in=\"B\" out=\"{\"/>", NULL, 0, &err);
    if (!m) fail_msg("%s:%d: %s", err.file, err.line, err.message);
    assert_string_equal(smalti_model_legend(m), "B{W");
    smalti_model_free(m);
}

int run_params_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults_and_overrides_reach_attributes),
        cmocka_unit_test(params_are_listed),
        cmocka_unit_test(mistakes_are_named),
        cmocka_unit_test(braces_that_are_no_reference),
    };
    return cmocka_run_group_tests_name("params", tests, NULL, NULL);
}
