/* test_budget.c — a run's deadline, cancel and memory budget: each stops the run with its own status, and
   the same run object can be reset and run again (the sanitizer build checks that nothing leaks). */
#include "unit.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Cheap steps without end: some cell always turns from B to W or back. */
static const char long_model[] = "<one values=\"BW\"><rule in=\"B\" out=\"W\"/><rule in=\"W\" out=\"B\"/></one>";
#define LONG_SIDE 64

typedef struct canceller {
    smalti_run *run;
} canceller;

static void *cancel_soon(void *arg)
{
    canceller *c = arg;
    usleep(30 * 1000);
    smalti_run_cancel(c->run);
    return NULL;
}

static void cancel_from_another_thread_stops_the_run(void **state)
{
    (void)state;
    smalti_model *m = unit_load(long_model, "long", LONG_SIDE, LONG_SIDE, 1, NULL);
    smalti_error err;
    smalti_run *run = smalti_run_new(m, 1, &err);
    assert_non_null(run);
    for (int round = 0; round < 2; round++) {
        canceller c = {run};
        pthread_t t;
        assert_int_equal(pthread_create(&t, NULL, cancel_soon, &c), 0);
        long steps = smalti_run_to_end(run, 0);
        pthread_join(t, NULL);
        assert_true(steps > 0);
        assert_false(smalti_run_finished(run));
        assert_int_equal(smalti_run_error(run, &err), 1);
        assert_int_equal(err.status, SMALTI_ERR_CANCELLED);
        assert_non_null(strstr(err.message, "cancelled"));
        /* The model never ends by itself, so returning at all shows the cancel was seen; how soon is
           measured, not tested (tests time nothing: a loaded machine would make it flaky). */
        assert_int_equal(smalti_run_step(run), 0); /* stopped stays stopped until reset */
        /* Reset clears the request: the same object runs again. */
        smalti_run_reset(run, 2);
        assert_int_equal(smalti_run_error(run, NULL), 0);
        assert_int_equal(smalti_run_to_end(run, 1000), 1000);
        assert_int_equal(smalti_run_error(run, NULL), 0);
        smalti_run_reset(run, 3);
    }
    smalti_run_free(run);
    smalti_model_free(m);
}

static void timeout_stops_the_run_and_reset_rearms_it(void **state)
{
    (void)state;
    smalti_model *m = unit_load(long_model, "long", LONG_SIDE, LONG_SIDE, 1, NULL);
    smalti_error err;
    smalti_run_options opt = smalti_run_defaults();
    opt.timeout_seconds = 0.3;
    smalti_run *run = smalti_run_new_with(m, 1, &opt, &err);
    assert_non_null(run);
    for (int round = 0; round < 2; round++) {
        long steps = smalti_run_to_end(run, 0);
        assert_true(steps > 0);
        assert_int_equal(smalti_run_error(run, &err), 1);
        assert_int_equal(err.status, SMALTI_ERR_TIMEOUT);
        assert_non_null(strstr(err.message, "timeout of 0.3 s"));
        smalti_run_reset(run, 1);
        /* Re-armed from now: the first step (whose check reads the clock) is made. */
        assert_int_equal(smalti_run_error(run, NULL), 0);
        assert_int_equal(smalti_run_step(run), 1);
        assert_int_equal(smalti_run_error(run, NULL), 0);
    }
    smalti_run_free(run);
    smalti_model_free(m);
}

static void a_negative_timeout_is_a_usage_error(void **state)
{
    (void)state;
    smalti_model *m = unit_load(long_model, "long", 8, 8, 1, NULL);
    smalti_error err;
    smalti_run_options opt = smalti_run_defaults();
    opt.timeout_seconds = -1;
    assert_null(smalti_run_new_with(m, 1, &opt, &err));
    assert_int_equal(err.status, SMALTI_ERR_USAGE);
    smalti_model_free(m);
}

/* 2048^2 cells: about 13 MiB to start (grid, marks, bitplanes); the first step's
   list of 4 million matches needs 16 MiB more. */
static void memory_budget_stops_the_run_and_reset_runs_again(void **state)
{
    (void)state;
    smalti_model *m = unit_load("<one values=\"BW\" in=\"B\" out=\"W\"/>", "fill", 2048, 2048, 1, NULL);
    smalti_error err;
    smalti_run_options opt = smalti_run_defaults();
    opt.max_memory = 20 << 20;
    smalti_run *run = smalti_run_new_with(m, 1, &opt, &err);
    assert_non_null(run);
    for (int round = 0; round < 2; round++) {
        smalti_run_to_end(run, 0);
        assert_false(smalti_run_finished(run));
        assert_int_equal(smalti_run_error(run, &err), 1);
        assert_int_equal(err.status, SMALTI_ERR_MEMORY);
        assert_non_null(strstr(err.message, "memory budget of 20.0 MiB"));
        smalti_run_reset(run, 2);
        assert_int_equal(smalti_run_error(run, NULL), 0);
    }
    smalti_run_free(run);
    /* With room for the matches, the same model runs to its end. */
    opt.max_memory = 64 << 20;
    run = smalti_run_new_with(m, 1, &opt, &err);
    assert_non_null(run);
    smalti_run_to_end(run, 0);
    assert_int_equal(smalti_run_error(run, NULL), 0);
    assert_true(smalti_run_finished(run));
    smalti_run_free(run);
    smalti_model_free(m);
}

static void a_budget_too_small_to_start_is_refused(void **state)
{
    (void)state;
    smalti_model *m = unit_load("<one values=\"BW\" in=\"B\" out=\"W\"/>", "fill", 2048, 2048, 1, NULL);
    smalti_error err;
    smalti_run_options opt = smalti_run_defaults();
    opt.max_memory = 1 << 20;
    assert_null(smalti_run_new_with(m, 1, &opt, &err));
    assert_int_equal(err.status, SMALTI_ERR_MEMORY);
    assert_non_null(strstr(err.message, "needs more than its memory budget of 1.0 MiB to start"));
    smalti_model_free(m);
}

int run_budget_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cancel_from_another_thread_stops_the_run),
        cmocka_unit_test(timeout_stops_the_run_and_reset_rearms_it),
        cmocka_unit_test(a_negative_timeout_is_a_usage_error),
        cmocka_unit_test(memory_budget_stops_the_run_and_reset_runs_again),
        cmocka_unit_test(a_budget_too_small_to_start_is_refused),
    };
    return cmocka_run_group_tests_name("budget", tests, NULL, NULL);
}
