/* wfc.h — the WFC module: a problem (patterns, weights, which may neighbour which), a solver that collapses
   its wave by one of two strategies, backtracking and repair, density weights, and overlap pattern extraction.
   The `wfc` node (src/nodes) and the classic `smalti wfc` command (classic.h) both build on it. */
#ifndef SMALTI_WFC_H
#define SMALTI_WFC_H
#include <stdbool.h>
#include <stdint.h>
#include "../core/diag.h"
#include "../core/resource.h"
#include "../core/rng.h"
#include "../core/stop.h"
#include "../core/symmetry.h"

/* The six directions as the reference numbers them: +x, +y, -x, -y, +z, -z. */
extern const int wfc_dx[6], wfc_dy[6], wfc_dz[6], wfc_opposite[6];

/* How the solver picks the next cell: least Shannon entropy, fewest remaining
   options (both with a little noise against ties), or the first undecided in scan order. */
/* The largest backtrack attribute (a sanity bound; a value above the number of cells never limits). */
#define WFC_MAX_BACKTRACK 1000000
/* The most outputs one sample list entry asks for (screenshots, --runs). */
#define WFC_MAX_OUTPUTS (1 << 20)

typedef enum wfc_heuristic { WFC_ENTROPY, WFC_MRV, WFC_SCANLINE } wfc_heuristic;

/* A WFC problem: the wave's size, P patterns with weights, and which pattern
   may neighbour which. Shared by the `wfc` node and the classic `smalti wfc` command. */
typedef struct wfc_problem {
    int mx, my, mz;           /* the grid the wave covers */
    int cells;
    int P;                    /* patterns (overlap) or tile variants (tile) */
    int N;                    /* pattern side; 1 for tiles */
    int D;                    /* directions: 4 (2-D) or 6 (3-D) */
    bool periodic;
    wfc_heuristic heuristic;
    /* The solver's strategy (wfc_solver_init picks it once from this):
       the fast one picks cells from a queue of groups of equal entropy, drawing
       uniformly in the least group, and notices a contradiction at any cell:
       the classic command's. The `wfc` node uses the reference strategy, which
       scans the whole grid with fresh noise per candidate and looks only at
       cell 0, as the reference does, so that its runs match the reference's. */
    bool fast;
    /* On a contradiction, take back the latest decision, forbid what it chose
       and go on; only the `backtrack` most recent decisions can be taken back.
       When that is not enough, clear the area around the contradiction and
       solve it again (wider when trouble returns there), up to cells/8 times.
       0: none, an attempt ends at its first contradiction (the reference). */
    int backtrack;
    /* Set by wfc_set_propagator: an emptied cell provably empties the whole
       wave, so an attempt can stop at the first one with the reference's result. */
    bool contradiction_spreads;
    /* Set by wfc_set_propagator: t2 is in propagator[d][t1] exactly when t1 is
       in propagator[opposite d][t2], so a cell down to one pattern c leaves
       each neighbour exactly the supports that c gives (see restrict_neighbours). */
    bool symmetric;
    /* Keep support counts even where sets of possible patterns would do
       (wfc_bit_domains): for tests that compare the two. */
    bool counts_only;
    /* The fast strategy by pattern sets instead of support counts (sets.c): opt-in, for the classic
       command's propagation="sets"; valid outputs, but not those of the counts for the same seed. */
    bool sets;
    /* Set by wfc_problem_prepare: [i*D + d] the cell that propagation from
       cell i reaches in direction d, or -1 (past a non-periodic edge). */
    int32_t *neighbours;
    /* propagator[d][t] = prop_data[prop_start[d*P+t] .. prop_start[d*P+t+1]) */
    int32_t *prop_start, *prop_data;
    int32_t *initial_compatible;  /* [d*P + t]: |propagator[opposite d][t]| */
    double *weights, *weight_log_weights;
    double sum_of_weights, sum_of_weight_log_weights, starting_entropy;
    /* Per-cell weights (a density picture, wfc_set_density): cell i is of
       class cell_class[i], and pattern t weighs class_weights[class*P + t]
       there. NULL in every reference model: weights[t] everywhere. */
    uint8_t *cell_class;
    int classes;
    double *class_weights, *class_weight_log_weights;
    double *class_sum_of_weights, *class_sum_of_weight_log_weights, *class_starting_entropy;
} wfc_problem;

