/* test_oddmodels.c — odd but loadable models found by fuzzing run to the end without undefined behaviour. */
#include "unit.h"
#include <string.h>
#include "smalti.h"

typedef struct odd_case {
    const char *what;
    const char *xml;
    int mx, my, mz;
    char symbol;    /* count the cells of this symbol at the end ... */
    int expected;   /* ... and expect this many */
} odd_case;

static const odd_case cases[] = {
    /* A union of no values: a rule reading it never matches, the next node runs. */
    {"empty union", "<sequence values=\"BW\"><union symbol=\"?\" values=\"\"/><one in=\"?\" out=\"W\"/>"
                    "<one in=\"B\" out=\"W\" steps=\"3\"/></sequence>", 4, 4, 1, 'W', 3},
    /* A scale whose numerator times a coordinate does not fit in an int: the same 5x5 grid, all mapped. */
    {"near-1 scale", "<map values=\"BW\" scale=\"2147483647/2147483646 1 1\"><rule in=\"B\" out=\"W\"/></map>",
     5, 5, 1, 'W', 25},
};

static void odd_models_run_to_the_end(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const odd_case *c = &cases[i];
        smalti_load_options opt = smalti_load_defaults();
        opt.mx = c->mx; opt.my = c->my; opt.mz = c->mz;
        opt.quiet = 1;
        smalti_error err;
        smalti_model *m = smalti_model_load_string(c->xml, "odd.xml", &opt, &err);
        if (!m) fail_msg("%s: %s:%d: %s", c->what, err.file, err.line, err.message);
        smalti_run *run = smalti_run_new(m, 1, &err);
        assert_non_null(run);
        smalti_run_to_end(run, 10000);
        const unsigned char *g = smalti_run_grid(run, NULL, NULL, NULL);
        const char *legend = smalti_run_legend(run);
        int count = 0;
        for (int k = 0; k < c->mx * c->my * c->mz; k++) count += legend[g[k]] == c->symbol;
        if (count != c->expected) fail_msg("%s: %d cells of %c, expected %d", c->what, count, c->symbol, c->expected);
        smalti_run_free(run);
        smalti_model_free(m);
    }
}

int run_oddmodel_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(odd_models_run_to_the_end),
    };
    return cmocka_run_group_tests_name("odd models", tests, NULL, NULL);
}
