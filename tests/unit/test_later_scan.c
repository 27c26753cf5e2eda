/* test_later_scan.c — the incremental scans skip the shift entries of a changed cell whose match
   holds a neighbour scanned before it (one_plain.c's plain_earlier, rulenode_scan_changes): the
   lists a plain `one` node skips by hold exactly the entries that leave that neighbour out, and
   runs that skip end on the grids, step by step, of the generic scan testing every entry, with
   `all` nodes among them. */
#include "unit.h"
#include <stdlib.h>
#include <string.h>
#include "smalti.h"
#include "../../src/engine/run.h"
#include "../../src/nodes/one_plain.h"

#define MOST_SHIFTS 4096

/* The model's first `one` node. */
static const node *first_one(const smalti_model *m)
{
    for (int k = 0; k < m->node_count; k++)
        if (strcmp(m->nodes[k]->kind->name, "one") == 0) return m->nodes[k];
    fail();
    return NULL;
}

/* A model's `one` nodes with a last `require` that always holds: a model of smalti's own nodes may
   have 33 values (with_more_values). */
#define ROOM "<one in=\"*****/*BBB*/*BBB*/*BBB*/**R**\" out=\"AARAA/ADDDA/RDDDR/ADDDA/AADAA\"/>"
#define WITH_REQUIRE(VALUES, NODES) "<sequence values=\"" VALUES "\" origin=\"True\">" NODES "<require count=\"B\" min=\"0\"/></sequence>"
static const char *room_xml = WITH_REQUIRE("BRAD", ROOM);

/* Value v's list `list` is the entries of v, in their order, that leave out x - 1 (list 0: dx 0),
   y - 1 (list 1: dy 0) or both (list 2); returns its length. */
static int32_t list_is_the_filtered_entries(const one_plain *p, const rulenode *rn, uint8_t v, int list)
{
    static int16_t all[MOST_SHIFTS][2], listed[MOST_SHIFTS][2];
    const int32_t n = one_plain_entry_shifts(p, rn, v, -1, all, MOST_SHIFTS);
    const int32_t got = one_plain_entry_shifts(p, rn, v, list, listed, MOST_SHIFTS);
    assert_true(n <= MOST_SHIFTS);
    assert_true(got >= 0);
    int32_t k = 0;
    for (int32_t e = 0; e < n; e++) {
        if ((list != 1 && all[e][0] != 0) || (list != 0 && all[e][1] != 0)) continue;
        assert_true(k < got);
        assert_int_equal(listed[k][0], all[e][0]);
        assert_int_equal(listed[k][1], all[e][1]);
        k++;
    }
    assert_int_equal(k, got);
    return got;
}

static void lists_leave_out_the_neighbours(void **state)
{
    (void)state;
    smalti_model *m = unit_load(room_xml, "room.xml", 30, 30, 1, NULL);
    const node *n = first_one(m);
    const one_plain *p = one_node_plain(n);
    assert_non_null(p);
    const rulenode *rn = (const rulenode *)n;
    int16_t d[MOST_SHIFTS][2];
    for (uint8_t v = 0; v < 4; v++) {
        const int32_t all = one_plain_entry_shifts(p, rn, v, -1, d, MOST_SHIFTS);
        if (all < 16) {
            assert_int_equal(one_plain_entry_shifts(p, rn, v, 0, d, MOST_SHIFTS), -1);
            continue;
        }
        const int32_t left = list_is_the_filtered_entries(p, rn, v, 0), up = list_is_the_filtered_entries(p, rn, v, 1);
        const int32_t both = list_is_the_filtered_entries(p, rn, v, 2);
        /* A 5x5 rule: a fifth or so of the entries leave out a neighbour, a few both. */
        assert_true(left > 0 && left * 3 < all);
        assert_true(up > 0 && up * 3 < all);
        assert_true(both > 0 && both < left && both < up);
    }
    /* Every value is accepted by the wildcard at the corner of each of the rule's images. */
    assert_int_equal(one_plain_entry_shifts(p, rn, 1, 2, d, MOST_SHIFTS), rn->rule_count);
    smalti_model_free(m);
}

/* The same model with 33 values (the plain path takes at most 32, so the generic scan runs). */
static char *with_more_values(const char *xml, const char *values)
{
    const char *at = strstr(xml, values);
    assert_non_null(at);
    const char *extra = "abcdefghijklmnopqrstuvwxyz0123456789";
    const size_t more = 33 - strlen(values);
    char *out = malloc(strlen(xml) + more + 1);
    assert_non_null(out);
    const size_t head = (size_t)(at - xml) + strlen(values);
    memcpy(out, xml, head);
    memcpy(out + head, extra, more);
    strcpy(out + head + more, xml + head);
    return out;
}

/* The model's rule nodes scan every entry: the generic scan without skipping. */
static void test_every_entry(smalti_model *m)
{
    for (int k = 0; k < m->node_count; k++)
        if (m->nodes[k]->kind->is_rule_node) {
            assert_null(strcmp(m->nodes[k]->kind->name, "one") == 0 ? one_node_plain(m->nodes[k]) : NULL);
            ((rulenode *)m->nodes[k])->earlier_any = false;
        }
}

/* Runs of xml and of twin_xml (the same model with 33 values) testing every entry (generic, not
   skipping), seed `seed`: the same grid after every step, and after runs to the end (the fused
   loop). `is_plain`: xml's first `one` node takes the plain path. Returns the steps made. */
