/* next_cell.c — choosing the next cell (the fast strategy's queue, or the reference's scan) and drawing its pattern. */
#include "wfc.h"
#include <stdlib.h>

static bool cell_in_grid(const wfc_problem *pb, int x, int y, int z)
{
    return pb->periodic || (x + pb->N <= pb->mx && y + pb->N <= pb->my && z + 1 <= pb->mz);
}

/* The fast strategy: a fresh attempt puts every undecided cell in the queue;
   later only the cells whose key changed move. */
int wfc_next_cell_queued(const wfc_problem *pb, wfc_solver *s, rng *random)
{
    int MX = pb->mx, MY = pb->my;
    wfc_queue *q = &s->queue;
    if (!s->queue_built) {
        s->queue_built = true;
        for (int64_t k = 0; k < s->dirty_size; k++) s->is_dirty[s->dirty[k]] = 0;
        s->dirty_size = 0;
        wfc_queue_clear(q, pb->cells);
        for (int i = 0; i < pb->cells; i++)
            if (s->wave.sums_of_ones[i] > 1 && cell_in_grid(pb, i % MX, (i % (MX * MY)) / MX, i / (MX * MY)))
                wfc_queue_put(q, i, wfc_queue_key(pb, s, i));
    }
    /* The keys first (they read only the wave), each asking the memory for
       the queue's entries it will need; then the moves, in order, find them
       there instead of waiting for each in turn. */
    for (int64_t k = 0; k < s->dirty_size; k++) {
        int i = s->dirty[k];
        s->is_dirty[i] = 0;
        bool queued = s->wave.sums_of_ones[i] > 1 && cell_in_grid(pb, i % MX, (i % (MX * MY)) / MX, i / (MX * MY));
        s->dirty_keys[k] = queued ? wfc_queue_key(pb, s, i) : WFC_QUEUE_OUT;
        wfc_queue_prefetch(q, i, s->dirty_keys[k]);
    }
    for (int64_t k = 0; k < s->dirty_size; k++) {
        int i = s->dirty[k];
        if (s->dirty_keys[k] != WFC_QUEUE_OUT) wfc_queue_put(q, i, s->dirty_keys[k]);
        else wfc_queue_remove(q, i);
    }
    s->dirty_size = 0;
    return wfc_queue_pick(q, random);
}

/* Scanline: the first undecided cell from where the last search stopped.
   Otherwise the undecided cell of least entropy (or fewest options), ties
   broken by a little noise drawn per candidate. */
int wfc_next_cell_scanned(const wfc_problem *pb, wfc_solver *s, rng *random)
{
    int MX = pb->mx, MY = pb->my, MZ = pb->mz;
    const wfc_wave *wv = &s->wave;
    if (pb->heuristic == WFC_SCANLINE) {
        for (int i = s->scan_from; i < pb->cells; i++) {
            if (!cell_in_grid(pb, i % MX, (i % (MX * MY)) / MX, i / (MX * MY))) continue;
            if (wv->sums_of_ones[i] > 1) {
                s->scan_from = i + 1;
                return i;
            }
        }
        return -1;
    }
    bool shannon = pb->heuristic == WFC_ENTROPY;
    double min = 1e4;
    /* Fewest options: a count is an integer, so `remaining <= min` is `remaining <= floor(min)`, compared without a
       conversion. The cells in the grid are those with x and y where a whole pattern fits (all when periodic). */
    int below = (int)min, argmin = -1;
    int xs = pb->periodic ? MX : MX - pb->N + 1, ys = pb->periodic ? MY : MY - pb->N + 1;
    for (int z = 0; z < MZ; z++)
        for (int y = 0; y < ys; y++) {
            int row = y * MX + z * MX * MY;
            for (int x = 0; x < xs; x++) {
                int i = row + x, remaining = wv->sums_of_ones[i];
                if (remaining <= 1) continue;
                if (shannon ? !(wv->entropies[i] <= min) : remaining > below) continue;
                double entropy = shannon ? wv->entropies[i] : remaining;
                double noise = 1e-6 * rng_next_double(random);
                if (entropy + noise < min) {
                    min = entropy + noise;
                    below = (int)min;
                    argmin = i;
                }
            }
        }
    return argmin;
}

int wfc_observe(const wfc_problem *pb, wfc_solver *s, int i, rng *random)
{
    int P = pb->P;
    const uint8_t *data = s->wave.data + (size_t)i * P;
    const double *weights = wfc_weights_at(pb, i);
    for (int t = 0; t < P; t++) s->distribution[t] = data[t] ? weights[t] : 0.0;
    double r = rng_next_double(random);
    double sum = 0;
    for (int t = 0; t < P; t++) sum += s->distribution[t];
    double threshold = r * sum, partial = 0;
    int chosen = 0;
    for (int t = 0; t < P; t++) {
        partial += s->distribution[t];
        if (partial >= threshold) { chosen = t; break; }
    }
    if ((pb->backtrack > 0 || pb->fast) && !data[chosen]) {
        /* A draw of 0 or zero weights can land on a banned pattern, which the
           reference then bans again; a backtracking solver takes a possible one. */
        chosen = 0;
        while (chosen < P - 1 && !data[chosen]) chosen++;
    }
    s->strategy->collapse(pb, s, i, chosen);
    return chosen;
}

