/* test_wfc_engine.c — the WFC solver on hand-made problems: the classic command's cell choice and contradiction
   detection, and backtracking out of a trap that no single propagation can see. */
#include "unit.h"
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "../../src/wfc/wfc.h"

/* allowed(d, t1, t2, ctx): t2 may sit on t1's side d (0 +x, 1 +y, 2 -x, 3 -y). */
typedef bool (*allowed_fn)(int d, int t1, int t2, const void *ctx);

/* A 2-D problem of P patterns with the given weights; the caller frees it with wfc_problem_free. */
static void make_problem(wfc_problem *pb, int mx, int my, bool periodic, int P, const double *weights, allowed_fn allowed,
                         const void *ctx)
{
    memset(pb, 0, sizeof *pb);
    pb->mx = mx;
    pb->my = my;
    pb->mz = 1;
    pb->cells = mx * my;
    pb->P = P;
    pb->N = 1;
    pb->D = 4;
    pb->periodic = periodic;
    pb->heuristic = WFC_ENTROPY;
    pb->weights = malloc((size_t)P * sizeof *pb->weights);
    assert_non_null(pb->weights);
    memcpy(pb->weights, weights, (size_t)P * sizeof *weights);
    bool *dense[4];
    for (int d = 0; d < 4; d++) {
        dense[d] = calloc((size_t)P * P, sizeof(bool));
        assert_non_null(dense[d]);
        for (int t1 = 0; t1 < P; t1++)
            for (int t2 = 0; t2 < P; t2++) dense[d][t1 * P + t2] = allowed(d, t1, t2, ctx);
    }
    assert_true(wfc_set_propagator(pb, dense));
    for (int d = 0; d < 4; d++) free(dense[d]);
    assert_true(wfc_problem_prepare(pb));
}

/* Every pattern possible everywhere, that state saved as the start of each attempt. */
static void start_solver(wfc_solver *s, const wfc_problem *pb)
{
    assert_true(wfc_solver_init(s, pb));
    wfc_solver_clear(s, pb);
    assert_true(wfc_propagate(pb, s));
    wfc_solver_save_start(s, pb);
}

static bool anything_goes(int d, int t1, int t2, const void *ctx)
{
    (void)d, (void)t1, (void)t2, (void)ctx;
    return true;
}

static bool nothing_goes(int d, int t1, int t2, const void *ctx)
{
    (void)d, (void)t1, (void)t2, (void)ctx;
    return false;
}

/* Four patterns; along x a pattern may not be followed by the next one (mod 4). */
static bool no_successor_along_x(int d, int t1, int t2, const void *ctx)
{
    (void)ctx;
    if (d == 0) return t2 != (t1 + 1) % 4;
    if (d == 2) return t1 != (t2 + 1) % 4;
    return true;
}

static double entropy_of(const wfc_problem *pb, const wfc_solver *s, int i)
{
    double sum = 0, sum_log = 0;
    for (int t = 0; t < pb->P; t++)
        if (s->wave.data[(size_t)i * pb->P + t]) {
            sum += pb->weights[t];
            sum_log += pb->weights[t] * log(pb->weights[t]);
        }
    return log(sum) - sum_log / sum;
}

/* The classic mode draws uniformly among the cells of least entropy: no cell
   of higher entropy, and no favourite among the tied ones. */
static void fast_choice_draws_among_least_entropy_cells(void **state)
{
    (void)state;
    static const double weights[4] = {1, 1, 1, 1};
    wfc_problem pb;
    make_problem(&pb, 6, 6, true, 4, weights, anything_goes, NULL);
    pb.fast = true;
    wfc_solver s;
    assert_true(wfc_solver_init(&s, &pb));
    wfc_solver_clear(&s, &pb);
    /* Cells 7, 20 and 30 keep 2 patterns, cell 11 keeps 3, the rest 4. */
    static const int tied[3] = {7, 20, 30};
    for (int k = 0; k < 3; k++) {
        wfc_ban(&pb, &s, tied[k], 0);
        wfc_ban(&pb, &s, tied[k], 3);
    }
    wfc_ban(&pb, &s, 11, 1);
    assert_true(wfc_propagate(&pb, &s));
    wfc_solver_save_start(&s, &pb);
    int picks[3] = {0}, newcomer = 0;
    for (int seed = 1; seed <= 300; seed++) {
        wfc_solver_restart(&s, &pb);
        rng random;
        rng_seed(&random, seed);
        int i = wfc_next_cell(&pb, &s, &random);
        int k = 0;
        while (k < 3 && tied[k] != i) k++;
        if (k == 3) fail_msg("seed %d chose cell %d, not one of least entropy", seed, i);
        picks[k]++;
        /* Then cell 33 joins the two left at 2 patterns: it must not be
           favoured over them (noise kept per cell made it win half the time). */
        wfc_observe(&pb, &s, i, &random);
        wfc_ban(&pb, &s, 33, 1);
        wfc_ban(&pb, &s, 33, 2);
        assert_true(wfc_propagate(&pb, &s));
        int j = wfc_next_cell(&pb, &s, &random);
        assert_true(j == 33 || ((j == 7 || j == 20 || j == 30) && j != i));
        newcomer += j == 33;
    }
    for (int k = 0; k < 3; k++)
        if (picks[k] < 70) fail_msg("cell %d chosen %d times of 300; the three tied cells should share them", tied[k], picks[k]);
    if (newcomer < 70 || newcomer > 130) fail_msg("the newly tied cell was chosen %d times of 300, not about 100", newcomer);
    wfc_solver_free(&s);
    wfc_problem_free(&pb);
}

