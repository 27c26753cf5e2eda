/* solver.c — a solver's memory: the wave and the start wave, the ban stack, the queue and the backtracking trail. */
#include "wfc.h"
#include "../core/mem.h"
#include <stdlib.h>
#include <string.h>

static bool wave_alloc(wfc_wave *wv, const wfc_problem *pb)
{
    size_t cells = (size_t)pb->cells, P = (size_t)pb->P;
    wv->data = mem_malloc(cells * P);
    if (wfc_set_words(pb)) wv->bits = mem_malloc(cells * (size_t)wfc_set_words(pb) * sizeof *wv->bits);
    else if (wfc_narrow_counts(pb)) wv->narrow = mem_malloc(cells * P * (size_t)pb->D);
    else wv->compatible = mem_malloc(cells * P * (size_t)pb->D * sizeof *wv->compatible);
    wv->sums_of_ones = mem_malloc(cells * sizeof *wv->sums_of_ones);
    if (!wv->data || (!wv->compatible && !wv->narrow && !wv->bits) || !wv->sums_of_ones) return false;
    if (pb->heuristic == WFC_ENTROPY) {
        wv->sums_of_weights = mem_malloc(cells * sizeof(double));
        wv->sums_of_weight_log_weights = mem_malloc(cells * sizeof(double));
        wv->entropies = mem_malloc(cells * sizeof(double));
        if (!wv->sums_of_weights || !wv->sums_of_weight_log_weights || !wv->entropies) return false;
    }
    return true;
}

static void wave_free(wfc_wave *wv)
{
    mem_free(wv->data);
    mem_free(wv->compatible);
    mem_free(wv->narrow);
    mem_free(wv->bits);
    mem_free(wv->sums_of_ones);
    mem_free(wv->sums_of_weights);
    mem_free(wv->sums_of_weight_log_weights);
    mem_free(wv->entropies);
}

/* Cells [lo, hi) of `from` into `to`. */
static void wave_copy(wfc_wave *to, const wfc_wave *from, const wfc_problem *pb, size_t lo, size_t hi)
{
    size_t n = hi - lo, P = (size_t)pb->P, counts = P * (size_t)pb->D;
    memcpy(to->data + lo * P, from->data + lo * P, n * P);
    size_t W = (size_t)wfc_set_words(pb);
    if (to->bits) memcpy(to->bits + lo * W, from->bits + lo * W, n * W * sizeof *to->bits);
    else if (to->narrow) memcpy(to->narrow + lo * counts, from->narrow + lo * counts, n * counts);
    else memcpy(to->compatible + lo * counts, from->compatible + lo * counts, n * counts * sizeof *to->compatible);
    memcpy(to->sums_of_ones + lo, from->sums_of_ones + lo, n * sizeof *to->sums_of_ones);
    if (pb->heuristic == WFC_ENTROPY) {
        memcpy(to->sums_of_weights + lo, from->sums_of_weights + lo, n * sizeof(double));
        memcpy(to->sums_of_weight_log_weights + lo, from->sums_of_weight_log_weights + lo, n * sizeof(double));
        memcpy(to->entropies + lo, from->entropies + lo, n * sizeof(double));
    }
}

int64_t wfc_memory_estimate(const wfc_problem *pb)
{
    int64_t cells = pb->cells, P = pb->P, D = pb->D;
    /* Per cell and pattern: the wave and the start wave (a flag and D support counts each), the ban stack's
       pair, and with backtracking the trail's pair and the unpropagated mark. */
    /* Pattern sets (wfc_set_domains) keep a bit instead of the D counts. */
    int64_t per_pair = 2 * (1 + (wfc_set_domains(pb) ? 1 : D * (int64_t)sizeof(wfc_count))) + 2 * (int64_t)sizeof(int32_t) +
                       (pb->backtrack > 0 ? 2 * (int64_t)sizeof(int32_t) + 1 : 0);
    /* Per cell: sums, entropies (twice), neighbours, queue and bookkeeping, generously. */
    int64_t per_cell = 2 * (4 + 3 * (int64_t)sizeof(double)) + D * 4 + 64;
    /* Per pair of patterns and direction: the dense table a loader fills, then the propagator's lists. */
    int64_t per_pattern_pair = D * (1 + (int64_t)sizeof(int32_t));
    return cells * P * per_pair + cells * per_cell + P * P * per_pattern_pair + wfc_sets_table_bytes(pb);
}

