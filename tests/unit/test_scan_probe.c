/* test_scan_probe.c — the whole-grid check before a long incremental scan (rulenode_probe.c): it
   answers "nothing new" when an `all` node re-checks the cells its step wrote, declines when the
   scan would find a match (and then stops checking that node), and never changes a run: the same
   steps and grids as a twin whose extra rule, too wide for the bitplanes and never fitting, turns
   the check off. */
#include "unit.h"
#include <stdlib.h>
#include <string.h>
#include "smalti.h"
#include "../../src/engine/run.h"
#include "../../src/nodes/rulenode.h"

/* The model's first node of kind `kind`, and its id. */
static const rulenode *first_of(const smalti_model *m, const char *kind, int *id)
{
    for (int k = 0; k < m->node_count; k++)
        if (strcmp(m->nodes[k]->kind->name, kind) == 0) {
            *id = k;
            return (const rulenode *)m->nodes[k];
        }
    fail();
    return NULL;
}

/* A rule 64 cells wide (past planes_fit) that no grid here holds: R never appears. */
#define WIDE_RULE                                                                                               \
    "<rule in=\"RRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRR\" "                            \
    "out=\"BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB\"/>"

/* BasicPartitioning's start: after its `all` step, whose 3x3 rule wrote every inner cell, the
   re-check of those cells (eight shift entries each) is answered by the check; the twin's is not. */
static void an_all_nodes_recheck_is_answered(void **state)
{
    (void)state;
    static const char *const xml[2] = {
        "<sequence values=\"BWR\"><all in=\"***/*B*/***\" out=\"***/*W*/***\"/></sequence>",
        "<sequence values=\"BWR\"><all><rule in=\"***/*B*/***\" out=\"***/*W*/***\"/>" WIDE_RULE "</all></sequence>",
    };
    for (int twin = 0; twin < 2; twin++) {
        smalti_model *m = unit_load(xml[twin], "probe.xml", 90, 70, 1, NULL);
        smalti_run *run = smalti_run_new(m, 1, NULL);
        assert_int_equal(smalti_run_step(run), 1);
        int id = 0;
        const rulenode *rn = first_of(m, "all", &id);
        rulenode_state *st = run->rs.node_states[id];
        assert_int_equal(rulenode_nothing_new(&run->rs, rn, st), twin == 0);
        assert_false(st->probe_futile);
        /* The run ends: the step that finds nothing is counted, as the reference counts it. */
        assert_int_equal(smalti_run_to_end(run, 0), 2);
        assert_true(smalti_run_finished(run));
        smalti_run_free(run);
        smalti_model_free(m);
    }
}

/* A markov node whose first child turns 3,000 of the cells the `all` node wrote into R, which the
   all node's second rule takes: the all node's first re-check finds nothing; its next, after those
   3,000 changes, finds the R cells, so the check declines, marks the node, and the node's own scan
   still finds them (and the B cells they become, in the step after). */
#define UNDONE_RULES "<rule in=\"***/*B*/***\" out=\"***/*W*/***\"/><rule in=\"R\" out=\"B\"/>"
static const char *const undone[2] = {
    "<markov values=\"BWR\"><one in=\"W\" out=\"R\" steps=\"3000\"/><all>" UNDONE_RULES "</all></markov>",
    "<markov values=\"BWR\"><one in=\"W\" out=\"R\" steps=\"3000\"/><all>" UNDONE_RULES WIDE_RULE "</all></markov>",
};

static void a_found_match_turns_the_check_off(void **state)
{
    (void)state;
    smalti_model *m = unit_load(undone[0], "probe.xml", 80, 60, 1, NULL);
    smalti_run *run = smalti_run_new(m, 3, NULL);
    int id = 0;
    const rulenode *rn = first_of(m, "all", &id);
    rulenode_state *st = run->rs.node_states[id];
    assert_int_equal(smalti_run_step(run), 1); /* the all step */
    assert_true(rulenode_nothing_new(&run->rs, rn, st));
    assert_false(st->probe_futile);
    /* 3,000 R, the all step that turns them B, the one that turns the B cells W again, and the
       step that finds nothing. */
    assert_int_equal(smalti_run_to_end(run, 0), 1 + 3000 + 2 + 1);
    assert_true(st->probe_futile);
    const uint8_t *cells = smalti_run_grid(run, NULL, NULL, NULL);
    for (int32_t i = 0; i < 80 * 60; i++) {
        const int x = i % 80, y = i / 80;
        assert_int_equal(cells[i], x == 0 || y == 0 || x == 79 || y == 59 ? 0 : 1);
    }
    smalti_run_free(run);
    smalti_model_free(m);
}

/* The same steps and grids as the twin without the check, run to the end and a step at a time. */
static void same_runs_as_without_the_check(void **state)
{
    (void)state;
    const char *const pairs[][2] = {
        {"<sequence values=\"BW\"><all in=\"***/*B*/***\" out=\"***/*W*/***\"/><markov><one in=\"WWW/WBW\" out=\"WBW/WBW\"/>"
         "<one in=\"WWW/BBB\" out=\"WBW/BBB\"/></markov></sequence>",
         "<sequence values=\"BWR\"><all><rule in=\"***/*B*/***\" out=\"***/*W*/***\"/>" WIDE_RULE "</all><markov>"
         "<one in=\"WWW/WBW\" out=\"WBW/WBW\"/><one in=\"WWW/BBB\" out=\"WBW/BBB\"/></markov></sequence>"},
        {undone[0], undone[1]},
    };
    for (size_t k = 0; k < sizeof pairs / sizeof *pairs; k++)
        for (int seed = 1; seed <= 3; seed++) {
            long steps[2];
            char *grid[2];
            for (int twin = 0; twin < 2; twin++)
                grid[twin] = unit_run_picture(pairs[k][twin], "probe.xml", 71, 57, 1, NULL, seed, &steps[twin]);
            assert_int_equal(steps[0], steps[1]);
            assert_true(steps[0] > 40);
            assert_string_equal(grid[0], grid[1]);
            free(grid[0]);
            free(grid[1]);
        }
    assert_true(unit_loop_matches_steps(undone[0], 71, 57, 1, 5, 97) > 3000);
}

int run_scan_probe_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(an_all_nodes_recheck_is_answered),
        cmocka_unit_test(a_found_match_turns_the_check_off),
        cmocka_unit_test(same_runs_as_without_the_check),
    };
    return cmocka_run_group_tests_name("scan_probe", tests, NULL, NULL);
}
