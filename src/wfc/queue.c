/* queue.c — the fast strategy's choice of the next cell: undecided cells grouped by equal key (entropy or
   option count), the least key's group found through a heap of groups, and a cell drawn uniformly from it. */
#include "wfc.h"
#include "../core/mem.h"
#include <math.h>
#include <stdlib.h>

/* Entropies of one set of patterns reached by different ban orders differ in
   their last bits; a key rounded to 1e-9 nats puts them in one group. */
static int64_t entropy_key(double e)
{
    return e > -1e6 && e < 1e6 ? (int64_t)llrint(e * 1e9) : INT64_MAX / 2;
}

int64_t wfc_queue_key(const wfc_problem *pb, const wfc_solver *s, int i)
{
    if (pb->heuristic != WFC_ENTROPY) return s->wave.sums_of_ones[i];
    double sum = s->wave.sums_of_weights[i];
    return entropy_key(log(sum) - s->wave.sums_of_weight_log_weights[i] / sum);
}

bool wfc_queue_init(wfc_queue *q, int cells)
{
    q->cell_group = mem_malloc((size_t)cells * sizeof *q->cell_group);
    q->cell_pos = mem_malloc((size_t)cells * sizeof *q->cell_pos);
    q->cell_key = mem_malloc((size_t)cells * sizeof *q->cell_key);
    q->table_cap = 1024;
    q->table = mem_malloc((size_t)q->table_cap * sizeof *q->table);
    return q->cell_group && q->cell_pos && q->cell_key && q->table;
}

void wfc_queue_free(wfc_queue *q)
{
    for (int32_t g = 0; g < q->groups_cap; g++) mem_free(q->groups[g].cells);
    mem_free(q->groups);
    mem_free(q->table);
    mem_free(q->heap);
    mem_free(q->cell_group);
    mem_free(q->cell_pos);
    mem_free(q->cell_key);
}

void wfc_queue_clear(wfc_queue *q, int cells)
{
    for (int32_t k = 0; k < q->table_cap; k++) q->table[k].group = -1;
    for (int i = 0; i < cells; i++) q->cell_group[i] = -1;
    q->groups_size = 0;
    q->heap_size = 0;
}

static uint32_t slot_of(int64_t key, int32_t cap)
{
    return (uint32_t)(((uint64_t)key * 0x9E3779B97F4A7C15ull) >> 32) & (uint32_t)(cap - 1);
}

static bool grow_table(wfc_queue *q)
{
    int32_t cap = q->table_cap * 2;
    wfc_keyed *table = mem_malloc((size_t)cap * sizeof *table);
    if (!table) return false;
    for (int32_t k = 0; k < cap; k++) table[k].group = -1;
    for (int32_t g = 0; g < q->groups_size; g++) {
        uint32_t k = slot_of(q->groups[g].key, cap);
        while (table[k].group >= 0) k = (k + 1) & (uint32_t)(cap - 1);
        table[k] = (wfc_keyed){q->groups[g].key, g};
    }
    mem_free(q->table);
    q->table = table;
    q->table_cap = cap;
    return true;
}

/* The group of a key, made when new; -1 when out of memory. */
static int32_t group_of(wfc_queue *q, int64_t key)
{
    uint32_t k = slot_of(key, q->table_cap);
    for (; q->table[k].group >= 0; k = (k + 1) & (uint32_t)(q->table_cap - 1))
        if (q->table[k].key == key) return q->table[k].group;
    if (2 * (q->groups_size + 1) > q->table_cap) {
        if (!grow_table(q)) return -1;
        return group_of(q, key);
    }
    if (q->groups_size == q->groups_cap) {
        int32_t cap = q->groups_cap ? 2 * q->groups_cap : 64;
        wfc_group *bigger = mem_realloc(q->groups, (size_t)cap * sizeof *bigger);
        if (!bigger) return -1;
        for (int32_t g = q->groups_cap; g < cap; g++) bigger[g] = (wfc_group){0};
        q->groups = bigger;
        q->groups_cap = cap;
    }
    int32_t g = q->groups_size++;
    q->groups[g].key = key;
    q->groups[g].count = 0;
    q->groups[g].in_heap = false;
    q->table[k] = (wfc_keyed){key, g};
    return g;
}

static void heap_push(wfc_queue *q, int32_t g)
{
    if (q->heap_size == q->heap_cap) {
        int32_t cap = q->heap_cap ? 2 * q->heap_cap : 64;
        wfc_keyed *bigger = mem_realloc(q->heap, (size_t)cap * sizeof *bigger);
        if (!bigger) return; /* out of memory: the group is not offered */
        q->heap = bigger;
        q->heap_cap = cap;
    }
    int64_t key = q->groups[g].key;
    int32_t k = q->heap_size++;
    while (k > 0 && q->heap[(k - 1) / 2].key > key) {
        q->heap[k] = q->heap[(k - 1) / 2];
        k = (k - 1) / 2;
    }
    q->heap[k] = (wfc_keyed){key, g};
    q->groups[g].in_heap = true;
}

static void heap_pop(wfc_queue *q)
{
    q->groups[q->heap[0].group].in_heap = false;
    wfc_keyed last = q->heap[--q->heap_size];
    int64_t key = last.key;
    int32_t k = 0;
    for (;;) {
        int32_t c = 2 * k + 1;
        if (c >= q->heap_size) break;
        if (c + 1 < q->heap_size && q->heap[c + 1].key < q->heap[c].key) c++;
        if (q->heap[c].key >= key) break;
        q->heap[k] = q->heap[c];
        k = c;
    }
    if (q->heap_size > 0) q->heap[k] = last;
}

void wfc_queue_prefetch(const wfc_queue *q, int32_t cell, int64_t key)
{
    int32_t g = q->cell_group[cell];
    if (g >= 0) {
        __builtin_prefetch(&q->groups[g]);
        __builtin_prefetch(&q->cell_key[cell]);
    }
    if (key != WFC_QUEUE_OUT) __builtin_prefetch(&q->table[slot_of(key, q->table_cap)]);
}

void wfc_queue_remove(wfc_queue *q, int32_t cell)
{
    int32_t g = q->cell_group[cell];
    if (g < 0) return;
    wfc_group *gr = &q->groups[g];
    int32_t pos = q->cell_pos[cell], moved = gr->cells[--gr->count];
    gr->cells[pos] = moved;
    q->cell_pos[moved] = pos;
    q->cell_group[cell] = -1;
}

void wfc_queue_put(wfc_queue *q, int32_t cell, int64_t key)
{
    if (q->cell_group[cell] >= 0 && q->cell_key[cell] == key) return;
    wfc_queue_remove(q, cell);
    int32_t g = group_of(q, key);
    if (g < 0) return;
    wfc_group *gr = &q->groups[g];
    if (gr->count == gr->cap) {
        int32_t cap = gr->cap ? 2 * gr->cap : 8;
        int32_t *bigger = mem_realloc(gr->cells, (size_t)cap * sizeof *bigger);
        if (!bigger) return;
        gr->cells = bigger;
        gr->cap = cap;
    }
    q->cell_pos[cell] = gr->count;
    gr->cells[gr->count++] = cell;
    q->cell_group[cell] = g;
    q->cell_key[cell] = key;
    if (!gr->in_heap) heap_push(q, g);
}

int32_t wfc_queue_pick(wfc_queue *q, rng *random)
{
    while (q->heap_size > 0 && q->groups[q->heap[0].group].count == 0) heap_pop(q);
    if (q->heap_size == 0) return -1;
    const wfc_group *gr = &q->groups[q->heap[0].group];
    return gr->cells[rng_next_max(random, gr->count)];
}
