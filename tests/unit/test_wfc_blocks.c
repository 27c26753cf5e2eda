/* test_wfc_blocks.c — classic entries solved block by block (blocks="SIDE", src/wfc/blocks.c) on the shared
   WaveFunctionCollapse samples: they finish where whole-wave attempts contradict, every pair of neighbouring
   cells is one the tileset or sample allows, a seed gives the same picture every time, and a stop is heard. */
#include "unit.h"
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../src/wfc/classic.h"

/* The classic samples: SMALTI_WFC_SAMPLES, or ../shared/wfc beside the project; NULL when absent. */
static const char *samples_root(void)
{
    static char path[4096];
    const char *env = getenv("SMALTI_WFC_SAMPLES");
    snprintf(path, sizeof path, "%s/samples.xml", env && *env ? env : "../shared/wfc");
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    fclose(f);
    path[strlen(path) - strlen("/samples.xml")] = 0;
    return path;
}

static wfc_classic *load(const char *root, const char *entry)
{
    xmlDoc *doc = xmlReadMemory(entry, (int)strlen(entry), "samples.xml", NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    smalti_error err = {0};
    diag d = {.file = "samples.xml", .err = &err, .quiet = 1};
    wfc_classic_entry e;
    wfc_classic *m = wfc_classic_read_entry(&d, xmlDocGetRootElement(doc), &e) ? wfc_classic_load(&d, root, &e) : NULL;
    xmlFreeDoc(doc);
    if (!m) fail_msg("%s: %s:%d: %s", entry, err.file, err.line, err.message);
    return m;
}

/* Whether pattern t2 is listed as a neighbour of t1 in direction d (the propagator the loader built from
   the tileset's <neighbor>s or the sample's overlaps: the rules, not the solver). */
static bool allowed(const wfc_problem *pb, int d, int t1, int t2)
{
    for (int32_t k = pb->prop_start[d * pb->P + t1]; k < pb->prop_start[d * pb->P + t1 + 1]; k++)
        if (pb->prop_data[k] == t2) return true;
    return false;
}

/* Every cell of a finished run is decided, and each pair of cells one step apart (round the edges when
   periodic; origins of whole patterns only, when not) is allowed. The neighbours are found here, from
   the coordinates, not from the solver's tables. */
static void assert_every_pair_allowed(const wfc_classic *m, const char *what)
{
    const wfc_problem *pb = &m->pb;
    const int32_t *chosen = m->blocks->chosen;
    int MX = pb->mx, MY = pb->my, W = pb->periodic ? MX : MX - pb->N + 1, H = pb->periodic ? MY : MY - pb->N + 1;
    static const int dx[4] = {1, 0, -1, 0}, dy[4] = {0, 1, 0, -1};
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int t1 = chosen[x + y * MX];
            if (t1 < 0 || t1 >= pb->P) fail_msg("%s: cell (%d, %d) is undecided", what, x, y);
            for (int d = 0; d < 4; d++) {
                int x2 = x + dx[d], y2 = y + dy[d];
                if (pb->periodic) x2 = (x2 + W) % W, y2 = (y2 + H) % H;
                else if (x2 < 0 || y2 < 0 || x2 >= W || y2 >= H) continue;
                int t2 = chosen[x2 + y2 * MX];
                if (!allowed(pb, d, t1, t2)) fail_msg("%s: %d at (%d, %d) may not have %d beside it in direction %d", what, t1, x, y, t2, d);
            }
        }
}

/* An overlapping picture: every N x N window of it (inside it) is one of the sample's patterns. */
static void assert_windows_are_patterns(const wfc_classic *m, const uint32_t *px, int w, int h, const char *what)
{
    int N = m->pb.N, P = m->pb.P;
    for (int y = 0; y + N <= h; y++)
        for (int x = 0; x + N <= w; x++) {
            bool found = false;
            for (int t = 0; t < P && !found; t++) {
                const uint8_t *p = m->patterns + (size_t)t * N * N;
                found = true;
                for (int k = 0; k < N * N && found; k++) found = (m->colours[p[k]] & 0xffffff) == px[x + k % N + (y + k / N) * w];
            }
            if (!found) fail_msg("%s: the window at (%d, %d) is no pattern of the sample", what, x, y);
        }
}

