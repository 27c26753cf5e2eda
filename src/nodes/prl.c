/* prl.c — the `prl` node: every match fires independently with probability p, in parallel. */
#include "rulenode.h"
#include "../core/mem.h"
#include <string.h>

static node *prl_load(loader *ld, const xmlNode *el, symmetry_set s)
{
    return rulenode_load(ld, el, s, &node_kind_prl, sizeof(rulenode));
}

static void *prl_state_new(const node *n, const grid_def *g)
{
    rulenode_state *st = rulenode_state_new(n, g);
    if (!st) return NULL;
    st->newstate = mem_malloc((size_t)g->mx * g->my * g->mz);
    if (!st->newstate) { rulenode_state_free(st); return NULL; }
    return st;
}

/* Matches are not stored: each one is decided and written to newstate at once. */
static inline __attribute__((always_inline)) void prl_add(run_state *r, const rulenode *rn, rulenode_state *st, int ri, int32_t at)
{
    const rule *rl = rn->rules[ri];
    if (rng_next_double(&r->random) > rl->p) return;
    for (int k = 0; k < rl->write_count; k++) {
        int32_t i = at + rl->write[k].offset;
        uint8_t value = (uint8_t)rl->write[k].wave;
        if (value != r->state[i]) {
            st->newstate[i] = value;
            run_change(r, i);
        }
    }
    st->match_count++;
}

static bool prl_go(run_state *r, const node *n, void *state)
{
    const rulenode *rn = (const rulenode *)n;
    rulenode_state *st = state;
    if (!rulenode_go(r, rn, st, prl_add)) return false;
    int64_t end = run_changes_end(r);
    for (int64_t p = run_first(r, r->counter); p < end; p++) {
        int32_t i = run_change_at(r, p);
        r->state[i] = st->newstate[i];
    }
    st->counter++;
    if (st->match_count > 0) r->acting_node = n->id;
    return st->match_count > 0;
}

const node_kind node_kind_prl = {
    .name = "prl",
    .is_branch = false,
    .load = prl_load,
    .free = rulenode_free,
    .state_new = prl_state_new,
    .state_free = rulenode_state_free,
    .reset = rulenode_reset,
    .go = prl_go,
    .oldest_turn = rulenode_oldest_turn,
};
