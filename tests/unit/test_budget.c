/* test_budget.c — a run's deadline, cancel and memory budget: each stops the run with its own status, and
   the same run object can be reset and run again (the sanitizer build checks that nothing leaks). */
#include "unit.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
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

/* Models whose second step is one long loop (seconds at 2048^2, more under the sanitizers); the
   first step, one cell turned W, tells the canceller that the long step has begun. */
#define GEN_SIDE 2048
#define FIRST_STEP "<one in=\"B\" out=\"W\" steps=\"1\"/>"
static const char *const long_step_models[] = {
    "<sequence values=\"BW\">" FIRST_STEP "<noise octaves=\"16\" frequency=\"0.0001\" lacunarity=\"1.5\">"
    "<band value=\"B\" to=\"0\"/><band value=\"W\" to=\"1\"/></noise></sequence>",
    "<sequence values=\"BWR\">" FIRST_STEP "<voronoi sites=\"1000000\" values=\"WR\" border=\"B\"/></sequence>",
    "<sequence values=\"BW\">" FIRST_STEP "<runner value=\"W\" count=\"65536\" strength=\"256\" life=\"1000\" turnChance=\"0\"/></sequence>",
    "<sequence values=\"BW\">" FIRST_STEP "<all in=\"B\" out=\"W\"/></sequence>",
    NULL, /* the lsystem, made below: 2000 squares of 1024-cell sides drawn with the widest pen */
};

typedef struct step_canceller {
    smalti_run *run;
    atomic_int steps_seen;
} step_canceller;

static void count_step(void *userdata, const smalti_step_event *event)
{
    (void)event;
    atomic_fetch_add(&((step_canceller *)userdata)->steps_seen, 1);
}

/* Cancel a little after the first step: inside the second, long one. */
static void *cancel_in_second_step(void *arg)
{
    step_canceller *c = arg;
    while (atomic_load(&c->steps_seen) < 1) usleep(1000);
    usleep(20 * 1000);
    smalti_run_cancel(c->run);
    return NULL;
}

static void cancel_stops_a_long_generator_step_inside(void **state)
{
    (void)state;
    enum { AXIOM_SQUARES = 2000 };
    char *lsystem = malloc(AXIOM_SQUARES * 8 + 256);
    assert_non_null(lsystem);
    int at = sprintf(lsystem, "<sequence values=\"BW\">" FIRST_STEP "<lsystem axiom=\"");
    for (int k = 0; k < AXIOM_SQUARES; k++) at += sprintf(lsystem + at, "F+F+F+F+");
    sprintf(lsystem + at, "\" iterations=\"0\" step=\"1024\" angle=\"90\" width=\"64\" pen=\"W\"/></sequence>");
    for (int i = 0; i == 0 || long_step_models[i - 1]; i++) {
        const char *xml = long_step_models[i] ? long_step_models[i] : lsystem;
        smalti_model *m = unit_load(xml, "long_step", GEN_SIDE, GEN_SIDE, 1, NULL);
        smalti_error err;
        smalti_run *run = smalti_run_new(m, 1, &err);
        assert_non_null(run);
        step_canceller c = {.run = run};
        smalti_run_set_observer(run, count_step, &c);
        pthread_t t;
        assert_int_equal(pthread_create(&t, NULL, cancel_in_second_step, &c), 0);
        long steps = smalti_run_to_end(run, 0);
        pthread_join(t, NULL);
        /* Stopped inside the long step: it is not counted, and the run is not over. Without a check
           in the generator's loop, the step would end and count (2 steps, the run finished). */
        if (steps != 1) fprintf(stderr, "model %d: %ld steps\n", i, steps);
        assert_int_equal(steps, 1);
        assert_int_equal(atomic_load(&c.steps_seen), 1);
        assert_false(smalti_run_finished(run));
        assert_int_equal(smalti_run_error(run, &err), 1);
        assert_int_equal(err.status, SMALTI_ERR_CANCELLED);
        assert_non_null(strstr(err.message, "cancelled after 1 steps"));
        assert_int_equal(smalti_run_step(run), 0);
        /* The same object runs again from the start (the sanitizer build checks for leaks). */
        smalti_run_reset(run, 2);
        assert_int_equal(smalti_run_error(run, NULL), 0);
        assert_int_equal(smalti_run_to_end(run, 1), 1);
        assert_int_equal(smalti_run_error(run, NULL), 0);
        smalti_run_free(run);
        smalti_model_free(m);
    }
    free(lsystem);
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
        cmocka_unit_test(cancel_stops_a_long_generator_step_inside),
        cmocka_unit_test(a_negative_timeout_is_a_usage_error),
        cmocka_unit_test(memory_budget_stops_the_run_and_reset_runs_again),
        cmocka_unit_test(a_budget_too_small_to_start_is_refused),
    };
    return cmocka_run_group_tests_name("budget", tests, NULL, NULL);
}
