/* test_path_cost.c — `path` with `costs`: on random grids the painted path costs what a plain
   brute-force search says is cheapest, equal costs reproduce the plain path's draws, bad lists fail. */
#include "unit.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smalti.h"
#include "../../src/engine/run.h"

/* The grids' symbols: three grounds the path may cross, water it may not, starts, targets, paint. */
#define LEGEND "GSFXRWP"
#define MAX_CELLS 64
#define UNREACHED (-1L)

typedef struct lcg { uint64_t s; } lcg;

static int draw(lcg *g, int n)
{
    g->s = g->s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int)((g->s >> 33) % (uint64_t)n);
}

typedef struct world {
    int mx, my, mz;
    bool edges, vertices, longest, inertia;
    int cost[3];             /* of G, S and F */
    char cells[MAX_CELLS + 1];
} world;

static int world_cells(const world *w) { return w->mx * w->my * w->mz; }

static bool is_ground(char c) { return c == 'G' || c == 'S' || c == 'F'; }

static long ground_cost(const world *w, char c) { return w->cost[strchr(LEGEND, c) - LEGEND]; }

/* The neighbours of cell i under the world's neighbourhood, written plainly: every offset in the
   3x3x3 block with one nonzero axis, two with edges, three with vertices. */
static int neighbours(const world *w, int i, int *out)
{
    int x = i % w->mx, y = i / w->mx % w->my, z = i / (w->mx * w->my), count = 0;
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int axes = (dx != 0) + (dy != 0) + (dz != 0);
                if (!(axes == 1 || (axes == 2 && w->edges) || (axes == 3 && w->vertices))) continue;
                int nx = x + dx, ny = y + dy, nz = z + dz;
                if (nx < 0 || ny < 0 || nz < 0 || nx >= w->mx || ny >= w->my || nz >= w->mz) continue;
                out[count++] = nx + ny * w->mx + nz * w->mx * w->my;
            }
    return count;
}

/* Bellman-Ford: best[i] = the least sum of ground costs of the cells strictly between i and a
   target, over routes through ground only. */
static void brute_force(const world *w, long *best)
{
    int n = world_cells(w), around[26];
    for (int i = 0; i < n; i++) best[i] = w->cells[i] == 'W' ? 0 : UNREACHED;
    for (bool changed = true; changed;) {
        changed = false;
        for (int j = 0; j < n; j++) {
            if (w->cells[j] == 'W' || !(is_ground(w->cells[j]) || w->cells[j] == 'R')) continue;
            for (int k = 0, count = neighbours(w, j, around); k < count; k++) {
                int i = around[k];
                char c = w->cells[i];
                if (best[i] == UNREACHED || !(c == 'W' || is_ground(c))) continue;
                long through = best[i] + (c == 'W' ? 0 : ground_cost(w, c));
                if (best[j] == UNREACHED || through < best[j]) best[j] = through, changed = true;
            }
        }
    }
}

static void random_world(lcg *g, world *w, int max_side, bool three_d)
{
    w->mx = 2 + draw(g, max_side - 1);
    w->my = 1 + draw(g, max_side);
    w->mz = three_d ? 2 + draw(g, max_side - 1) : 1;
    w->edges = draw(g, 3) == 0;
    w->vertices = three_d && draw(g, 3) == 0;
    w->longest = draw(g, 4) == 0;
    w->inertia = draw(g, 3) == 0;
    for (int v = 0; v < 3; v++) w->cost[v] = draw(g, 5) ? 1 + draw(g, 9) : 1 + draw(g, 1000);
    int n = world_cells(w);
    assert_true(n <= MAX_CELLS);
    for (int i = 0; i < n; i++) w->cells[i] = "GGGSSFFXXR"[draw(g, 10)];
    for (int k = 1 + draw(g, 2); k > 0; k--) w->cells[draw(g, n)] = 'W';
    w->cells[n] = 0;
}

