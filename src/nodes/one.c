/* one.c — the `one` node: apply one randomly chosen match per step. */
#include "one_plain.h"
#include <math.h>
#include <string.h>
#include <stdint.h>

/* A `one` node: its rules, and for a plain node (no fields or observations) the fast path's tables. */
typedef struct one_node {
    rulenode rn;
    one_plain *plain; /* NULL: not plain */
} one_node;

const one_plain *one_node_plain(const node *n) { return ((const one_node *)n)->plain; }

static node *one_load(loader *ld, const xmlNode *el, symmetry_set s)
{
    one_node *on = (one_node *)rulenode_load(ld, el, s, &node_kind_one, sizeof(one_node));
    if (!on) return NULL;
    on->rn.uses_mask = true;
    if (diag_stopped(ld->d)) return NULL;
    if (one_plain_suits(&on->rn) && !(on->plain = one_plain_new(&on->rn, ld->grid->c))) {
        diag_error(ld->d, SMALTI_ERR_RUNTIME, 0, "out of memory");
        return NULL;
    }
    return &on->rn.base;
}

static void one_free(node *n)
{
    one_plain_free(((one_node *)n)->plain);
    rulenode_free(n);
}

static void one_reset(run_state *r, const node *n, void *state)
{
    rulenode_state *st = state;
    rulenode_reset(r, n, state);
    if (st->match_count != 0) {
        memset(st->mask, 0, (size_t)st->words * sizeof *st->mask);
        st->match_count = 0;
    }
}

static void one_apply(run_state *r, const rule *rl, int32_t at)
{
    uint8_t *state = r->state;
    for (int k = 0; k < rl->write_count; k++) {
        int32_t i = at + rl->write[k].offset;
        uint8_t value = rl->write[k].value;
        if (state[i] != value) {
            state[i] = value;
            run_change(r, i);
        }
    }
}

/* Draw matches uniformly until one still holds; stale ones are dropped. */
static int one_random_match(run_state *r, const rulenode *rn, rulenode_state *st, int32_t *at)
{
    while (st->match_count > 0) {
        int32_t k = rng_next_max(&r->random, st->match_count);
        match m = st->matches[k];
        int ri = match_rule(rn, m);
        int32_t corner = match_at(rn, m);
        mask_clear(st, ri, corner);
        st->matches[k] = st->matches[--st->match_count];
        if (rule_matches(rn->rules[ri], r->state, corner)) {
            *at = corner;
            return ri;
        }
    }
    return -1;
}

/* With potentials: every current match gets a key from its potential change
   and a draw; the best key wins and stays in the list. Stale matches are
   dropped on the way. */
static int one_potential_match(run_state *r, const rulenode *rn, rulenode_state *st, int32_t *at)
{
    if (rn->observations && observe_goal_reached(r->state, &st->future, r->cells, &st->goal_hint)) {
        st->future_computed = false;
        return -1;
    }
    double max = -1000.0, first = 0.0;
    bool first_known = false;
    int32_t argmax = -1;
    for (int32_t k = 0; k < st->match_count; k++) {
        if (stop_requested_at(&r->stop, k)) return -1;
        match m = st->matches[k];
        int ri = match_rule(rn, m);
        int32_t corner = match_at(rn, m);
        if (!rule_matches(rn->rules[ri], r->state, corner)) {
            mask_clear(st, ri, corner);
            st->matches[k] = st->matches[--st->match_count];
            k--;
            continue;
        }
        int delta;
        if (!field_delta(r->state, rn->delta[ri], rn->delta_count[ri], corner, st->potentials, rn->inversed, &delta)) continue;
        double h = delta;
        if (!first_known) {
            first = h;
            first_known = true;
        }
        double u = rng_next_double(&r->random);
        double key = rn->temperature > 0 ? pow(u, exp((h - first) / rn->temperature)) : -h + 0.001 * u;
        if (key > max) {
            max = key;
            argmax = k;
        }
    }
    if (argmax < 0) return -1;
    *at = match_at(rn, st->matches[argmax]);
    return match_rule(rn, st->matches[argmax]);
}

static bool one_go(run_state *r, const node *n, void *state)
{
    const rulenode *rn = (const rulenode *)n;
    rulenode_state *st = state;
    const one_plain *plain = ((const one_node *)n)->plain;
    if (plain) return one_plain_go(r, rn, plain, st);
    if (!rulenode_go(r, rn, st, rulenode_add_match)) return false;
    st->last_matched_turn = r->counter;
    if (st->has_trajectory) {
        if (!rulenode_replay(r, st)) return false;
        r->acting_node = n->id;
        return true;
    }
    int32_t at;
    int ri = rn->uses_potentials ? one_potential_match(r, rn, st, &at) : one_random_match(r, rn, st, &at);
    if (ri < 0) return false;
    one_apply(r, rn->rules[ri], at);
    st->counter++;
    r->acting_node = n->id;
    return true;
}

/* Steps in a row (node_kind.repeat), for plain nodes. A failed attempt leaves nothing to undo:
   the scan it made is not made again, and its draws emptied the list, so go, called again,
   draws nothing. Fields and observations are computed again by go, so those nodes do not repeat. */
static long one_repeat(run_state *r, const node *n, void *state, long max_steps)
{
    const one_plain *plain = ((const one_node *)n)->plain;
    return plain ? one_plain_repeat(r, (const rulenode *)n, plain, state, max_steps) : 0;
}

long one_markov_repeat(run_state *r, const node *const *children, int count, long max_steps)
{
    enum { MOST = 8 };
    const rulenode *rns[MOST];
    const one_plain *ps[MOST];
    rulenode_state *sts[MOST];
    /* One child repeats by itself, with the generator's values batched (a long run). */
    if (count < 2 || count > MOST) return -1;
    for (int i = 0; i < count; i++) {
        if (children[i]->kind != &node_kind_one || !((const one_node *)children[i])->plain) return -1;
        rns[i] = (const rulenode *)children[i];
        ps[i] = ((const one_node *)children[i])->plain;
        sts[i] = r->node_states[children[i]->id];
    }
    return one_plain_markov_repeat(r, rns, ps, sts, count, max_steps);
}

void one_plan_masks(node *const *nodes, int count)
{
    wave_bits changes_to[GRID_MAX_VALUES];
    bool known = rulenode_model_changes((const node *const *)nodes, count, changes_to);
    for (int i = 0; i < count; i++)
        if (nodes[i]->kind == &node_kind_one && ((one_node *)nodes[i])->plain)
            one_plain_set_unmasked(((one_node *)nodes[i])->plain, known && rulenode_finds_once((const rulenode *)nodes[i], changes_to));
}

static bool one_repeats(const node *n) { return ((const one_node *)n)->plain != NULL; }

static const char *const reference_extras[] = {"periodic", NULL}; /* in the reference's models, read by none */

const node_kind node_kind_one = {
    .name = "one",
    .is_branch = false,
    .is_rule_node = true,
    .ignored_attrs = reference_extras,
    .load = one_load,
    .free = one_free,
    .state_new = rulenode_state_new,
    .state_free = rulenode_state_free,
    .reset = one_reset,
    .go = one_go,
    .oldest_turn = rulenode_oldest_turn,
    .repeat = one_repeat,
    .repeats = one_repeats,
};
