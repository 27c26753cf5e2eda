/* test_wfc_sets.c — the fast strategy by pattern sets (sets.c, propagation="sets"): every wave it leaves after a
   propagation is arc consistent and every finished output keeps the adjacency, checked here from the table the
   problem was made of (not by the solver); one to four words a set, 2-D and 3-D, periodic or not, each heuristic;
   the same seed gives the same output; contradictions end an attempt and the next one starts clean; and the
   classic entries' option errors. */
#include "unit.h"
#include <libxml/parser.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../src/wfc/classic.h"

typedef struct shape {
    int P, mx, my, mz;
    bool periodic;
    int sparsity;      /* a pair may neighbour when a hash is 0 modulo this: higher, more contradictions */
    bool one_way;      /* side 0 and its opposite need not agree (a propagator that is not symmetric) */
    wfc_heuristic heuristic;
} shape;

typedef struct table {
    int P, D;
    bool *dense[6];    /* dense[d][a*P + b]: b may sit on a's side d */
} table;

static bool may_neighbour(const shape *sh, int d, int a, int b)
{
    uint32_t h = (uint32_t)(a * 7919 + b * 104729 + d * 1299709 + sh->P * 31);
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    return h % (uint32_t)sh->sparsity == 0;
}

static void make_problem(wfc_problem *pb, table *tb, const shape *sh)
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
    pb->fast = true;
    pb->sets = true;
    pb->weights = malloc((size_t)P * sizeof *pb->weights);
    assert_non_null(pb->weights);
    for (int t = 0; t < P; t++) pb->weights[t] = 1 + t % 7;
    tb->P = P;
    tb->D = D;
    for (int d = 0; d < D; d++) {
        tb->dense[d] = calloc((size_t)P * P, sizeof(bool));
        assert_non_null(tb->dense[d]);
    }
    for (int d = 0; d < D; d++) {
        if (!sh->one_way && (d == 2 || d == 3 || d == 5)) continue; /* the opposites of 0, 1 and 4 */
        for (int a = 0; a < P; a++)
            for (int b = 0; b < P; b++)
                if (may_neighbour(sh, d, a, b)) {
                    tb->dense[d][a * P + b] = true;
                    if (!sh->one_way) tb->dense[wfc_opposite[d]][b * P + a] = true;
                }
    }
    assert_true(wfc_set_propagator(pb, tb->dense));
    assert_true(wfc_problem_prepare(pb));
    assert_true(wfc_set_domains(pb));
}

static void free_problem(wfc_problem *pb, table *tb)
{
    for (int d = 0; d < tb->D; d++) free(tb->dense[d]);
    wfc_problem_free(pb);
}

/* The cell one step from (x, y, z) along d, or -1 past a non-periodic edge (computed here, not read from pb). */
static int step(const wfc_problem *pb, int x, int y, int z, int d)
{
    int x2 = x + wfc_dx[d], y2 = y + wfc_dy[d], z2 = z + wfc_dz[d];
    if (!pb->periodic && (x2 < 0 || y2 < 0 || z2 < 0 || x2 >= pb->mx || y2 >= pb->my || z2 >= pb->mz)) return -1;
    x2 = (x2 + pb->mx) % pb->mx;
    y2 = (y2 + pb->my) % pb->my;
    z2 = (z2 + pb->mz) % pb->mz;
    return x2 + (y2 + z2 * pb->my) * pb->mx;
}

/* Whether b is never allowed on side d of anything: such a pattern is never banned from that side. */
static bool never_allowed(const table *tb, int d, int b)
{
    for (int a = 0; a < tb->P; a++)
        if (tb->dense[d][a * tb->P + b]) return false;
    return true;
}

/* Every possible pattern b at every cell j has, from each neighbour i (j on i's side d), a possible pattern a of i
   that allows it, unless nothing ever allows b there; the bits agree with the flags and the counts of patterns. */
