/* overlap.c — the overlap model's patterns: a sample's colours, its distinct NxN patterns under symmetry with their
   counts, and which pattern may overlap which. */
#include "wfc.h"
#include "../core/mem.h"
#include <stdlib.h>
#include <string.h>

int wfc_sample_ords(const uint32_t *argb, long count, uint8_t *ords, uint32_t *colours, int max_colours)
{
    int c = 0;
    for (long i = 0; i < count; i++) {
        int k = 0;
        while (k < c && colours[k] != argb[i]) k++;
        if (k == c) {
            if (c == max_colours) return -1;
            colours[c++] = argb[i];
        }
        ords[i] = (uint8_t)k;
    }
    return c;
}

/* Distinct patterns in order of first appearance, with their counts: an open-addressing table over pattern bytes. */
typedef struct pattern_table {
    int cells;                 /* bytes per pattern */
    uint8_t *patterns;         /* count * cells */
    double *weights;
    int count, cap;
    int32_t *slots;            /* pattern index, -1 empty */
    size_t slot_mask;
} pattern_table;

static uint64_t pattern_hash(const uint8_t *p, int cells)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < cells; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static bool table_add(pattern_table *tb, const uint8_t *p)
{
    size_t s = (size_t)pattern_hash(p, tb->cells) & tb->slot_mask;
    while (tb->slots[s] >= 0) {
        int k = tb->slots[s];
        if (memcmp(tb->patterns + (size_t)k * tb->cells, p, (size_t)tb->cells) == 0) {
            tb->weights[k] += 1;
            return true;
        }
        s = (s + 1) & tb->slot_mask;
    }
    if (tb->count == tb->cap) {
        int cap = tb->cap ? 2 * tb->cap : 256;
        uint8_t *pp = mem_realloc(tb->patterns, (size_t)cap * tb->cells);
        if (!pp) return false;
        tb->patterns = pp;
        double *ww = mem_realloc(tb->weights, (size_t)cap * sizeof *ww);
        if (!ww) return false;
        tb->weights = ww;
        tb->cap = cap;
    }
    memcpy(tb->patterns + (size_t)tb->count * tb->cells, p, (size_t)tb->cells);
    tb->weights[tb->count] = 1;
    tb->slots[s] = tb->count++;
    return true;
}

/* Pattern p1 and p2 shifted by (dx, dy) agree where they overlap. */
static bool agrees(const uint8_t *p1, const uint8_t *p2, int dx, int dy, int N)
{
    int xmin = dx < 0 ? 0 : dx, xmax = dx < 0 ? dx + N : N, ymin = dy < 0 ? 0 : dy, ymax = dy < 0 ? dy + N : N;
    for (int y = ymin; y < ymax; y++)
        for (int x = xmin; x < xmax; x++)
            if (p1[x + N * y] != p2[x - dx + N * (y - dy)]) return false;
    return true;
}

/* Count the patterns at each position of a grid-sized window over the wrapping
   sample (the reference iterates over the grid's size, not the sample's). */
static bool count_patterns(int N, pattern_table *tb, const uint8_t *sample, int smx, int smy, int xmax, int ymax,
                           symmetry_set symmetry)
{
    uint8_t images[8][WFC_OVERLAP_MAX_N * WFC_OVERLAP_MAX_N];
    for (int y = 0; y < ymax; y++)
        for (int x = 0; x < xmax; x++) {
            for (int dy = 0; dy < N; dy++)
                for (int dx = 0; dx < N; dx++) images[0][dx + dy * N] = sample[(x + dx) % smx + (y + dy) % smy * smx];
            /* e, b, a, ba, a2, ba2, a3, ba3 with a the rotation and b the reflection. */
            for (int k = 1; k < 8; k++) {
                const uint8_t *src = images[k % 2 ? k - 1 : k - 2];
                for (int py = 0; py < N; py++)
                    for (int px = 0; px < N; px++)
                        images[k][px + py * N] = k % 2 ? src[N - 1 - px + py * N] : src[N - 1 - py + px * N];
            }
            for (int k = 0; k < 8; k++)
                if (((symmetry >> k) & 1) && !table_add(tb, images[k])) return false;
        }
    return true;
}

bool wfc_sample_patterns(const uint8_t *sample, int smx, int smy, int N, int xmax, int ymax, symmetry_set symmetry,
                         uint8_t **patterns, double **weights, int *count)
{
    pattern_table tb = {.cells = N * N};
    size_t slots = 16;
    while (slots < (size_t)xmax * ymax * 16) slots *= 2;
    tb.slots = mem_malloc(slots * sizeof *tb.slots);
    tb.slot_mask = slots - 1;
    bool ok = tb.slots != NULL;
    if (ok) {
        memset(tb.slots, 0xff, slots * sizeof *tb.slots);
        ok = count_patterns(N, &tb, sample, smx, smy, xmax, ymax, symmetry);
    }
    mem_free(tb.slots);
    *patterns = tb.patterns;
    *weights = tb.weights;
    *count = tb.count;
    return ok;
}

bool wfc_overlap_propagator(wfc_problem *pb, const uint8_t *patterns)
{
    int P = pb->P, N = pb->N;
    bool *dense[4] = {0};
    bool ok = true;
    for (int dd = 0; dd < 4 && ok; dd++) ok = (dense[dd] = mem_malloc((size_t)P * P)) != NULL;
    for (int dd = 0; dd < 4 && ok; dd++)
        for (int t = 0; t < P; t++)
            for (int t2 = 0; t2 < P; t2++)
                dense[dd][(size_t)t * P + t2] =
                    agrees(patterns + (size_t)t * N * N, patterns + (size_t)t2 * N * N, wfc_dx[dd], wfc_dy[dd], N);
    ok = ok && wfc_set_propagator(pb, dense);
    for (int dd = 0; dd < 4; dd++) mem_free(dense[dd]);
    return ok;
}
