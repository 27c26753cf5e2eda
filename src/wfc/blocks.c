/* blocks.c — solving a big 2-D wave block by block: each region (a block and its margin of solved cells) becomes a
   small wave of its own, started from what the solved cells around it allow, and solved with the whole problem's
   propagator by wfc_solve (backtracking and repair included when the problem has them). */
#include "blocks.h"
#include "../core/mem.h"
#include <string.h>

/* A region: w x h whole-wave cells from (x0, y0), round the edges of a periodic wave (x0, y0 >= 0). */
typedef struct region {
    int x0, y0, w, h;
} region;

/* The box of pattern origins: the whole wave when periodic, else where a whole pattern fits. */
static int box_width(const wfc_problem *pb) { return pb->periodic ? pb->mx : pb->mx - pb->N + 1; }
static int box_height(const wfc_problem *pb) { return pb->periodic ? pb->my : pb->my - pb->N + 1; }

/* A margin of a quarter block into the solved cells, widened by as much every second try; a region is thus
   at most three times the side across (a margin on both sides). */
static int margin_for(int side, int attempt)
{
    int base = side / 4 > 1 ? side / 4 : 1;
    return base * (1 + attempt / 2);
}

static int64_t largest_region(const wfc_problem *whole, int side)
{
    int64_t across = (int64_t)side + 2 * (int64_t)margin_for(side, WFC_BLOCK_TRIES - 1);
    int64_t w = across < box_width(whole) ? across : box_width(whole), h = across < box_height(whole) ? across : box_height(whole);
    return w * h;
}

int wfc_blocks_backtrack(const wfc_problem *whole) { return whole->backtrack > 0 ? whole->backtrack : WFC_BLOCKS_BACKTRACK; }

int64_t wfc_blocks_memory_estimate(const wfc_problem *whole, int side)
{
    wfc_problem sub = *whole;
    int64_t cells = largest_region(whole, side);
    sub.cells = (int)cells;
    sub.backtrack = wfc_blocks_backtrack(whole);
    /* The region's solver, its neighbour tables (twice); per whole-wave cell its chosen pattern, and while the
       start is made its pattern bits, a place on the stack and a mark. */
    int64_t per_cell = (int64_t)sizeof(int32_t) + (whole->P + 63) / 64 * 8 + (int64_t)sizeof(int32_t) + 1;
    int64_t allow = (int64_t)whole->D * whole->P * ((whole->P + 63) / 64) * 8; /* make_start's table of what may neighbour what */
    return wfc_memory_estimate(&sub) + 2 * cells * whole->D * (int64_t)sizeof(int32_t) + (int64_t)whole->cells * per_cell + allow;
}

bool wfc_blocks_init(wfc_blocks *b, const wfc_problem *whole, int side, wfc_cell_rule *rule, const void *rule_ctx)
{
    memset(b, 0, sizeof *b);
    b->whole = whole;
    b->side = side;
    b->rule = rule;
    b->rule_ctx = rule_ctx;
    int64_t most = largest_region(whole, side);
    b->chosen = mem_malloc((size_t)whole->cells * sizeof *b->chosen);
    b->links = mem_malloc((size_t)most * whole->D * sizeof *b->links);
    b->possible = mem_malloc((size_t)whole->P);
    b->lonely = mem_malloc((size_t)whole->D * whole->P * sizeof *b->lonely);
    if (!b->chosen || !b->links || !b->possible || !b->lonely) return false;
    for (int k = 0; k < whole->D * whole->P; k++)
        if (whole->prop_start[k + 1] == whole->prop_start[k]) b->lonely[b->lonely_count++] = k;
    return true;
}

/* Drop the region's solver and its problem's own tables (the rest is the whole problem's). */
static void drop_region(wfc_blocks *b)
{
    if (!b->ready) return;
    wfc_solver_free(&b->solver);
    mem_free(b->sub.neighbours);
    mem_free(b->sub.cell_class);
    b->ready = false;
}

void wfc_blocks_free(wfc_blocks *b)
{
    drop_region(b);
    mem_free(b->chosen);
    mem_free(b->start);
    mem_free(b->links);
    mem_free(b->lonely);
    mem_free(b->possible);
}

/* Whole-wave cell i's place in region r (kx, ky), or false when it lies outside. */
static bool place(const wfc_problem *pb, const region *r, int i, int *kx, int *ky)
{
    int W = box_width(pb), H = box_height(pb);
    *kx = i % pb->mx - r->x0;
    *ky = i / pb->mx - r->y0;
    if (*kx < 0) *kx += W;
    if (*ky < 0) *ky += H;
    return *kx < r->w && *ky < r->h;
}

/* The whole-wave cell of region r's cell (kx, ky). */
static int cell_of(const wfc_problem *pb, const region *r, int kx, int ky)
{
    int x = r->x0 + kx, y = r->y0 + ky, W = box_width(pb), H = box_height(pb);
    return (x < W ? x : x - W) + (y < H ? y : y - H) * pb->mx;
}