/* The weights of the P patterns at cell i, and their w*log(w) (entropy heuristic only). */
static inline const double *wfc_weights_at(const wfc_problem *pb, int i)
{
    return pb->cell_class ? pb->class_weights + (size_t)pb->cell_class[i] * pb->P : pb->weights;
}
static inline const double *wfc_weight_log_weights_at(const wfc_problem *pb, int i)
{
    return pb->cell_class ? pb->class_weight_log_weights + (size_t)pb->cell_class[i] * pb->P : pb->weight_log_weights;
}
/* A count of supports: at most P, which loaders keep to WFC_MAX_PATTERNS. */
typedef uint16_t wfc_count;
#define WFC_MAX_PATTERNS 65535
/* Without backtracking, when no count starts above this, the counts take a
   byte each (wfc_wave.narrow): half the memory to go through. A banned
   pattern's counts are zeroed and may wrap below 0; they never come back to 0. */
#define WFC_NARROW_MAX 254

/* The wave and its bookkeeping. */
typedef struct wfc_wave {
    uint8_t *data;               /* [i*P + t]: pattern t still possible at cell i */
    wfc_count *compatible;       /* [(i*D + d)*P + t]: supports of t at i from direction d */
    uint8_t *narrow;             /* the same in bytes, instead (wfc_narrow_counts) */
    uint64_t *bits;              /* [i*W + t/64] bit t%64: the same as data, instead of counts (wfc_set_words) */
    int32_t *sums_of_ones;
    double *sums_of_weights, *sums_of_weight_log_weights, *entropies;
} wfc_wave;

/* The fast mode's queue: undecided cells in groups of equal key, a min-heap of groups. */
typedef struct wfc_group {
    int64_t key;
    int32_t *cells;
    int32_t count, cap;
    bool in_heap;
} wfc_group;

/* A key with its group, as the table and the heap hold them (no look into the group to compare keys). */
typedef struct wfc_keyed {
    int64_t key;
    int32_t group;               /* -1: an empty slot of the table */
} wfc_keyed;

typedef struct wfc_queue {
    wfc_group *groups;
    int32_t groups_size, groups_cap;
    wfc_keyed *table;            /* open addressing: key -> group */
    int32_t table_cap;
    wfc_keyed *heap;
    int32_t heap_size, heap_cap;
    int32_t *cell_group, *cell_pos; /* -1: the cell is in no group */
    int64_t *cell_key;           /* the key of the cell's group, when it is in one */
} wfc_queue;

/* A decision that can be taken back: the cell, what it chose, where its bans start on the trail. */
typedef struct wfc_decision {
    int32_t cell, chosen;
    int64_t trail_at;
} wfc_decision;

typedef struct wfc_solver wfc_solver;

/* How a solver bans, propagates and collapses: the reference strategy or the
   fast one (see wfc_problem.fast), each compiled for its weight bookkeeping and
   with or without the trail of backtracking. wfc_solver_init picks one; no
   mode is tested inside a ban (propagate.c). */
typedef struct wfc_strategy {
    const char *name;
    void (*ban)(const wfc_problem *pb, wfc_solver *s, int i, int t);
    void (*unban)(const wfc_problem *pb, wfc_solver *s, int i, int t);
    bool (*propagate)(const wfc_problem *pb, wfc_solver *s);
    /* Ban every pattern of cell i but `chosen`; the cell's weights are then set once. */
    void (*collapse)(const wfc_problem *pb, wfc_solver *s, int i, int chosen);
    int (*next_cell)(const wfc_problem *pb, wfc_solver *s, rng *random);
} wfc_strategy;
/* The strategy for a problem: by pb->fast, pb->heuristic, pb->backtrack > 0 and wfc_narrow_counts. */
const wfc_strategy *wfc_strategy_for(const wfc_problem *pb);
/* Whether the support counts of pb take a byte each (see WFC_NARROW_MAX). */
bool wfc_narrow_counts(const wfc_problem *pb);
/* Whether pb's solver keeps each cell's possible patterns as bits and no
   support counts (domains.c): the reference strategy with fewest options or
   scanline, no backtracking, a symmetric propagator, at most
   WFC_BITS_MAX_PATTERNS patterns (one word per cell). */
#define WFC_BITS_MAX_PATTERNS 64
bool wfc_bit_domains(const wfc_problem *pb);
/* Its two strategies: [0] fewest options, [1] scanline. */
extern const wfc_strategy wfc_bits_strategies[2];
/* Whether pb's solver is the fast strategy by pattern sets (sets.c): pb->sets, the fast strategy, no
   backtracking and at most WFC_SETS_MAX_PATTERNS patterns (loaders refuse the rest with a message). */
