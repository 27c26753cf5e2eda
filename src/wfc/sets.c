/* sets.c — the fast strategy by pattern sets (propagation="sets"): each cell's patterns as W = ceil(P/64) words of
   bits and no support counts; a changed cell passes each neighbour the union of what its patterns allow there. */
#include "wfc.h"
#include "../core/mem.h"

/* What this computes: with the counts, a pattern t2 goes from cell j when its support from side d, the number of
   patterns of the neighbour there that list t2, reaches 0. Here t2 goes when no pattern left at that neighbour
   allows it: the same arc consistency (exactly so for a symmetric propagator), reached by whole cells instead of
   ban by ban. The cells are visited in another order, so the weight sums that key the entropy queue are summed in
   another order and round differently: ties in the queue, and so the draws, differ from the counts' for the same
   seed. Every output is still a valid one: each cell's pattern is allowed by each neighbour's. */

/* Patterns per table lookup. Measured by instruction counts (callgrind, 3 seeds at 128²), the union over the chunks
   of what each allows: bytes 615 M on Flowers and 752 M on Knot, nibbles 786 M and 921 M (twice the lookups; the
   byte table, 13 * 256 rows of 64 bytes for Flowers, stays in the second-level cache). Looking only at what the
   lost patterns allowed, each candidate against its supporters, cost more: 626-971 M on Flowers. Passing changed
   cells on first in, first out instead of last in, first out took Flowers from 1236 M to 748 M (nibbles); ORing
   two words at a time with no branch on empty chunks, to 448 M (Knot 553 M; the counts: 1065 M and 1023 M). */
#define CHUNK 8 /* a byte of the set: union_allowed reads it so */

bool wfc_set_domains(const wfc_problem *pb)
{
    return pb->sets && pb->fast && pb->backtrack == 0 && pb->P <= WFC_SETS_MAX_PATTERNS;
}

int wfc_set_words(const wfc_problem *pb)
{
    if (wfc_bit_domains(pb)) return 1;
    return wfc_set_domains(pb) ? (pb->P + 63) / 64 : 0;
}

int64_t wfc_sets_table_bytes(const wfc_problem *pb)
{
    if (!wfc_set_domains(pb)) return 0;
    const int64_t chunks = (pb->P + CHUNK - 1) / CHUNK;
    return chunks * (1 << CHUNK) * pb->D * wfc_set_words(pb) * (int64_t)sizeof(uint64_t);
}

bool wfc_sets_init(wfc_solver *s, const wfc_problem *pb)
{
    const int P = pb->P, D = pb->D, W = wfc_set_words(pb), chunks = (P + CHUNK - 1) / CHUNK;
    s->set_chunks = mem_calloc((size_t)chunks * (1 << CHUNK) * D * W, sizeof *s->set_chunks);
    s->set_free = mem_calloc((size_t)D * W, sizeof *s->set_free);
    s->pending = mem_calloc((size_t)pb->cells, 1);
    if (!s->set_chunks || !s->set_free || !s->pending) return false;
    for (int d = 0; d < D; d++) {
        uint64_t *any = s->set_free + (size_t)d * W; /* first what something allows, then its complement */
        for (int t = 0; t < P; t++)
            for (int32_t k = pb->prop_start[d * P + t]; k < pb->prop_start[d * P + t + 1]; k++) {
                int t2 = pb->prop_data[k];
                any[t2 / 64] |= 1ull << (t2 % 64);
                /* Pattern t adds t2 to every value of its group of 4 that holds it. */
                for (int v = 0; v < 1 << CHUNK; v++)
                    if (v >> (t % CHUNK) & 1) s->set_chunks[(((size_t)t / CHUNK * (1 << CHUNK) + v) * D + d) * W + t2 / 64] |= 1ull << (t2 % 64);
            }
        for (int w = 0; w < W; w++) any[w] = ~any[w];
    }
    return true;
}

void wfc_sets_free(wfc_solver *s)
{
    mem_free(s->set_chunks);
    mem_free(s->set_free);
}

/* The bookkeeping of cell i after it lost `lost` patterns: a contradiction when it is empty (the fast strategy
   notices one at any cell), the dirty list for the queue with its work-budget check (as ban_with's: once per
   WFC_PROPAGATE_CHECK cells reached), and the stack of cells to pass their change on. */
