/* all.c — the `all` node: apply every non-overlapping match, in random order, in one step. */
#include "rulenode.h"
#include <string.h>

static node *all_load(loader *ld, const xmlNode *el, symmetry_set s)
{
    rulenode *rn = (rulenode *)rulenode_load(ld, el, s, &node_kind_all, sizeof(rulenode));
    if (rn) rn->uses_mask = true;
    return rn ? &rn->base : NULL;
}

/* Apply a match unless it overlaps a cell already written this step. */
static void all_fit(run_state *r, const rule *rl, int32_t at)
{
    uint8_t *mask = r->mask;
    for (int k = 0; k < rl->write_count; k++)
        if (mask[at + rl->write[k].offset]) return;
    for (int k = 0; k < rl->write_count; k++) {
        int32_t i = at + rl->write[k].offset;
        mask[i] = 1;
        r->state[i] = (uint8_t)rl->write[k].wave;
        run_change(r, i);
    }
}

static bool all_go(run_state *r, const node *n, void *state)
{
    const rulenode *rn = (const rulenode *)n;
    rulenode_state *st = state;
    if (!rulenode_go(r, rn, st, rulenode_add_match)) return false;
    st->last_matched_turn = r->counter;
    if (st->match_count == 0) return false;

    int32_t *order = realloc(st->order, (size_t)st->match_count * sizeof *order);
    if (!order) { r->out_of_memory = true; return false; }
    st->order = order;
    /* The reference's inside-out shuffle of 0..count-1. */
    for (int32_t i = 0; i < st->match_count; i++) {
        int32_t j = rng_next_max(&r->random, i + 1);
        order[i] = order[j];
        order[j] = i;
    }
    for (int32_t k = 0; k < st->match_count; k++) {
        match m = st->matches[order[k]];
        int ri = match_rule(rn, m);
        int32_t corner = match_at(rn, m);
        mask_clear(st, ri, corner);
        all_fit(r, rn->rules[ri], corner);
    }
    int64_t end = run_changes_end(r);
    for (int64_t p = run_first(r, st->last_matched_turn); p < end; p++) r->mask[run_change_at(r, p)] = 0;
    st->counter++;
    st->match_count = 0;
    r->acting_node = n->id;
    return true;
}

const node_kind node_kind_all = {
    .name = "all",
    .is_branch = false,
    .load = all_load,
    .free = rulenode_free,
    .state_new = rulenode_state_new,
    .state_free = rulenode_state_free,
    .reset = rulenode_reset,
    .go = all_go,
    .oldest_turn = rulenode_oldest_turn,
};
