/* propagate.c — the solver's two strategies, reference and fast: a ban, its propagation to the neighbours and the
   collapse of a cell, each written once as an inline template and compiled for every mode, so that the mode is
   chosen once per solver (wfc_strategy_for) and never tested inside a ban. */
#include "wfc.h"
#include "../core/mem.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What a strategy keeps per cell besides its count of patterns: nothing (MRV
   and Scanline), the weight sums (the fast strategy's entropy, which its queue
   derives from them), or the sums and the entropy itself, updated ban by ban
   in the reference's order (the reference strategy's, whose rounding that order sets). */
enum { KEEP_COUNTS, KEEP_SUMS, KEEP_ENTROPY };

#define TEMPLATE static inline __attribute__((always_inline))

/* Append (i, t) to a list of pairs, doubling it when full; false when out of memory. */
TEMPLATE bool push_pair(int32_t **list, int64_t *size, int64_t *cap, int i, int t)
{
    if (*size == *cap) {
        int32_t *bigger = mem_realloc(*list, (size_t)*cap * 4 * sizeof *bigger);
        if (!bigger) return false;
        *list = bigger;
        *cap *= 2;
    }
    (*list)[2 * *size] = i;
    (*list)[2 * *size + 1] = t;
    (*size)++;
    return true;
}

/* A ban that cannot be recorded ends the attempt: propagation stops as at a contradiction. */
static void ran_out_of_memory(wfc_solver *s)
{
    s->out_of_memory = true;
    s->contradiction = true;
}

/* The check of a long propagation (out of line: ban_with is inlined in every strategy). */
static void __attribute__((noinline)) check_stop(wfc_solver *s, int64_t units)
{
    if (stop_tick(s->stop, units)) s->stopped = s->contradiction = true;
}

/* Ban t at i. `stacked`: push it for propagation (a collapse that restricts
   the neighbours itself does not). `keep`: the weight bookkeeping to update
   (a collapse sets the cell's once, afterwards). */
TEMPLATE void ban_with(const wfc_problem *pb, wfc_solver *s, int i, int t, const bool fast, const bool trail, const int keep,
                       const bool narrow, const bool stacked)
{
    wfc_wave *wv = &s->wave;
    wv->data[(size_t)i * pb->P + t] = 0;
    if (!trail) {
        /* As the reference does, zero the banned pattern's supports: lowering
           them then wraps past 0 instead of reaching it, so propagation seldom
           looks at the wave for a pattern already gone (it still checks the
           wave: restrict_with may set a banned pattern's count to 1). With
           backtracking the counts stay exact for wfc_undo to give back. */
        size_t P = (size_t)pb->P, at = (size_t)i * pb->D * P + t;
        if (narrow) {
            uint8_t *counts = wv->narrow + at;
            counts[0] = counts[P] = counts[2 * P] = counts[3 * P] = 0;
            if (pb->D == 6) counts[4 * P] = counts[5 * P] = 0;
        } else {
            wfc_count *counts = wv->compatible + at;
            counts[0] = counts[P] = counts[2 * P] = counts[3 * P] = 0;
            if (pb->D == 6) counts[4 * P] = counts[5 * P] = 0;
        }
    }
    /* Only a pattern banned twice (a zero-weight draw) can fill the stack or the trail. */
    if (stacked && !push_pair(&s->stack, &s->stack_size, &s->stack_cap, i, t)) return ran_out_of_memory(s);
    if (trail && !push_pair(&s->trail, &s->trail_size, &s->trail_cap, i, t)) return ran_out_of_memory(s);

    wv->sums_of_ones[i] -= 1;
    if (wv->sums_of_ones[i] == 0 && (fast || trail || (pb->contradiction_spreads && wfc_cell_in_box(pb, i)))) {
        if (!s->contradiction) s->conflict_cell = i;
        s->contradiction = true;
    }
    if (fast && !s->is_dirty[i]) {
        s->is_dirty[i] = 1;
        s->dirty[s->dirty_size++] = i;
        /* The fast strategy's check inside a propagation: once per WFC_PROPAGATE_CHECK cells it
           reaches (each takes at most P bans), not per ban (a count per ban taken from the stack
           cost Flowers 1 % more instructions). The propagation then ends as at a contradiction. */
        if ((s->dirty_size & (WFC_PROPAGATE_CHECK - 1)) == 0) check_stop(s, (int64_t)WFC_PROPAGATE_CHECK * pb->P);
    }
    if (keep != KEEP_COUNTS) {
        double sum = wv->sums_of_weights[i];
        if (keep == KEEP_ENTROPY) wv->entropies[i] += wv->sums_of_weight_log_weights[i] / sum - log(sum);
        wv->sums_of_weights[i] -= wfc_weights_at(pb, i)[t];
        wv->sums_of_weight_log_weights[i] -= wfc_weight_log_weights_at(pb, i)[t];
        sum = wv->sums_of_weights[i];
        if (keep == KEEP_ENTROPY) wv->entropies[i] -= wv->sums_of_weight_log_weights[i] / sum - log(sum);
    }
}

