/* blocks_start.c — what each cell of a wave solved in blocks may start with: the caller's rule and the lonely
   patterns, propagated once over the whole wave with sets of patterns as bits, as a whole-wave start would be. */
#include "blocks.h"
#include "../core/mem.h"
#include <string.h>

void wfc_blocks_own_patterns(wfc_blocks *b, int i)
{
    const wfc_problem *pb = b->whole;
    int P = pb->P, D = pb->D;
    memset(b->possible, 1, (size_t)P);
    if (b->rule) b->rule(b->rule_ctx, i, b->possible);
    for (int k = 0; k < b->lonely_count; k++) {
        int d = b->lonely[k] / P;
        if (pb->neighbours[(size_t)i * D + d] >= 0) b->possible[b->lonely[k] % P] = 0;
    }
}

bool wfc_blocks_make_start(wfc_blocks *b)
{
    const wfc_problem *pb = b->whole;
    int P = pb->P, D = pb->D, W = (P + 63) / 64, cells = pb->cells;
    b->words = W;
    uint64_t *dom = mem_malloc((size_t)cells * W * sizeof *dom), *allow = mem_calloc((size_t)D * P * W, sizeof *allow);
    uint64_t *next = mem_malloc((size_t)W * sizeof *next);
    int32_t *stack = mem_malloc((size_t)cells * sizeof *stack);
    uint8_t *queued = mem_calloc((size_t)cells, 1);
    bool ok = dom && allow && next && stack && queued, any = false;
    int64_t size = 0;
    for (int i = 0; ok && i < cells; i++) {
        if (stop_requested_at(b->stop, i)) ok = false;
        uint64_t *v = dom + (size_t)i * W;
        memset(v, 0, (size_t)W * sizeof *v);
        wfc_blocks_own_patterns(b, i);
        for (int t = 0; t < P; t++)
            if (b->possible[t]) v[t / 64] |= 1ull << (t % 64);
            else if (wfc_cell_in_box(pb, i) && !queued[i]) {
                /* Only cells of the box pass bans on: links from outside it lead in, not out. */
                any = true;
                stack[size++] = i;
                queued[i] = 1;
            }
    }
    /* allow[(d*P + t)*W]: the patterns that may sit beside t in direction d. */
    for (int d = 0; ok && d < D; d++)
        for (int t = 0; t < P; t++)
            for (int32_t k = pb->prop_start[d * P + t]; k < pb->prop_start[d * P + t + 1]; k++)
                allow[((size_t)d * P + t) * W + pb->prop_data[k] / 64] |= 1ull << (pb->prop_data[k] % 64);
    while (ok && any && size > 0) {
        int i = stack[--size];
        queued[i] = 0;
        if (stop_requested_at(b->stop, size)) ok = false;
        const uint64_t *v = dom + (size_t)i * W;
        for (int d = 0; d < D; d++) {
            int j = pb->neighbours[(size_t)i * D + d];
            if (j < 0) continue;
            memset(next, 0, (size_t)W * sizeof *next);
            for (int w = 0; w < W; w++)
                for (uint64_t bits = v[w]; bits; bits &= bits - 1) {
                    const uint64_t *a = allow + ((size_t)d * P + w * 64 + __builtin_ctzll(bits)) * W;
                    for (int k = 0; k < W; k++) next[k] |= a[k];
                }
            uint64_t *u = dom + (size_t)j * W, left = 0;
            bool changed = false;
            for (int k = 0; k < W; k++) {
                changed |= (u[k] & next[k]) != u[k];
                u[k] &= next[k];
                left |= u[k];
            }
            if (!left) b->start_contradicts = true;
            if (changed && !queued[j]) {
                stack[size++] = j;
                queued[j] = 1;
            }
        }
    }
    mem_free(allow);
    mem_free(next);
    mem_free(stack);
    mem_free(queued);
    if (!ok || !any) mem_free(dom);
    b->start = ok && any ? dom : NULL;
    b->start_made = ok;
    return ok;
}