/* Through a whole run with weights and constraints, every chosen cell is an undecided one of least entropy. */
static void fast_choice_follows_least_entropy_through_a_run(void **state)
{
    (void)state;
    static const double weights[4] = {1, 2, 3, 5};
    wfc_problem pb;
    make_problem(&pb, 10, 8, false, 4, weights, no_successor_along_x, NULL);
    pb.fast = true;
    wfc_solver s;
    start_solver(&s, &pb);
    for (int seed = 1; seed <= 5; seed++) {
        wfc_solver_restart(&s, &pb);
        rng random;
        rng_seed(&random, seed);
        int steps = 0;
        for (;;) {
            double least = INFINITY;
            for (int i = 0; i < pb.cells; i++)
                if (s.wave.sums_of_ones[i] > 1 && entropy_of(&pb, &s, i) < least) least = entropy_of(&pb, &s, i);
            int i = wfc_next_cell(&pb, &s, &random);
            if (i < 0) {
                assert_true(isinf(least)); /* nothing undecided was left */
                break;
            }
            assert_true(s.wave.sums_of_ones[i] > 1);
            assert_true(fabs(entropy_of(&pb, &s, i) - least) < 1e-9);
            wfc_observe(&pb, &s, i, &random);
            steps++;
            if (!wfc_propagate(&pb, &s)) break;
        }
        assert_true(steps > 0);
    }
    wfc_solver_free(&s);
    wfc_problem_free(&pb);
}

/* An emptied cell that leaves cell 0 untouched: the reference, looking only at
   cell 0, goes on; the classic mode notices. */
static void fast_mode_notices_a_contradiction_away_from_cell_0(void **state)
{
    (void)state;
    static const double weights[2] = {1, 1};
    for (int fast = 0; fast <= 1; fast++) {
        wfc_problem pb;
        make_problem(&pb, 3, 1, false, 2, weights, nothing_goes, NULL);
        pb.fast = fast;
        wfc_solver s;
        start_solver(&s, &pb);
        wfc_ban(&pb, &s, 2, 0);
        wfc_ban(&pb, &s, 2, 1);
        bool fine = wfc_propagate(&pb, &s);
        assert_int_equal(s.wave.sums_of_ones[2], 0);
        assert_int_equal(s.wave.sums_of_ones[0], 2);
        assert_int_equal(fine, !fast);
        wfc_solver_free(&s);
        wfc_problem_free(&pb);
    }
}

/* A trap: patterns 0 and 1 fill the grid alone (equal neighbours only); the
   heavy patterns 2, 3, 4 may follow each other through the swap (2 3) along
   x and the swap (3 4) along y. Every pair has a partner, so propagation
   keeps them, but the swaps do not commute: no 2x2 block of them exists. */
static int swap_x(int t) { return t == 2 ? 3 : t == 3 ? 2 : t; }
static int swap_y(int t) { return t == 3 ? 4 : t == 4 ? 3 : t; }

static bool trap(int d, int t1, int t2, const void *ctx)
{
    (void)ctx;
    if (t1 < 2 || t2 < 2) return t1 == t2;
    return (d % 2 == 0 ? swap_x(t1) : swap_y(t1)) == t2;
}

static int single_pattern(const wfc_problem *pb, const wfc_solver *s, int i)
{
    assert_int_equal(s->wave.sums_of_ones[i], 1);
    int t = 0;
    while (!s->wave.data[(size_t)i * pb->P + t]) t++;
    return t;
}

