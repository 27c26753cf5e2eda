/* domains.c — the reference strategy by possible-pattern sets: each cell's patterns as bits, a changed cell
   passing its neighbours the union of what its patterns allow, instead of support counts lowered ban by ban;
   for the fewest-options and scanline heuristics without backtracking and at most 64 patterns, where it reaches the
   same wave. */
#include "wfc.h"
#include "../core/mem.h"

/* Why the outcome is the count strategy's: with a symmetric propagator a
   support count of t2 at cell j from side d is the number of patterns still
   possible at the neighbour there that allow t2 (it starts at all that list
   it), and a ban happens when it empties. So a pattern goes exactly when no
   pattern of that neighbour allows it any more (unless nothing ever did: a
   count that starts at 0 never bans, see bannable). That rule has one
   largest stable wave below any start, whatever the order of the bans, and
   without weight sums (fewest options, scanline) nothing else depends on the
   order: the next cell reads the cells' numbers of patterns, the draw the
   wave. A draw that lands on a banned pattern (a zero-weight case) bans it a
   second time; the counts then lower the neighbours once more, but that cell
   is emptied anyway, and an empty cell takes every support it gave.
   Measured on the corpus: with one word a changed cell costs 16 table
   lookups at most, against a propagator list per ban (Escher's hold 75
   entries): PeriodicEscher takes a quarter of the instructions, and every
   tile model of the corpus fewer. With two or three words (WaveDungeon,
   Sewers, sparse overlap propagators of 3 to 12 entries) the counts win. */
bool wfc_bit_domains(const wfc_problem *pb)
{
    return !pb->fast && pb->backtrack == 0 && pb->heuristic != WFC_ENTROPY && pb->symmetric && !pb->counts_only &&
           pb->P <= WFC_BITS_MAX_PATTERNS;
}

bool wfc_bits_init(wfc_solver *s, const wfc_problem *pb)
{
    int P = pb->P, D = pb->D;
    s->bit_free = mem_calloc((size_t)D, sizeof *s->bit_free);
    s->bit_nibbles = mem_calloc((size_t)16 * 16 * D, sizeof *s->bit_nibbles);
    s->pending = mem_calloc((size_t)pb->cells, 1);
    if (!s->bit_free || !s->bit_nibbles || !s->pending) return false;
    for (int d = 0; d < D; d++)
        for (int t = 0; t < P; t++) {
            /* Pattern t adds what it allows on side d to every value of its group of 4 that holds it. */
            for (int v = 0; v < 16; v++)
                if (v >> (t % 4) & 1)
                    for (int32_t k = pb->prop_start[d * P + t]; k < pb->prop_start[d * P + t + 1]; k++)
                        s->bit_nibbles[(t / 4 * 16 + v) * D + d] |= 1ull << pb->prop_data[k];
            /* A pattern no neighbour on side d ever allows is never banned from there (its count starts at 0). */
            if (pb->initial_compatible[d * P + t] == 0) s->bit_free[d] |= 1ull << t;
        }
    return true;
}

void wfc_bits_free(wfc_solver *s)
{
    mem_free(s->bit_free);
    mem_free(s->bit_nibbles);
    mem_free(s->pending);
}

/* Cell i lost `lost` patterns; note a contradiction as the count strategy does (an emptied cell in the box, when that
   provably spreads) and queue the cell to pass its change on. */
static void lost_patterns(const wfc_problem *pb, wfc_solver *s, int i, int lost)
{
    int32_t *ones = &s->wave.sums_of_ones[i];
    bool was_possible = *ones > 0;
    *ones -= lost;
    if (was_possible && *ones <= 0 && pb->contradiction_spreads && wfc_cell_in_box(pb, i)) s->contradiction = true;
    if (!s->pending[i]) {
        s->pending[i] = 1;
        s->stack[s->stack_size++] = i;
    }
}

static void bits_ban(const wfc_problem *pb, wfc_solver *s, int i, int t)
{
    s->wave.bits[i] &= ~(1ull << t);
    s->wave.data[(size_t)i * pb->P + t] = 0;
    lost_patterns(pb, s, i, 1);
}

/* Never called: the strategy is not used with backtracking. */
static void bits_unban(const wfc_problem *pb, wfc_solver *s, int i, int t)
{
    s->wave.bits[i] |= 1ull << t;
    s->wave.data[(size_t)i * pb->P + t] = 1;
    s->wave.sums_of_ones[i] += 1;
}

static void bits_collapse(const wfc_problem *pb, wfc_solver *s, int i, int chosen)
{
    const uint8_t *data = s->wave.data + (size_t)i * pb->P;
    for (int t = 0; t < pb->P; t++)
        if ((data[t] != 0) != (t == chosen)) bits_ban(pb, s, i, t);
}

/* Cell i passes each neighbour what its patterns allow there (a table lookup per 4 patterns): the neighbour keeps
   those and the ones never banned from that side. D is a constant in the compiled copies. */
static inline __attribute__((always_inline)) void pass_on(const wfc_problem *pb, wfc_solver *s, int i, const int D)
{
    uint64_t allowed[6] = {0};
    for (uint64_t m = s->wave.bits[i], n = 0; m; m >>= 4, n++) {
        const uint64_t *a = s->bit_nibbles + (n * 16 + (m & 15)) * D;
        for (int d = 0; d < D; d++) allowed[d] |= a[d];
    }
    const int32_t *next = pb->neighbours + (size_t)i * D;
    for (int d = 0; d < D; d++) {
        int j = next[d];
        if (j < 0) continue;
        uint64_t removed = s->wave.bits[j] & ~(allowed[d] | s->bit_free[d]);
        if (!removed) continue;
        s->wave.bits[j] &= ~removed;
        uint8_t *data = s->wave.data + (size_t)j * pb->P;
        int lost = 0;
        for (; removed; removed &= removed - 1, lost++) data[__builtin_ctzll(removed)] = 0;
        lost_patterns(pb, s, j, lost);
    }
}

static inline __attribute__((always_inline)) bool propagate_bits_with(const wfc_problem *pb, wfc_solver *s, const int D)
{
    for (uint32_t until_check = WFC_PROPAGATE_CHECK; s->stack_size > 0;) {
        if (__builtin_expect(--until_check == 0, 0)) { /* as in propagate.c */
            until_check = WFC_PROPAGATE_CHECK;
            if (stop_tick(s->stop, STOP_ITEMS)) s->stopped = s->contradiction = true;
        }
        if (s->contradiction) {
            /* The attempt ends here (the count strategy stops as early): forget the queued cells. */
            for (int64_t k = 0; k < s->stack_size; k++) s->pending[s->stack[k]] = 0;
            s->stack_size = 0;
            return false;
        }
        int i = s->stack[--s->stack_size];
        s->pending[i] = 0;
        pass_on(pb, s, i, D);
    }
    if (s->contradiction) return false;
    return s->wave.sums_of_ones[0] > 0;
}

static bool bits_propagate(const wfc_problem *pb, wfc_solver *s)
{
    return pb->D == 6 ? propagate_bits_with(pb, s, 6) : propagate_bits_with(pb, s, 4);
}

const wfc_strategy wfc_bits_strategies[2] = {
    {"reference, fewest options, pattern sets", bits_ban, bits_unban, bits_propagate, bits_collapse, wfc_next_cell_scanned},
    {"reference, scanline, pattern sets", bits_ban, bits_unban, bits_propagate, bits_collapse, wfc_next_cell_scanned},
};