bool wfc_check_memory(diag *d, int line, const wfc_problem *pb, const char *what)
{
    int64_t bytes = wfc_memory_estimate(pb);
    if (bytes <= WFC_MAX_BYTES) return true;
    return diag_error(d, SMALTI_ERR_MODEL, line, "%d cells by %d %s would take about %.1f GiB; at most %lld GiB (a smaller output, or fewer %s)",
                      pb->cells, pb->P, what, (double)bytes / (1 << 30), WFC_MAX_BYTES >> 30, what);
}

/* The per-pattern lists of the propagator and the cells they serve (see wfc_solver.flat_start). */
static bool flat_init(wfc_solver *s, const wfc_problem *pb)
{
    int P = pb->P, D = pb->D, MX = pb->mx, MY = pb->my;
    int32_t total = pb->prop_start[D * P];
    s->flat_start = mem_malloc(((size_t)P + 1) * sizeof *s->flat_start);
    s->flat_offset = mem_malloc((size_t)(total > 0 ? total : 1) * sizeof *s->flat_offset);
    s->flat_info = mem_malloc((size_t)(total > 0 ? total : 1) * sizeof *s->flat_info);
    s->regular = mem_calloc((size_t)pb->cells, 1);
    s->supported = mem_malloc((size_t)P);
    s->bannable = mem_malloc((size_t)P * D);
    if (!s->flat_start || !s->flat_offset || !s->flat_info || !s->regular || !s->supported || !s->bannable) return false;
    for (int k = 0; k < P * D; k++) s->bannable[k] = pb->initial_compatible[k] > 0;
    int32_t longest = 0, at = 0;
    for (int t = 0; t < P; t++) {
        s->flat_start[t] = at;
        for (int d = 0; d < D; d++)
            for (int32_t k = pb->prop_start[d * P + t]; k < pb->prop_start[d * P + t + 1]; k++) {
                int t2 = pb->prop_data[k];
                s->flat_offset[at] = 0; /* set below, once the offsets are known to fit */
                s->flat_info[at++] = (uint32_t)d << 16 | (uint32_t)t2;
            }
        if (at - s->flat_start[t] > longest) longest = at - s->flat_start[t];
    }
    s->flat_start[P] = at;
    s->candidates = mem_malloc((size_t)(longest > 0 ? longest : 1) * sizeof *s->candidates);
    if (!s->candidates) return false;
    /* An offset is delta[d]*D*P + d*P + t2; when one cannot be an int32 no cell uses the lists. */
    int64_t reach = 0;
    for (int d = 0; d < D; d++) {
        int64_t delta = wfc_dx[d] + (int64_t)wfc_dy[d] * MX + (int64_t)wfc_dz[d] * MX * MY;
        if (llabs(delta) > reach) reach = llabs(delta);
        s->delta[d] = (int32_t)(delta > INT32_MAX || delta < INT32_MIN ? 0 : delta);
    }
    if ((reach + 1) * D * P >= INT32_MAX) return true;
    for (int32_t k = 0; k < at; k++) {
        int d = (int)(s->flat_info[k] >> 16), t2 = (int)(s->flat_info[k] & 0xffff);
        s->flat_offset[k] = s->delta[d] * D * P + d * P + t2;
    }
    for (int i = 0; i < pb->cells; i++) {
        bool regular = true;
        for (int d = 0; d < D && regular; d++) regular = pb->neighbours[(size_t)i * D + d] == i + s->delta[d];
        s->regular[i] = regular;
    }
    return true;
}

