/* search.c — best-first search over rule applications towards an observed goal (the reference's Search). */
#include "search.h"
#include "../core/rng.h"
#include "../core/mem.h"
#include <stdlib.h>
#include <string.h>

typedef struct board {
    uint8_t *state;
    int parent, depth, backward, forward;
} board;

typedef struct heap_item {
    double rank;
    int board;
} heap_item;

typedef struct search {
    const observe_goal *future;
    const potential_rules *pr;
    int mx, my, c;
    int64_t cells;
    double depth_coefficient;
    rng random;
    int32_t *bpotentials, *fpotentials;
    potential_scratch scratch;
    board *boards;
    int board_count, board_cap;
    int *table;                 /* open addressing: board index + 1, 0 = empty */
    int64_t table_size;
    heap_item *heap;
    int heap_count, heap_cap;
    run_stop *stop;             /* the run's deadline, work budget and cancel (NULL: none) */
    /* The board being expanded, and the outcome once a child reaches the goal. */
    int parent;
    int goal;
    bool failed;                /* out of memory */
} search;

static uint32_t state_hash(const uint8_t *s, int64_t n)
{
    uint32_t h = 2166136261u;
    for (int64_t i = 0; i < n; i++) h = (h ^ s[i]) * 16777619u;
    return h;
}

static int visited_find(const search *se, const uint8_t *state, uint32_t hash)
{
    for (int64_t k = hash & (se->table_size - 1);; k = (k + 1) & (se->table_size - 1)) {
        int b = se->table[k] - 1;
        if (b < 0) return -1;
        if (memcmp(se->boards[b].state, state, (size_t)se->cells) == 0) return b;
    }
}

static void visited_insert(search *se, int b)
{
    uint32_t hash = state_hash(se->boards[b].state, se->cells);
    int64_t k = hash & (se->table_size - 1);
    while (se->table[k]) k = (k + 1) & (se->table_size - 1);
    se->table[k] = b + 1;
}

static bool visited_grow(search *se)
{
    if ((int64_t)se->board_count * 2 < se->table_size) return true;
    int64_t size = se->table_size ? se->table_size * 2 : 1024;
    int *table = mem_calloc((size_t)size, sizeof *table);
    if (!table) return false;
    mem_free(se->table);
    se->table = table;
    se->table_size = size;
    for (int b = 0; b < se->board_count; b++) visited_insert(se, b);
    return true;
}

static double board_rank(search *se, const board *b)
{
    double rank = se->depth_coefficient < 0.0 ? 1000 - b->depth
                                               : b->forward + b->backward + 2.0 * se->depth_coefficient * b->depth;
    return rank + 0.0001 * rng_next_double(&se->random);
}

static bool heap_push(search *se, int b)
{
    if (se->heap_count == se->heap_cap) {
        int cap = se->heap_cap ? 2 * se->heap_cap : 256;
        heap_item *bigger = mem_realloc(se->heap, (size_t)cap * sizeof *bigger);
        if (!bigger) return false;
        se->heap = bigger;
        se->heap_cap = cap;
    }
    heap_item item = {board_rank(se, &se->boards[b]), b};
    int k = se->heap_count++;
    while (k > 0 && se->heap[(k - 1) / 2].rank > item.rank) {
        se->heap[k] = se->heap[(k - 1) / 2];
        k = (k - 1) / 2;
    }
    se->heap[k] = item;
    return true;
}

static int heap_pop(search *se)
{
    int top = se->heap[0].board;
    heap_item last = se->heap[--se->heap_count];
    int k = 0;
    for (;;) {
        int child = 2 * k + 1;
        if (child >= se->heap_count) break;
        if (child + 1 < se->heap_count && se->heap[child + 1].rank < se->heap[child].rank) child++;
        if (se->heap[child].rank >= last.rank) break;
        se->heap[k] = se->heap[child];
        k = child;
    }
    if (se->heap_count > 0) se->heap[k] = last;
    return top;
}

/* Consider one child state of the board being expanded; takes `state`.
   Returns false to stop generating children. */
