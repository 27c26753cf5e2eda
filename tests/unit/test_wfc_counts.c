/* test_wfc_counts.c — the solver's support counts: without backtracking they take a byte each (or stay 16 bits
   when a count starts above WFC_NARROW_MAX) and a ban zeroes them; a run that takes nothing back must end
   exactly as with backtracking's exact counts: the same wave, the same weight sums to the last bit. */
#include "unit.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../src/wfc/wfc.h"

/* Which pattern may stand right of (horizontal) or below (vertical) which: a fixed scramble. */
typedef struct relation {
    int P;
    bool dense; /* all but one successor allowed: counts start at P - 1 */
} relation;

static bool may_follow(const relation *r, bool vertical, int a, int b)
{
    if (r->dense) return vertical || b != (a + 1) % r->P;
    uint32_t h = (uint32_t)(a * 7919 + b * 104729 + (vertical ? 1299709 : 0));
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    return h % 3 != 0;
}

/* A 2-D problem of r->P patterns of weights 1..P; dense[d][t1*P + t2]: t2 may sit on t1's side d (0 +x, 1 +y, 2 -x, 3 -y). */
static void make_problem(wfc_problem *pb, const relation *r, int mx, int my, bool periodic, bool fast, wfc_heuristic h,
                         int backtrack)
{
    int P = r->P;
    memset(pb, 0, sizeof *pb);
    pb->mx = mx;
    pb->my = my;
    pb->mz = 1;
    pb->cells = mx * my;
    pb->P = P;
    pb->N = 1;
    pb->D = 4;
    pb->periodic = periodic;
    pb->heuristic = h;
    pb->fast = fast;
    pb->backtrack = backtrack;
    pb->counts_only = true; /* these tests are about the counts, not the pattern sets that could replace them */
    pb->weights = malloc((size_t)P * sizeof *pb->weights);
    assert_non_null(pb->weights);
    for (int t = 0; t < P; t++) pb->weights[t] = 1 + t % 5;
    bool *dense[4];
    for (int d = 0; d < 4; d++) {
        dense[d] = calloc((size_t)P * P, sizeof(bool));
        assert_non_null(dense[d]);
    }
    for (int t1 = 0; t1 < P; t1++)
        for (int t2 = 0; t2 < P; t2++) {
            dense[0][t1 * P + t2] = may_follow(r, false, t1, t2);
            dense[2][t1 * P + t2] = may_follow(r, false, t2, t1);
            dense[1][t1 * P + t2] = may_follow(r, true, t1, t2);
            dense[3][t1 * P + t2] = may_follow(r, true, t2, t1);
        }
    assert_true(wfc_set_propagator(pb, dense));
    for (int d = 0; d < 4; d++) free(dense[d]);
    assert_true(wfc_problem_prepare(pb));
}

static void start_solver(wfc_solver *s, const wfc_problem *pb)
{
    assert_true(wfc_solver_init(s, pb));
    wfc_solver_clear(s, pb);
    assert_true(wfc_propagate(pb, s));
    wfc_solver_save_start(s, pb);
}

/* Solve seeds 1..seeds without and with backtracking; where neither contradicts (nothing was taken back),
   the two waves must agree byte for byte and the weight sums bit for bit. Returns how many runs were compared. */
static int compare_runs(const relation *r, int mx, int my, bool periodic, bool fast, wfc_heuristic h, bool narrow,
                        int seeds)
{
    wfc_problem plain, exact;
    make_problem(&plain, r, mx, my, periodic, fast, h, 0);
    make_problem(&exact, r, mx, my, periodic, fast, h, 2);
    assert_int_equal(wfc_narrow_counts(&plain), narrow);
    assert_false(wfc_narrow_counts(&exact));
    wfc_solver a, b;
    start_solver(&a, &plain);
    start_solver(&b, &exact);
    assert_int_equal(a.wave.narrow != NULL, narrow);
    assert_null(b.wave.narrow);
    int compared = 0;
    for (int seed = 1; seed <= seeds; seed++) {
        wfc_result ra = wfc_solve(&plain, &a, seed, -1), rb = wfc_solve(&exact, &b, seed, -1);
        if (ra != WFC_DONE || rb != WFC_DONE || b.backtracks > 0 || b.repairs > 0) continue;
        compared++;
        size_t cells = (size_t)plain.cells;
        assert_memory_equal(a.wave.data, b.wave.data, cells * plain.P);
        assert_memory_equal(a.wave.sums_of_ones, b.wave.sums_of_ones, cells * sizeof *a.wave.sums_of_ones);
        if (h == WFC_ENTROPY) {
            assert_memory_equal(a.wave.sums_of_weights, b.wave.sums_of_weights, cells * sizeof(double));
            assert_memory_equal(a.wave.sums_of_weight_log_weights, b.wave.sums_of_weight_log_weights, cells * sizeof(double));
        }
    }
    wfc_solver_free(&a);
    wfc_solver_free(&b);
    wfc_problem_free(&plain);
    wfc_problem_free(&exact);
    return compared;
}

static void byte_counts_end_as_exact_counts(void **state)
{
    (void)state;
    const relation r = {12, false};
    for (int fast = 0; fast <= 1; fast++)
        for (int periodic = 0; periodic <= 1; periodic++)
            for (int h = 0; h < 2; h++) {
                int compared = compare_runs(&r, 13, 9, periodic, fast, h ? WFC_MRV : WFC_ENTROPY, true, 40);
                assert_true(compared >= 3);
            }
}

/* A count that starts at 299 is above WFC_NARROW_MAX: 16-bit counts, zeroed by bans, looked up in the wave. */
static void wide_counts_without_backtracking_end_as_exact_counts(void **state)
{
    (void)state;
    const relation r = {300, true};
    assert_true(r.P - 1 > WFC_NARROW_MAX);
    for (int fast = 0; fast <= 1; fast++) {
        int compared = compare_runs(&r, 7, 6, false, fast, WFC_ENTROPY, false, 6);
        assert_true(compared >= 3);
    }
}

int run_wfc_counts_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(byte_counts_end_as_exact_counts),
        cmocka_unit_test(wide_counts_without_backtracking_end_as_exact_counts),
    };
    return cmocka_run_group_tests_name("wfc counts", tests, NULL, NULL);
}
