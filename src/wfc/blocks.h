/* blocks.h — a big 2-D wave solved block by block (Merrell's "modifying in blocks"): each block, widened by a
   margin of cells already solved, is a small problem of its own whose edges the solved cells around it restrict;
   a block that fails is solved again with another seed and a wider margin. Memory follows the block, not the wave. */
#ifndef SMALTI_WFC_BLOCKS_H
#define SMALTI_WFC_BLOCKS_H
#include "wfc.h"

/* The smallest and largest block side (cells). */
#define WFC_BLOCKS_MIN 4
#define WFC_BLOCKS_MAX 4096
/* A block that fails is tried again this many times in all, its margin widened every second try. */
#define WFC_BLOCK_TRIES 8

/* Blocks are solved with the problem's backtrack, or this one when it has none: a block is small, and
   a failed block costs the margin around it too (Circuit 512² periodic: 1 output of 10 failed 8 tries of
   a block without backtracking, none with it). */
#define WFC_BLOCKS_BACKTRACK 2
int wfc_blocks_backtrack(const wfc_problem *whole);

/* What the caller allows at a cell of the whole wave before anything is solved (a ground row, fixed
   cells): clear possible[t] for each pattern t not allowed at whole-wave cell i. */
typedef void wfc_cell_rule(const void *ctx, int i, uint8_t *possible);

typedef struct wfc_blocks {
    const wfc_problem *whole;     /* prepared (its neighbours say which cells touch), 2-D, not the node's reference strategy */
    int side;                     /* a block's side in cells */
    wfc_cell_rule *rule;          /* NULL: every pattern everywhere */
    const void *rule_ctx;
    int32_t *chosen;              /* [i]: the pattern of whole-wave cell i, -1 while undecided (and outside the box) */
    run_stop *stop;               /* NULL: none; set by the caller */
    /* The last region's problem and solver, kept while the next region has the same links. The problem
       shares the whole one's propagator and weights; only its neighbours and cell classes are its own. */
    wfc_problem sub;
    wfc_solver solver;
    bool ready;
    /* What each whole-wave cell may start with, as bits (words per cell): the caller's rule and the lonely
       bans propagated over the whole wave once, as a whole-wave solver's start would have them, so that a
       block sees a ground row or a fixed cell far away. NULL while not made, or when nothing is banned. */
    uint64_t *start;
    int words;
    bool start_made, start_contradicts;
    int32_t *links;               /* scratch: the next region's neighbour table */
    uint8_t *possible;            /* scratch: [P] */
    int32_t *lonely;              /* d*P + t for each pattern t that nothing may neighbour in direction d */
    int lonely_count;
    /* Of the last wfc_blocks_solve. */
    long observations, backtracks, repairs;
    long retries;                 /* block solves that failed and were tried again */
} wfc_blocks;

/* false when out of memory (free it all the same). */
bool wfc_blocks_init(wfc_blocks *b, const wfc_problem *whole, int side, wfc_cell_rule *rule, const void *rule_ctx);
void wfc_blocks_free(wfc_blocks *b);
/* The bytes a wfc_blocks of whole takes at most, for a memory check before the load allocates. */
int64_t wfc_blocks_memory_estimate(const wfc_problem *whole, int side);
/* Solve the whole wave block by block in scan order, each block's seed drawn from `seed`: WFC_DONE with
   b->chosen all set inside the box, WFC_CONTRADICTION when a block failed every try, WFC_LIMIT after limit
   observations in all (limit < 0: none; what is decided so far is in b->chosen), WFC_STOPPED, WFC_NO_MEMORY. */
wfc_result wfc_blocks_solve(wfc_blocks *b, int32_t seed, long limit);
/* blocks_start.c: into b->possible, what whole-wave cell i may hold before any propagation (what the
   caller's rule allows, with a neighbour on each side where the whole wave has a cell); and b->start,
   that of every cell propagated over the whole wave (arc consistency on pattern bits), left NULL when
   no cell loses a pattern. False when out of memory or stopped; b->start_contradicts when a cell is left
   with none. */
void wfc_blocks_own_patterns(wfc_blocks *b, int i);
bool wfc_blocks_make_start(wfc_blocks *b);
#endif