/* Flowers 96x96 contradicts on several of seeds 1-10 when solved whole without backtracking; in
   blocks of 24 every seed finishes, its picture made of the sample's patterns. */
static void overlapping_blocks_finish_where_the_whole_wave_fails(void **state)
{
    (void)state;
    const char *root = samples_root();
    if (!root) skip();
    wfc_classic *whole = load(root, "<overlapping name=\"Flowers\" N=\"3\" symmetry=\"2\" size=\"96\"/>");
    int failed = 0;
    for (int seed = 1; seed <= 10; seed++) failed += wfc_classic_run(whole, seed, -1) == WFC_CONTRADICTION;
    wfc_classic_free(whole);
    assert_true(failed >= 2);
    wfc_classic *m = load(root, "<overlapping name=\"Flowers\" N=\"3\" symmetry=\"2\" size=\"96\" blocks=\"24\"/>");
    for (int seed = 1; seed <= 10; seed++) {
        char what[64];
        snprintf(what, sizeof what, "Flowers 96 blocks 24 seed %d", seed);
        assert_int_equal(wfc_classic_run(m, seed, -1), WFC_DONE);
        assert_every_pair_allowed(m, what);
        int w, h;
        uint32_t *px = wfc_classic_render(m, &w, &h);
        assert_non_null(px);
        assert_windows_are_patterns(m, px, w, h, what);
        free(px);
    }
    wfc_classic_free(m);
}

/* With ground, the last pattern lies on the bottom row only: a whole-wave start would pass that on
   far up the picture; blocks far from the bottom row must see it too, or they all fail. */
static void ground_reaches_every_block(void **state)
{
    (void)state;
    const char *root = samples_root();
    if (!root) skip();
    wfc_classic *m = load(root, "<overlapping name=\"Flowers\" N=\"3\" symmetry=\"2\" ground=\"True\" periodic=\"True\" size=\"64\" blocks=\"16\"/>");
    const wfc_problem *pb = &m->pb;
    for (int seed = 1; seed <= 5; seed++) {
        char what[64];
        snprintf(what, sizeof what, "Flowers ground 64 blocks 16 seed %d", seed);
        assert_int_equal(wfc_classic_run(m, seed, -1), WFC_DONE);
        assert_every_pair_allowed(m, what);
        for (int i = 0; i < pb->cells; i++)
            if ((m->blocks->chosen[i] == pb->P - 1) != (i / pb->mx == pb->my - 1)) fail_msg("%s: ground misplaced at cell %d", what, i);
    }
    wfc_classic_free(m);
}

/* Tiled: Summer 48x48 contradicts on every seed 1-10 without backtracking; in blocks of 16, all
   finish. Circuit periodic 64x64 in blocks of 16: the blocks of the last row and column meet the
   first ones round the edges. */
static void tiled_blocks_finish_and_keep_every_neighbour_rule(void **state)
{
    (void)state;
    const char *root = samples_root();
    if (!root) skip();
    wfc_classic *whole = load(root, "<simpletiled name=\"Summer\" size=\"48\"/>");
    int failed = 0;
    for (int seed = 1; seed <= 10; seed++) failed += wfc_classic_run(whole, seed, -1) == WFC_CONTRADICTION;
    wfc_classic_free(whole);
    assert_true(failed >= 8);
    static const char *const entries[] = {"<simpletiled name=\"Summer\" size=\"48\" blocks=\"16\"/>",
                                          "<simpletiled name=\"Circuit\" subset=\"Turnless\" size=\"64\" periodic=\"True\" blocks=\"16\"/>"};
    for (size_t c = 0; c < sizeof entries / sizeof *entries; c++) {
        wfc_classic *m = load(root, entries[c]);
        for (int seed = 1; seed <= 10; seed++) {
            char what[160];
            snprintf(what, sizeof what, "%s seed %d", entries[c], seed);
            assert_int_equal(wfc_classic_run(m, seed, -1), WFC_DONE);
            assert_every_pair_allowed(m, what);
        }
        wfc_classic_free(m);
    }
}

