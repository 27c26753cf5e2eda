/* test_api.c — the public API: loading, stepping, step counting, observers, threads. */
#include "unit.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smalti.h"

static smalti_model *load(const char *xml, int mx, int my, int mz)
{
    return unit_load(xml, "api.xml", mx, my, mz, NULL);
}

/* `one` changes a cell per step; the step in which nothing matches still
   counts, as the reference counts it. */
static void one_fills_grid_cell_by_cell(void **state)
{
    (void)state;
    smalti_model *m = load("<one values=\"BW\" in=\"B\" out=\"W\"/>", 5, 5, 1);
    smalti_run *run = smalti_run_new(m, 1, NULL);
    assert_int_equal(smalti_run_to_end(run, 0), 26);
    assert_true(smalti_run_finished(run));
    int mx, my, mz;
    const unsigned char *g = smalti_run_grid(run, &mx, &my, &mz);
    for (int i = 0; i < 25; i++) assert_int_equal(g[i], 1);
    assert_string_equal(smalti_run_legend(run), "BW");
    smalti_run_free(run);
    smalti_model_free(m);
}

static void all_applies_every_match_at_once(void **state)
{
    (void)state;
    smalti_model *m = load("<all values=\"BW\" in=\"B\" out=\"W\"/>", 7, 3, 1);
    smalti_run *run = smalti_run_new(m, 3, NULL);
    assert_int_equal(smalti_run_step(run), 1);
    const unsigned char *g = smalti_run_grid(run, NULL, NULL, NULL);
    for (int i = 0; i < 21; i++) assert_int_equal(g[i], 1);
    assert_int_equal(smalti_run_to_end(run, 0), 2);
    assert_int_equal(smalti_run_step(run), 0);
    smalti_run_free(run);
    smalti_model_free(m);
}

/* A sequence runs each child until it fails; steps limits a rule node. */
static void sequence_and_step_limits(void **state)
{
    (void)state;
    smalti_model *m = load("<sequence values=\"BWR\" origin=\"True\">"
                       "<one in=\"WB\" out=\"WW\" steps=\"3\"/>"
                       "<all in=\"B\" out=\"R\"/></sequence>", 9, 9, 1);
    smalti_run *run = smalti_run_new(m, 5, NULL);
    smalti_run_to_end(run, 0);
    const unsigned char *g = smalti_run_grid(run, NULL, NULL, NULL);
    int counts[3] = {0};
    for (int i = 0; i < 81; i++) counts[g[i]]++;
    assert_int_equal(counts[1], 4);  /* the origin and three grown cells */
    assert_int_equal(counts[2], 77);
    assert_int_equal(counts[0], 0);
    smalti_run_free(run);
    smalti_model_free(m);
}

typedef struct trace {
    unsigned char prev[64];
    long steps;
    int nodes_seen[8];
    int bad;
} trace;

/* The cells an observer is told about are exactly the cells that changed. */
static void on_step(void *ud, const smalti_step_event *ev)
{
    trace *t = ud;
    unsigned char changed[64] = {0};
    for (size_t k = 0; k < ev->changed_count; k++) changed[ev->changed[k]] = 1;
    for (int i = 0; i < 64; i++) {
        if (t->prev[i] != ev->grid[i] && !changed[i]) t->bad++;
        t->prev[i] = ev->grid[i];
    }
    if (ev->node_id >= 0 && ev->node_id < 8) t->nodes_seen[ev->node_id]++;
    t->steps = ev->step;
}