static void assert_arc_consistent(const wfc_problem *pb, const wfc_solver *s, const table *tb)
{
    int P = pb->P, W = (P + 63) / 64;
    for (int i = 0; i < pb->cells; i++) {
        int ones = 0;
        for (int t = 0; t < P; t++) {
            bool bit = s->wave.bits[(size_t)i * W + t / 64] >> (t % 64) & 1;
            assert_int_equal(bit, s->wave.data[(size_t)i * P + t]);
            ones += bit;
        }
        assert_int_equal(ones, s->wave.sums_of_ones[i]);
    }
    for (int z = 0; z < pb->mz; z++)
        for (int y = 0; y < pb->my; y++)
            for (int x = 0; x < pb->mx; x++) {
                int i = x + (y + z * pb->my) * pb->mx;
                for (int d = 0; d < pb->D; d++) {
                    int j = step(pb, x, y, z, d);
                    if (j < 0) continue;
                    for (int b = 0; b < P; b++) {
                        if (!s->wave.data[(size_t)j * P + b] || never_allowed(tb, d, b)) continue;
                        bool held = false;
                        for (int a = 0; a < P && !held; a++) held = s->wave.data[(size_t)i * P + a] && tb->dense[d][a * P + b];
                        if (!held) fail_msg("cell %d pattern %d has no support from cell %d (side %d)", j, b, i, d);
                    }
                }
            }
}

/* A finished output: one pattern a cell, and each pair of neighbours allowed by the table. */
static void assert_valid_output(const wfc_problem *pb, const wfc_solver *s, const table *tb)
{
    for (int i = 0; i < pb->cells; i++) assert_int_equal(s->wave.sums_of_ones[i], 1);
    assert_arc_consistent(pb, s, tb);
}

typedef struct tally {
    int done, contradicted, limited;
} tally;

static void solve_and_check(const shape *sh, int seeds, tally *tl)
{
    wfc_problem pb;
    table tb;
    make_problem(&pb, &tb, sh);
    wfc_solver s;
    assert_true(wfc_solver_init(&s, &pb));
    assert_null(s.wave.compatible);
    assert_null(s.wave.narrow);
    assert_true(wfc_solver_clear(&s, &pb));
    /* A scatter of bans before the start, as the classic command's ground and fixed cells make. */
    for (int i = 0; i < pb.cells; i += 11)
        for (int t = i % 3; t < pb.P; t += 5) wfc_ban(&pb, &s, i, t);
    bool ok = wfc_propagate(&pb, &s);
    if (ok) assert_arc_consistent(&pb, &s, &tb);
    assert_true(wfc_solver_save_start(&s, &pb));
    for (int seed = 1; ok && seed <= seeds; seed++) {
        /* Stopped after a few observations: the wave so far is arc consistent too. */
        if (wfc_solve(&pb, &s, seed, 3) == WFC_LIMIT) {
            tl->limited++;
            assert_arc_consistent(&pb, &s, &tb);
        }
        wfc_result r = wfc_solve(&pb, &s, seed, -1);
        if (r == WFC_DONE) {
            tl->done++;
            assert_valid_output(&pb, &s, &tb);
        } else {
            assert_int_equal(r, WFC_CONTRADICTION);
            tl->contradicted++;
        }
    }
    wfc_solver_free(&s);
    free_problem(&pb, &tb);
}

static void outputs_keep_the_adjacency_2d(void **state)
{
    (void)state;
    tally tl = {0};
    static const int patterns[] = {5, 12, 64, 65, 130, 200, 256};
    for (size_t k = 0; k < sizeof patterns / sizeof *patterns; k++)
        for (int periodic = 0; periodic <= 1; periodic++)
            for (int h = 0; h < 3; h++) {
                int P = patterns[k];
                /* Sparser tables for more patterns keep about the same number of allowed neighbours. */
                int sparsity = P <= 12 ? 2 : 3;
                solve_and_check(&(shape){P, 13, 9, 1, periodic, sparsity, false, (wfc_heuristic)h}, 6, &tl);
            }
    assert_true(tl.done >= 40);
    assert_true(tl.contradicted >= 5);
    assert_true(tl.limited >= 40);
}

