/* test_budget.c — a run's deadline, cancel, work and memory budgets: each stops the run with its own status,
   and the same run object can be reset and run again (the sanitizer build checks that nothing leaks).
   No verdict here depends on how fast the machine is: a cancel comes after a step was seen, a timeout
   stops a run that never ends by itself, and a long step is cut by the work budget, which stops a run
   at the same point on every machine. */
#include "unit.h"
#include "../../src/core/mem.h"
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Hang guard: a run that a cancel or a timeout fails to stop never returns, so the alarm turns that
   hang into a failure that says what was awaited. 300 s is far beyond what any of these runs takes
   on a loaded machine under the sanitizers: the limit never decides a result. */
#define HANG_GUARD_SECONDS 300
#define HANG_STR(x) #x
#define HANG_SECONDS_TEXT(x) HANG_STR(x)
static const char *volatile hang_what;
static void hang_alarm(int sig)
{
    (void)sig;
    static const char say[] = "budget: hang guard: no return within " HANG_SECONDS_TEXT(HANG_GUARD_SECONDS) " s from ";
    const char *what = hang_what;
    /* Async-signal-safe calls only; a write that fails leaves nothing else to do but exit. */
    if (write(2, say, sizeof say - 1) > 0 && write(2, what, strlen(what)) > 0) (void)!write(2, "\n", 1);
    _exit(1);
}
static void hang_guard(const char *what)
{
    hang_what = what;
    signal(SIGALRM, hang_alarm);
    alarm(HANG_GUARD_SECONDS);
}
static void hang_guard_off(void) { alarm(0); }

/* Cheap steps without end: some cell always turns from B to W or back. */
static const char long_model[] = "<one values=\"BW\"><rule in=\"B\" out=\"W\"/><rule in=\"W\" out=\"B\"/></one>";
#define LONG_SIDE 64

/* Counts the steps the run reports (its observer) and, from another thread, cancels it once one was seen. */
typedef struct canceller {
    smalti_run *run;
    atomic_long steps_seen;
    atomic_int run_returned; /* the run returned without the cancel: the canceller stops waiting */
} canceller;

static void count_step(void *userdata, const smalti_step_event *event)
{
    (void)event;
    atomic_fetch_add(&((canceller *)userdata)->steps_seen, 1);
}

/* Cancel once the run has made a step, so that the cancel always lands in a run going on. */
static void *cancel_after_a_step(void *arg)
{
    canceller *c = arg;
    while (atomic_load(&c->steps_seen) < 1 && !atomic_load(&c->run_returned)) usleep(1000); /* a poll, not a verdict */
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
    canceller c = {.run = run};
    smalti_run_set_observer(run, count_step, &c);
    hang_guard("a run without end, cancelled from another thread after its first step");
    for (int round = 0; round < 2; round++) {
        atomic_store(&c.steps_seen, 0);
        atomic_store(&c.run_returned, 0);
        pthread_t t;
        assert_int_equal(pthread_create(&t, NULL, cancel_after_a_step, &c), 0);
        /* The model never ends by itself, so returning at all shows the cancel was seen; how soon is
           not tested (a loaded machine would make that flaky). */
        long steps = smalti_run_to_end(run, 0);
        atomic_store(&c.run_returned, 1);
        pthread_join(t, NULL);
        /* The cancel came after a step: that step counts, and every step counted was reported. */
        assert_true(steps >= 1);
        assert_int_equal(steps, atomic_load(&c.steps_seen));
        assert_false(smalti_run_finished(run));
        assert_int_equal(smalti_run_error(run, &err), 1);
        assert_int_equal(err.status, SMALTI_ERR_CANCELLED);
        char said[64];
        snprintf(said, sizeof said, "cancelled after %ld steps", steps);
        assert_non_null(strstr(err.message, said));
        assert_int_equal(smalti_run_step(run), 0); /* stopped stays stopped until reset */
        /* Reset clears the request: the same object runs again. */
        smalti_run_reset(run, 2);
        assert_int_equal(smalti_run_error(run, NULL), 0);
        assert_int_equal(smalti_run_to_end(run, 1000), 1000);
        assert_int_equal(smalti_run_error(run, NULL), 0);
        smalti_run_reset(run, 3);
    }
    hang_guard_off();
    smalti_run_free(run);
    smalti_model_free(m);
}

/* Models whose second step is one long loop (seconds at 2048^2, more under the sanitizers) after a
   first step of one cell turned W. */
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

/* The check inside each generator's loop is the one that reads the cancel flag and the deadline
   (stop_check): the work budget reaches it at the same item on every machine, where a cancel from
   another thread or a deadline would land wherever the machine's speed put it (a fast machine
   finishes the long step first, a loaded one cancels late). The budget is the first step's work and
   64 checks more, so the run stops early in the second step. */