static inline __attribute__((always_inline)) void cell_changed(const wfc_problem *pb, wfc_solver *s, int i, int lost)
{
    s->wave.sums_of_ones[i] -= lost;
    if (s->wave.sums_of_ones[i] <= 0) {
        if (!s->contradiction) s->conflict_cell = i;
        s->contradiction = true;
    }
    if (!s->is_dirty[i]) {
        s->is_dirty[i] = 1;
        s->dirty[s->dirty_size++] = i;
        if ((s->dirty_size & (WFC_PROPAGATE_CHECK - 1)) == 0 && stop_tick(s->stop, (int64_t)WFC_PROPAGATE_CHECK * pb->P))
            s->stopped = s->contradiction = true;
    }
    if (!s->pending[i]) {
        s->pending[i] = 1;
        int64_t at = s->set_head + s->stack_size++;
        s->stack[at < pb->cells ? at : at - pb->cells] = i;
    }
}

/* Take the patterns `removed` (W words) from cell j: its bits, its flags and, in ascending pattern order, its
   weight sums (entropy only). */
static inline __attribute__((always_inline)) void remove_patterns(const wfc_problem *pb, wfc_solver *s, int j, const uint64_t *removed,
                                                                  const int W, const bool sums)
{
    wfc_wave *wv = &s->wave;
    uint64_t *bits = wv->bits + (size_t)j * W;
    uint8_t *data = wv->data + (size_t)j * pb->P;
    const double *weights = sums ? wfc_weights_at(pb, j) : NULL, *wlw = sums ? wfc_weight_log_weights_at(pb, j) : NULL;
    double sw = sums ? wv->sums_of_weights[j] : 0, swlw = sums ? wv->sums_of_weight_log_weights[j] : 0;
    int lost = 0;
    for (int w = 0; w < W; w++) {
        bits[w] &= ~removed[w];
        for (uint64_t m = removed[w]; m; m &= m - 1, lost++) {
            int t = w * 64 + __builtin_ctzll(m);
            data[t] = 0;
            if (sums) {
                sw -= weights[t];
                swlw -= wlw[t];
            }
        }
    }
    if (sums) {
        wv->sums_of_weights[j] = sw;
        wv->sums_of_weight_log_weights[j] = swlw;
    }
    cell_changed(pb, s, j, lost);
}

/* The union over the patterns of `set` (W words) of what each allows on every side, into u[d*W ..]: one table
   row of D*W words per group of CHUNK patterns (`chunks` groups). */
static inline __attribute__((always_inline)) void union_allowed(const wfc_solver *s, const uint64_t *set, uint64_t *u, const int W,
                                                                const int D, int chunks)
{
    /* Two words at a time (D*W is even): gcc at -O2 does not pair them itself. */
    typedef uint64_t pair __attribute__((vector_size(16), aligned(8)));
    pair acc[6 * 4 / 2];
#pragma GCC unroll 12
    for (int k = 0; k < D * W / 2; k++) acc[k] = (pair){0, 0};
    /* Every chunk, empty or not: no branch to mispredict (an empty chunk's row is all 0). Chunk c is byte c of the
       set in memory (on a little-endian machine; measured: 4 % fewer instructions than shifting each word). */
    for (int c = 0; c < chunks; c++) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        unsigned v = ((const uint8_t *)set)[c];
#else
        unsigned v = set[c / 8] >> c % 8 * 8 & 255;
#endif
        const pair *row = (const pair *)(s->set_chunks + ((size_t)c << CHUNK | v) * D * W);
#pragma GCC unroll 12
        for (int k = 0; k < D * W / 2; k++) acc[k] |= row[k];
    }
#pragma GCC unroll 12
    for (int k = 0; k < D * W / 2; k++) {
        u[2 * k] = acc[k][0];
        u[2 * k + 1] = acc[k][1];
    }
}

/* Pass cell i's change on: each neighbour keeps the patterns that one of i's allows there and those never banned
   from that side. W, D and sums are constants in the compiled copies. */
static inline __attribute__((always_inline)) void pass_on(const wfc_problem *pb, wfc_solver *s, int i, const int W, const int D,
                                                          const bool sums)
{
    uint64_t u[6 * 4];
    union_allowed(s, s->wave.bits + (size_t)i * W, u, W, D, (pb->P + 7) / 8);
    const int32_t *next = pb->neighbours + (size_t)i * D;
    for (int d = 0; d < D; d++) {
        int j = next[d];
        if (j < 0) continue;
        const uint64_t *bits = s->wave.bits + (size_t)j * W, *never = s->set_free + (size_t)d * W;
        uint64_t removed[4], any = 0;
        for (int w = 0; w < W; w++) any |= removed[w] = bits[w] & ~(u[d * W + w] | never[w]);
        if (any) remove_patterns(pb, s, j, removed, W, sums);
    }
}

