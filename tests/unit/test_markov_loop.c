/* test_markov_loop.c — a markov node of plain `one` nodes run in one loop (smalti_run_to_end)
   makes exactly the steps that step-by-step runs (smalti_run_step, through go) make. */
#include "unit.h"
#include <string.h>
#include "smalti.h"

/* A backtracker, and one whose children stop at their `steps` and a third child that acts
   when the first two cannot. */
static const char *backtracker_xml =
    "<markov values=\"BRGW\" origin=\"True\"><one in=\"RBB\" out=\"GGR\"/><one in=\"RGG\" out=\"WWR\"/></markov>";
static const char *limited_xml =
    "<markov values=\"BRGW\" origin=\"True\">\n"
    "  <one in=\"RBB\" out=\"GGR\" steps=\"40\"/>\n"
    "  <one in=\"RGG\" out=\"WWR\" steps=\"25\"/>\n"
    "  <one in=\"RB\" out=\"WR\"/>\n"
    "</markov>";

static void same_grid(const smalti_run *a, const smalti_run *b)
{
    int mx, my, mz;
    const unsigned char *ga = smalti_run_grid(a, &mx, &my, &mz), *gb = smalti_run_grid(b, NULL, NULL, NULL);
    assert_memory_equal(ga, gb, (size_t)mx * my * mz);
}

/* Run in chunks of `chunk` steps by the loop, and step by step alongside, comparing the grid,
   the counter and the last node and its streak after every chunk. */
static void loop_matches_steps(const char *xml, int size, int seed, long chunk, long least_steps)
{
    smalti_model *m = unit_load(xml, "markov_loop.xml", size, size, 1, NULL);
    smalti_run *fast = smalti_run_new(m, seed, NULL), *slow = smalti_run_new(m, seed, NULL);
    long target = 0;
    while (!smalti_run_finished(fast)) {
        target += chunk;
        long reached = smalti_run_to_end(fast, target);
        while (smalti_run_counter(slow) < reached && smalti_run_step(slow)) {}
        assert_int_equal(smalti_run_counter(slow), reached);
        same_grid(fast, slow);
        long streak_fast = -1, streak_slow = -2;
        assert_int_equal(smalti_run_last_node(fast, &streak_fast), smalti_run_last_node(slow, &streak_slow));
        assert_int_equal(streak_fast, streak_slow);
        if (reached < target) break;
    }
    assert_int_equal(smalti_run_step(slow), 0);
    assert_true(smalti_run_finished(fast));
    assert_true(smalti_run_counter(fast) >= least_steps);
    assert_int_equal(smalti_run_error(fast, NULL), 0);
    smalti_run_free(fast);
    smalti_run_free(slow);
    smalti_model_free(m);
}

static void backtracker_to_its_end(void **state)
{
    (void)state;
    loop_matches_steps(backtracker_xml, 41, 1, 0x7fffffff, 700);
    loop_matches_steps(backtracker_xml, 41, 7, 37, 700);
    loop_matches_steps(backtracker_xml, 40, 3, 1, 700);
}

static void children_with_step_limits(void **state)
{
    (void)state;
    loop_matches_steps(limited_xml, 33, 1, 0x7fffffff, 66);
    loop_matches_steps(limited_xml, 33, 5, 9, 66);
}

int run_markov_loop_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(backtracker_to_its_end),
        cmocka_unit_test(children_with_step_limits),
    };
    return cmocka_run_group_tests_name("markov_loop", tests, NULL, NULL);
}