/* The exact mirror of a ban, for a ban being taken back. */
TEMPLATE void unban_with(const wfc_problem *pb, wfc_solver *s, int i, int t, const bool fast, const int keep)
{
    wfc_wave *wv = &s->wave;
    wv->data[(size_t)i * pb->P + t] = 1;
    wv->sums_of_ones[i] += 1;
    if (s->singleton) s->singleton[i] = 0;
    if (fast && !s->is_dirty[i]) {
        s->is_dirty[i] = 1;
        s->dirty[s->dirty_size++] = i;
    }
    if (keep != KEEP_COUNTS) {
        double sum = wv->sums_of_weights[i];
        /* An emptied cell's entropy is NaN (0/0); one pattern has entropy 0. */
        if (keep == KEEP_ENTROPY) {
            if (wv->sums_of_ones[i] == 1) wv->entropies[i] = 0;
            else wv->entropies[i] += wv->sums_of_weight_log_weights[i] / sum - log(sum);
        }
        wv->sums_of_weights[i] += wfc_weights_at(pb, i)[t];
        wv->sums_of_weight_log_weights[i] += wfc_weight_log_weights_at(pb, i)[t];
        sum = wv->sums_of_weights[i];
        if (keep == KEEP_ENTROPY) wv->entropies[i] -= wv->sums_of_weight_log_weights[i] / sum - log(sum);
    }
}

/* Whether the ban of t at i waiting on the stack is already accounted for:
   i was restricted to another pattern since. */
static bool accounted(const wfc_solver *s, int i, int t)
{
    return s->singleton && s->singleton[i] && s->singleton[i] - 1 != t;
}

/* Cell i holds only pattern c now: each neighbour keeps the patterns c allows
   there, whose support from i is now exactly 1; the rest lose it and are
   banned. The counts are those that propagating every ban of i one by one
   gives, at P steps per direction instead of a list per ban; i's bans not
   propagated yet are marked as accounted for. */
TEMPLATE void restrict_with(const wfc_problem *pb, wfc_solver *s, int i, int c, const bool fast, const bool trail, const int keep,
                            const bool narrow)
{
    int P = pb->P, D = pb->D;
    uint8_t *supported = s->supported;
    for (int d = 0; d < D; d++) {
        int i2 = pb->neighbours[(size_t)i * D + d];
        if (i2 < 0) continue;
        const int32_t *p = pb->prop_data + pb->prop_start[d * P + c], *end = pb->prop_data + pb->prop_start[d * P + c + 1];
        size_t at = ((size_t)i2 * D + d) * P;
        memset(supported, 0, (size_t)P);
        for (const int32_t *q = p; q < end; q++) supported[*q] = 1;
        const uint8_t *w2 = s->wave.data + (size_t)i2 * P, *bannable = s->bannable + (size_t)d * P;
        /* Byte counts: a pattern already banned gets 0 too (see propagate_with). */
        if (narrow) {
            uint8_t *row = s->wave.narrow + at;
            int t2 = 0;
            for (; t2 + 8 <= P; t2 += 8) {
                uint64_t possible, kept;
                memcpy(&possible, w2 + t2, 8);
                memcpy(&kept, supported + t2, 8);
                kept &= possible;
                memcpy(row + t2, &kept, 8);
            }
            for (; t2 < P; t2++) row[t2] = supported[t2] & w2[t2];
        } else
            for (int t2 = 0; t2 < P; t2++) s->wave.compatible[at + t2] = supported[t2];
        /* Ban what is possible, unsupported and, as in the reference, not
           unsupported from the start (a count that starts at 0); bytes are
           0 or 1, so 8 patterns are looked at together, in order. */
        int t0 = 0;
        for (; __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && t0 + 8 <= P; t0 += 8) {
            uint64_t possible, kept, may;
            memcpy(&possible, w2 + t0, 8);
            memcpy(&kept, supported + t0, 8);
            memcpy(&may, bannable + t0, 8);
            for (uint64_t m = possible & ~kept & may; m; m &= m - 1)
                ban_with(pb, s, i2, t0 + __builtin_ctzll(m) / 8, fast, trail, keep, narrow, true);
        }
        for (int t2 = t0; t2 < P; t2++)
            if (w2[t2] && !supported[t2] && bannable[t2]) ban_with(pb, s, i2, t2, fast, trail, keep, narrow, true);
    }
    s->singleton[i] = c + 1;
}