/* The region's neighbour table into b->links: the whole wave's links between two cells of the region
   (a periodic wave's wrap included), -1 for a link that leaves it. */
static void region_links(wfc_blocks *b, const region *r)
{
    const wfc_problem *pb = b->whole;
    int D = pb->D;
    size_t at = 0;
    for (int ky = 0; ky < r->h; ky++)
        for (int kx = 0; kx < r->w; kx++)
            for (int d = 0; d < D; d++, at++) {
                int j = pb->neighbours[(size_t)cell_of(pb, r, kx, ky) * D + d], jx, jy;
                b->links[at] = j >= 0 && place(pb, r, j, &jx, &jy) ? jx + jy * r->w : -1;
            }
}

/* A problem and solver for the region, kept from the last region when its links are the same. */
static bool prepare_region(wfc_blocks *b, const region *r)
{
    const wfc_problem *pb = b->whole;
    int w = r->w, h = r->h, cells = w * h;
    region_links(b, r);
    size_t links = (size_t)cells * pb->D * sizeof *b->links;
    bool same = b->ready && b->sub.mx == w && b->sub.my == h && memcmp(b->sub.neighbours, b->links, links) == 0;
    if (!same) {
        drop_region(b);
        b->sub = *pb;
        b->sub.mx = w;
        b->sub.my = h;
        b->sub.mz = 1;
        b->sub.cells = cells;
        /* Every cell of the region is an origin of a whole pattern: no box inside it. */
        b->sub.N = 1;
        b->sub.periodic = false;
        b->sub.cell_class = NULL;
        b->sub.backtrack = wfc_blocks_backtrack(pb);
        b->sub.neighbours = mem_malloc(links);
        if (pb->cell_class) b->sub.cell_class = mem_malloc((size_t)cells);
        if (!b->sub.neighbours || (pb->cell_class && !b->sub.cell_class)) {
            mem_free(b->sub.neighbours);
            mem_free(b->sub.cell_class);
            return false;
        }
        memcpy(b->sub.neighbours, b->links, links);
        b->ready = true;
        if (!wfc_solver_init(&b->solver, &b->sub)) {
            drop_region(b);
            return false;
        }
    }
    if (pb->cell_class)
        for (int ky = 0; ky < h; ky++)
            for (int kx = 0; kx < w; kx++) b->sub.cell_class[kx + ky * w] = pb->cell_class[cell_of(pb, r, kx, ky)];
    b->solver.stop = b->stop;
    return true;
}

/* The patterns region cell k (whole cell i) may start with: those of b->start (or own_patterns), that the
   solved cells around the region accept. */
static void start_patterns(wfc_blocks *b, const region *r, int i)
{
    const wfc_problem *pb = b->whole;
    int P = pb->P, D = pb->D, jx, jy;
    if (b->start) {
        const uint64_t *v = b->start + (size_t)i * b->words;
        for (int t = 0; t < P; t++) b->possible[t] = (uint8_t)(v[t / 64] >> (t % 64) & 1);
    } else wfc_blocks_own_patterns(b, i);
    for (int d = 0; d < D; d++) {
        int j = pb->neighbours[(size_t)i * D + d];
        if (j < 0 || place(pb, r, j, &jx, &jy) || b->chosen[j] < 0) continue;
        /* t may stay when it may sit on the opposite side of the solved neighbour's pattern. */
        int o = wfc_opposite[d] * P + b->chosen[j];
        uint8_t *keep = b->possible;
        for (int t = 0; t < P; t++) keep[t] = keep[t] ? 2 : 0;
        for (int32_t k = pb->prop_start[o]; k < pb->prop_start[o + 1]; k++)
            if (keep[pb->prop_data[k]]) keep[pb->prop_data[k]] = 1;
        for (int t = 0; t < P; t++)
            if (keep[t] == 2) keep[t] = 0;
    }
}

/* The region's start wave: cleared, restricted as start_patterns says, propagated and saved. WFC_DONE when
   it can be solved from, WFC_CONTRADICTION when the restrictions already contradict. */
static wfc_result start_region(wfc_blocks *b, const region *r)
{
    const wfc_problem *sub = &b->sub;
    wfc_solver *s = &b->solver;
    int P = sub->P;
    if (!wfc_solver_clear(s, sub)) return WFC_STOPPED;
    for (int ky = 0; ky < r->h; ky++)
        for (int kx = 0; kx < r->w; kx++) {
            int k = kx + ky * r->w;
            start_patterns(b, r, cell_of(b->whole, r, kx, ky));
            for (int t = 0; t < P; t++)
                if (!b->possible[t] && s->wave.data[(size_t)k * P + t]) wfc_ban(sub, s, k, t);
        }
    bool ok = wfc_propagate(sub, s);
    if (s->out_of_memory) return WFC_NO_MEMORY;
    if (s->stopped) return WFC_STOPPED;
    if (!ok || s->contradiction) return WFC_CONTRADICTION;
    for (int k = 0; k < sub->cells; k++)
        if (s->wave.sums_of_ones[k] == 0) return WFC_CONTRADICTION;
    return wfc_solver_save_start(s, sub) ? WFC_DONE : WFC_STOPPED;
}