static void a_long_generator_step_is_stopped_inside(void **state)
{
    (void)state;
    enum { AXIOM_SQUARES = 2000, CHECKS_INTO_THE_STEP = 64 };
    char *lsystem = malloc(AXIOM_SQUARES * 8 + 256);
    assert_non_null(lsystem);
    int at = sprintf(lsystem, "<sequence values=\"BW\">" FIRST_STEP "<lsystem axiom=\"");
    for (int k = 0; k < AXIOM_SQUARES; k++) at += sprintf(lsystem + at, "F+F+F+F+");
    sprintf(lsystem + at, "\" iterations=\"0\" step=\"1024\" angle=\"90\" width=\"64\" pen=\"W\"/></sequence>");
    for (int i = 0; i == 0 || long_step_models[i - 1]; i++) {
        const char *xml = long_step_models[i] ? long_step_models[i] : lsystem;
        smalti_model *m = unit_load(xml, "long_step", GEN_SIDE, GEN_SIDE, 1, NULL);
        smalti_error err;
        /* The first step's work, measured on a run whose budget never binds (the same on every machine). */
        smalti_run_options probe_opt = smalti_run_defaults();
        probe_opt.max_work = LLONG_MAX;
        smalti_run *probe = smalti_run_new_with(m, 1, &probe_opt, &err);
        assert_non_null(probe);
        assert_int_equal(smalti_run_step(probe), 1);
        const long long first = smalti_run_work(probe);
        smalti_run_free(probe);
        smalti_run_options opt = smalti_run_defaults();
        opt.max_work = first + CHECKS_INTO_THE_STEP * 1024LL;
        smalti_run *run = smalti_run_new_with(m, 1, &opt, &err);
        assert_non_null(run);
        long steps = smalti_run_to_end(run, 0);
        /* Stopped inside the long step: it is not counted, and the run is not over. Without a check
           in the generator's loop, the step would end and count (2 steps). */
        if (steps != 1) fprintf(stderr, "model %d: %ld steps\n", i, steps);
        assert_int_equal(steps, 1);
        assert_true(smalti_run_work(run) > first); /* the second step had begun: its loop did work */
        assert_false(smalti_run_finished(run));
        assert_int_equal(smalti_run_error(run, &err), 1);
        assert_int_equal(err.status, SMALTI_ERR_TIMEOUT);
        assert_non_null(strstr(err.message, "stopped after 1 steps"));
        assert_non_null(strstr(err.message, "work budget"));
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

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* A timeout stops a run that never ends by itself, so only the deadline can end it. What is
   asserted holds at any speed: the run stopped with the timeout's status, and not before the
   timeout had passed since the run was made or reset (the deadline is armed then; a slow machine
   only makes the wait longer). A reset that did not re-arm the deadline would stop the second round
   at once. How many steps fit in the time is not asserted: a stalled machine may make none. */
static void timeout_stops_the_run_and_reset_rearms_it(void **state)
{
    (void)state;
    smalti_model *m = unit_load(long_model, "long", LONG_SIDE, LONG_SIDE, 1, NULL);
    smalti_error err;
    smalti_run_options opt = smalti_run_defaults();
    opt.timeout_seconds = 0.3;
    const int64_t timeout_ns = (int64_t)(opt.timeout_seconds * 1e9); /* as the library rounds it */
    hang_guard("a run without end under a timeout of 0.3 s");
    int64_t armed = now_ns(); /* before the deadline is armed */
    smalti_run *run = smalti_run_new_with(m, 1, &opt, &err);
    assert_non_null(run);
    for (int round = 0; round < 2; round++) {
        long steps = smalti_run_to_end(run, 0);
        const int64_t took = now_ns() - armed;
        assert_int_equal(smalti_run_error(run, &err), 1);
        assert_int_equal(err.status, SMALTI_ERR_TIMEOUT);
        assert_non_null(strstr(err.message, "timeout of 0.3 s"));
        char said[64];
        snprintf(said, sizeof said, "stopped after %ld steps", steps);
        assert_non_null(strstr(err.message, said));
        if (took < timeout_ns) fprintf(stderr, "round %d: stopped %lld ns after the deadline was armed\n", round, (long long)took);
        assert_true(took >= timeout_ns);
        assert_false(smalti_run_finished(run));
        armed = now_ns();
        smalti_run_reset(run, 1); /* re-arms the deadline from now */
        assert_int_equal(smalti_run_error(run, NULL), 0);
    }
    hang_guard_off();
    smalti_run_free(run);
    smalti_model_free(m);
}

/* The load's deadline (smalti_load_options.timeout_seconds, issue 33, item 7): one already past
   when the rules are read fails the load with the timeout's status (a nanosecond is over before
   the parse ends, on any machine), and no model is made; without one the same model loads. */
static void a_load_past_its_deadline_fails_with_the_timeout_status(void **state)
{
    (void)state;
    const char *xml = "<sequence values=\"BW\"><one in=\"B\" out=\"W\"/><one in=\"WB\" out=\"WW\"/></sequence>";
    smalti_load_options opt = smalti_load_defaults();
    opt.quiet = 1;
    opt.timeout_seconds = 1e-9;
    smalti_error err;
    assert_null(smalti_model_load_string(xml, "late", &opt, &err));
    assert_int_equal(err.status, SMALTI_ERR_TIMEOUT);
    assert_string_equal(err.file, "late");
    assert_string_equal(err.message, "loading the model took longer than its timeout");
    opt.timeout_seconds = 0;
    smalti_model *m = smalti_model_load_string(xml, "late", &opt, &err);
    assert_non_null(m);
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

/* A budget of the whole task counts what the current budget counts, and what is allocated with no
   current budget; a run stopped by it reports it as its own out-of-memory. */
static void the_whole_budget_counts_with_the_current_one(void **state)
{
    (void)state;
    mem_budget whole = {.limit = 8 << 20}, run = {.limit = 64 << 20};
    mem_budget *outer_whole = mem_enter_whole(&whole);
    void *outside = mem_malloc(4 << 20); /* no current budget: the whole one alone */
    assert_non_null(outside);
    size_t after_outside = whole.used;
    assert_true(after_outside >= (size_t)4 << 20);
    mem_budget *caller = mem_enter(&run);
    void *inside = mem_malloc(2 << 20); /* both count it */
    assert_non_null(inside);
    assert_true(run.used >= (size_t)2 << 20 && whole.used >= after_outside + ((size_t)2 << 20));
    /* The run's budget has room, the whole has not: refused, and both are spent. */
    assert_null(mem_malloc(4 << 20));
    assert_true(whole.spent && run.spent);
    mem_free(inside);
    assert_int_equal(run.used, 0);
    mem_enter(caller);
    mem_free(outside);
    assert_int_equal(whole.used, 0);
    /* A block made before any budget, freed under one, leaves the counts at 0, never below. */
    mem_enter_whole(NULL);
    void *before = mem_malloc(1 << 20);
    mem_enter_whole(&whole);
    mem_free(before);
    assert_int_equal(whole.used, 0);
    mem_enter_whole(outer_whole);
}

/* With libxml2 allocating through the library, the XML tree of a model counts against the load's
   budget. The model here is small once built, but its XML holds a comment of 8 MiB, which the
   tree keeps: under 4 MiB it is refused as out of memory (not as malformed XML); before, only what
   is built from the tree counted and it loaded. Under 64 MiB it loads. */
static void the_xml_tree_counts_against_the_load_budget(void **state)
{
    (void)state;
    assert_int_equal(smalti_count_xml_memory(), 1);
    const size_t comment = (size_t)8 << 20;
    char *xml = malloc(comment + 128);
    assert_non_null(xml);
    char *p = xml + sprintf(xml, "<one values=\"BW\" in=\"B\" out=\"W\"><!--");
    memset(p, 'x', comment);
    sprintf(p + comment, "--></one>\n");
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = opt.my = 8;
    opt.quiet = 1;
    opt.max_memory = 4 << 20;
    smalti_error err;
    assert_null(smalti_model_load_string(xml, "commented.xml", &opt, &err));
    assert_int_equal(err.status, SMALTI_ERR_MEMORY);
    assert_non_null(strstr(err.message, "loading the model needed more than its memory budget of 4.0 MiB"));
    assert_null(strstr(err.message, "malformed"));
    opt.max_memory = 64 << 20;
    smalti_model *m = smalti_model_load_string(xml, "commented.xml", &opt, &err);
    assert_non_null(m);
    smalti_model_free(m);
    free(xml);
}

int run_budget_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cancel_from_another_thread_stops_the_run),
        cmocka_unit_test(timeout_stops_the_run_and_reset_rearms_it),
        cmocka_unit_test(a_long_generator_step_is_stopped_inside),
        cmocka_unit_test(a_negative_timeout_is_a_usage_error),
        cmocka_unit_test(a_load_past_its_deadline_fails_with_the_timeout_status),
        cmocka_unit_test(memory_budget_stops_the_run_and_reset_runs_again),
        cmocka_unit_test(a_budget_too_small_to_start_is_refused),
        cmocka_unit_test(the_whole_budget_counts_with_the_current_one),
        cmocka_unit_test(the_xml_tree_counts_against_the_load_budget),
    };
    return cmocka_run_group_tests_name("budget", tests, NULL, NULL);
}
