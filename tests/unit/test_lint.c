/* test_lint.c — "did you mean" suggestions, and the lint pass as the library reports it through the warning callback. */
#include "unit.h"
#include <stdio.h>
#include <string.h>
#include "../../src/core/suggest.h"

static void distance_counts_edits(void **state)
{
    (void)state;
    assert_int_equal(suggest_distance("prl", "prl"), 0);
    assert_int_equal(suggest_distance("prll", "prl"), 1);
    assert_int_equal(suggest_distance("sequnce", "sequence"), 1);
    assert_int_equal(suggest_distance("markow", "markov"), 1);
    assert_int_equal(suggest_distance("", "abc"), 3);
}

static void nearest_name_or_none(void **state)
{
    (void)state;
    const char *const kinds[] = {"one", "all", "prl", "markov", "sequence", "path", NULL};
    assert_string_equal(suggest_nearest("prll", kinds), "prl");
    assert_string_equal(suggest_nearest("sequense", kinds), "sequence");
    assert_null(suggest_nearest("voronoise", kinds));
    const char *const rule[] = {"in", "out", "p", "symmetry", "fin", "fout", "file", "legend", NULL};
    assert_string_equal(suggest_nearest("probability", rule), "p"); /* written out */
    assert_string_equal(suggest_nearest("output", rule), "out");
    assert_string_equal(suggest_nearest("symm", rule), "symmetry"); /* shortened */
    assert_null(suggest_nearest("weight", rule));
    char buf[64];
    assert_string_equal(suggest_phrase(buf, sizeof buf, "prll", kinds), "; did you mean 'prl'?");
    assert_string_equal(suggest_phrase(buf, sizeof buf, "zzzzzz", kinds), "");
}

typedef struct collected {
    int count;
    int line;
    char text[2048];
} collected;

static void collect(void *userdata, const char *file, int line, const char *message)
{
    (void)file;
    collected *c = userdata;
    c->count++;
    c->line = line;
    size_t len = strlen(c->text);
    snprintf(c->text + len, sizeof c->text - len, "%d: %s\n", line, message);
}

/* Load xml on a 2-D grid of 12x12 and collect its warnings. */
static collected lint_of(const char *xml, int quiet)
{
    collected c = {0};
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = opt.my = 12;
    opt.warn = collect;
    opt.warn_userdata = &c;
    opt.quiet = quiet;
    smalti_error err;
    smalti_model *m = smalti_model_load_string(xml, "lint.xml", &opt, &err);
    if (!m) fail_msg("did not load: %s", err.message);
    smalti_model_free(m);
    return c;
}

static void lint_warns_through_the_callback(void **state)
{
    (void)state;
    const char *never = "<markov values=\"BWRY\">\n  <one in=\"B\" out=\"W\"/>\n  <one in=\"YW\" out=\"RR\"/>\n</markov>";
    collected c = lint_of(never, 0);
    assert_int_equal(c.count, 1);
    assert_int_equal(c.line, 3);
    assert_non_null(strstr(c.text, "can never fire: its input needs 'Y'"));
    assert_int_equal(lint_of(never, 1).count, 0); /* quiet: no lint at all */
}

/* The radius-2 kernels count 24 and 12 cells, one more with self="True". */
static void lint_knows_the_wide_kernels(void **state)
{
    (void)state;
    const char *form = "<sequence values=\"DA\"><prl in=\"D\" out=\"A\" p=\"0.5\" steps=\"1\"/>\n"
                       "<convolution neighborhood=\"%s\" self=\"%s\"><rule in=\"D\" out=\"A\" sum=\"%d\" values=\"A\"/></convolution></sequence>";
    const struct { const char *hood, *self; int sum; const char *warning; } cases[] = {
        {"Moore2", "False", 24, NULL}, {"Moore2", "False", 25, "has 24 cells"}, {"Moore2", "True", 25, NULL},
        {"VonNeumann2", "False", 12, NULL}, {"VonNeumann2", "False", 13, "has 12 cells"}, {"VonNeumann2", "True", 13, NULL},
        {"Moore", "True", 9, NULL}, {"Moore", "True", 10, "has 9 cells"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char xml[512];
        snprintf(xml, sizeof xml, form, cases[i].hood, cases[i].self, cases[i].sum);
        collected c = lint_of(xml, 0);
        if (cases[i].warning ? c.count != 1 || !strstr(c.text, cases[i].warning) : c.count != 0)
            fail_msg("case %zu: %d warnings: %s", i, c.count, c.count ? c.text : "");
    }
}

/* Correct models that a careless value pass would flag. */
static void lint_is_silent_on_correct_models(void **state)
{
    (void)state;
    const char *const models[] = {
        /* origin makes the second value; '*' matches anything */
        "<markov values=\"BRW\" origin=\"True\"><one in=\"RB\" out=\"WR\"/><one in=\"*W\" out=\"*B\"/></markov>",
        /* a union counts if any of its values can be there */
        "<sequence values=\"BWR\"><union symbol=\"?\" values=\"BR\"/><one in=\"?\" out=\"W\" steps=\"3\"/>"
        "<one in=\"W\" out=\"R\" steps=\"1\"/></sequence>",
        /* a generator's values, and an observation's `from`, are made too */
        "<sequence values=\"BWA\"><poisson value=\"W\" radius=\"3\"/><one in=\"W\" out=\"A\"/></sequence>",
        "<sequence values=\"BGDA\"><one in=\"B\" out=\"G\" steps=\"2\"/>"
        "<all><rule in=\"D\" out=\"A\"/><observe value=\"G\" from=\"D\" to=\"A\"/></all></sequence>",
        /* a path drawn in a start value is fine when something before it in a markov consumes the goal */
        "<markov values=\"BGW\"><all in=\"GW\" out=\"GG\"/><path from=\"G\" to=\"W\" on=\"B\" color=\"G\"/></markov>",
        /* a 3-D rule marked d="3", shared by 2-D and 3-D runs */
        "<sequence values=\"BE\"><prl in=\"B\" out=\"E\"/><prl in=\"*** *E* ***\" out=\"*** *B* ***\" d=\"3\"/></sequence>",
        /* Moore neighbours reach 8 */
        "<sequence values=\"DA\"><prl in=\"D\" out=\"A\" p=\"0.5\" steps=\"1\"/>"
        "<convolution neighborhood=\"Moore\"><rule in=\"D\" out=\"A\" sum=\"5..8\" values=\"A\"/></convolution></sequence>",
    };
    for (size_t i = 0; i < sizeof models / sizeof *models; i++) {
        collected c = lint_of(models[i], 0);
        if (c.count) fail_msg("model %zu warned: %s", i, c.text);
    }
}

int run_lint_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(distance_counts_edits),
        cmocka_unit_test(nearest_name_or_none),
        cmocka_unit_test(lint_warns_through_the_callback),
        cmocka_unit_test(lint_knows_the_wide_kernels),
        cmocka_unit_test(lint_is_silent_on_correct_models),
    };
    return cmocka_run_group_tests_name("lint", tests, NULL, NULL);
}