static void observer_sees_every_change(void **state)
{
    (void)state;
    smalti_model *m = load("<markov values=\"BWA\" origin=\"True\">"
                       "<one in=\"WBB\" out=\"WAW\"/>"
                       "<one in=\"AW\" out=\"WW\"/></markov>", 8, 8, 1);
    smalti_run *run = smalti_run_new(m, 11, NULL);
    trace t = {0};
    memcpy(t.prev, smalti_run_grid(run, NULL, NULL, NULL), 64);
    smalti_run_set_observer(run, on_step, &t);
    long steps = smalti_run_to_end(run, 0);
    assert_int_equal(t.steps, steps);
    assert_int_equal(t.bad, 0);
    smalti_node_info info;
    /* Node 0 is the markov, 1 and 2 the two `one` nodes; both acted. */
    assert_true(smalti_model_node_info(m, 1, &info));
    assert_string_equal(info.kind, "one");
    assert_int_equal(info.parent, 0);
    assert_true(t.nodes_seen[1] > 0 && t.nodes_seen[2] > 0);
    assert_int_equal(t.nodes_seen[0], 0);
    smalti_run_free(run);
    smalti_model_free(m);
}

static const char *maze = "<markov values=\"BWA\" origin=\"True\"><one in=\"WBB\" out=\"WAW\"/>"
                          "<one in=\"AW\" out=\"WW\"/></markov>";

typedef struct thread_job {
    const smalti_model *model;
    int seed;
    unsigned char grid[31 * 31];
    long steps;
} thread_job;

static void *run_job(void *arg)
{
    thread_job *j = arg;
    smalti_run *run = smalti_run_new(j->model, j->seed, NULL);
    j->steps = smalti_run_to_end(run, 0);
    memcpy(j->grid, smalti_run_grid(run, NULL, NULL, NULL), sizeof j->grid);
    smalti_run_free(run);
    return NULL;
}

/* Runs share one model; threads, resets and fresh runs agree seed for seed. */
static void runs_are_independent_and_reproducible(void **state)
{
    (void)state;
    smalti_model *m = load(maze, 31, 31, 1);
    thread_job jobs[4];
    pthread_t threads[4];
    for (int k = 0; k < 4; k++) {
        jobs[k].model = m;
        jobs[k].seed = 100 + k % 2;
        pthread_create(&threads[k], NULL, run_job, &jobs[k]);
    }
    for (int k = 0; k < 4; k++) pthread_join(threads[k], NULL);
    assert_memory_equal(jobs[0].grid, jobs[2].grid, sizeof jobs[0].grid);
    assert_memory_equal(jobs[1].grid, jobs[3].grid, sizeof jobs[1].grid);
    assert_memory_not_equal(jobs[0].grid, jobs[1].grid, sizeof jobs[0].grid);

    smalti_run *run = smalti_run_new(m, 101, NULL);
    smalti_run_to_end(run, 0);
    smalti_run_reset(run, 100);
    assert_int_equal(smalti_run_counter(run), 0);
    assert_int_equal(smalti_run_to_end(run, 0), jobs[0].steps);
    assert_memory_equal(smalti_run_grid(run, NULL, NULL, NULL), jobs[0].grid, sizeof jobs[0].grid);
    smalti_run_reset(run, 100);
    assert_int_equal(smalti_run_to_end(run, 10), 10);
    smalti_run_free(run);
    smalti_model_free(m);
}

typedef struct changes_seen {
    size_t count[8];
} changes_seen;

static void count_changes(void *ud, const smalti_step_event *ev)
{
    changes_seen *c = ud;
    if (ev->step < 8) c->count[ev->step] = ev->changed_count;
}

/* Game of Life on a wrapping grid: a blinker turns vertical, then back. */
static void convolution_runs_a_blinker(void **state)
{
    (void)state;
    smalti_model *m = load("<sequence values=\"DA\" origin=\"True\">"
                       "<prl in=\"DAD\" out=\"AAA\" steps=\"1\" symmetry=\"()\"/>"
                       "<convolution neighborhood=\"Moore\" periodic=\"True\" steps=\"2\">"
                       "<rule in=\"D\" out=\"A\" values=\"A\" sum=\"3\"/>"
                       "<rule in=\"A\" out=\"D\" values=\"A\" sum=\"0,1,4..8\"/>"
                       "</convolution></sequence>", 5, 5, 1);
    smalti_run *run = smalti_run_new(m, 1, NULL);
    changes_seen seen = {{0}};
    smalti_run_set_observer(run, count_changes, &seen);
    const unsigned char *g = smalti_run_grid(run, NULL, NULL, NULL);
    static const char *const expect[] = {
        ".........." "..........", /* unused: step 0 */
        "....." "....." ".AAA." "....." ".....",
        "....." "..A.." "..A.." "..A.." ".....",
        "....." "....." ".AAA." "....." ".....",
    };
    for (int step = 1; step <= 3; step++) {
        assert_int_equal(smalti_run_step(run), 1);
        for (int i = 0; i < 25; i++) assert_int_equal(g[i], expect[step][i] == 'A');
    }
    assert_int_equal(smalti_run_to_end(run, 0), 4);
    /* Convolution writes are not in the change log, but observers see them. */
    assert_int_equal(seen.count[2], 4);
    assert_int_equal(seen.count[3], 4);
    smalti_run_free(run);
    smalti_model_free(m);
}

