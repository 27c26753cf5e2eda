/* test_lastnode.c — smalti_run_last_node: which leaf made the last step, and for how many steps in a row. */
#include "unit.h"
#include <string.h>
#include "smalti.h"

/* K at (1,1), V at (4,4); the path's first cell is diagonal to K, so the 4-neighbour
   rule KN -> VN never fires and the path succeeds again and again without painting. */
static const char *loop_xml =
    "<sequence values=\"BKVN\">\n"
    "  <one in=\"BBBBBB/BBBBBB/BBBBBB/BBBBBB/BBBBBB/BBBBBB\" "
    "out=\"BBBBBB/BKBBBB/BBBBBB/BBBBBB/BBBBVB/BBBBBB\" symmetry=\"()\" steps=\"1\"/>\n"
    "  <markov>\n"
    "    <all in=\"KN\" out=\"VN\"/>\n"
    "    <path from=\"K\" to=\"VN\" on=\"B\" color=\"N\" edges=\"True\"/>\n"
    "  </markov>\n"
    "</sequence>\n";

static void kind_and_line(const smalti_model *m, int id, const char *kind, int line)
{
    smalti_node_info info;
    assert_true(smalti_model_node_info(m, id, &info));
    assert_string_equal(info.kind, kind);
    assert_int_equal(info.line, line);
}

static void names_the_leaf_of_the_last_step_and_its_streak(void **state)
{
    (void)state;
    smalti_model *m = unit_load(loop_xml, "loop.xml", 6, 6, 1, NULL);
    smalti_run *run = smalti_run_new(m, 1, NULL);
    long streak = 7;
    assert_int_equal(smalti_run_last_node(run, &streak), -1);
    assert_int_equal(streak, 0);

    assert_int_equal(smalti_run_step(run), 1);
    kind_and_line(m, smalti_run_last_node(run, &streak), "one", 2);
    assert_int_equal(streak, 1);

    assert_int_equal(smalti_run_to_end(run, 100), 100);
    assert_false(smalti_run_finished(run));
    kind_and_line(m, smalti_run_last_node(run, &streak), "path", 5);
    assert_int_equal(streak, 99);
    assert_int_equal(smalti_run_last_node(run, NULL), smalti_run_last_node(run, &streak));

    smalti_run_reset(run, 1);
    assert_int_equal(smalti_run_last_node(run, &streak), -1);
    assert_int_equal(streak, 0);
    smalti_run_free(run);
    smalti_model_free(m);
}

/* The final step, in which the root finds nothing left to do, has no actor. */
static void a_step_in_which_no_node_acted_gives_minus_one(void **state)
{
    (void)state;
    smalti_model *m = unit_load("<one values=\"BW\" in=\"B\" out=\"W\"/>", "fill.xml", 2, 1, 1, NULL);
    smalti_run *run = smalti_run_new(m, 1, NULL);
    long streak = 0;
    assert_int_equal(smalti_run_to_end(run, 2), 2);
    kind_and_line(m, smalti_run_last_node(run, &streak), "one", 1);
    assert_int_equal(streak, 2);
    assert_int_equal(smalti_run_to_end(run, 0), 3);
    assert_true(smalti_run_finished(run));
    assert_int_equal(smalti_run_last_node(run, &streak), -1);
    assert_int_equal(streak, 1);
    smalti_run_free(run);
    smalti_model_free(m);
}

int run_lastnode_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_the_leaf_of_the_last_step_and_its_streak),
        cmocka_unit_test(a_step_in_which_no_node_acted_gives_minus_one),
    };
    return cmocka_run_group_tests_name("lastnode", tests, NULL, NULL);
}