static void outputs_keep_the_adjacency_3d_and_one_way(void **state)
{
    (void)state;
    tally tl = {0};
    for (int periodic = 0; periodic <= 1; periodic++) {
        solve_and_check(&(shape){9, 5, 4, 3, periodic, 2, false, WFC_ENTROPY}, 10, &tl);
        solve_and_check(&(shape){100, 5, 5, 4, periodic, 3, false, WFC_ENTROPY}, 10, &tl);
        solve_and_check(&(shape){190, 4, 4, 3, periodic, 3, false, WFC_MRV}, 6, &tl);
        /* Not symmetric: a side and its opposite disagree; the sets still keep every pair allowed from both ends. */
        solve_and_check(&(shape){20, 8, 7, 1, periodic, 3, true, WFC_ENTROPY}, 10, &tl);
        solve_and_check(&(shape){70, 8, 7, 1, periodic, 3, true, WFC_SCANLINE}, 10, &tl);
    }
    assert_true(tl.done >= 20);
    assert_true(tl.limited >= 20);
}

/* The same seed gives the same output, on a fresh solver or after other attempts on the same one. */
static void a_seed_gives_one_output(void **state)
{
    (void)state;
    wfc_problem pb;
    table tb;
    make_problem(&pb, &tb, &(shape){100, 24, 20, 1, true, 10, false, WFC_ENTROPY});
    wfc_solver a, b;
    assert_true(wfc_solver_init(&a, &pb));
    assert_true(wfc_solver_init(&b, &pb));
    assert_true(wfc_solver_clear(&a, &pb) && wfc_solver_save_start(&a, &pb));
    assert_true(wfc_solver_clear(&b, &pb) && wfc_solver_save_start(&b, &pb));
    int differ = 0;
    uint8_t *first = malloc((size_t)pb.cells * pb.P);
    assert_non_null(first);
    for (int seed = 1; seed <= 6; seed++) {
        wfc_result ra = wfc_solve(&pb, &a, seed, -1);
        (void)wfc_solve(&pb, &b, seed + 100, -1); /* b runs another seed first */
        wfc_result rb = wfc_solve(&pb, &b, seed, -1);
        assert_int_equal(ra, rb);
        assert_int_equal(a.observations, b.observations);
        assert_memory_equal(a.wave.data, b.wave.data, (size_t)pb.cells * pb.P);
        if (seed > 1) differ += memcmp(first, a.wave.data, (size_t)pb.cells * pb.P) != 0;
        else memcpy(first, a.wave.data, (size_t)pb.cells * pb.P);
    }
    assert_true(differ >= 4); /* and seeds do make different outputs */
    free(first);
    wfc_solver_free(&a);
    wfc_solver_free(&b);
    free_problem(&pb, &tb);
}

/* Two patterns that must alternate along x on a periodic ring of 3 cells: no output exists. Every attempt ends in a
   contradiction at its first observation, and the next attempt starts from the whole start again. */
static void contradictions_end_an_attempt(void **state)
{
    (void)state;
    wfc_problem pb;
    table tb = {.P = 2, .D = 4};
    memset(&pb, 0, sizeof pb);
    pb.mx = 3;
    pb.my = 4;
    pb.mz = 1;
    pb.cells = 12;
    pb.P = 2;
    pb.N = 1;
    pb.D = 4;
    pb.periodic = true;
    pb.heuristic = WFC_ENTROPY;
    pb.fast = pb.sets = true;
    pb.weights = malloc(2 * sizeof *pb.weights);
    assert_non_null(pb.weights);
    pb.weights[0] = 1;
    pb.weights[1] = 3;
    for (int d = 0; d < 4; d++) {
        tb.dense[d] = calloc(4, sizeof(bool));
        assert_non_null(tb.dense[d]);
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) tb.dense[d][a * 2 + b] = d % 2 == 1 || a != b;
    }
    assert_true(wfc_set_propagator(&pb, tb.dense));
    assert_true(wfc_problem_prepare(&pb));
    wfc_solver s;
    assert_true(wfc_solver_init(&s, &pb));
    assert_string_equal(s.strategy->name, "fast, entropy, pattern sets");
    assert_true(wfc_solver_clear(&s, &pb) && wfc_solver_save_start(&s, &pb));
    for (int seed = 1; seed <= 5; seed++) {
        assert_int_equal(wfc_solve(&pb, &s, seed, -1), WFC_CONTRADICTION);
        assert_int_equal(s.observations, 1);
        assert_int_equal(s.stack_size, 0);
        for (int i = 0; i < pb.cells; i++) assert_false(s.pending[i]);
        /* The next attempt's start is whole again: every cell holds both patterns before it observes. */
        assert_true(wfc_solver_restart(&s, &pb));
        for (int i = 0; i < pb.cells; i++) assert_int_equal(s.wave.sums_of_ones[i], 2);
    }
    wfc_solver_free(&s);
    free_problem(&pb, &tb);
}

