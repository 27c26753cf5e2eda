/* test_work.c — a run's work budget (smalti_run_options.max_work): counted, not timed, so it stops a run
   at the same step every time, inside a long step as between steps, and never a run that finished. */
#include "unit.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Cheap steps without end: some cell always turns from B to W or back. */
static const char endless_model[] = "<one values=\"BW\"><rule in=\"B\" out=\"W\"/><rule in=\"W\" out=\"B\"/></one>";

static smalti_run *run_with_work(const smalti_model *m, int32_t seed, long long max_work)
{
    smalti_run_options opt = smalti_run_defaults();
    opt.max_work = max_work;
    smalti_error err;
    smalti_run *run = smalti_run_new_with(m, seed, &opt, &err);
    assert_non_null(run);
    return run;
}

static void the_budget_stops_an_endless_run_at_the_same_step_every_time(void **state)
{
    (void)state;
    smalti_model *m = unit_load(endless_model, "endless", 64, 64, 1, NULL);
    smalti_run *run = run_with_work(m, 1, 100000);
    smalti_error err;
    const long steps = smalti_run_to_end(run, 0);
    assert_true(steps > 0);
    assert_false(smalti_run_finished(run));
    assert_int_equal(smalti_run_error(run, &err), 1);
    assert_int_equal(err.status, SMALTI_ERR_TIMEOUT);
    char want[128];
    snprintf(want, sizeof want, "stopped after %ld steps: the run needed more than its work budget of 100000 units", steps);
    assert_string_equal(err.message, want);
    /* Each step costs at least 1 (itself) and 1 for its written cell, so no more steps than half
       the budget were made, and the budget was spent. */
    assert_true(steps <= 100000 / 2);
    assert_true(smalti_run_work(run) > 100000);
    assert_int_equal(smalti_run_step(run), 0); /* stopped stays stopped until reset */
    /* A reset re-arms the budget: the same step again; so does a new run, and stepping one at a time. */
    smalti_run_reset(run, 1);
    assert_int_equal(smalti_run_work(run), 0);
    assert_int_equal(smalti_run_error(run, NULL), 0);
    assert_int_equal(smalti_run_to_end(run, 0), steps);
    /* Stepping one at a time also stops at the same step every time. It is a step the fused loop of
       smalti_run_to_end passes: a lone step also rescans the cells the last one changed. The count
       depends on the model, the seed and the calls that drive the run, never on the machine. */
    long one_by_one[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        smalti_run *again = run_with_work(m, 1, 100000);
        while (smalti_run_step(again)) one_by_one[k]++;
        assert_int_equal(smalti_run_error(again, &err), 1);
        assert_int_equal(err.status, SMALTI_ERR_TIMEOUT);
        smalti_run_free(again);
    }
    assert_int_equal(one_by_one[0], one_by_one[1]);
    assert_true(one_by_one[0] > 0 && one_by_one[0] <= steps);
    smalti_run_free(run);
    smalti_model_free(m);
}

static void work_is_counted_under_a_budget_and_a_finished_run_is_not_over_it(void **state)
{
    (void)state;
    /* A run that ends by itself: fill a 32x32 grid one cell at a time. */
    smalti_model *m = unit_load("<one values=\"BW\" in=\"B\" out=\"W\"/>", "fill", 32, 32, 1, NULL);
    /* Without a budget nothing is counted; with one that never binds, everything is. */
    smalti_run *run = run_with_work(m, 1, 0);
    const long end = smalti_run_to_end(run, 0);
    assert_int_equal(smalti_run_work(run), 0);
    smalti_run_free(run);
    run = run_with_work(m, 1, LLONG_MAX);
    assert_int_equal(smalti_run_to_end(run, 0), end);
    assert_true(end >= 32 * 32); /* a step for each cell, and one that finds nothing left */
    assert_true(smalti_run_finished(run));
    const long long work = smalti_run_work(run);
    /* At least a step and a written cell for each of the 1024 cells. */
    assert_true(work >= 2 * 32 * 32);
    smalti_run_free(run);
    /* With exactly that budget, or the last step's unit short of it, the run finishes: the last step
       ends the run, and a run that ended is not stopped by its budget. */
    for (long long budget = work; budget >= work - 1; budget--) {
        run = run_with_work(m, 1, budget);
        assert_int_equal(smalti_run_to_end(run, 0), end);
        assert_true(smalti_run_finished(run));
        assert_int_equal(smalti_run_error(run, NULL), 0);
        assert_int_equal(smalti_run_work(run), work);
        smalti_run_free(run);
    }
    /* With half of it, it stops before its end. */
    run = run_with_work(m, 1, work / 2);
    const long steps = smalti_run_to_end(run, 0);
    assert_true(steps > 0 && steps < end);
    assert_false(smalti_run_finished(run));
    assert_int_equal(smalti_run_error(run, NULL), 1);
    smalti_run_free(run);
    smalti_model_free(m);
}

