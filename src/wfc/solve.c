/* solve.c — one attempt of the WFC solver: observe and propagate until the wave is decided, and with
   backtracking, take decisions back on a contradiction (the trail undone ban by ban) or clear and re-solve
   the area around it. */
#include "wfc.h"
#include <stdlib.h>

/* Give back the supports that propagating the ban of p1 at i1 took from its neighbours. */
static void unpropagate(const wfc_problem *pb, wfc_solver *s, int i1, int p1)
{
    int P = pb->P, D = pb->D;
    for (int d = 0; d < D; d++) {
        int i2 = pb->neighbours[(size_t)i1 * D + d];
        if (i2 < 0) continue;
        const int32_t *p = pb->prop_data + pb->prop_start[d * P + p1], *end = pb->prop_data + pb->prop_start[d * P + p1 + 1];
        wfc_count *compat = s->wave.compatible + ((size_t)i2 * D + d) * P;
        for (; p < end; p++) compat[*p]++;
    }
}

void wfc_undo(const wfc_problem *pb, wfc_solver *s, int64_t size)
{
    while (s->trail_size > size) {
        s->trail_size--;
        int i = s->trail[2 * s->trail_size], t = s->trail[2 * s->trail_size + 1];
        uint8_t *mark = s->unpropagated + (size_t)i * pb->P + t;
        if (*mark) *mark = 0;
        else unpropagate(pb, s, i, t);
        wfc_unban(pb, s, i, t);
    }
    s->stack_size = 0;
    s->contradiction = false;
}

bool wfc_backtrack(const wfc_problem *pb, wfc_solver *s)
{
    if (s->decisions_size <= s->decisions_floor) return false;
    wfc_decision dec = s->decisions[--s->decisions_size];
    wfc_undo(pb, s, dec.trail_at);
    /* Every cell before the taken-back one was decided when it was chosen. */
    s->scan_from = dec.cell;
    s->backtracks++;
    wfc_ban(pb, s, dec.cell, dec.chosen);
    return true;
}

/* A repair first clears the cells within 2 + N of the contradiction (measured
   on the classic Summer tileset, N = 1: 2 to 4 work, 3 best); an attempt
   gives up after one repair per 8 cells (Summer 128x128 needs up to ~900). */
static int repair_radius(const wfc_problem *pb) { return 2 + pb->N; }
static long repair_limit(const wfc_problem *pb) { return pb->cells / 8 > 16 ? pb->cells / 8 : 16; }

/* Whether cells a and b are at most r apart along each axis (the shorter way round when periodic). */
static bool near(const wfc_problem *pb, int a, int b, int r)
{
    int MX = pb->mx, MY = pb->my;
    int d[3] = {abs(a % MX - b % MX), abs((a % (MX * MY)) / MX - (b % (MX * MY)) / MX), abs(a / (MX * MY) - b / (MX * MY))};
    int side[3] = {MX, MY, pb->mz};
    for (int k = 0; k < 3; k++) {
        if (pb->periodic && side[k] - d[k] < d[k]) d[k] = side[k] - d[k];
        if (d[k] > r) return false;
    }
    return true;
}

/* The cells within r of cell c along each axis, into s->area; returns how many. */
static int64_t area_cells(const wfc_problem *pb, wfc_solver *s, int c, int r)
{
    int MX = pb->mx, MY = pb->my, MZ = pb->mz;
    int centre[3] = {c % MX, (c % (MX * MY)) / MX, c / (MX * MY)}, side[3] = {MX, MY, MZ}, lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
        lo[k] = centre[k] - r;
        hi[k] = centre[k] + r;
        if (hi[k] - lo[k] + 1 >= side[k]) {
            lo[k] = 0;
            hi[k] = side[k] - 1;
        } else if (!pb->periodic) {
            if (lo[k] < 0) lo[k] = 0;
            if (hi[k] > side[k] - 1) hi[k] = side[k] - 1;
        }
    }
    int64_t n = 0;
    for (int z = lo[2]; z <= hi[2]; z++)
        for (int y = lo[1]; y <= hi[1]; y++)
            for (int x = lo[0]; x <= hi[0]; x++)
                s->area[n++] = (x + MX) % MX + (y + MY) % MY * MX + (z + MZ) % MZ * MX * MY;
    return n;
}