/* The world's path run one step with seed `seed`; `costs` NULL for none. The final grid in out. */
static void run_world(const world *w, const char *costs, int32_t seed, char *out)
{
    char xml[512], cost_attr[64] = "";
    if (costs) snprintf(cost_attr, sizeof cost_attr, " costs=\"%s\"", costs);
    snprintf(xml, sizeof xml,
             "<path values=\"" LEGEND "\" from=\"R\" to=\"W\" on=\"GSF\" color=\"P\" edges=\"%s\" vertices=\"%s\" "
             "longest=\"%s\" inertia=\"%s\"%s/>",
             w->edges ? "True" : "False", w->vertices ? "True" : "False", w->longest ? "True" : "False",
             w->inertia ? "True" : "False", cost_attr);
    smalti_model *m = unit_load(xml, "cost.xml", w->mx, w->my, w->mz, NULL);
    smalti_run *run = smalti_run_new(m, seed, NULL);
    assert_non_null(run);
    unit_lay_picture(run, w->cells);
    smalti_run_step(run);
    assert_false(smalti_run_error(run, NULL));
    const unsigned char *g = smalti_run_grid(run, NULL, NULL, NULL);
    for (int i = 0; i < world_cells(w); i++) out[i] = LEGEND[g[i]];
    out[world_cells(w)] = 0;
    smalti_run_free(run);
    smalti_model_free(m);
}

/* The cost smalti should pay: the least (with longest, the greatest) over reached starts. */
static long expected_cost(const world *w, const long *best)
{
    long want = UNREACHED;
    for (int i = 0; i < world_cells(w); i++) {
        if (w->cells[i] != 'R' || best[i] == UNREACHED) continue;
        if (want == UNREACHED || (w->longest ? best[i] > want : best[i] < want)) want = best[i];
    }
    return want;
}

static bool touches(const world *w, const bool *in, int i)
{
    int around[26];
    for (int k = 0, count = neighbours(w, i, around); k < count; k++)
        if (in[around[k]]) return true;
    return false;
}

/* The painted cells: ground turned P, in one piece, with a start whose cheapest cost is `want`
   touching one end and a target the other (a start touching a target when none is painted). */
static void assert_path_costs(const world *w, const char *got, const long *best, long want)
{
    int n = world_cells(w);
    bool painted[MAX_CELLS] = {0}, reached[MAX_CELLS] = {0};
    long paid = 0;
    int count = 0, first = -1;
    for (int i = 0; i < n; i++) {
        if (got[i] == w->cells[i]) continue;
        assert_int_equal(got[i], 'P');
        assert_true(is_ground(w->cells[i]));
        painted[i] = true;
        paid += ground_cost(w, w->cells[i]);
        count++;
        first = i;
    }
    assert_int_equal(paid, want);
    if (count > 0) {
        /* Flood the painted cells from one of them: all must be reached. */
        int stack[MAX_CELLS], top = 0, around[26], seen = 1;
        reached[first] = true;
        stack[top++] = first;
        while (top > 0)
            for (int k = 0, i = stack[--top], m = neighbours(w, i, around); k < m; k++)
                if (painted[around[k]] && !reached[around[k]]) reached[around[k]] = true, stack[top++] = around[k], seen++;
        assert_int_equal(seen, count);
    }
    bool target[MAX_CELLS] = {0};
    for (int i = 0; i < n; i++) target[i] = w->cells[i] == 'W';
    const bool *end = count > 0 ? painted : target;
    bool start_ok = false, target_ok = count == 0;
    for (int i = 0; i < n; i++) {
        if (w->cells[i] == 'R' && best[i] == want && touches(w, end, i)) start_ok = true;
        if (count > 0 && target[i] && touches(w, painted, i)) target_ok = true;
    }
    assert_true(start_ok);
    assert_true(target_ok);
}

static void check_random_worlds(int worlds, int max_side, bool three_d, uint64_t seed)
{
    lcg g = {seed};
    int drawn = 0;
    for (int k = 0; k < worlds; k++) {
        world w;
        random_world(&g, &w, max_side, three_d);
        char costs[64], got[MAX_CELLS + 1];
        snprintf(costs, sizeof costs, "G%d S%d F%d", w.cost[0], w.cost[1], w.cost[2]);
        run_world(&w, costs, 1 + k, got);
        long best[MAX_CELLS];
        brute_force(&w, best);
        long want = expected_cost(&w, best);
        if (want == UNREACHED) {
            assert_string_equal(got, w.cells); /* the node fails and paints nothing */
            continue;
        }
        assert_path_costs(&w, got, best, want);
        drawn += want > 0;
    }
    assert_true(drawn > worlds / 3); /* the worlds are not mostly trivial */
}