/* owner: NULL, or the solver whose start wave this one reads (wfc_solver_init_sharing). */
static bool solver_init(wfc_solver *s, const wfc_problem *pb, const wfc_solver *owner)
{
    memset(s, 0, sizeof *s);
    s->strategy = wfc_strategy_for(pb);
    s->stack_cap = (int64_t)pb->cells * pb->P;
    s->stack = mem_malloc((size_t)s->stack_cap * 2 * sizeof *s->stack);
    s->distribution = mem_malloc((size_t)pb->P * sizeof *s->distribution);
    if (pb->symmetric && (pb->fast || pb->heuristic != WFC_ENTROPY) && !wfc_bit_domains(pb) && !wfc_set_domains(pb)) {
        /* Not for the node's entropy: the reference's order of bans per cell sets its rounding. */
        s->singleton = mem_calloc((size_t)pb->cells, sizeof *s->singleton);
        if (!s->singleton) return false;
    }
    if (pb->fast) {
        s->dirty = mem_malloc((size_t)pb->cells * sizeof *s->dirty);
        s->is_dirty = mem_calloc((size_t)pb->cells, 1);
        s->dirty_keys = mem_malloc((size_t)pb->cells * sizeof *s->dirty_keys);
        if (!wfc_queue_init(&s->queue, pb->cells) || !s->dirty || !s->is_dirty || !s->dirty_keys) return false;
    }
    if (pb->backtrack > 0) {
        s->trail_cap = s->stack_cap;
        s->trail = mem_malloc((size_t)s->trail_cap * 2 * sizeof *s->trail);
        s->unpropagated = mem_calloc((size_t)pb->cells * pb->P, 1);
        s->decisions = mem_malloc(((size_t)pb->cells + 1) * sizeof *s->decisions);
        s->area = mem_malloc((size_t)pb->cells * sizeof *s->area);
        if (!s->trail || !s->unpropagated || !s->decisions || !s->area) return false;
    }
    if (wfc_bit_domains(pb) && !wfc_bits_init(s, pb)) return false;
    if (wfc_set_domains(pb) && !wfc_sets_init(s, pb)) return false;
    if (!s->stack || !s->distribution || !flat_init(s, pb) || !wave_alloc(&s->wave, pb)) return false;
    if (!owner) return wave_alloc(&s->start, pb);
    s->start = owner->start;
    s->start_clear = owner->start_clear;
    s->start_borrowed = true;
    return true;
}

bool wfc_solver_init(wfc_solver *s, const wfc_problem *pb) { return solver_init(s, pb, NULL); }

bool wfc_solver_init_sharing(wfc_solver *s, const wfc_problem *pb, const wfc_solver *owner) { return solver_init(s, pb, owner); }

void wfc_solver_free(wfc_solver *s)
{
    wave_free(&s->wave);
    if (!s->start_borrowed) wave_free(&s->start);
    mem_free(s->stack);
    mem_free(s->distribution);
    wfc_queue_free(&s->queue);
    mem_free(s->dirty);
    mem_free(s->is_dirty);
    mem_free(s->dirty_keys);
    mem_free(s->trail);
    mem_free(s->unpropagated);
    mem_free(s->decisions);
    mem_free(s->area);
    mem_free(s->singleton);
    mem_free(s->flat_start);
    mem_free(s->flat_offset);
    mem_free(s->flat_info);
    mem_free(s->regular);
    mem_free(s->candidates);
    mem_free(s->supported);
    mem_free(s->bannable);
    wfc_bits_free(s);
    wfc_sets_free(s);
}

/* Every pattern possible everywhere, in cells [lo, hi): the wave before any ban. Bands go in
   order from cell 0, whose counts the others copy. */
static void wave_clear(wfc_wave *wv, const wfc_problem *pb, size_t lo, size_t hi)
{
    size_t P = (size_t)pb->P, D = (size_t)pb->D;
    memset(wv->data + lo * P, 1, (hi - lo) * P);
    if (wv->bits) {
        /* Pattern sets: every pattern's bit, none past P. */
        size_t W = (size_t)wfc_set_words(pb);
        for (size_t i = lo; i < hi; i++)
            for (size_t w = 0; w < W; w++) wv->bits[i * W + w] = P >= 64 * (w + 1) ? ~0ull : (1ull << (P - 64 * w)) - 1;
    } else {
        /* The first cell's counts, then copies of them. */
        for (size_t k = 0; lo == 0 && k < P * D; k++) {
            if (wv->narrow) wv->narrow[k] = (uint8_t)pb->initial_compatible[k];
            else wv->compatible[k] = (wfc_count)pb->initial_compatible[k];
        }
        size_t row = P * D * (wv->narrow ? 1 : sizeof *wv->compatible);
        uint8_t *counts = wv->narrow ? wv->narrow : (uint8_t *)wv->compatible;
        for (size_t i = lo > 0 ? lo : 1; i < hi; i++) memcpy(counts + i * row, counts, row);
    }
    for (size_t i = lo; i < hi; i++) {
        wv->sums_of_ones[i] = pb->P;
        if (pb->heuristic == WFC_ENTROPY && pb->cell_class) {
            int c = pb->cell_class[i];
            wv->sums_of_weights[i] = pb->class_sum_of_weights[c];
            wv->sums_of_weight_log_weights[i] = pb->class_sum_of_weight_log_weights[c];
            wv->entropies[i] = pb->class_starting_entropy[c];
        } else if (pb->heuristic == WFC_ENTROPY) {
            wv->sums_of_weights[i] = pb->sum_of_weights;
            wv->sums_of_weight_log_weights[i] = pb->sum_of_weight_log_weights;
            wv->entropies[i] = pb->starting_entropy;
        }
    }
}

