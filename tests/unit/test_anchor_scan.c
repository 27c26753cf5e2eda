/* test_anchor_scan.c — a whole-grid scan started from a rare value's cells (rulenode_anchor.c) adds
   the same matches in the same order as the bitplane scan and the cell-by-cell lattice scan, for
   rules of many shapes in 2-D and 3-D, and declines (adding nothing) when its value is common; a
   one-cell rule's first scan makes no bitplanes. */
#include "unit.h"
#include <stdlib.h>
#include <string.h>
#include "smalti.h"
#include "../../src/engine/run.h"
#include "../../src/nodes/rulenode.h"

#define MAX_FOUND 200000

typedef struct found {
    int32_t n;
    int32_t at[MAX_FOUND];
    int rule[MAX_FOUND];
} found;

static found *recording;

static void record(run_state *r, const rulenode *rn, rulenode_state *st, int ri, int32_t at)
{
    (void)r, (void)rn, (void)st;
    assert_true(recording->n < MAX_FOUND);
    recording->rule[recording->n] = ri;
    recording->at[recording->n++] = at;
}

/* The model's first `one` node. */
static const rulenode *first_one(const smalti_model *m, int *id)
{
    for (int k = 0; k < m->node_count; k++)
        if (strcmp(m->nodes[k]->kind->name, "one") == 0) {
            *id = k;
            return (const rulenode *)m->nodes[k];
        }
    fail();
    return NULL;
}

/* A grid of value 0 but for `rare` cells in a thousand of random other values (lcg from seed). */
static void scatter(run_state *r, int values, int rare, uint32_t seed)
{
    for (int32_t i = 0; i < r->cells; i++) {
        seed = seed * 1664525u + 1013904223u;
        r->state[i] = (uint8_t)((seed >> 8) % 1000 < (uint32_t)rare ? 1 + (seed >> 20) % (uint32_t)(values - 1) : 0);
    }
    r->planes.valid = false;
}

/* Every rule of the model's first one node, scanned three ways on grids scattered with seeds
   1..seeds: the anchored scan must take it (when expect_anchored) and agree with both others. */
static void scans_agree(const char *xml, int mx, int my, int mz, int values, int rare, int seeds, bool expect_anchored)
{
    smalti_model *m = unit_load(xml, "anchor.xml", mx, my, mz, NULL);
    smalti_run *run = smalti_run_new(m, 1, NULL);
    run_state *r = &run->rs;
    int id = 0;
    const rulenode *rn = first_one(m, &id);
    rulenode_state *st = r->node_states[id];
    found *anchored = calloc(1, sizeof *anchored), *planes = calloc(1, sizeof *planes), *cells = calloc(1, sizeof *cells);
    assert_non_null(anchored);
    assert_non_null(planes);
    assert_non_null(cells);
    for (int seed = 1; seed <= seeds; seed++) {
        scatter(r, values, rare, (uint32_t)seed);
        rulenode_anchors counts; /* shared by the rules of one grid, as rulenode_scan_all shares them */
        rulenode_anchors_init(&counts);
        for (int ri = 0; ri < rn->rule_count; ri++) {
            anchored->n = planes->n = cells->n = 0;
            recording = anchored;
            const bool took = rulenode_scan_rule_anchored(r, rn, st, ri, record, &counts);
            assert_int_equal(took, expect_anchored);
            if (!took) assert_int_equal(anchored->n, 0);
            recording = planes;
            planes_sync(r);
            rulenode_scan_rule_planes(r, rn, st, ri, record);
            recording = cells;
            rulenode_scan_rule_cells(r, rn, st, ri, record);
            assert_int_equal(planes->n, cells->n);
            assert_memory_equal(planes->at, cells->at, (size_t)planes->n * sizeof *planes->at);
            if (!took) continue;
            assert_int_equal(anchored->n, planes->n);
            assert_memory_equal(anchored->at, planes->at, (size_t)planes->n * sizeof *planes->at);
            assert_memory_equal(anchored->rule, planes->rule, (size_t)planes->n * sizeof *planes->rule);
        }
        rulenode_anchors_free(&counts);
    }
    free(anchored);
    free(planes);
    free(cells);
    smalti_run_free(run);
    smalti_model_free(m);
}

static void two_dimensional_rules(void **state)
{
    (void)state;
    /* A line, a 2x2 block with a wildcard, a 3x2 rule, an L of three cells: their symmetric
       images give corners in several lattice cells per anchor, which only the sort orders. */
    scans_agree("<one values=\"BWRA\" in=\"WB\" out=\"WW\"/>", 61, 47, 1, 4, 20, 3, true);
    scans_agree("<one values=\"BWRA\" in=\"WB/*B\" out=\"WW/WW\"/>", 61, 47, 1, 4, 20, 3, true);
    scans_agree("<one values=\"BWRA\" in=\"RBB/BBW\" out=\"WWW/AAA\"/>", 64, 65, 1, 4, 30, 3, true);
    scans_agree("<one values=\"BWRA\" in=\"WB/B*\" out=\"AA/A*\"/>", 70, 33, 1, 4, 60, 3, true);
    /* Matches dense around many anchors (an anchor's value in one cell in five). */
    scans_agree("<one values=\"BW\" in=\"BW\" out=\"WW\"/>", 200, 190, 1, 2, 5, 2, true);
}

static void three_dimensional_rules(void **state)
{
    (void)state;
    scans_agree("<one values=\"BWRA\" in=\"WB BB\" out=\"WW WW\"/>", 17, 13, 11, 4, 40, 3, true);
    scans_agree("<one values=\"BWRA\" in=\"RB/B* B*/*W\" out=\"WW/WW AA/AA\"/>", 16, 18, 9, 4, 60, 3, true);
}

/* A rule every cell of which accepts the common value or more than one value has no anchor,
   and a rare value held by too many cells makes the scan decline. */
static void declines_without_a_rare_value(void **state)
{
    (void)state;
    scans_agree("<sequence values=\"BWRA\"><union symbol=\"?\" values=\"BW\"/><one in=\"?B\" out=\"WW\"/></sequence>", 40, 30, 1, 4, 20, 2, false);
    scans_agree("<one values=\"BW\" in=\"WB\" out=\"WW\"/>", 200, 190, 1, 2, 400, 2, false);
}

/* A one-cell rule whose value is common: the cell scan and the bitplanes' scan agree, and the
   node's first scan lists every cell that fits without making the bitplanes (their pass over the
   grid and their memory: rulenode_scan_all). */
static void one_cell_rules_need_no_planes(void **state)
{
    (void)state;
    scans_agree("<one values=\"BWRA\" in=\"B\" out=\"W\"/>", 61, 47, 1, 4, 400, 2, false);
    smalti_model *m = unit_load("<one values=\"BW\" in=\"B\" out=\"W\"/>", "basic.xml", 40, 30, 1, NULL);
    smalti_run *run = smalti_run_new(m, 1, NULL);
    assert_int_equal(smalti_run_to_end(run, 1), 1);
    assert_null(run->rs.planes.bits);
    int id = 0;
    first_one(m, &id);
    const rulenode_state *st = run->rs.node_states[id];
    assert_int_equal(st->match_count, 40 * 30 - 1);
    smalti_run_free(run);
    smalti_model_free(m);
}

int run_anchor_scan_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_dimensional_rules),
        cmocka_unit_test(three_dimensional_rules),
        cmocka_unit_test(declines_without_a_rare_value),
        cmocka_unit_test(one_cell_rules_need_no_planes),
    };
    return cmocka_run_group_tests_name("anchor_scan", tests, NULL, NULL);
}