#define WFC_SETS_MAX_PATTERNS 256
bool wfc_set_domains(const wfc_problem *pb);
/* Its strategies by heuristic: [0] entropy, [1] fewest options, [2] scanline. */
extern const wfc_strategy wfc_sets_strategies[3];
/* The words of pattern bits per cell of pb's wave: 1 (wfc_bit_domains), ceil(P/64) (wfc_set_domains), else 0. */
int wfc_set_words(const wfc_problem *pb);
/* Whether propagation reaches cell i: in a non-periodic grid, only cells
   where a whole pattern fits receive it. */
static inline bool wfc_cell_in_box(const wfc_problem *pb, int i)
{
    int x = i % pb->mx, y = (i / pb->mx) % pb->my;
    return pb->periodic || (x + pb->N <= pb->mx && y + pb->N <= pb->my);
}

/* A solver's working memory: the wave, the wave to start each attempt from, the stack of bans. */
struct wfc_solver {
    const wfc_strategy *strategy;
    wfc_wave wave, start;
    bool start_borrowed;         /* start is another solver's (wfc_solver_init_sharing): never written or freed here */
    bool start_clear;            /* the start is the cleared wave, which restarts make instead of copying start */
    int32_t *stack;              /* (cell, pattern) pairs */
    int64_t stack_size, stack_cap;
    double *distribution;
    int scan_from;               /* the Scanline heuristic's next cell */
    /* fast mode: the queue, the cells whose key changed since it last saw them,
       and whether some cell ran out of patterns. */
    wfc_queue queue;
    int32_t *dirty;
    int64_t dirty_size;
    uint8_t *is_dirty;
    int64_t *dirty_keys;         /* the new keys of the dirty cells, WFC_QUEUE_OUT: none */
    bool contradiction;
    bool queue_built;            /* the queue holds every cell of this attempt */
    /* A ban could not be recorded (the stack or trail could not grow): the
       attempt stops at once and wfc_solve says WFC_NO_MEMORY. */
    bool out_of_memory;
    /* The run's deadline and cancel flag (NULL: none), set by the caller: checked once per observation,
       inside a propagation (every WFC_PROPAGATE_CHECK cells it reaches, or bans it takes from the
       stack in the reference strategy) and after every band of a reset. */
    run_stop *stop;
    /* A propagation ended because s->stop said so (it returned false, as at a contradiction). */
    bool stopped;
    /* [i]: c + 1 once cell i, down to pattern c, restricted its neighbours
       directly; 0 otherwise. NULL for the node's Shannon heuristic. */
    int32_t *singleton;
    /* backtracking: every ban of this attempt in order, the bans a
       contradiction left unpropagated, and the decisions still open. */
    int32_t *trail;              /* (cell, pattern) pairs */
    int64_t trail_size, trail_cap;
    uint8_t *unpropagated;       /* [i*P + t] */
    wfc_decision *decisions;
    int32_t decisions_size;
    int32_t decisions_floor;     /* decisions below this one are final */
    int32_t conflict_cell;       /* the cell whose emptying stopped the last propagation */
    int32_t *area;               /* the cells a repair clears */
    /* The propagator as one list per pattern (all directions, in the order
       the per-direction loop visits them), for a cell whose D neighbours all
       lie at i + delta[d] (regular[i]): a list entry is the offset of the
       support count it lowers from the banning cell's counts, and
       flat_info[k] = d << 16 | t2 says which it is. */
    int32_t *flat_start, *flat_offset;
    uint32_t *flat_info;
    uint8_t *regular;
    int32_t delta[6];
    const int32_t **candidates;  /* the list entries one ban brought to 0 (into flat_offset) */
    uint8_t *supported;          /* [t] scratch of a restriction: t keeps a support */
    uint8_t *bannable;           /* [d*P + t]: initial_compatible[d*P + t] > 0 */
    /* Pattern sets (wfc_bit_domains): bit_nibbles[(n*16 + v)*D + d] what
       those of patterns 4n .. 4n+3 that v's bits name allow on side d,
       bit_free[d] the patterns never banned from side d, and pending[i]:
       cell i waits on the stack (then a list of cells) to pass its change on. */
    uint64_t *bit_free, *bit_nibbles;
    uint8_t *pending;
    /* Pattern sets of the fast strategy (wfc_set_domains), W words a set: set_chunks[((n*256 + v)*D + d)*W ..]
       what those of patterns 8n .. 8n+7 that v's bits name allow on side d, set_free[d*W ..] the patterns
       nothing allows on side d (never banned from there). */
    uint64_t *set_chunks, *set_free;
    int64_t set_head;            /* the stack is a queue of cells then (first in, first out), from here round */
    long observations;           /* made by the last wfc_solve, taken back or not */
    long backtracks;             /* decisions taken back by the last wfc_solve */
    long repairs;                /* areas cleared by the last wfc_solve */
};