/* Remove the support of every banned pattern from its neighbours. Like the
   reference, the reference strategy without backtracking looks only at cell 0
   to tell whether a contradiction happened (an empty cell empties its
   neighbours, so one spreads over the whole grid). */
TEMPLATE bool propagate_with(const wfc_problem *pb, wfc_solver *s, const bool fast, const bool trail, const int keep,
                             const bool narrow)
{
    int P = pb->P, D = pb->D;
    wfc_wave *wv = &s->wave;
    /* A big wave's propagation can be long: it ends as at a contradiction when the run must stop
       (stop_tick: the observation's check charges the work budget). The fast strategy checks in
       ban_with; the reference one every WFC_PROPAGATE_CHECK bans taken from the stack. */
    for (uint32_t until_check = WFC_PROPAGATE_CHECK; s->stack_size > 0;) {
        if (!fast && __builtin_expect(--until_check == 0, 0)) {
            until_check = WFC_PROPAGATE_CHECK;
            check_stop(s, STOP_ITEMS);
        }
        /* An emptied cell would empty the whole wave, cell 0 included, so
           the reference's answer is already known. */
        if (s->contradiction) {
            if (trail)
                for (int64_t k = 0; k < s->stack_size; k++) {
                    int i = s->stack[2 * k], t = s->stack[2 * k + 1];
                    if (!accounted(s, i, t)) s->unpropagated[(size_t)i * P + t] = 1;
                }
            s->stack_size = 0;
            return false;
        }
        s->stack_size--;
        int i1 = s->stack[2 * s->stack_size], p1 = s->stack[2 * s->stack_size + 1];
        if (s->singleton) {
            /* A cell down to one pattern restricts its neighbours at once; its
               bans still waiting here are then accounted for. */
            if (accounted(s, i1, p1)) continue;
            if (wv->sums_of_ones[i1] == 1) {
                int c = 0;
                while (!wv->data[(size_t)i1 * P + c]) c++;
                restrict_with(pb, s, i1, c, fast, trail, keep, narrow);
                continue;
            }
        }
        if (s->regular[i1]) {
            /* One list for all directions: the counts are lowered first, without
               a branch per entry, then the patterns they emptied are banned in
               the same order as the loop below (a ban changes no count). */
            const int32_t *offset = s->flat_offset, *at = offset + s->flat_start[p1], *end = offset + s->flat_start[p1 + 1];
            /* The entries brought to 0 are kept as pointers into the lists, and the counts' base is held in a
               register (the empty asm: gcc otherwise adds it up again per entry): 11 instructions an entry
               instead of 13, and unrolled by 4 (Flowers' lists are short: about 11 entries a pattern). */
            const int32_t **candidates = s->candidates;
            size_t n = 0;
            if (narrow) {
                uint8_t *base = wv->narrow + (size_t)i1 * D * P;
                __asm__("" : "+r"(base));
#pragma GCC unroll 4
                for (; at < end; at++) {
                    uint8_t left = --base[*at];
                    candidates[n] = at;
                    n += left == 0;
                }
            } else {
                wfc_count *base = wv->compatible + (size_t)i1 * D * P;
                __asm__("" : "+r"(base));
                for (; at < end; at++) {
                    wfc_count left = --base[*at];
                    candidates[n] = at;
                    n += left == 0;
                }
            }
            /* A byte count reaches 0 only for a possible pattern: a ban zeroes
               the pattern's counts, which then wrap to 255 and, lowered at most
               WFC_NARROW_MAX + 1 times, never come back to 0; a restriction
               gives a banned pattern 0 as well. So it needs no look at the wave. */
            for (size_t j = 0; j < n; j++) {
                uint32_t info = s->flat_info[candidates[j] - offset];
                int i2 = i1 + s->delta[info >> 16], t2 = (int)(info & 0xffff);
                if (narrow || wv->data[(size_t)i2 * P + t2]) ban_with(pb, s, i2, t2, fast, trail, keep, narrow, true);
            }
            continue;
        }
        const int32_t *next = pb->neighbours + (size_t)i1 * D;
        for (int d = 0; d < D; d++) {
            int i2 = next[d];
            if (i2 < 0) continue;
            const int32_t *p = pb->prop_data + pb->prop_start[d * P + p1], *end = pb->prop_data + pb->prop_start[d * P + p1 + 1];
            size_t at = ((size_t)i2 * D + d) * P;
            const uint8_t *w2 = wv->data + (size_t)i2 * P;
            for (; p < end; p++) {
                int t2 = *p;
                bool emptied = narrow ? --wv->narrow[at + t2] == 0 : --wv->compatible[at + t2] == 0;
                if (emptied && w2[t2]) ban_with(pb, s, i2, t2, fast, trail, keep, narrow, true);
            }
        }
    }
    if (fast || trail || s->contradiction) return !s->contradiction;
    return wv->sums_of_ones[0] > 0;
}

