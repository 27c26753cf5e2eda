/* test_quiet_scan.c — two shortcuts of a `one` node's scans: a quiet node (no rule writes a value
   it scans) skips the scan of its own changes in its fused loop, making only that scan's stop
   checks; and a one-cell rule's first scan fills the match list and mask in place (rulenode.h's
   rulenode_scan_one_cell_listed). Both against what the scan of every change and
   rulenode_add_match make: the same grids, work counts, matches in order, and mask bits. */
#include "unit.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "smalti.h"
#include "../../src/engine/run.h"
#include "../../src/nodes/one_plain.h"

/* The model's last `one` node. */
static const node *last_one(const smalti_model *m)
{
    for (int k = m->node_count - 1; k >= 0; k--)
        if (strcmp(m->nodes[k]->kind->name, "one") == 0) return m->nodes[k];
    fail();
    return NULL;
}

/* A run to the end of xml on an mx x my grid, counting its work without a limit: the steps made,
   the work in *work and the grid in cells (mx * my bytes). */
static long run_counting(const char *xml, int mx, int my, int seed, bool quiet, long long *work, uint8_t *cells)
{
    smalti_model *m = unit_load(xml, "quiet.xml", mx, my, 1, NULL);
    const one_plain *p = one_node_plain(last_one(m));
    assert_non_null(p);
    assert_int_equal(one_plain_is_quiet(p), quiet);
    smalti_run_options opt = smalti_run_defaults();
    opt.max_work = LLONG_MAX;
    smalti_run *run = smalti_run_new_with(m, seed, &opt, NULL);
    const long steps = smalti_run_to_end(run, 0);
    assert_int_equal(smalti_run_error(run, NULL), 0);
    *work = smalti_run_work(run);
    memcpy(cells, smalti_run_grid(run, NULL, NULL, NULL), (size_t)mx * my);
    smalti_run_free(run);
    smalti_model_free(m);
    return steps;
}

/* A quiet node against the same node with a rule that never matches (no R on the grid) but reads W,
   which its changes write: that node scans every change. Same draws, so the same steps, grids and
   work (the stop checks of the skipped scans are made, and charged). */
static void quiet_node_skips_only_what_adds_nothing(void **state)
{
    (void)state;
    static const char *const quiet[] = {
        "<one values=\"BWR\" in=\"B\" out=\"W\"/>",
        "<sequence values=\"BWRG\"><one in=\"B\" out=\"G\" steps=\"300\"/><one><rule in=\"B\" out=\"W\"/><rule in=\"G\" out=\"W\"/></one></sequence>",
        "<one values=\"BWR\" in=\"BB\" out=\"WW\"/>",
        "<one values=\"BWR\" in=\"BBB\" out=\"WWW\"/>",
        /* W turns back to B, so the last node may find a match again: it keeps its mask */
        "<sequence values=\"BWR\"><one in=\"B\" out=\"W\" steps=\"900\"/><one in=\"W\" out=\"B\" steps=\"400\"/><one in=\"B\" out=\"W\"/></sequence>",
    };
    static const char *const loud[] = {
        "<one values=\"BWR\"><rule in=\"B\" out=\"W\"/><rule in=\"WR\" out=\"RR\"/></one>",
        ("<sequence values=\"BWRG\"><one in=\"B\" out=\"G\" steps=\"300\"/><one><rule in=\"B\" out=\"W\"/><rule in=\"G\" out=\"W\"/>"
         "<rule in=\"WR\" out=\"RR\"/></one></sequence>"),
        "<one values=\"BWR\"><rule in=\"BB\" out=\"WW\"/><rule in=\"WR\" out=\"RR\"/></one>",
        "<one values=\"BWR\"><rule in=\"BBB\" out=\"WWW\"/><rule in=\"WR\" out=\"RR\"/></one>",
        ("<sequence values=\"BWR\"><one in=\"B\" out=\"W\" steps=\"900\"/><one in=\"W\" out=\"B\" steps=\"400\"/>"
         "<one><rule in=\"B\" out=\"W\"/><rule in=\"WR\" out=\"RR\"/></one></sequence>"),
    };
    const int mx = 67, my = 53; /* over 3,000 changes: the scans cross several stop checks */
    uint8_t *a = malloc((size_t)mx * my), *b = malloc((size_t)mx * my);
    assert_non_null(a);
    assert_non_null(b);
    for (size_t k = 0; k < sizeof quiet / sizeof *quiet; k++)
        for (int seed = 1; seed <= 3; seed++) {
            long long work_quiet = 0, work_loud = 0;
            const long steps = run_counting(quiet[k], mx, my, seed, true, &work_quiet, a);
            assert_int_equal(run_counting(loud[k], mx, my, seed, false, &work_loud, b), steps);
            assert_true(steps > 1000);
            assert_memory_equal(a, b, (size_t)mx * my);
            assert_int_equal(work_quiet, work_loud);
        }
    free(a);
    free(b);
    /* A list past PLAIN_FAR_LIST matches (the loops that fetch ahead). */
    const int far = 300;
    a = malloc((size_t)far * far);
    b = malloc((size_t)far * far);
    assert_non_null(a);
    assert_non_null(b);
    long long work_quiet = 0, work_loud = 0;
    assert_int_equal(run_counting(quiet[0], far, far, 7, true, &work_quiet, a), run_counting(loud[0], far, far, 7, false, &work_loud, b));
    assert_memory_equal(a, b, (size_t)far * far);
    assert_int_equal(work_quiet, work_loud);
    free(a);
    free(b);
    /* A step at a time: the same grids as in one go. */
    assert_true(unit_loop_matches_steps(quiet[0], 41, 43, 1, 5, 97) > 1000);
    assert_true(unit_loop_matches_steps(quiet[1], 41, 43, 1, 5, 97) > 1000);
}