/* A seed's picture is the same whatever ran before it on the model. */
static void blocks_are_deterministic(void **state)
{
    (void)state;
    const char *root = samples_root();
    if (!root) skip();
    wfc_classic *m = load(root, "<simpletiled name=\"Circuit\" subset=\"Turnless\" size=\"40\" periodic=\"True\" blocks=\"8\"/>");
    int w, h, w2, h2;
    assert_int_equal(wfc_classic_run(m, 7, -1), WFC_DONE);
    uint32_t *first = wfc_classic_render(m, &w, &h);
    assert_int_equal(wfc_classic_run(m, 8, -1), WFC_DONE);
    uint32_t *other = wfc_classic_render(m, &w2, &h2);
    assert_int_equal(wfc_classic_run(m, 7, -1), WFC_DONE);
    uint32_t *again = wfc_classic_render(m, &w2, &h2);
    assert_non_null(first);
    assert_non_null(other);
    assert_non_null(again);
    assert_memory_equal(first, again, (size_t)w * h * sizeof *first);
    assert_memory_not_equal(first, other, (size_t)w * h * sizeof *first);
    free(first);
    free(other);
    free(again);
    wfc_classic_free(m);
}

/* A big output in blocks stops at its work budget (what --timeout and cancelling use too), long
   before its end, and says so; the limit attribute stops it after that many observations. */
static void blocks_hear_a_stop_and_a_limit(void **state)
{
    (void)state;
    const char *root = samples_root();
    if (!root) skip();
    wfc_classic *m = load(root, "<overlapping name=\"Flowers\" N=\"3\" symmetry=\"2\" size=\"1024\" blocks=\"64\"/>");
    run_stop stop = {0};
    stop_rearm(&stop, 0);
    stop.work_budget = 1 << 20;
    m->solver.stop = &stop;
    assert_int_equal(wfc_classic_run(m, 1, -1), WFC_STOPPED);
    assert_true(m->solver.observations < 20000);
    m->solver.stop = NULL;
    assert_int_equal(wfc_classic_run(m, 1, 500), WFC_LIMIT);
    assert_int_equal(m->solver.observations, 500);
    wfc_classic_free(m);
}

/* A side below WFC_BLOCKS_MIN is refused at the entry's line. */
static void small_blocks_are_refused(void **state)
{
    (void)state;
    xmlDoc *doc = xmlReadMemory("<simpletiled name=\"Knots\" blocks=\"3\"/>", 38, "samples.xml", NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    smalti_error err = {0};
    diag d = {.file = "samples.xml", .err = &err, .quiet = 1};
    wfc_classic_entry e;
    assert_false(wfc_classic_read_entry(&d, xmlDocGetRootElement(doc), &e));
    assert_int_equal(err.line, 1);
    assert_non_null(strstr(err.message, "blocks=\"3\" must be 0 (none) or from 4"));
    xmlFreeDoc(doc);
}

int run_wfc_blocks_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(overlapping_blocks_finish_where_the_whole_wave_fails),
        cmocka_unit_test(ground_reaches_every_block),
        cmocka_unit_test(tiled_blocks_finish_and_keep_every_neighbour_rule),
        cmocka_unit_test(blocks_are_deterministic),
        cmocka_unit_test(blocks_hear_a_stop_and_a_limit),
        cmocka_unit_test(small_blocks_are_refused),
    };
    return cmocka_run_group_tests_name("wfc_blocks", tests, NULL, NULL);
}