/* Ban every pattern of cell i but `chosen`. The entropy of a cell left with
   one pattern is never read: it is set once instead of after each ban (two
   logarithms per ban). Unless the solver must follow the reference's per-cell
   order of bans (entropy rounding: no singleton table), the neighbours are
   restricted at once instead of through P-1 bans. A draw that landed on a
   banned pattern (the reference's zero-weight case) bans it again. */
TEMPLATE void collapse_with(const wfc_problem *pb, wfc_solver *s, int i, int chosen, const bool fast, const bool trail,
                            const int keep, const bool narrow)
{
    int P = pb->P;
    const uint8_t *data = s->wave.data + (size_t)i * P;
    bool possible = data[chosen];
    bool direct = possible && s->singleton;
    for (int t = 0; t < P; t++)
        if ((data[t] != 0) != (t == chosen)) ban_with(pb, s, i, t, fast, trail, KEEP_COUNTS, narrow, !direct);
    if (keep != KEEP_COUNTS && possible) {
        s->wave.sums_of_weights[i] = wfc_weights_at(pb, i)[chosen];
        s->wave.sums_of_weight_log_weights[i] = wfc_weight_log_weights_at(pb, i)[chosen];
        if (keep == KEEP_ENTROPY) s->wave.entropies[i] = 0;
    }
    if (direct) restrict_with(pb, s, i, chosen, fast, trail, keep, narrow);
}

/* One strategy compiled for one mode. */
#define STRATEGY(NAME, FAST, TRAIL, KEEP, NARROW)                                                                   \
    static void NAME##_ban(const wfc_problem *pb, wfc_solver *s, int i, int t)                                      \
    {                                                                                                               \
        ban_with(pb, s, i, t, FAST, TRAIL, KEEP, NARROW, true);                                                     \
    }                                                                                                               \
    static void NAME##_unban(const wfc_problem *pb, wfc_solver *s, int i, int t) { unban_with(pb, s, i, t, FAST, KEEP); } \
    static bool NAME##_propagate(const wfc_problem *pb, wfc_solver *s)                                              \
    {                                                                                                               \
        return propagate_with(pb, s, FAST, TRAIL, KEEP, NARROW);                                                    \
    }                                                                                                               \
    static void NAME##_collapse(const wfc_problem *pb, wfc_solver *s, int i, int c)                                 \
    {                                                                                                               \
        collapse_with(pb, s, i, c, FAST, TRAIL, KEEP, NARROW);                                                      \
    }