/* A rule wider or taller than the grid never matches (and must not read outside it). */
static void rules_larger_than_the_grid_never_match(void **state)
{
    (void)state;
    smalti_model *m = load("<sequence values=\"BW\"><all in=\"BBB\" out=\"WWW\"/>"
                       "<one in=\"B/B/B\" out=\"W/W/W\"/><prl in=\"BBBB\" out=\"WWWW\"/></sequence>", 2, 2, 1);
    smalti_run *run = smalti_run_new(m, 1, NULL);
    smalti_run_to_end(run, 0);
    const unsigned char *g = smalti_run_grid(run, NULL, NULL, NULL);
    for (int i = 0; i < 4; i++) assert_int_equal(g[i], 0);
    smalti_run_free(run);
    smalti_model_free(m);
}

/* The library reports the header's version, as a string and as a number, so that a program can
   tell a replaced shared library; the number orders versions as their parts do. */
static void version_matches_the_header(void **state)
{
    (void)state;
    assert_string_equal(smalti_version(), SMALTI_VERSION);
    assert_int_equal(smalti_version_number(), SMALTI_VERSION_NUMBER);
    char text[32];
    snprintf(text, sizeof text, "%d.%d.%d", smalti_version_number() / 10000, smalti_version_number() / 100 % 100,
             smalti_version_number() % 100);
    assert_string_equal(text, smalti_version());
}

/* Each public struct's size by its C name, as a binding checks its own declarations; 0 for a name
   that is no public struct, a near miss included. */
static void struct_sizes_by_name(void **state)
{
    (void)state;
    assert_int_equal(smalti_struct_size("smalti_error"), sizeof(smalti_error));
    assert_int_equal(smalti_struct_size("smalti_load_options"), sizeof(smalti_load_options));
    assert_int_equal(smalti_struct_size("smalti_step_event"), sizeof(smalti_step_event));
    assert_int_equal(smalti_struct_size("smalti_node_info"), sizeof(smalti_node_info));
    assert_int_equal(smalti_struct_size("smalti_settings"), sizeof(smalti_settings));
    assert_int_equal(smalti_struct_size("smalti_run_options"), sizeof(smalti_run_options));
    assert_int_equal(smalti_struct_size("smalti_param_info"), sizeof(smalti_param_info));
    assert_int_equal(smalti_struct_size("smalti_run"), 0);
    assert_int_equal(smalti_struct_size("smalti_settings_"), 0);
    assert_int_equal(smalti_struct_size(""), 0);
    assert_int_equal(smalti_struct_size(NULL), 0);
}

int run_api_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_fills_grid_cell_by_cell),
        cmocka_unit_test(all_applies_every_match_at_once),
        cmocka_unit_test(sequence_and_step_limits),
        cmocka_unit_test(observer_sees_every_change),
        cmocka_unit_test(runs_are_independent_and_reproducible),
        cmocka_unit_test(convolution_runs_a_blinker),
        cmocka_unit_test(rules_larger_than_the_grid_never_match),
        cmocka_unit_test(version_matches_the_header),
        cmocka_unit_test(struct_sizes_by_name),
    };
    return cmocka_run_group_tests_name("api", tests, NULL, NULL);
}