static void two_d_paths_cost_the_least(void **state)
{
    (void)state;
    check_random_worlds(200, 7, false, 35);
}

static void three_d_paths_cost_the_least(void **state)
{
    (void)state;
    check_random_worlds(80, 4, true, 3535);
}

/* Equal costs give the grid of a path without costs, draw for draw: one start, so no start is
   ever crossed (the one case where the two differ). */
static void equal_costs_draw_as_the_plain_path(void **state)
{
    (void)state;
    lcg g = {77};
    int differ_from_start = 0;
    for (int k = 0; k < 100; k++) {
        world w;
        random_world(&g, &w, k % 4 == 0 ? 4 : 7, k % 4 == 0);
        int n = world_cells(&w);
        for (int i = 0; i < n; i++)
            if (w.cells[i] == 'R') w.cells[i] = 'G';
        w.cells[draw(&g, n)] = 'R';
        char plain[MAX_CELLS + 1], costed[MAX_CELLS + 1];
        run_world(&w, NULL, 9 + k, plain);
        run_world(&w, "G1 S1 F1", 9 + k, costed);
        assert_string_equal(plain, costed);
        differ_from_start += strcmp(plain, w.cells) != 0;
    }
    assert_true(differ_from_start > 30);
}

/* A road avoids the forest row when it costs more than the long way round. */
static void costs_steer_the_road(void **state)
{
    (void)state;
    const char *picture = "RFFFW"
                          "GGGGG";
    static const struct { const char *costs, *expected; } cases[] = {
        {NULL, "RPPPW" "GGGGG"},       /* shortest: 3 cells */
        {"F1", "RPPPW" "GGGGG"},       /* 3 < 5 */
        {"F2 G1", "RFFFW" "PPPPP"},    /* 6 > 5 */
        {"G1 F10", "RFFFW" "PPPPP"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        world w = {.mx = 5, .my = 2, .mz = 1, .cost = {1, 1, 1}};
        strcpy(w.cells, picture);
        char got[MAX_CELLS + 1];
        run_world(&w, cases[k].costs, 1, got);
        assert_string_equal(got, cases[k].expected);
    }
}

/* Each bad list is an error on the path's line that names the fault. */
static void bad_costs_are_load_errors(void **state)
{
    (void)state;
    static const struct { const char *costs, *says; } cases[] = {
        {"Q1", "Q is not a value of the grid"},
        {"?2", "? is a union"},
        {"X5", "X is not an \"on\" value"},
        {"R5", "R is not an \"on\" value"},
        {"G0", "G needs a whole cost from 1 to 1000"},
        {"G-3", "G needs a whole cost"},
        {"G1001", "G needs a whole cost"},
        {"G99999999999999999999", "G needs a whole cost"},
        {"G", "G needs a whole cost"},
        {"G2x", "G needs a whole cost"},
        {"G 2", "G needs a whole cost"},
        {"G1 S2 G3", "G is given twice"},
        {"  ", "names no value"},
    };
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = opt.my = 8;
    opt.mz = 1;
    opt.quiet = 1;
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char xml[256];
        snprintf(xml, sizeof xml,
                 "<sequence values=\"" LEGEND "\">\n  <union symbol=\"?\" values=\"GS\"/>\n"
                 "  <path from=\"R\" to=\"W\" on=\"GSF\" costs=\"%s\"/>\n</sequence>",
                 cases[k].costs);
        smalti_error err;
        smalti_model *m = smalti_model_load_string(xml, "bad.xml", &opt, &err);
        assert_null(m);
        assert_int_equal(err.status, SMALTI_ERR_MODEL);
        assert_int_equal(err.line, 3);
        if (!strstr(err.message, cases[k].says)) fail_msg("costs=\"%s\": %s", cases[k].costs, err.message);
    }
}

int run_path_cost_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_d_paths_cost_the_least),
        cmocka_unit_test(three_d_paths_cost_the_least),
        cmocka_unit_test(equal_costs_draw_as_the_plain_path),
        cmocka_unit_test(costs_steer_the_road),
        cmocka_unit_test(bad_costs_are_load_errors),
    };
    return cmocka_run_group_tests_name("path_cost", tests, NULL, NULL);
}