#define ENTRY(NAME, LABEL, NEXT) {LABEL, NAME##_ban, NAME##_unban, NAME##_propagate, NAME##_collapse, NEXT}

STRATEGY(reference_entropy, false, false, KEEP_ENTROPY, false)
STRATEGY(reference_counts, false, false, KEEP_COUNTS, false)
STRATEGY(reference_entropy_trail, false, true, KEEP_ENTROPY, false)
STRATEGY(reference_counts_trail, false, true, KEEP_COUNTS, false)
STRATEGY(reference_entropy_narrow, false, false, KEEP_ENTROPY, true)
STRATEGY(reference_counts_narrow, false, false, KEEP_COUNTS, true)
STRATEGY(fast_sums, true, false, KEEP_SUMS, false)
STRATEGY(fast_counts, true, false, KEEP_COUNTS, false)
STRATEGY(fast_sums_trail, true, true, KEEP_SUMS, false)
STRATEGY(fast_counts_trail, true, true, KEEP_COUNTS, false)
STRATEGY(fast_sums_narrow, true, false, KEEP_SUMS, true)
STRATEGY(fast_counts_narrow, true, false, KEEP_COUNTS, true)

/* [counts: wide, wide with backtracking, narrow][heuristic] */
static const wfc_strategy reference_strategies[3][3] = {
    {ENTRY(reference_entropy, "reference, entropy", wfc_next_cell_scanned),
     ENTRY(reference_counts, "reference, fewest options", wfc_next_cell_scanned),
     ENTRY(reference_counts, "reference, scanline", wfc_next_cell_scanned)},
    {ENTRY(reference_entropy_trail, "reference, entropy, backtracking", wfc_next_cell_scanned),
     ENTRY(reference_counts_trail, "reference, fewest options, backtracking", wfc_next_cell_scanned),
     ENTRY(reference_counts_trail, "reference, scanline, backtracking", wfc_next_cell_scanned)},
    {ENTRY(reference_entropy_narrow, "reference, entropy, byte counts", wfc_next_cell_scanned),
     ENTRY(reference_counts_narrow, "reference, fewest options, byte counts", wfc_next_cell_scanned),
     ENTRY(reference_counts_narrow, "reference, scanline, byte counts", wfc_next_cell_scanned)},
};
static const wfc_strategy fast_strategies[3][3] = {
    {ENTRY(fast_sums, "fast, entropy", wfc_next_cell_queued),
     ENTRY(fast_counts, "fast, fewest options", wfc_next_cell_queued),
     ENTRY(fast_counts, "fast, scanline", wfc_next_cell_scanned)},
    {ENTRY(fast_sums_trail, "fast, entropy, backtracking", wfc_next_cell_queued),
     ENTRY(fast_counts_trail, "fast, fewest options, backtracking", wfc_next_cell_queued),
     ENTRY(fast_counts_trail, "fast, scanline, backtracking", wfc_next_cell_scanned)},
    {ENTRY(fast_sums_narrow, "fast, entropy, byte counts", wfc_next_cell_queued),
     ENTRY(fast_counts_narrow, "fast, fewest options, byte counts", wfc_next_cell_queued),
     ENTRY(fast_counts_narrow, "fast, scanline, byte counts", wfc_next_cell_scanned)},
};

bool wfc_narrow_counts(const wfc_problem *pb)
{
    if (pb->backtrack > 0) return false;
    for (int k = 0; k < pb->P * pb->D; k++)
        if (pb->initial_compatible[k] > WFC_NARROW_MAX) return false;
    return true;
}

const wfc_strategy *wfc_strategy_for(const wfc_problem *pb)
{
    int counts = wfc_narrow_counts(pb) ? 2 : pb->backtrack > 0, h = pb->heuristic == WFC_ENTROPY ? 0 : pb->heuristic == WFC_MRV ? 1 : 2;
    if (wfc_bit_domains(pb)) return &wfc_bits_strategies[h - 1];
    if (wfc_set_domains(pb)) return &wfc_sets_strategies[h];
    return pb->fast ? &fast_strategies[counts][h] : &reference_strategies[counts][h];
}
