/* observe.h — inference (`<observe>`): the goal a rule node steers towards, and the potentials that measure the way there. */
#ifndef SMALTI_OBSERVE_H
#define SMALTI_OBSERVE_H
#include <libxml/tree.h>
#include <stdbool.h>
#include <stdint.h>
#include "../core/grid.h"
#include "../core/rule.h"
#include "../core/stop.h"

typedef struct observation {
    bool present;     /* this value is observed */
    uint8_t from;     /* what an observed cell becomes now */
    wave_bits to;     /* the values it may have at the end */
} observation;

bool observation_load(diag *d, const xmlNode *el, const grid_def *g, observation *by_value);

/* A placement that cell (x,y,z) getting a potential concerns: the rule with
   its corner at (x-dx, y-dy, z-dz), if that keeps it inside the grid. */
typedef struct potential_entry {
    int64_t slot;               /* rule - offset*rule_count: plus cell*rule_count, the placement's counter */
    int32_t offset;             /* dx + dy*MX + dz*MX*MY */
    int32_t need;               /* cells the placement needs */
    int32_t give, give_end;     /* what it gives when it fires: give[d][give .. give_end) */
    int32_t rule;
    int16_t dx, dy, dz;
    int32_t xmax, ymax, zmax;   /* the largest corner that keeps the rule inside */
} potential_entry;

/* A cell a fired placement gives a potential to. */
typedef struct potential_give {
    int64_t at;                 /* row*cells + offset from the corner (the value's row of potentials) */
    int32_t offset;
    uint8_t value;
    bool queued;                /* the value's arrivals concern some placement */
} potential_give;

/* The rules of a node compiled for the potential propagation on one grid
   size, in both directions (0: forward from the present, 1: backward from
   the goal). Going forward a rule needs its input values and gives its
   output values; going backward the other way round.
   A placement fires once every cell it needs has a potential, at the
   largest of those potentials t, and gives its cells t+1 where they have
   none. Since potentials arrive in increasing order this equals the
   reference's queue-and-recheck formulation, with each placement counted
   instead of re-checked. Rules that need nothing fire when any cell they
   accept arrives, as in the reference. Values no placement looks at are
   never queued. Potentials are kept only for some values (`rows` rows,
   row_of[v] < 0 for the others, which no placement looks at either); forward
   estimates need every value kept. */
typedef struct potential_rules {
    rule **rules;
    int rule_count, c, mx, my, mz;
    int64_t cells;
    int rows;                   /* values whose potentials are kept */
    int8_t row_of[GRID_MAX_VALUES + 1]; /* and at GRID_MAX_VALUES, a rule cell's "no value" (rule.h) */
    int value_bits;             /* queue items are cell << value_bits | value */
    int queued_values[2];       /* how many values are queued in each direction */
    int *need_start[2];         /* by value: need_entries[d][need_start[d][v] ..] */
    potential_entry *need_entries[2];
    int *trigger_start[2];      /* by value, rules that need nothing */
    potential_entry *trigger_entries[2];
    potential_give *give[2];
    uint64_t *interior;         /* per cell: every entry's placement is inside the grid */
    int max_need;
} potential_rules;

/* `kept`: the values whose potentials the caller reads (by bit); the values
   placements look at are added. */
bool potential_rules_init(potential_rules *pr, rule **rules, int rule_count, int c, int mx, int my, int mz, wave_bits kept);
void potential_rules_free(potential_rules *pr);

/* Scratch buffers for the potential propagation, reused between calls. */
typedef struct potential_scratch {
    int64_t cells;
    uint32_t *queue;            /* (value, cell) pairs packed as cell << value_bits | value */
    uint64_t *mask;             /* per rule and corner: fired (rules that need nothing) */
    int64_t mask_words;
    void *counts;               /* per corner and rule: needed cells ready (uint8 or uint16) */
    uint8_t *met;               /* per cell: has a goal value (forward estimates) */
    run_stop *stop;             /* asked every STOP_ITEMS rule entries of a propagation, which
                                   then ends early (its potentials are not to be used); NULL: never */
} potential_scratch;

bool potential_scratch_init(potential_scratch *s, const potential_rules *pr, int64_t cells);
void potential_scratch_free(potential_scratch *s);

/* The goal `<observe>` sets: each cell's wave of goal values. That wave follows from the value the
   cell held when observed (the value's `to` if it is observed, else the value itself), so the goal
   keeps that value, a byte a cell, and a table from it to the wave: an eighth of the memory of a
   wave a cell (a grid of 800x800 cells with two observing nodes keeps 1.3 MB, not 10 MB). */
typedef struct observe_goal {
    uint8_t *was;                           /* per cell: its value when observed */
    wave_bits *wave_of;                     /* [GRID_MAX_VALUES + 1]: value -> the goal's wave */
} observe_goal;

static inline wave_bits observe_goal_at(const observe_goal *goal, int64_t i) { return goal->wave_of[goal->was[i]]; }

/* Marks every cell's goal in `goal` (its `was` allocated for the grid's cells, its `wave_of` for
   GRID_MAX_VALUES + 1 values) and turns observed cells into their `from` value in place (the caller
   records those writes). False when an observed value does not occur in the grid. */
bool observe_future(const observation *by_value, int c, uint8_t *state, int64_t cells, observe_goal *goal);

/* potentials[row_of[v]*cells + i]: how many rule applications at least
   separate cell i holding v from the goal (backward) or from the present
   (forward); -1: never. The potentials have pr->rows rows. */
void observe_backward_potentials(int32_t *potentials, const observe_goal *future, const potential_rules *pr,
                                 potential_scratch *s);

/* The forward estimate of `state`: the sum over all cells of the least forward
   potential of a goal value (-1 if a cell has none under 1000, as in the
   reference). The potentials are computed only as far as that needs. */
int observe_forward_estimate_of(int32_t *potentials, const uint8_t *state, const observe_goal *future,
                                const potential_rules *pr, potential_scratch *s);

/* Whether every cell has a goal value. *hint is a cell that was not there
   the last time (it is looked at first and around, then everything). */
bool observe_goal_reached(const uint8_t *state, const observe_goal *future, int64_t cells, int32_t *hint);
/* Sums of the potentials, or -1 where a cell cannot get there. */
int observe_backward_estimate(const int32_t *potentials, const uint8_t *state, int64_t cells);
#endif