/* Bytes per band of a wave's reset: a big wave (up to 2 GiB) is cleared or copied a band at a time,
   with a check of s->stop after each, so that a deadline is not passed by a whole reset. A band of
   some milliseconds' copy; not less, so that memcpy keeps its way with big blocks (bands of 4096
   cells cost Flowers 128² 1.6 % more instructions). */
#define WAVE_BAND_BYTES (32 << 20)

/* Clear `to` (from NULL) or copy `from` into it, band by band; false when s->stop said stop first
   (the wave is then partly reset: the attempt must not go on). */
static bool wave_reset(wfc_solver *s, wfc_wave *to, const wfc_wave *from, const wfc_problem *pb)
{
    const size_t cells = (size_t)pb->cells, per_cell = (size_t)pb->P * (1 + (size_t)pb->D * sizeof(wfc_count));
    const size_t band = WAVE_BAND_BYTES / per_cell > 0 ? WAVE_BAND_BYTES / per_cell : 1;
    for (size_t lo = 0; lo < cells; lo += band) {
        const size_t hi = cells - lo > band ? lo + band : cells;
        if (from) wave_copy(to, from, pb, lo, hi);
        else wave_clear(to, pb, lo, hi);
        /* Not charged to a work budget (the node's runs stop at the same work as before). */
        if (stop_tick(s->stop, (int64_t)(hi - lo) * pb->P)) return false;
    }
    return true;
}

bool wfc_solver_clear(wfc_solver *s, const wfc_problem *pb)
{
    s->stack_size = 0;
    s->scan_from = 0;
    s->stopped = false;
    /* What a failed solve left (a run reset after its wfc found no solution) goes too: a reused
       run must solve as a fresh one does, or many runs on one thread would differ from single runs. */
    s->contradiction = false;
    s->out_of_memory = false;
    s->queue_built = false;
    s->decisions_size = s->decisions_floor = 0;
    if (s->is_dirty) memset(s->is_dirty, 0, (size_t)pb->cells);
    s->dirty_size = 0;
    if (s->singleton) memset(s->singleton, 0, (size_t)pb->cells * sizeof *s->singleton);
    if (s->pending) memset(s->pending, 0, (size_t)pb->cells);
    return wave_reset(s, &s->wave, NULL, pb);
}

bool wfc_solver_save_start(wfc_solver *s, const wfc_problem *pb)
{
    /* A wave that no ban has touched (every flag still 1) is the cleared one: each attempt then
       clears its wave instead of copying a start that would only repeat it, and the start's
       memory is never touched (a repair's look at it, with backtracking, needs it kept). */
    s->start_clear = !s->trail && !memchr(s->wave.data, 0, (size_t)pb->cells * (size_t)pb->P);
    s->trail_size = 0;
    if (s->unpropagated) memset(s->unpropagated, 0, (size_t)pb->cells * pb->P);
    return s->start_clear || wave_reset(s, &s->start, &s->wave, pb);
}

bool wfc_solver_restart(wfc_solver *s, const wfc_problem *pb)
{
    s->stack_size = 0;
    s->scan_from = 0;
    if (s->trail) {
        /* Clear the marks of the last attempt's unpropagated bans. */
        for (int64_t k = 0; k < s->trail_size; k++) s->unpropagated[(size_t)s->trail[2 * k] * pb->P + s->trail[2 * k + 1]] = 0;
        s->trail_size = 0;
        s->decisions_size = s->decisions_floor = 0;
    }
    if (s->singleton) memset(s->singleton, 0, (size_t)pb->cells * sizeof *s->singleton);
    s->dirty_size = 0;
    s->contradiction = false;
    s->out_of_memory = false;
    s->stopped = false;
    s->queue_built = false;
    if (s->is_dirty) memset(s->is_dirty, 0, (size_t)pb->cells);
    if (s->pending) memset(s->pending, 0, (size_t)pb->cells);
    return wave_reset(s, &s->wave, s->start_clear ? NULL : &s->start, pb);
}