/* rulenode_add_match's list and mask for the first scan of one-cell rules over a grid: every cell,
   rule by rule, in raster order. */
static int32_t expected_matches(const rulenode *rn, const uint8_t *cells, int32_t count, match *out)
{
    int32_t n = 0;
    for (int ri = 0; ri < rn->rule_count; ri++)
        for (int32_t i = 0; i < count; i++)
            if ((rn->rules[ri]->input[0] >> cells[i]) & 1) out[n++] = match_pack(rn, ri, i);
    return n;
}

/* One-cell rules over a laid grid of mixed values (none rare enough for the anchored scan): after
   the first step, the list is the scan's list with the drawn match taken out as plain_take takes
   it (the last one moved into its slot), and each fitting match's mask bit is set, the others'
   clear (the drawn match's bit is cleared or left, as the node keeps its mask). */
static void one_cell_scan_of(const char *xml)
{
    const int mx = 37, my = 29; /* 1,073 cells: past one run of STOP_ITEMS, and not a whole mask word */
    const int32_t count = mx * my;
    smalti_model *m = unit_load(xml, "cells.xml", mx, my, 1, NULL);
    const rulenode *rn = (const rulenode *)last_one(m);
    assert_non_null(one_node_plain(&rn->base));
    char *picture = malloc((size_t)count + 1);
    uint8_t *before = malloc((size_t)count);
    match *expected = malloc((size_t)count * (size_t)rn->rule_count * sizeof *expected);
    assert_non_null(picture);
    assert_non_null(before);
    assert_non_null(expected);
    for (int seed = 1; seed <= 5; seed++) {
        uint32_t h = (uint32_t)seed * 2654435761u;
        for (int32_t i = 0; i < count; i++) {
            h = h * 1103515245u + 12345u;
            picture[i] = "BRWG"[(h >> 16) % 4];
        }
        picture[count] = 0;
        smalti_run *run = smalti_run_new(m, seed, NULL);
        unit_lay_picture(run, picture);
        memcpy(before, run->rs.state, (size_t)count);
        const int32_t n = expected_matches(rn, before, count, expected);
        assert_true(n > count / 2);
        assert_int_equal(smalti_run_step(run), 1);
        const rulenode_state *st = run->rs.node_states[rn->base.id];
        const uint8_t *after = run->rs.state;
        int32_t changed = -1;
        for (int32_t i = 0; i < count; i++)
            if (before[i] != after[i]) {
                assert_int_equal(changed, -1);
                changed = i;
            }
        assert_true(changed >= 0);
        /* The drawn match's slot is the first where the lists differ (the last match moved in). */
        int32_t drawn = n - 1;
        for (int32_t k = 0; k < n - 1; k++)
            if (st->matches[k] != expected[k]) {
                drawn = k;
                break;
            }
        assert_int_equal(match_at(rn, expected[drawn]), changed);
        const match taken = expected[drawn];
        expected[drawn] = expected[n - 1];
        assert_int_equal(st->match_count, n - 1);
        assert_memory_equal(st->matches, expected, (size_t)(n - 1) * sizeof *expected);
        for (int ri = 0; ri < rn->rule_count; ri++)
            for (int32_t i = 0; i < count; i++) {
                if (match_pack(rn, ri, i) == taken) continue;
                assert_int_equal(mask_get(st, ri, i), (rn->rules[ri]->input[0] >> before[i]) & 1);
            }
        smalti_run_free(run);
    }
    free(picture);
    free(before);
    free(expected);
    smalti_model_free(m);
}

static void one_cell_scan_lists_as_add_match(void **state)
{
    (void)state;
    /* Three rules: 16 cells' bits to a mask word. */
    one_cell_scan_of("<one values=\"BRWG\"><rule in=\"B\" out=\"G\"/><rule in=\"R\" out=\"G\"/><rule in=\"W\" out=\"R\"/></one>");
    /* 66 rules: a cell's bits take more than a word. */
    char xml[4096] = "<one values=\"BRWG\">";
    for (int k = 0; k < 22; k++) strcat(xml, "<rule in=\"B\" out=\"G\"/><rule in=\"R\" out=\"G\"/><rule in=\"W\" out=\"R\"/>");
    strcat(xml, "</one>");
    one_cell_scan_of(xml);
}

int run_quiet_scan_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(quiet_node_skips_only_what_adds_nothing),
        cmocka_unit_test(one_cell_scan_lists_as_add_match),
    };
    return cmocka_run_group_tests_name("quiet_scan", tests, NULL, NULL);
}