static long runs_agree(const char *xml, const char *twin_xml, int mx, int my, int mz, int seed, bool is_plain)
{
    smalti_model *plain = unit_load(xml, "plain.xml", mx, my, mz, NULL), *twin = unit_load(twin_xml, "twin.xml", mx, my, mz, NULL);
    assert_true((one_node_plain(first_one(plain)) != NULL) == is_plain);
    test_every_entry(twin);
    smalti_run *a = smalti_run_new(plain, seed, NULL), *b = smalti_run_new(twin, seed, NULL);
    const size_t cells = (size_t)mx * my * mz;
    long steps = 0;
    int gx, gy, gz;
    while (smalti_run_step(a)) {
        assert_true(smalti_run_step(b));
        assert_memory_equal(smalti_run_grid(a, &gx, &gy, &gz), smalti_run_grid(b, &gx, &gy, &gz), cells);
        steps++;
    }
    assert_false(smalti_run_step(b));
    smalti_run_free(a);
    smalti_run_free(b);
    a = smalti_run_new(plain, seed, NULL);
    b = smalti_run_new(twin, seed, NULL);
    assert_int_equal(smalti_run_to_end(a, 0), steps);
    assert_int_equal(smalti_run_to_end(b, 0), steps);
    assert_memory_equal(smalti_run_grid(a, &gx, &gy, &gz), smalti_run_grid(b, &gx, &gy, &gz), cells);
    smalti_run_free(a);
    smalti_run_free(b);
    smalti_model_free(plain);
    smalti_model_free(twin);
    return steps;
}

/* xml skipping by the plain path's lists and by the generic scan (its 33-value twin) against the
   generic scan testing every entry. */
static long scans_agree(const char *xml, const char *values, int mx, int my, int mz, int seed)
{
    char *twin_xml = with_more_values(xml, values);
    const long steps = runs_agree(xml, twin_xml, mx, my, mz, seed, true);
    assert_int_equal(runs_agree(twin_xml, twin_xml, mx, my, mz, seed, false), steps);
    free(twin_xml);
    return steps;
}

static void skipping_keeps_the_reference_order(void **state)
{
    (void)state;
    /* Rooms that grow from rooms (their changes come a block at a time), on grids where many
       rooms touch the edges, and a wildcard rule two cells wide. */
    for (int seed = 1; seed <= 4; seed++) {
        assert_true(scans_agree(room_xml, "BRAD", 41, 37, 1, seed) > 10);
        assert_true(scans_agree(WITH_REQUIRE("BRACDG", "<union symbol=\"?\" values=\"BR\"/>"
                                                                 "<one in=\"**?**/*BBB*/*BBB?/*BBB*/**R**\" out=\"AARAA/ADDDA/ADDDR/ADDDA/AACAA\"/>"
                                                                 "<one in=\"ACA/BBB\" out=\"ARA/BBB\"/>"),
                                "BRACDG", 33, 45, 1, seed) > 10);
    }
    assert_true(scans_agree(WITH_REQUIRE("BW", "<one in=\"***B/W**B\" out=\"***W/***W\"/>"), "BW", 40, 30, 1, 2) > 100);
    /* In 3-D the cell at y - 1 of a cell at y 0 lies in the plane before. */
    assert_true(scans_agree(WITH_REQUIRE("BW", "<one in=\"W**/***/*** ***/*B*/***\" out=\"***/***/*** ***/*W*/***\"/>"), "BW", 9, 8, 7, 3) >
                100);
    /* BasicPartitioning's walls: a markov of plain nodes (its fused loop, plain_markov_body) whose
       second child skips among its 12 entries a B has, scanning a wall's new cells at once. */
    for (int seed = 1; seed <= 3; seed++)
        assert_true(scans_agree(WITH_REQUIRE("BW", "<all in=\"***/*B*/***\" out=\"***/*W*/***\"/><markov><one in=\"WWW/WBW\" "
                                                   "out=\"WBW/WBW\"/><one in=\"WWW/BBB\" out=\"WBW/BBB\"/></markov>"),
                                "BW", 45, 39, 1, seed) > 100);
    /* `all` nodes (always the generic scan) retracting a maze's dead ends, a step a cell deep. */
    for (int seed = 1; seed <= 3; seed++)
        assert_true(scans_agree(WITH_REQUIRE("BWA", "<one in=\"WBB\" out=\"WAW\"/><all in=\"BBB/BAB\" out=\"BBB/BBB\"/>"
                                                    "<all in=\"BBB/BWB\" out=\"BBB/BBB\"/>"),
                                "BWA", 31, 29, 1, seed) > 20);
}

/* `all` nodes whose every step scans what their last one wrote (skipping by the earlier marks),
   against the scan of every entry in their 33-value twins: a flood around scattered walls, its front a step at a
   time, and NystromDungeon's corridors joining (a markov of an `all` and a `one`). */
static void all_nodes_scan_as_the_generic_scan(void **state)
{
    (void)state;
    for (int seed = 1; seed <= 3; seed++) {
        assert_true(scans_agree(WITH_REQUIRE("BWR", "<one in=\"B\" out=\"R\" steps=\"300\"/><markov><all in=\"WB\" out=\"WW\"/></markov>"),
                                "BWR", 43, 37, 1, seed) > 300 + 20);
        assert_true(scans_agree(WITH_REQUIRE("BWG", "<one in=\"W\" out=\"G\" steps=\"1\"/><one in=\"B\" out=\"W\" steps=\"1000\"/>"
                                                    "<markov><all in=\"GWW\" out=\"**G\"/><one in=\"GBW\" out=\"*WG\"/></markov>"),
                                "BWG", 41, 35, 1, seed) > 1000 + 50);
    }
}

int run_later_scan_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lists_leave_out_the_neighbours),
        cmocka_unit_test(skipping_keeps_the_reference_order),
        cmocka_unit_test(all_nodes_scan_as_the_generic_scan),
    };
    return cmocka_run_group_tests_name("later_scan", tests, NULL, NULL);
}