static bool visit_child(search *se, uint8_t *state)
{
    uint32_t hash = state_hash(state, se->cells);
    int old = visited_find(se, state, hash);
    const int depth = se->boards[se->parent].depth + 1;
    if (old >= 0) {
        mem_free(state);
        board *b = &se->boards[old];
        if (depth < b->depth) {
            b->depth = depth;
            b->parent = se->parent;
            if (b->backward >= 0 && b->forward >= 0 && !heap_push(se, old)) { se->failed = true; return false; }
        }
        return true;
    }
    int backward = observe_backward_estimate(se->bpotentials, state, se->cells);
    int forward = observe_forward_estimate_of(se->fpotentials, state, se->future, se->pr, &se->scratch);
    /* The work budget: a new board's forward estimate propagates over every kept value, cell and rule.
       Checked here too, as an expansion makes many boards: an interrupted estimate is not used. */
    if (stop_check(se->stop, se->cells * (se->pr->rows + 1) * (se->pr->rule_count + 1))) { mem_free(state); return false; }
    if (backward < 0 || forward < 0) { mem_free(state); return true; }
    if (se->board_count == se->board_cap) {
        int cap = se->board_cap * 2;
        board *bigger = mem_realloc(se->boards, (size_t)cap * sizeof *bigger);
        if (!bigger) { mem_free(state); se->failed = true; return false; }
        se->boards = bigger;
        se->board_cap = cap;
    }
    int b = se->board_count++;
    se->boards[b] = (board){state, se->parent, depth, backward, forward};
    if (!visited_grow(se)) { se->failed = true; return false; }
    visited_insert(se, b);
    if (forward == 0) {
        se->goal = b;
        return false;
    }
    if (!heap_push(se, b)) { se->failed = true; return false; }
    return true;
}

static bool rule_fits_2d(const rule *rl, const uint8_t *state, int x, int y, int mx, int my)
{
    if (x + rl->imx > mx || y + rl->imy > my) return false;
    for (int dy = 0, k = 0; dy < rl->imy; dy++)
        for (int dx = 0; dx < rl->imx; dx++, k++)
            if (!((rl->input[k] >> state[x + dx + (y + dy) * mx]) & 1)) return false;
    return true;
}

static void write_rule_2d(const rule *rl, uint8_t *state, int x, int y, int mx)
{
    for (int dy = 0, k = 0; dy < rl->omy; dy++)
        for (int dx = 0; dx < rl->omx; dx++, k++)
            if (rl->output[k] != RULE_KEEP) state[x + dx + (y + dy) * mx] = rl->output[k];
}

/* Children by one rule application: rule by rule, corners in row order. */
static void one_children(search *se, const uint8_t *state)
{
    for (int ri = 0; ri < se->pr->rule_count; ri++) {
        const rule *rl = se->pr->rules[ri];
        /* Counted toward the clock only: search_run charged the expansion's scan. */
        if (stop_tick(se->stop, se->cells)) return;
        for (int y = 0; y < se->my; y++)
            for (int x = 0; x < se->mx; x++) {
                if (!rule_fits_2d(rl, state, x, y, se->mx, se->my)) continue;
                uint8_t *child = mem_malloc((size_t)se->cells);
                if (!child) { se->failed = true; return; }
                memcpy(child, state, (size_t)se->cells);
                write_rule_2d(rl, child, x, y, se->mx);
                if (!visit_child(se, child)) return;
            }
    }
}

/* Children of an `all` step: every way to cover the matched area with
   non-overlapping matches, enumerated as the reference does (exact cover,
   branching on the most covered cell). */
typedef struct tile {
    const rule *rl;
    int x, y;
} tile;

typedef struct cover_search {
    search *se;
    const uint8_t *state;
    tile *tiles;
    int tile_count;
    int *amounts;
    bool *shown;
    int *solution, solution_count;
    int *scratch;               /* per depth: intersecting tiles, tile_count each */
    bool stop;
} cover_search;

static bool tiles_overlap(const tile *a, const tile *b)
{
    return a->x < b->x + b->rl->imx && b->x < a->x + a->rl->imx && a->y < b->y + b->rl->imy && b->y < a->y + a->rl->imy;
}