/* When taking back decisions does not help: drop the latest decision, give
   every cell within r of cell c its patterns of the attempt's start back, and
   propagate again. Every pattern that was possible stays supported, so this
   cannot contradict. What remains becomes final: the trail starts anew. */
static void repair(const wfc_problem *pb, wfc_solver *s, int c, int r)
{
    int P = pb->P, D = pb->D;
    wfc_undo(pb, s, s->decisions_size > 0 ? s->decisions[s->decisions_size - 1].trail_at : 0);
    int64_t n = area_cells(pb, s, c, r);
    for (int64_t k = 0; k < n; k++) {
        int i = s->area[k];
        const uint8_t *start = s->start.data + (size_t)i * P;
        uint8_t *now = s->wave.data + (size_t)i * P;
        for (int t = 0; t < P; t++)
            if (start[t] && !now[t]) {
                unpropagate(pb, s, i, t);
                wfc_unban(pb, s, i, t);
            }
    }
    /* The given-back patterns that lack a neighbour's support go again; the
       cells just outside the area only gained supports. */
    for (int64_t k = 0; k < n; k++) {
        int i = s->area[k];
        const uint8_t *now = s->wave.data + (size_t)i * P;
        const wfc_count *comp = s->wave.compatible + (size_t)i * P * D;
        for (int t = 0; t < P; t++) {
            if (!now[t]) continue;
            for (int d = 0; d < D; d++)
                if (comp[d * P + t] == 0 && pb->initial_compatible[d * P + t] > 0 && pb->neighbours[(size_t)i * D + wfc_opposite[d]] >= 0) {
                    wfc_ban(pb, s, i, t);
                    break;
                }
        }
    }
    wfc_propagate(pb, s);
    s->trail_size = 0;
    s->decisions_size = s->decisions_floor = 0;
    s->repairs++;
}

wfc_result wfc_solve(const wfc_problem *pb, wfc_solver *s, int32_t seed, long limit)
{
    rng random;
    rng_seed(&random, seed);
    s->observations = 0;
    s->backtracks = 0;
    s->repairs = 0;
    if (!wfc_solver_restart(s, pb)) return WFC_STOPPED;
    int last_conflict = -1, radius = 0;
    for (long l = 0; l < limit || limit < 0; l++) {
        if (stop_requested(s->stop)) return WFC_STOPPED;
        int i = wfc_next_cell(pb, s, &random);
        if (i < 0) return WFC_DONE;
        if (pb->backtrack > 0) {
            s->decisions[s->decisions_size++] = (wfc_decision){i, 0, s->trail_size};
            if (s->decisions_size - pb->backtrack > s->decisions_floor) s->decisions_floor = s->decisions_size - pb->backtrack;
        }
        int chosen = wfc_observe(pb, s, i, &random);
        if (pb->backtrack > 0) s->decisions[s->decisions_size - 1].chosen = chosen;
        s->observations++;
        while (!wfc_propagate(pb, s)) {
            if (s->out_of_memory) return WFC_NO_MEMORY;
            if (s->stopped) return WFC_STOPPED;
            int c = s->conflict_cell;
            if (wfc_backtrack(pb, s)) continue;
            if (pb->backtrack == 0 || s->repairs >= repair_limit(pb)) return WFC_CONTRADICTION;
            /* Trouble back near the last repair: clear a wider area. */
            radius = last_conflict >= 0 && near(pb, c, last_conflict, radius) ? radius + 1 : repair_radius(pb);
            last_conflict = c;
            repair(pb, s, c, radius);
        }
    }
    return WFC_LIMIT;
}