typedef enum wfc_result { WFC_CONTRADICTION, WFC_DONE, WFC_LIMIT, WFC_NO_MEMORY, WFC_STOPPED } wfc_result;

/* Build the flat propagator from dense[d][t1*P + t2] (t2 may neighbour t1 in direction d); false when out of memory. */
bool wfc_set_propagator(wfc_problem *pb, bool *const *dense);
/* Per-cell weights from a density picture: level[i] (0..255) is the grey at
   cell i; pattern t has M = per_pattern densities density[t*M + k] in [0, 1]
   (one per tile; one per pixel of an overlap pattern); power >= 0. Pattern t at
   a cell of grey v = level/255 weighs weights[t] times the product over its
   densities d of (2*lerp(1-d, d, v))^power, at least weights[t] * WFC_DENSITY_FLOOR.
   Call before wfc_problem_prepare. False when out of memory. */
#define WFC_DENSITY_FLOOR 1e-6
#define WFC_DENSITY_MAX_POWER 16
bool wfc_set_density(wfc_problem *pb, const uint8_t *level, const double *density, int per_pattern, int power);
/* The per-class entropy sums (by wfc_problem_prepare), and freeing the per-cell weights. */
bool wfc_density_prepare(wfc_problem *pb);
void wfc_density_free(wfc_problem *pb);
/* After the size, N, periodic, weights and heuristic are set: the neighbour table and the entropy sums; false when out of memory. */
bool wfc_problem_prepare(wfc_problem *pb);
void wfc_problem_free(wfc_problem *pb);
/* The most memory a problem may take (its propagator and a solver's wave, start wave, stack and trail): past
   it a loader refuses the problem before allocating, instead of asking for many gigabytes at once. */
#define WFC_MAX_BYTES (2LL << 30)
/* About how many bytes the propagator and a solver of pb take, from its cells, P, D and backtrack. */
int64_t wfc_memory_estimate(const wfc_problem *pb);
/* False after a model error at `line` when pb (cells, P, D and backtrack set) would take more than
   WFC_MAX_BYTES; `what` names its P things in the message ("patterns", "tile variants"). */
bool wfc_check_memory(diag *d, int line, const wfc_problem *pb, const char *what);
/* The solver's memory and strategy for pb (prepared); false when out of memory. */
bool wfc_solver_init(wfc_solver *s, const wfc_problem *pb);
/* A second solver of pb for another thread: its own wave, stack and queue, attempts started from
   owner's saved start (which owner must keep, unchanged, until this one is freed); false when out
   of memory (free it all the same). */
bool wfc_solver_init_sharing(wfc_solver *s, const wfc_problem *pb, const wfc_solver *owner);
void wfc_solver_free(wfc_solver *s);
/* The pattern-set tables of a solver for which wfc_bit_domains(pb) (domains.c); false when out of memory. */
bool wfc_bits_init(wfc_solver *s, const wfc_problem *pb);
void wfc_bits_free(wfc_solver *s);
/* The same for wfc_set_domains(pb) (sets.c); wfc_sets_table_bytes: what its lookup table takes (0
   for another problem), which wfc_memory_estimate counts. */
bool wfc_sets_init(wfc_solver *s, const wfc_problem *pb);
int64_t wfc_sets_table_bytes(const wfc_problem *pb);
void wfc_sets_free(wfc_solver *s);
/* Every pattern possible everywhere, nothing on the stack; false when s->stop said stop before the
   wave was whole (also for save_start and restart: the solver must then not be used until a reset
   that returns true). */
bool wfc_solver_clear(wfc_solver *s, const wfc_problem *pb);
/* Pattern t is no longer possible at cell i (to be propagated). */
static inline void wfc_ban(const wfc_problem *pb, wfc_solver *s, int i, int t) { s->strategy->ban(pb, s, i, t); }
/* The exact mirror of wfc_ban (for wfc_undo and repairs): t possible at i again. */
static inline void wfc_unban(const wfc_problem *pb, wfc_solver *s, int i, int t) { s->strategy->unban(pb, s, i, t); }
/* Cells reached (fast strategy) or bans taken from the stack (the others) between two checks of
   s->stop inside one propagation. */
