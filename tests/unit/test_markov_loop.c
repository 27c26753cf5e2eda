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

/* Run in chunks of `chunk` steps by the loop, and step by step alongside (unit_loop_matches_steps),
   making at least `least_steps`. */
static void loop_matches_steps(const char *xml, int size, int seed, long chunk, long least_steps)
{
    assert_true(unit_loop_matches_steps(xml, size, size, 1, seed, chunk) >= least_steps);
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
