/* test_wfc_domains.c — the reference strategy's pattern sets (domains.c) against its support counts: for fewest
   options and scanline without backtracking, every attempt must end the same (result, observations, wave, pattern
   counts), in 2-D and 3-D, periodic or not, with contradictions, zero weights and patterns never banned from a side. */
#include "unit.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../src/wfc/wfc.h"

typedef struct shape {
    int P, mx, my, mz;
    bool periodic;
    int sparsity;    /* a pair of patterns may neighbour when a hash is 0 modulo this: higher, more contradictions */
    bool lonely;     /* pattern 1 is never allowed above anything: its count from below starts at 0 */
    bool zero_weights; /* every third pattern weighs 0: draws can land on banned patterns */
    wfc_heuristic heuristic;
} shape;

static bool may_neighbour(const shape *sh, int d, int a, int b)
{
    if (sh->lonely && d == 1 && b == 1) return false;
    uint32_t h = (uint32_t)(a * 7919 + b * 104729 + d * 1299709);
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    return h % (uint32_t)sh->sparsity == 0;
}

/* dense[d][t1*P + t2]: t2 may sit on t1's side d; a side and its opposite always agree (a symmetric propagator). */
static void make_problem(wfc_problem *pb, const shape *sh, bool counts_only)
{
    int P = sh->P, D = sh->mz > 1 ? 6 : 4;
    memset(pb, 0, sizeof *pb);
    pb->mx = sh->mx;
    pb->my = sh->my;
    pb->mz = sh->mz;
    pb->cells = sh->mx * sh->my * sh->mz;
    pb->P = P;
    pb->N = 1;
    pb->D = D;
    pb->periodic = sh->periodic;
    pb->heuristic = sh->heuristic;
    pb->counts_only = counts_only;
    pb->weights = malloc((size_t)P * sizeof *pb->weights);
    assert_non_null(pb->weights);
    for (int t = 0; t < P; t++) pb->weights[t] = sh->zero_weights && t % 3 == 0 ? 0 : 1 + t % 5;
    bool *dense[6];
    for (int d = 0; d < D; d++) {
        dense[d] = calloc((size_t)P * P, sizeof(bool));
        assert_non_null(dense[d]);
    }
    for (int d = 0; d < D; d++) {
        if (d == 2 || d == 3 || d == 5) continue; /* the opposites of 0, 1 and 4 */
        for (int t1 = 0; t1 < P; t1++)
            for (int t2 = 0; t2 < P; t2++)
                if (may_neighbour(sh, d, t1, t2)) dense[d][t1 * P + t2] = dense[wfc_opposite[d]][t2 * P + t1] = true;
    }
    assert_true(wfc_set_propagator(pb, dense));
    for (int d = 0; d < D; d++) free(dense[d]);
    assert_true(pb->symmetric);
    assert_true(wfc_problem_prepare(pb));
}

/* Clear, ban a scatter of patterns (as a wfc node's rules do), propagate and keep that as the start. */
static bool start_solver(wfc_solver *s, const wfc_problem *pb)
{
    assert_true(wfc_solver_init(s, pb));
    wfc_solver_clear(s, pb);
    for (int i = 0; i < pb->cells; i += 7)
        for (int t = i % 3; t < pb->P; t += 4) wfc_ban(pb, s, i, t);
    bool ok = wfc_propagate(pb, s);
    wfc_solver_save_start(s, pb);
    return ok;
}

typedef struct tally {
    int done, contradicted, compared;
} tally;

