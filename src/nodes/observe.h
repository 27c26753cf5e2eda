/* observe.h — inference (`<observe>`): the goal a rule node steers towards, and the potentials that measure the way there. */
#ifndef TS_OBSERVE_H
#define TS_OBSERVE_H
#include <libxml/tree.h>
#include <stdbool.h>
#include <stdint.h>
#include "../core/grid.h"
#include "../core/rule.h"

typedef struct observation {
    bool present;     /* this value is observed */
    uint8_t from;     /* what an observed cell becomes now */
    uint32_t to;      /* the values it may have at the end */
} observation;

bool observation_load(diag *d, const xmlNode *el, const grid_def *g, observation *by_value);

/* The rules of a node as the potential computations see them: which output
   cells can hold each value (a '*' output holds any). */
typedef struct potential_rules {
    rule **rules;
    int rule_count, c;
    int **oshift_start;         /* per rule: c+1 starts into oshifts */
    int16_t (**oshifts)[3];
} potential_rules;

bool potential_rules_init(potential_rules *pr, rule **rules, int rule_count, int c);
void potential_rules_free(potential_rules *pr);

/* Scratch buffers for the potential propagation, reused between calls. */
typedef struct potential_scratch {
    int64_t cells;
    int32_t *queue;             /* (value, cell) pairs packed as value*cells + cell */
    uint64_t *mask;             /* per rule and corner: already applied */
    int64_t mask_words;
} potential_scratch;

bool potential_scratch_init(potential_scratch *s, const potential_rules *pr, int64_t cells);
void potential_scratch_free(potential_scratch *s);

/* Marks every cell's goal in `future` and turns observed cells into their
   `from` value in place (the caller records those writes). False when an
   observed value does not occur in the grid. */
bool observe_future(const observation *by_value, int c, uint8_t *state, int64_t cells, uint32_t *future);

/* potentials[v*cells + i]: how many rule applications at least separate cell
   i holding v from the goal (backward) or from the present (forward); -1:
   never. */
void observe_backward_potentials(int32_t *potentials, const uint32_t *future, int mx, int my, int mz,
                                 const potential_rules *pr, potential_scratch *s);
void observe_forward_potentials(int32_t *potentials, const uint8_t *state, int mx, int my, int mz,
                                const potential_rules *pr, potential_scratch *s);

bool observe_goal_reached(const uint8_t *state, const uint32_t *future, int64_t cells);
/* Sums of the potentials, or -1 where a cell cannot get there. */
int observe_forward_estimate(const int32_t *potentials, int c, const uint32_t *future, int64_t cells);
int observe_backward_estimate(const int32_t *potentials, const uint8_t *state, int64_t cells);
#endif