#define WFC_PROPAGATE_CHECK 256
/* Propagate the stacked bans; false on a stop (s->stopped), a contradiction (the reference strategy
   sees it at cell 0, as the reference checks) or when memory ran out (s->out_of_memory). */
static inline bool wfc_propagate(const wfc_problem *pb, wfc_solver *s) { return s->strategy->propagate(pb, s); }
/* Remember the current wave (after initial bans) as the start of every attempt. */
bool wfc_solver_save_start(wfc_solver *s, const wfc_problem *pb);
/* Back to the saved start, empty stack. */
bool wfc_solver_restart(wfc_solver *s, const wfc_problem *pb);
/* The next cell to observe by the problem's heuristic, or -1 when all are decided. */
static inline int wfc_next_cell(const wfc_problem *pb, wfc_solver *s, rng *random)
{
    return s->strategy->next_cell(pb, s, random);
}
/* The two ways to choose (next_cell.c): the queue of the fast strategy, and the
   reference's scan (also the fast strategy's Scanline). */
int wfc_next_cell_queued(const wfc_problem *pb, wfc_solver *s, rng *random);
int wfc_next_cell_scanned(const wfc_problem *pb, wfc_solver *s, rng *random);
/* Collapse cell i to one pattern drawn by weight, banning the others; returns that pattern. */
int wfc_observe(const wfc_problem *pb, wfc_solver *s, int i, rng *random);
/* Undo the bans of the trail down to its first `size` entries. */
void wfc_undo(const wfc_problem *pb, wfc_solver *s, int64_t size);
/* After a contradiction: take back the latest open decision, forbid its pattern
   at its cell (to be propagated); false when no decision can be taken back. */
bool wfc_backtrack(const wfc_problem *pb, wfc_solver *s);
/* One attempt from the saved start with a generator seeded by seed: observe and
   propagate until done, a contradiction, or limit observations (limit < 0: none);
   WFC_NO_MEMORY when a ban could not be recorded, WFC_STOPPED when s->stop said so. */
wfc_result wfc_solve(const wfc_problem *pb, wfc_solver *s, int32_t seed, long limit);

/* The grey level (0..255, luminance (299 R + 587 G + 114 B) / 1000 rounded) under each cell of an mx x my wave,
   the picture scaled by nearest neighbour (the pixel under the cell's centre), the same for every layer z.
   The picture is read through rd (NULL: the file system). NULL after an error at `line`. */
uint8_t *wfc_density_levels(const resources *res, diag *d, int line, const char *path, int mx, int my, int mz);

/* The largest pattern side of the overlap model. */
#define WFC_OVERLAP_MAX_N 8
/* overlap.c: the colours of a sample in order of first appearance (ords[i] is pixel i's colour number);
   their count, or -1 when there are more than max_colours. */
int wfc_sample_ords(const uint32_t *argb, long count, uint8_t *ords, uint32_t *colours, int max_colours);
/* The distinct NxN patterns at the xmax*ymax positions of a (wrapping) sample of
   colour numbers, with their images under symmetry, counted in order of first appearance. */
bool wfc_sample_patterns(const uint8_t *sample, int smx, int smy, int N, int xmax, int ymax, symmetry_set symmetry,
                         uint8_t **patterns, double **weights, int *count);
/* The propagator of P overlapping NxN patterns (pb->P, pb->N, pb->D = 4 set); false when out of memory. */
bool wfc_overlap_propagator(wfc_problem *pb, const uint8_t *patterns);

/* queue.c: the fast strategy's queue. */
bool wfc_queue_init(wfc_queue *q, int cells);
void wfc_queue_free(wfc_queue *q);
void wfc_queue_clear(wfc_queue *q, int cells);
int64_t wfc_queue_key(const wfc_problem *pb, const wfc_solver *s, int i);
/* Put a cell in the group of key (moving it from its old group), or take it out. */
void wfc_queue_put(wfc_queue *q, int32_t cell, int64_t key);
/* Ask the memory for what putting cell in the group of key will read (a hint only). */
void wfc_queue_prefetch(const wfc_queue *q, int32_t cell, int64_t key);
/* No key: the cell leaves the queue. */
#define WFC_QUEUE_OUT INT64_MIN
void wfc_queue_remove(wfc_queue *q, int32_t cell);
/* A cell drawn uniformly from the group of least key, or -1 when the queue is empty. */
int32_t wfc_queue_pick(wfc_queue *q, rng *random);
#endif