/* Counts or sets by the same entry's choice: the strategies, and the sets' smaller memory. */
static void sets_only_when_asked(void **state)
{
    (void)state;
    wfc_problem pb;
    table tb;
    make_problem(&pb, &tb, &(shape){100, 16, 16, 1, false, 10, false, WFC_ENTROPY});
    int64_t with_sets = wfc_memory_estimate(&pb);
    assert_string_equal(wfc_strategy_for(&pb)->name, "fast, entropy, pattern sets");
    pb.heuristic = WFC_MRV;
    assert_string_equal(wfc_strategy_for(&pb)->name, "fast, fewest options, pattern sets");
    pb.heuristic = WFC_SCANLINE;
    assert_string_equal(wfc_strategy_for(&pb)->name, "fast, scanline, pattern sets");
    pb.heuristic = WFC_ENTROPY;
    pb.sets = false;
    assert_false(wfc_set_domains(&pb));
    assert_string_equal(wfc_strategy_for(&pb)->name, "fast, entropy, byte counts");
    assert_true(wfc_memory_estimate(&pb) > with_sets + (int64_t)pb.cells * pb.P * pb.D); /* the counts, at least a byte each */
    pb.sets = true;
    pb.fast = false; /* the `wfc` node's reference strategy never takes sets of this kind */
    assert_false(wfc_set_domains(&pb));
    free_problem(&pb, &tb);
}

/* An entry's error, or NULL when it reads and loads (the model is then freed). */
static char *entry_error(const char *entry)
{
    static smalti_error err;
    xmlDoc *doc = xmlReadMemory(entry, (int)strlen(entry), "samples.xml", NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    memset(&err, 0, sizeof err);
    diag d = {.file = "samples.xml", .err = &err, .quiet = 1};
    wfc_classic_entry e;
    wfc_classic *m = wfc_classic_read_entry(&d, xmlDocGetRootElement(doc), &e) ? wfc_classic_load(&d, "tests/badinput", &e) : NULL;
    xmlFreeDoc(doc);
    if (m) {
        assert_true(e.sets == (strstr(entry, "\"sets\"") != NULL));
        assert_int_equal(m->pb.sets, e.sets);
        wfc_classic_free(m);
        return NULL;
    }
    assert_int_equal(err.line, 1);
    return err.message;
}

static void entry_options_and_their_errors(void **state)
{
    (void)state;
    assert_null(entry_error("<overlapping name=\"Stripes\" N=\"3\" size=\"12\" symmetry=\"1\" propagation=\"sets\"/>"));
    assert_null(entry_error("<overlapping name=\"Stripes\" N=\"3\" size=\"12\" symmetry=\"1\" propagation=\"counts\"/>"));
    char *why = entry_error("<overlapping name=\"Stripes\" N=\"3\" size=\"12\" propagation=\"bits\"/>");
    assert_non_null(why);
    assert_non_null(strstr(why, "propagation=\"bits\": use counts or sets"));
    why = entry_error("<overlapping name=\"Stripes\" N=\"3\" size=\"12\" propagation=\"sets\" backtrack=\"2\"/>");
    assert_non_null(why);
    assert_non_null(strstr(why, "cannot backtrack"));
    why = entry_error("<overlapping name=\"Stripes\" N=\"3\" size=\"64\" propagation=\"sets\" blocks=\"16\"/>");
    assert_non_null(why);
    assert_non_null(strstr(why, "cannot solve in blocks"));
}

int run_wfc_sets_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(outputs_keep_the_adjacency_2d),
        cmocka_unit_test(outputs_keep_the_adjacency_3d_and_one_way),
        cmocka_unit_test(a_seed_gives_one_output),
        cmocka_unit_test(contradictions_end_an_attempt),
        cmocka_unit_test(sets_only_when_asked),
        cmocka_unit_test(entry_options_and_their_errors),
    };
    return cmocka_run_group_tests_name("wfc_sets", tests, NULL, NULL);
}
