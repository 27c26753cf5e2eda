/* rulenode.h — what `one`, `all` and `prl` share: rules, step limit and match scanning. */
#ifndef TS_RULENODE_H
#define TS_RULENODE_H
#include "node.h"
#include "../core/rule.h"
#include "../engine/run.h"

typedef struct rulenode {
    node base;
    rule **rules;
    int rule_count;
    int steps;           /* 0: no limit */
    double temperature;
    bool uses_mask;      /* one/all remember found matches per rule and cell */
} rulenode;

typedef struct match {
    int32_t r;           /* rule index */
    int32_t at;          /* flat index of the rule's corner */
} match;

typedef struct rulenode_state {
    int counter;
    long last_matched_turn;  /* -1: scan the whole grid next time */
    match *matches;
    int32_t match_count, match_cap;
    uint64_t *mask;          /* rule_count rows of `words` bits, one per cell */
    int64_t words;
    uint8_t *last;           /* which rules applied in the last step */
    uint8_t *newstate;       /* prl: values being written this step */
    int32_t *order;          /* all: shuffled match order */
} rulenode_state;

typedef void (*rulenode_add_fn)(run_state *r, const rulenode *rn, rulenode_state *st, int ri, int32_t at);

node *rulenode_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry, const node_kind *kind, size_t size);
void rulenode_free(node *n);
void *rulenode_state_new(const node *n, const grid_def *g);
void rulenode_state_free(void *state);
void rulenode_reset(run_state *r, const node *n, void *state);
/* The shared first half of a step: the step limit, then collecting matches
   (incrementally from the changes since this node last matched, or by a
   full scan). Returns false when the node cannot act. */
bool rulenode_go(run_state *r, const rulenode *rn, rulenode_state *st, rulenode_add_fn add);
long rulenode_oldest_turn(const void *state);
void rulenode_add_match(run_state *r, const rulenode *rn, rulenode_state *st, int ri, int32_t at);

static inline bool mask_get(const rulenode_state *st, int ri, int32_t at)
{
    return (st->mask[ri * st->words + (at >> 6)] >> (at & 63)) & 1;
}
static inline void mask_set(rulenode_state *st, int ri, int32_t at)
{
    st->mask[ri * st->words + (at >> 6)] |= (uint64_t)1 << (at & 63);
}
static inline void mask_clear(rulenode_state *st, int ri, int32_t at)
{
    st->mask[ri * st->words + (at >> 6)] &= ~((uint64_t)1 << (at & 63));
}
#endif
