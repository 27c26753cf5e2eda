/* test_require.c — the `require` node: each check holding and failing, the attempts and their seeds,
   the stop after `tries` with the node's line, and what observers hear of a restart. */
#include "unit.h"
#include <stdio.h>
#include <string.h>
#include "../../src/core/rng.h"
#include "../../src/engine/run.h"

/* Run xml at mx x my with seed to its end; the run (the caller frees it and the model). */
static smalti_run *run_model(const char *xml, int mx, int my, int32_t seed, smalti_model **model)
{
    *model = unit_load(xml, "req.xml", mx, my, 1, NULL);
    smalti_error err;
    smalti_run *run = smalti_run_new(*model, seed, &err);
    assert_non_null(run);
    smalti_run_to_end(run, 100000);
    return run;
}

static void attempt_seeds_are_system_random_draws(void **state)
{
    (void)state;
    assert_int_equal(run_attempt_seed(7, 0), 7);
    rng r;
    rng_seed(&r, 7);
    const int32_t first = rng_next(&r), second = rng_next(&r);
    assert_int_equal(run_attempt_seed(7, 1), first);
    assert_int_equal(run_attempt_seed(7, 2), second);
    assert_true(run_attempt_seed(8, 1) != first);
}

/* A check that holds: one attempt, one more step than without the node, the same grid. */
static void a_holding_check_changes_nothing(void **state)
{
    (void)state;
    smalti_model *plain, *required;
    smalti_run *a = run_model("<sequence values=\"BWR\"><one in=\"B\" out=\"W\" steps=\"6\"/></sequence>", 6, 6, 3, &plain);
    smalti_run *b = run_model("<sequence values=\"BWR\"><one in=\"B\" out=\"W\" steps=\"6\"/><require count=\"W\" min=\"6\" max=\"6\"/>"
                              "<require from=\"W\" to=\"B\" on=\"B\"/></sequence>", 6, 6, 3, &required);
    int mx, my, mz;
    assert_memory_equal(smalti_run_grid(a, &mx, &my, &mz), smalti_run_grid(b, &mx, &my, &mz), 36);
    assert_int_equal(smalti_run_counter(b), smalti_run_counter(a) + 2);
    assert_int_equal(smalti_run_attempts(b), 1);
    assert_false(smalti_run_error(b, NULL));
    assert_false(smalti_run_requirement(b, 0, NULL, NULL, NULL));
    smalti_run_free(a), smalti_run_free(b);
    smalti_model_free(plain), smalti_model_free(required);
}

/* A check that never holds: `tries` attempts, then SMALTI_ERR_REQUIREMENT at the node's line. */
static void never_holding(const char *xml, int mx, int my, const char *what)
{
    smalti_model *m;
    smalti_run *run = run_model(xml, mx, my, 1, &m);
    smalti_error err;
    assert_true(smalti_run_error(run, &err));
    assert_int_equal(err.status, SMALTI_ERR_REQUIREMENT);
    assert_int_equal(err.line, 2);
    if (!strstr(err.message, what) || !strstr(err.message, "all 3 attempts")) fail_msg("message: %s", err.message);
    assert_int_equal(smalti_run_attempts(run), 3);
    int line, failures;
    const char *message;
    assert_true(smalti_run_requirement(run, 0, &line, &failures, &message));
    assert_int_equal(line, 2);
    assert_int_equal(failures, 3);
    assert_non_null(strstr(message, what));
    smalti_run_free(run);
    smalti_model_free(m);
}

static void each_check_fails_when_it_should(void **state)
{
    (void)state;
    /* W at both ends of a 5x1 row: two regions. */
    never_holding("<sequence values=\"BWR\"><one in=\"BBBBB\" out=\"WBRBW\"/>\n<require connected=\"W\" tries=\"3\"/></sequence>", 5, 1,
                  "the 2 cells of \"W\" are not one region");
    /* R walled off from W by K: W cannot reach R on B. */
    never_holding("<sequence values=\"BWRK\"><one in=\"BBBBB\" out=\"WBKBR\"/>\n<require from=\"W\" to=\"R\" on=\"B\" tries=\"3\"/></sequence>",
                  5, 1, "1 of the 1 cells of \"W\" cannot reach \"R\" through \"B\"");
    never_holding("<sequence values=\"BW\"><all in=\"B\" out=\"W\"/>\n<require count=\"W\" max=\"3\" tries=\"3\"/></sequence>", 4, 4,
                  "16 cells of \"W\", not at most 3");
    never_holding("<sequence values=\"BW\"><all in=\"B\" out=\"W\"/>\n<require count=\"B\" min=\"1\" tries=\"3\"/></sequence>", 4, 4,
                  "0 cells of \"B\", not at least 1");
}

static void each_check_holds_when_it_should(void **state)
{
    (void)state;
    static const char *const holding[] = {
        "<sequence values=\"BWR\"><one in=\"BBBBB\" out=\"BWWWB\"/><require connected=\"W\" tries=\"1\"/></sequence>",
        "<sequence values=\"BWRK\"><one in=\"BBBBB\" out=\"WBKBR\"/><require from=\"W\" to=\"R\" on=\"BK\" tries=\"1\"/></sequence>",
        "<sequence values=\"BWRK\"><one in=\"BBBBB\" out=\"BBKBR\"/><require from=\"W\" to=\"R\" on=\"B\" tries=\"1\"/></sequence>",
        "<sequence values=\"BW\"><require connected=\"W\" tries=\"1\"/><require count=\"W\" max=\"0\" tries=\"1\"/></sequence>",
    };
    for (size_t i = 0; i < sizeof holding / sizeof *holding; i++) {
        smalti_model *m;
        smalti_run *run = run_model(holding[i], 5, 1, 1, &m);
        smalti_error err;
        if (smalti_run_error(run, &err)) fail_msg("model %zu: %s", i, err.message);
        assert_int_equal(smalti_run_attempts(run), 1);
        smalti_run_free(run);
        smalti_model_free(m);
    }
}