static inline __attribute__((always_inline)) bool propagate_with(const wfc_problem *pb, wfc_solver *s, const int W, const int D,
                                                                 const bool sums)
{
    while (s->stack_size > 0) {
        if (s->contradiction) {
            /* The attempt ends here: forget the queued cells. */
            for (int64_t k = 0; k < s->stack_size; k++) {
                int32_t i = s->stack[(s->set_head + k) % pb->cells];
                s->pending[i] = 0;
            }
            s->stack_size = s->set_head = 0;
            return false;
        }
        int i = s->stack[s->set_head];
        s->set_head = s->set_head + 1 < pb->cells ? s->set_head + 1 : 0;
        s->stack_size--;
        s->pending[i] = 0;
        pass_on(pb, s, i, W, D, sums);
    }
    return !s->contradiction;
}

/* One copy per words a set, directions and weight sums. */
#define COPIES(W)                                                                                                      \
    static bool propagate_##W(const wfc_problem *pb, wfc_solver *s, bool sums)                                         \
    {                                                                                                                  \
        if (pb->D == 6) return sums ? propagate_with(pb, s, W, 6, true) : propagate_with(pb, s, W, 6, false);          \
        return sums ? propagate_with(pb, s, W, 4, true) : propagate_with(pb, s, W, 4, false);                          \
    }
COPIES(1)
COPIES(2)
COPIES(3)
COPIES(4)

static bool sets_propagate(const wfc_problem *pb, wfc_solver *s)
{
    bool sums = pb->heuristic == WFC_ENTROPY;
    switch (wfc_set_words(pb)) {
    case 1: return propagate_1(pb, s, sums);
    case 2: return propagate_2(pb, s, sums);
    case 3: return propagate_3(pb, s, sums);
    default: return propagate_4(pb, s, sums);
    }
}

/* A ban of a pattern still possible (a second ban of one changes nothing). */
static void sets_ban(const wfc_problem *pb, wfc_solver *s, int i, int t)
{
    uint64_t removed[4] = {0};
    if (!(s->wave.bits[(size_t)i * wfc_set_words(pb) + t / 64] >> (t % 64) & 1)) return;
    removed[t / 64] = 1ull << (t % 64);
    if (pb->heuristic == WFC_ENTROPY) remove_patterns(pb, s, i, removed, wfc_set_words(pb), true);
    else remove_patterns(pb, s, i, removed, wfc_set_words(pb), false);
}

/* Never called: the strategy is not used with backtracking. */
static void sets_unban(const wfc_problem *pb, wfc_solver *s, int i, int t)
{
    s->wave.bits[(size_t)i * wfc_set_words(pb) + t / 64] |= 1ull << (t % 64);
    s->wave.data[(size_t)i * pb->P + t] = 1;
    s->wave.sums_of_ones[i] += 1;
}

/* Only `chosen` stays; a draw that landed on a banned pattern (zero weights) empties the cell. The weight sums are
   then the chosen pattern's (read by no queue: a decided cell leaves it). */
static void sets_collapse(const wfc_problem *pb, wfc_solver *s, int i, int chosen)
{
    const int W = wfc_set_words(pb);
    uint64_t removed[4] = {0};
    for (int w = 0; w < W; w++) removed[w] = s->wave.bits[(size_t)i * W + w];
    removed[chosen / 64] &= ~(1ull << (chosen % 64));
    remove_patterns(pb, s, i, removed, W, false);
    if (pb->heuristic == WFC_ENTROPY && s->wave.sums_of_ones[i] == 1) {
        s->wave.sums_of_weights[i] = wfc_weights_at(pb, i)[chosen];
        s->wave.sums_of_weight_log_weights[i] = wfc_weight_log_weights_at(pb, i)[chosen];
    }
}

const wfc_strategy wfc_sets_strategies[3] = {
    {"fast, entropy, pattern sets", sets_ban, sets_unban, sets_propagate, sets_collapse, wfc_next_cell_queued},
    {"fast, fewest options, pattern sets", sets_ban, sets_unban, sets_propagate, sets_collapse, wfc_next_cell_queued},
    {"fast, scanline, pattern sets", sets_ban, sets_unban, sets_propagate, sets_collapse, wfc_next_cell_scanned},
};