/* The decided cells of the region's wave into b->chosen (all of them after a solve that is done). */
static void keep_region(wfc_blocks *b, const region *r)
{
    const wfc_solver *s = &b->solver;
    int P = b->sub.P;
    for (int ky = 0; ky < r->h; ky++)
        for (int kx = 0; kx < r->w; kx++) {
            int k = kx + ky * r->w;
            if (s->wave.sums_of_ones[k] != 1) continue;
            const uint8_t *v = s->wave.data + (size_t)k * P;
            int t = 0;
            while (t < P - 1 && !v[t]) t++;
            b->chosen[cell_of(b->whole, r, kx, ky)] = t;
        }
}

/* A block's own seed from the output's, the block's number and the try (splitmix64's mixing), in [0, 2^31). */
static int32_t block_seed(int32_t seed, int block, int attempt)
{
    uint64_t z = (uint64_t)(uint32_t)seed << 32 ^ (uint64_t)(uint32_t)block << 4 ^ (uint64_t)(uint32_t)attempt;
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (int32_t)(z >> 33);
}

/* One side of a region: the block's cells [lo, lo + B) of a side of `total` (fewer for the last block), with
   `before` cells before (not past 0) and `after` cells after (round to the start of a periodic side, else not
   past its end). */
static void span(int lo, int B, int before, int after, int total, bool periodic, int *start, int *length)
{
    int a = lo - before > 0 ? lo - before : 0, end = (lo + B < total ? lo + B : total) + after;
    if (!periodic && end > total) end = total;
    if (end - a > total) end = a + total;
    *start = a;
    *length = end - a;
}

/* Solve block (bx, by) of the box, its margin reaching left and up into cells already solved; after two
   failures also right and down, where a periodic wave's first blocks (or cells not yet solved) lie. */
static wfc_result solve_block(wfc_blocks *b, int bx, int by, int number, int32_t seed, long *left)
{
    const wfc_problem *pb = b->whole;
    int B = b->side, W = box_width(pb), H = box_height(pb);
    for (int attempt = 0; attempt < WFC_BLOCK_TRIES; attempt++) {
        if (attempt > 0) b->retries++;
        /* The last blocks of a periodic wave meet the first ones round the edge: their margin goes
           both ways from the first try (without it, Flowers 512² with ground tried each of them 3 times). */
        int m = margin_for(B, attempt), wide = attempt >= 2;
        int after_x = wide || (pb->periodic && (bx + 1) * B >= W) ? m : 0, after_y = wide || (pb->periodic && (by + 1) * B >= H) ? m : 0;
        region r;
        span(bx * B, B, m, after_x, W, pb->periodic, &r.x0, &r.w);
        span(by * B, B, m, after_y, H, pb->periodic, &r.y0, &r.h);
        if (!prepare_region(b, &r)) return WFC_NO_MEMORY;
        wfc_result res = start_region(b, &r);
        if (res == WFC_CONTRADICTION) continue;
        if (res != WFC_DONE) return res;
        res = wfc_solve(&b->sub, &b->solver, block_seed(seed, number, attempt), *left);
        b->observations += b->solver.observations;
        b->backtracks += b->solver.backtracks;
        b->repairs += b->solver.repairs;
        if (*left >= 0) *left -= b->solver.observations < *left ? b->solver.observations : *left;
        if (res == WFC_DONE || res == WFC_LIMIT) keep_region(b, &r);
        if (res != WFC_CONTRADICTION) return res;
    }
    return WFC_CONTRADICTION;
}

wfc_result wfc_blocks_solve(wfc_blocks *b, int32_t seed, long limit)
{
    const wfc_problem *pb = b->whole;
    b->observations = b->backtracks = b->repairs = b->retries = 0;
    for (int i = 0; i < pb->cells; i++) b->chosen[i] = -1;
    if (!b->start_made && !wfc_blocks_make_start(b)) return stop_said(b->stop) ? WFC_STOPPED : WFC_NO_MEMORY;
    if (b->start_contradicts) return WFC_CONTRADICTION;
    int B = b->side, W = box_width(pb), H = box_height(pb);
    int across = (W + B - 1) / B, down = (H + B - 1) / B;
    long left = limit;
    for (int by = 0; by < down; by++)
        for (int bx = 0; bx < across; bx++) {
            if (stop_requested(b->stop)) return WFC_STOPPED;
            if (left == 0) return WFC_LIMIT;
            wfc_result res = solve_block(b, bx, by, bx + by * across, seed, &left);
            if (res != WFC_DONE) return res;
        }
    return WFC_DONE;
}