static void tile_show(cover_search *cs, int l, bool show)
{
    const tile *t = &cs->tiles[l];
    cs->shown[l] = show;
    for (int dy = 0; dy < t->rl->imy; dy++)
        for (int dx = 0; dx < t->rl->imx; dx++) cs->amounts[t->x + dx + (t->y + dy) * cs->se->mx] += show ? 1 : -1;
}

static void enumerate_covers(cover_search *cs, int depth)
{
    search *se = cs->se;
    int best = -1, max = -1;
    for (int64_t i = 0; i < se->cells; i++)
        if (cs->amounts[i] > 0 && cs->amounts[i] > max) {
            max = cs->amounts[i];
            best = (int)i;
        }
    if (best < 0) {
        uint8_t *child = mem_malloc((size_t)se->cells);
        if (!child) { se->failed = true; cs->stop = true; return; }
        memcpy(child, cs->state, (size_t)se->cells);
        for (int k = 0; k < cs->solution_count; k++) {
            const tile *t = &cs->tiles[cs->solution[k]];
            write_rule_2d(t->rl, child, t->x, t->y, se->mx);
        }
        if (!visit_child(se, child)) cs->stop = true;
        return;
    }
    int bx = best % se->mx, by = best / se->mx;
    int *cover = cs->scratch + (int64_t)depth * 2 * cs->tile_count, cover_count = 0;
    int *intersecting = cover + cs->tile_count;
    for (int l = 0; l < cs->tile_count; l++) {
        const tile *t = &cs->tiles[l];
        if (cs->shown[l] && t->x <= bx && bx < t->x + t->rl->imx && t->y <= by && by < t->y + t->rl->imy)
            cover[cover_count++] = l;
    }
    for (int k = 0; k < cover_count && !cs->stop; k++) {
        const tile *chosen = &cs->tiles[cover[k]];
        cs->solution[cs->solution_count++] = cover[k];
        int count = 0;
        for (int l = 0; l < cs->tile_count; l++)
            if (cs->shown[l] && tiles_overlap(chosen, &cs->tiles[l])) intersecting[count++] = l;
        for (int m = 0; m < count; m++) tile_show(cs, intersecting[m], false);
        enumerate_covers(cs, depth + 1);
        for (int m = 0; m < count; m++) tile_show(cs, intersecting[m], true);
        cs->solution_count--;
    }
}

static void all_children(search *se, const uint8_t *state)
{
    cover_search cs = {.se = se, .state = state};
    int cap = 0;
    for (int64_t i = 0; i < se->cells; i++)
        for (int ri = 0; ri < se->pr->rule_count; ri++) {
            const rule *rl = se->pr->rules[ri];
            int x = (int)(i % se->mx), y = (int)(i / se->mx);
            if (!rule_fits_2d(rl, state, x, y, se->mx, se->my)) continue;
            if (cs.tile_count == cap) {
                cap = cap ? 2 * cap : 64;
                tile *bigger = mem_realloc(cs.tiles, (size_t)cap * sizeof *bigger);
                if (!bigger) { se->failed = true; mem_free(cs.tiles); return; }
                cs.tiles = bigger;
            }
            cs.tiles[cs.tile_count++] = (tile){rl, x, y};
        }
    int n = cs.tile_count;
    cs.amounts = mem_calloc((size_t)(se->cells > 0 ? se->cells : 1), sizeof *cs.amounts);
    cs.shown = mem_malloc((size_t)(n ? n : 1) * sizeof *cs.shown);
    cs.solution = mem_malloc((size_t)(n ? n : 1) * sizeof *cs.solution);
    /* Every level of the recursion hides at least the tile it chooses. */
    cs.scratch = mem_malloc((size_t)(n + 1) * 2 * (n ? n : 1) * sizeof *cs.scratch);
    if (!cs.amounts || !cs.shown || !cs.solution || !cs.scratch) se->failed = true;
    else {
        for (int l = 0; l < n; l++) tile_show(&cs, l, true);
        enumerate_covers(&cs, 0);
    }
    mem_free(cs.tiles);
    mem_free(cs.amounts);
    mem_free(cs.shown);
    mem_free(cs.solution);
    mem_free(cs.scratch);
}