/* Models whose second step is one long loop; the first step turns one cell W. The budget runs out
   inside the second step, at its loop's checks: the step is not counted and the run is not over. */
#define FIRST_STEP "<one in=\"B\" out=\"W\" steps=\"1\"/>"
static const char *const long_step_models[] = {
    "<sequence values=\"BW\">" FIRST_STEP "<noise octaves=\"4\" frequency=\"0.01\">"
    "<band value=\"B\" to=\"0\"/><band value=\"W\" to=\"1\"/></noise></sequence>",
    "<sequence values=\"BWR\">" FIRST_STEP "<voronoi sites=\"20000\" values=\"WR\" border=\"B\"/></sequence>",
    "<sequence values=\"BW\">" FIRST_STEP "<runner value=\"W\" count=\"4096\" strength=\"16\" life=\"1000\" turnChance=\"0\"/></sequence>",
    "<sequence values=\"BW\">" FIRST_STEP "<all in=\"B\" out=\"W\"/></sequence>",
    /* A path's breadth-first search over every cell (issue 33, item 6). */
    "<sequence values=\"BWR\">" FIRST_STEP "<path from=\"W\" to=\"B\" on=\"B\" color=\"R\"/></sequence>",
    /* A map's pass of each rule over every cell of the old grid (issue 33, item 6). */
    "<sequence values=\"BW\">" FIRST_STEP "<map scale=\"1 1 1\" values=\"BW\"><rule in=\"B\" out=\"W\"/></map></sequence>",
    NULL,
};

static void the_budget_stops_a_long_step_inside(void **state)
{
    (void)state;
    for (int i = 0; long_step_models[i]; i++) {
        smalti_model *m = unit_load(long_step_models[i], "long_step", 512, 512, 1, NULL);
        /* The first step scans the grid for its match: the budget is its work and 4096 more. */
        smalti_run *first = run_with_work(m, 1, LLONG_MAX);
        assert_int_equal(smalti_run_step(first), 1);
        const long long first_work = smalti_run_work(first);
        smalti_run_free(first);
        smalti_run *run = run_with_work(m, 1, first_work + 4096);
        smalti_error err;
        const long steps = smalti_run_to_end(run, 0);
        if (steps != 1) fprintf(stderr, "model %d: %ld steps\n", i, steps);
        assert_int_equal(steps, 1);
        assert_false(smalti_run_finished(run));
        assert_int_equal(smalti_run_error(run, &err), 1);
        assert_int_equal(err.status, SMALTI_ERR_TIMEOUT);
        assert_non_null(strstr(err.message, "stopped after 1 steps: the run needed more than its work budget of"));
        /* Stopped at the first checks of the loop, not after the 262,144 cells of the step. */
        assert_true(smalti_run_work(run) < first_work + 4096 + 4 * 1024);
        /* The same point again after a reset. */
        const long long work = smalti_run_work(run);
        smalti_run_reset(run, 1);
        assert_int_equal(smalti_run_to_end(run, 0), 1);
        assert_int_equal(smalti_run_work(run), work);
        smalti_run_free(run);
        smalti_model_free(m);
    }
}

static void a_negative_budget_is_a_usage_error(void **state)
{
    (void)state;
    smalti_model *m = unit_load(endless_model, "endless", 8, 8, 1, NULL);
    smalti_run_options opt = smalti_run_defaults();
    opt.max_work = -1;
    smalti_error err;
    assert_null(smalti_run_new_with(m, 1, &opt, &err));
    assert_int_equal(err.status, SMALTI_ERR_USAGE);
    assert_non_null(strstr(err.message, "work budget"));
    smalti_model_free(m);
}

int run_work_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_budget_stops_an_endless_run_at_the_same_step_every_time),
        cmocka_unit_test(work_is_counted_under_a_budget_and_a_finished_run_is_not_over_it),
        cmocka_unit_test(the_budget_stops_a_long_step_inside),
        cmocka_unit_test(a_negative_budget_is_a_usage_error),
    };
    return cmocka_run_group_tests_name("work", tests, NULL, NULL);
}