static void backtracking_escapes_a_trap(void **state)
{
    (void)state;
    static const double weights[5] = {1, 1, 100, 100, 100};
    for (int fast = 0; fast <= 1; fast++) {
        int failures[2] = {0, 0}, took_back = 0;
        for (int backtrack = 0; backtrack <= 1; backtrack++) {
            wfc_problem pb;
            make_problem(&pb, 5, 4, false, 5, weights, trap, NULL);
            pb.fast = fast;
            pb.backtrack = backtrack ? 3 : 0;
            wfc_solver s;
            start_solver(&s, &pb);
            for (int seed = 1; seed <= 20; seed++) {
                if (wfc_solve(&pb, &s, seed, -1) != WFC_DONE) {
                    failures[backtrack]++;
                    continue;
                }
                took_back += s.backtracks > 0;
                for (int y = 0; y < pb.my; y++)
                    for (int x = 0; x < pb.mx; x++) {
                        int t = single_pattern(&pb, &s, x + y * pb.mx);
                        if (x + 1 < pb.mx) assert_true(trap(0, t, single_pattern(&pb, &s, x + 1 + y * pb.mx), NULL));
                        if (y + 1 < pb.my) assert_true(trap(1, t, single_pattern(&pb, &s, x + (y + 1) * pb.mx), NULL));
                    }
            }
            wfc_solver_free(&s);
            wfc_problem_free(&pb);
        }
        /* Without backtracking only a light first choice (2 in 302) can succeed;
           with it, every run does, nearly always after taking a heavy one back. */
        assert_true(failures[0] >= 18);
        assert_int_equal(failures[1], 0);
        assert_true(took_back >= 18);
    }
}

/* A stop is seen inside one long propagation (every WFC_PROPAGATE_CHECK cells it reaches in the fast
   strategy, bans it takes from the stack in the reference one: not only between observations) and
   after a reset, without charging a work budget; a short propagation is not checked. */
static void a_stop_ends_a_propagation_and_a_reset(void **state)
{
    (void)state;
    static const double weights[4] = {1, 1, 1, 1};
    for (int fast = 0; fast < 2; fast++) {
        wfc_problem pb;
        make_problem(&pb, 100, 100, true, 4, weights, no_successor_along_x, NULL);
        pb.fast = fast;
        wfc_solver s;
        start_solver(&s, &pb);
        run_stop stop = {0};
        stop_rearm(&stop, 0);
        stop.work_budget = INT64_MAX;
        s.stop = &stop;
        for (int cancel = 0; cancel < 2; cancel++) {
            atomic_store(&stop.cancel, 0);
            stop.reason = STOP_NONE;
            assert_true(wfc_solver_restart(&s, &pb));
            atomic_store(&stop.cancel, cancel);
            /* Fewer bans (on as many cells) than a check's worth: propagated whatever the stop says. */
            for (int i = 0; i < WFC_PROPAGATE_CHECK - 2; i++) wfc_ban(&pb, &s, i, 0);
            assert_true(wfc_propagate(&pb, &s));
            /* 10,000 bans: with the run cancelled, the propagation ends early, as at a contradiction. */
            for (int i = WFC_PROPAGATE_CHECK; i < pb.cells; i++) wfc_ban(&pb, &s, i, 0);
            assert_int_equal(wfc_propagate(&pb, &s), !cancel);
            assert_int_equal(s.stopped, cancel);
            assert_int_equal(s.stack_size, 0);
        }
        assert_int_equal(stop.reason, STOP_CANCELLED);
        assert_int_equal(stop.work_done, 0);
        /* A reset and a whole attempt stop too; once the stop is cleared the solver works again. */
        assert_false(wfc_solver_restart(&s, &pb));
        assert_int_equal(wfc_solve(&pb, &s, 1, -1), WFC_STOPPED);
        assert_false(wfc_solver_clear(&s, &pb));
        stop_rearm(&stop, 0);
        assert_int_not_equal(wfc_solve(&pb, &s, 1, -1), WFC_STOPPED);
        wfc_solver_free(&s);
        wfc_problem_free(&pb);
    }
}

int run_wfc_engine_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fast_choice_draws_among_least_entropy_cells),
        cmocka_unit_test(fast_choice_follows_least_entropy_through_a_run),
        cmocka_unit_test(fast_mode_notices_a_contradiction_away_from_cell_0),
        cmocka_unit_test(backtracking_escapes_a_trap),
        cmocka_unit_test(a_stop_ends_a_propagation_and_a_reset),
    };
    return cmocka_run_group_tests_name("wfc engine", tests, NULL, NULL);
}