search_result search_run(const uint8_t *present, const observe_goal *future, const potential_rules *pr, int mx, int my,
                         bool all, int limit, double depth_coefficient, int32_t seed, run_stop *stop)
{
    search_result res = {0};
    search se = {.future = future, .pr = pr, .mx = mx, .my = my, .c = pr->c, .cells = (int64_t)mx * my,
                 .depth_coefficient = depth_coefficient, .stop = stop, .goal = -1};
    rng_seed(&se.random, seed);
    /* Every value has its row (rulenode_load_inference keeps them all for search). */
    se.bpotentials = mem_malloc((size_t)(pr->rows * se.cells) * sizeof *se.bpotentials);
    se.fpotentials = mem_malloc((size_t)(pr->rows * se.cells) * sizeof *se.fpotentials);
    se.board_cap = 64;
    se.boards = mem_malloc((size_t)se.board_cap * sizeof *se.boards);
    uint8_t *root = mem_malloc((size_t)se.cells);
    if (!se.bpotentials || !se.fpotentials || !se.boards || !root || !potential_scratch_init(&se.scratch, pr, se.cells)) {
        mem_free(root);
        res.out_of_memory = true;
        goto done;
    }
    memcpy(root, present, (size_t)se.cells);
    se.scratch.stop = stop;
    observe_backward_potentials(se.bpotentials, future, pr, &se.scratch);
    int root_backward = observe_backward_estimate(se.bpotentials, present, se.cells);
    int root_forward = observe_forward_estimate_of(se.fpotentials, present, future, pr, &se.scratch);
    if (stop_said(stop)) { mem_free(root); res.stopped = true; goto done; }
    if (root_backward < 0 || root_forward < 0) { mem_free(root); goto done; } /* the goal cannot be reached */
    if (root_backward == 0) { mem_free(root); res.found = true; goto done; }
    se.boards[se.board_count++] = (board){root, -1, 0, root_backward, root_forward};
    if (!visited_grow(&se) || !heap_push(&se, 0)) { res.out_of_memory = true; goto done; }
    visited_insert(&se, 0);
    while (se.heap_count > 0 && (limit < 0 || se.board_count < limit)) {
        /* A board's expansion tries every rule at every cell. */
        if (stop_check(stop, se.cells * (se.pr->rule_count + 1))) {
            res.stopped = true;
            break;
        }
        se.parent = heap_pop(&se);
        if (all) all_children(&se, se.boards[se.parent].state);
        else one_children(&se, se.boards[se.parent].state);
        if (se.failed) { res.out_of_memory = true; break; }
        if (stop_said(stop)) { res.stopped = true; break; } /* mid-expansion: no trajectory */
        if (se.goal >= 0) break;
    }
    if (se.goal >= 0) {
        int length = 0;
        for (int b = se.goal; se.boards[b].parent >= 0; b = se.boards[b].parent) length++;
        res.states = mem_calloc((size_t)length + 1, sizeof *res.states);
        if (!res.states) { res.out_of_memory = true; goto done; }
        int k = length;
        for (int b = se.goal; se.boards[b].parent >= 0; b = se.boards[b].parent) {
            res.states[--k] = se.boards[b].state;
            se.boards[b].state = NULL; /* handed over to the result */
        }
        res.length = length;
        res.found = true;
    }
done:
    for (int b = 0; b < se.board_count; b++) mem_free(se.boards[b].state);
    mem_free(se.boards);
    mem_free(se.table);
    mem_free(se.heap);
    mem_free(se.bpotentials);
    mem_free(se.fpotentials);
    potential_scratch_free(&se.scratch);
    return res;
}

void search_result_free(search_result *res)
{
    for (int k = 0; k < res->length; k++) mem_free(res->states[k]);
    mem_free(res->states);
    memset(res, 0, sizeof *res);
}