static void compare(const shape *sh, int seeds, tally *tl)
{
    wfc_problem sets, counts;
    make_problem(&sets, sh, false);
    make_problem(&counts, sh, true);
    assert_true(wfc_bit_domains(&sets));
    assert_false(wfc_bit_domains(&counts));
    wfc_solver a, b;
    bool ok_a = start_solver(&a, &sets), ok_b = start_solver(&b, &counts);
    assert_non_null(a.wave.bits);
    assert_null(b.wave.bits);
    assert_int_equal(ok_a, ok_b);
    size_t cells = (size_t)sets.cells;
    for (int seed = 1; ok_a && seed <= seeds; seed++) {
        wfc_result ra = wfc_solve(&sets, &a, seed, -1), rb = wfc_solve(&counts, &b, seed, -1);
        assert_int_equal(ra, rb);
        assert_int_equal(a.observations, b.observations);
        if (ra == WFC_DONE) tl->done++;
        else tl->contradicted++;
        /* An attempt that stops at its first emptied cell may stop after different bans; otherwise all must agree. */
        if (ra == WFC_CONTRADICTION && sets.contradiction_spreads) continue;
        tl->compared++;
        assert_memory_equal(a.wave.data, b.wave.data, cells * sets.P);
        assert_memory_equal(a.wave.sums_of_ones, b.wave.sums_of_ones, cells * sizeof *a.wave.sums_of_ones);
    }
    wfc_solver_free(&a);
    wfc_solver_free(&b);
    wfc_problem_free(&sets);
    wfc_problem_free(&counts);
}

static void sets_end_as_counts_2d(void **state)
{
    (void)state;
    tally tl = {0};
    for (int periodic = 0; periodic <= 1; periodic++)
        for (int h = 0; h <= 1; h++) {
            wfc_heuristic heuristic = h ? WFC_SCANLINE : WFC_MRV;
            compare(&(shape){12, 11, 9, 1, periodic, 3, false, false, heuristic}, 30, &tl);
            compare(&(shape){40, 10, 8, 1, periodic, 2, false, true, heuristic}, 30, &tl);
            compare(&(shape){64, 9, 7, 1, periodic, 2, true, false, heuristic}, 20, &tl); /* a whole word */
        }
    assert_true(tl.done >= 10);
    assert_true(tl.contradicted >= 10);
    assert_true(tl.compared >= 20);
}

static void sets_end_as_counts_3d(void **state)
{
    (void)state;
    tally tl = {0};
    for (int periodic = 0; periodic <= 1; periodic++) {
        compare(&(shape){9, 5, 4, 3, periodic, 3, false, false, WFC_MRV}, 30, &tl);
        compare(&(shape){55, 6, 6, 6, periodic, 2, false, false, WFC_MRV}, 30, &tl);
        compare(&(shape){55, 5, 5, 4, periodic, 2, true, true, WFC_MRV}, 30, &tl);
        compare(&(shape){64, 4, 4, 3, periodic, 2, false, false, WFC_SCANLINE}, 10, &tl);
    }
    assert_true(tl.done >= 5);
    assert_true(tl.contradicted >= 5);
    assert_true(tl.compared >= 10);
}

/* Where sets do not apply: Shannon entropy (the order of bans rounds the sums), backtracking, the fast strategy, more
   patterns than a word holds. */
static void sets_only_where_they_end_the_same(void **state)
{
    (void)state;
    shape sh = {12, 6, 6, 1, true, 3, false, false, WFC_MRV};
    wfc_problem pb;
    make_problem(&pb, &sh, false);
    assert_true(wfc_bit_domains(&pb));
    pb.heuristic = WFC_ENTROPY;
    assert_false(wfc_bit_domains(&pb));
    pb.heuristic = WFC_MRV;
    pb.backtrack = 1;
    assert_false(wfc_bit_domains(&pb));
    pb.backtrack = 0;
    pb.fast = true;
    assert_false(wfc_bit_domains(&pb));
    wfc_problem_free(&pb);
    sh.P = WFC_BITS_MAX_PATTERNS + 1;
    make_problem(&pb, &sh, false);
    assert_false(wfc_bit_domains(&pb));
    wfc_problem_free(&pb);
}

int run_wfc_domains_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sets_end_as_counts_2d),
        cmocka_unit_test(sets_end_as_counts_3d),
        cmocka_unit_test(sets_only_where_they_end_the_same),
    };
    return cmocka_run_group_tests_name("wfc pattern sets", tests, NULL, NULL);
}