/* Three W in a 5x5 grid are rarely one region: the run starts again until they are, the same way
   for the same seed. */
static const char *const rare = "<sequence values=\"BWR\"><one in=\"B\" out=\"W\" steps=\"3\"/><require connected=\"W\"/></sequence>";

static void attempts_are_deterministic_and_end_connected(void **state)
{
    (void)state;
    int retried = 0;
    for (int32_t seed = 1; seed <= 12; seed++) {
        smalti_model *m1, *m2;
        smalti_run *a = run_model(rare, 5, 5, seed, &m1), *b = run_model(rare, 5, 5, seed, &m2);
        int mx, my, mz;
        assert_int_equal(smalti_run_attempts(a), smalti_run_attempts(b));
        assert_memory_equal(smalti_run_grid(a, &mx, &my, &mz), smalti_run_grid(b, &mx, &my, &mz), 25);
        retried += smalti_run_attempts(a) > 1;
        if (!smalti_run_error(a, NULL)) {
            /* The kept attempt is the run of its attempt seed without the restarts: the same grid. */
            smalti_model *m3;
            const int k = smalti_run_attempts(a) - 1;
            smalti_run *c = run_model("<sequence values=\"BWR\"><one in=\"B\" out=\"W\" steps=\"3\"/></sequence>", 5, 5,
                                      run_attempt_seed(seed, k), &m3);
            assert_memory_equal(smalti_run_grid(a, &mx, &my, &mz), smalti_run_grid(c, &mx, &my, &mz), 25);
            smalti_run_free(c);
            smalti_model_free(m3);
        }
        smalti_run_free(a), smalti_run_free(b);
        smalti_model_free(m1), smalti_model_free(m2);
    }
    assert_true(retried >= 6); /* most seeds need more than one attempt */
}

typedef struct heard {
    long steps;
    bool gap;
    size_t restart_changes;
    long restart_step;
    const smalti_run *run;
    int attempts;
} heard;

static void listen(void *userdata, const smalti_step_event *ev)
{
    heard *h = userdata;
    if (ev->step != h->steps + 1) h->gap = true;
    h->steps = ev->step;
    if (smalti_run_attempts(h->run) > h->attempts && !h->restart_step) {
        h->restart_step = ev->step;
        h->restart_changes = ev->changed_count;
    }
    h->attempts = smalti_run_attempts(h->run);
}

/* Observers hear one step after another across attempts; the restart step is the require's and
   puts back the cells the attempt had changed. */
static void observers_hear_the_restart(void **state)
{
    (void)state;
    smalti_model *m = unit_load(rare, "req.xml", 5, 5, 1, NULL);
    smalti_error err;
    smalti_run *run = smalti_run_new(m, 1, &err);
    heard h = {.run = run, .attempts = 1};
    smalti_run_set_observer(run, listen, &h);
    smalti_run_to_end(run, 100000);
    assert_false(h.gap);
    assert_true(smalti_run_attempts(run) > 1);
    assert_int_equal(h.restart_step, 4);      /* three `one` steps, then the require */
    assert_int_equal(h.restart_changes, 3);  /* the three W put back to B */
    assert_int_equal(smalti_run_counter(run), h.steps);
    smalti_run_free(run);
    smalti_model_free(m);
}

static void bad_requirements_are_load_errors(void **state)
{
    (void)state;
    static const struct { const char *xml, *message; } bad[] = {
        {"<sequence values=\"BW\"><require/></sequence>", "checks nothing"},
        {"<sequence values=\"BW\"><require connected=\"Q\"/></sequence>", "not values of the grid"},
        {"<sequence values=\"BW\"><require from=\"B\" to=\"W\"/></sequence>", "from, to and on together"},
        {"<sequence values=\"BW\"><require count=\"W\"/></sequence>", "needs min, max or both"},
        {"<sequence values=\"BW\"><require count=\"W\" min=\"4\" max=\"2\"/></sequence>", "is above max"},
        {"<sequence values=\"BW\"><require min=\"4\"/></sequence>", "bound a count"},
        {"<sequence values=\"BW\"><require connected=\"W\" tries=\"0\"/></sequence>", "tries"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        smalti_load_options opt = smalti_load_defaults();
        opt.mx = opt.my = 4, opt.mz = 1, opt.quiet = 1;
        smalti_error err;
        smalti_model *m = smalti_model_load_string(bad[i].xml, "bad.xml", &opt, &err);
        if (m || err.status != SMALTI_ERR_MODEL || err.line != 1 || !strstr(err.message, bad[i].message))
            fail_msg("%s: %s", bad[i].xml, m ? "loaded" : err.message);
    }
}

int run_require_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(attempt_seeds_are_system_random_draws),
        cmocka_unit_test(a_holding_check_changes_nothing),
        cmocka_unit_test(each_check_fails_when_it_should),
        cmocka_unit_test(each_check_holds_when_it_should),
        cmocka_unit_test(attempts_are_deterministic_and_end_connected),
        cmocka_unit_test(observers_hear_the_restart),
        cmocka_unit_test(bad_requirements_are_load_errors),
    };
    return cmocka_run_group_tests_name("require", tests, NULL, NULL);
}
