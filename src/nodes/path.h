/* path.h — the `path` node's parts shared by its plain search (path.c) and its cheapest-path search (path_cost.c). */
#ifndef SMALTI_NODES_PATH_H
#define SMALTI_NODES_PATH_H
#include "nodes.h"
#include "../engine/run.h"

/* Costs of `on` values lie in 1..PATH_MAX_COST, so that a cheapest path's cost stays below 2^38 on
   the largest grid and the 0.1 noise that breaks ties between starts still counts in a double. */
#define PATH_MAX_COST 1000

typedef struct path_node {
    node base;
    wave_bits start, finish, substrate; /* waves of from, to and on */
    uint8_t value;                     /* what the path is drawn with */
    bool inertia, longest;
    bool diagonal;                     /* edges or vertices: steps may go diagonally */
    bool weighted;                     /* `costs` given: a cheapest path, not a shortest */
    /* What stepping into a cell of each value adds to its distance: 1 everywhere without costs (a
       step); with costs, 1 into a target, the value's cost into an `on` cell, 0 (never) otherwise. */
    int32_t weight[GRID_MAX_VALUES];
    int8_t (*steps)[3];                /* the neighbourhood, in the reference's order */
    int step_count;
} path_node;

typedef struct path_state {
    int64_t *distance;                 /* cost to the nearest target, -1 unreached */
    int32_t *queue;                    /* the frontier: a FIFO, or with costs a binary heap */
    int32_t *starts;                   /* from cells, in grid order */
    int32_t *heap_slot;                /* with costs: each cell's place in the heap, -1 if none */
    int32_t capacity;
} path_state;

typedef struct path_cell { int x, y, z; } path_cell;

static inline bool path_inside(const run_state *r, int x, int y, int z)
{
    return x >= 0 && y >= 0 && z >= 0 && x < r->mx && y < r->my && z < r->mz;
}

static inline int32_t path_index(const run_state *r, int x, int y, int z)
{
    return x + y * r->mx + z * r->mx * r->my;
}

static inline path_cell path_cell_of(const run_state *r, int32_t i)
{
    return (path_cell){i % r->mx, i / r->mx % r->my, i / (r->mx * r->my)};
}

/* Read `costs` (p's waves already loaded) into p->weight; false after a load error. */
bool path_load_costs(diag *d, const xmlNode *el, const grid_def *g, path_node *p);
/* Fill distance[] with the cheapest cost from each cell to a target (Dijkstra from every target),
   list the `from` cells in starts[] and their number in the return value, the targets' in
   *targets; -1 when the run must stop. */
int32_t path_search_costs(run_state *r, const path_node *p, path_state *st, int32_t *targets);
#endif
