/* all.c — the `all` node: apply every non-overlapping match, in random order, in one step. */
#include "rulenode.h"
#include "../core/mem.h"
#include <math.h>
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
        r->state[i] = rl->write[k].value;
        run_change(r, i);
    }
}

/* Matches in the order of their keys, best first; equal keys keep their
   order (the reference's stable OrderBy). Matches that would reach an
   unreachable value are left out (and stay marked as found). -1 when memory
   runs out or the run must stop. */
static int32_t all_order_by_potential(run_state *r, const rulenode *rn, rulenode_state *st)
{
    keyed_match *keyed = mem_realloc(st->keyed, (size_t)st->match_count * 2 * sizeof *st->keyed);
    if (!keyed) { r->out_of_memory = true; return -1; }
    st->keyed = keyed;
    double first = 0.0;
    bool first_known = false;
    int32_t count = 0;
    for (int32_t m = 0; m < st->match_count; m++) {
        if (stop_requested_at(&r->stop, m)) return -1;
        int ri = match_rule(rn, st->matches[m]);
        int delta;
        if (!field_delta(r->state, rn->delta[ri], rn->delta_count[ri], match_at(rn, st->matches[m]), st->potentials,
                         rn->inversed, &delta))
            continue;
        double h = delta;
        if (!first_known) {
            first = h;
            first_known = true;
        }
        double u = rng_next_double(&r->random);
        st->keyed[count].index = m;
        st->keyed[count].key = rn->temperature > 0 ? pow(u, exp((h - first) / rn->temperature)) : -h + 0.001 * u;
        count++;
    }
    /* Stable merge sort, descending, using the second half as scratch. */
    keyed_match *a = st->keyed, *b = st->keyed + st->match_count;
    for (int32_t width = 1; width < count; width *= 2) {
        for (int32_t lo = 0; lo < count; lo += 2 * width) {
            int32_t mid = lo + width < count ? lo + width : count, hi = lo + 2 * width < count ? lo + 2 * width : count;
            int32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) b[k++] = a[j].key > a[i].key ? a[j++] : a[i++];
            while (i < mid) b[k++] = a[i++];
            while (j < hi) b[k++] = a[j++];
        }
        keyed_match *t = a;
        a = b;
        b = t;
    }
    if (a != st->keyed) memcpy(st->keyed, a, (size_t)count * sizeof *a);
    return count;
}

static bool all_go(run_state *r, const node *n, void *state)
{
    const rulenode *rn = (const rulenode *)n;
    rulenode_state *st = state;
    if (!rulenode_go(r, rn, st, rulenode_add_match)) return false;
    st->last_matched_turn = r->counter;
    if (st->has_trajectory) {
        if (!rulenode_replay(r, st)) return false;
        r->acting_node = n->id;
        return true;
    }
    if (st->match_count == 0) return false;
    r->mask_used = true;
    if (rn->uses_potentials) {
        int32_t count = all_order_by_potential(r, rn, st);
        if (count < 0) return false;
        for (int32_t k = 0; k < count; k++) {
            if (stop_requested_at(&r->stop, k)) break; /* the run stops: finish only clears the marks */
            match m = st->matches[st->keyed[k].index];
            mask_clear(st, match_rule(rn, m), match_at(rn, m));
            all_fit(r, rn->rules[match_rule(rn, m)], match_at(rn, m));
        }
        goto finish;
    }

    if (st->match_count > st->order_cap) {
        /* Grown to the most matches a step has had, never shrunk: a node in a loop steps
           thousands of times (a realloc each cost BasicBrickWall 2 % of its instructions), and
           room to spare would raise the peak memory. */
        int32_t *order = mem_realloc(st->order, (size_t)st->match_count * sizeof *order);
        if (!order) { r->out_of_memory = true; return false; }
        st->order = order;
        st->order_cap = st->match_count;
    }
    int32_t *const order = st->order;
    /* The reference's inside-out shuffle of 0..count-1; a long one's draws made STOP_ITEMS at a
       time (rng_fill; rng_next_max's arithmetic on each), a short one's one by one (a batch's
       set-up cost more than the few draws). */
    if (st->match_count < 64)
        for (int32_t i = 0; i < st->match_count; i++) {
            const int32_t j = rng_next_max(&r->random, i + 1);
            order[i] = order[j];
            order[j] = i;
        }
    int32_t draws[STOP_ITEMS];
    for (int32_t i = st->match_count < 64 ? st->match_count : 0; i < st->match_count;) {
        if (stop_requested(&r->stop)) return false;
        const int32_t batch = st->match_count - i < STOP_ITEMS ? st->match_count - i : STOP_ITEMS;
        rng_fill(&r->random, draws, batch);
        for (int32_t k = 0; k < batch; k++, i++) {
            const int32_t j = (int32_t)(draws[k] * (1.0 / RNG_MBIG) * (i + 1));
            order[i] = order[j];
            order[j] = i;
        }
    }
    uint8_t *const marks = r->mask, *const cells = r->state;
    for (int32_t k = 0; k < st->match_count; k++) {
        if (stop_requested_at(&r->stop, k)) break; /* the run stops: finish only clears the marks */
        match m = st->matches[order[k]];
        int ri = match_rule(rn, m);
        int32_t corner = match_at(rn, m);
        mask_clear(st, ri, corner);
        const rule *rl = rn->rules[ri];
        if (rl->write_count != 1) {
            all_fit(r, rl, corner);
            continue;
        }
        /* all_fit for a rule that writes one cell, inline */
        const int32_t i = corner + rl->write[0].offset;
        if (marks[i]) continue;
        marks[i] = 1;
        cells[i] = rl->write[0].value;
        run_change(r, i);
    }
finish:;
    int64_t end = run_changes_end(r);
    for (int64_t p = run_first(r, st->last_matched_turn); p < end; p++) r->mask[run_change_at(r, p)] = 0;
    st->counter++;
    st->match_count = 0;
    r->acting_node = n->id;
    return true;
}

static const char *const reference_extras[] = {"periodic", NULL}; /* in the reference's models, read by none */

const node_kind node_kind_all = {
    .name = "all",
    .is_branch = false,
    .is_rule_node = true,
    .ignored_attrs = reference_extras,
    .load = all_load,
    .free = rulenode_free,
    .state_new = rulenode_state_new,
    .state_free = rulenode_state_free,
    .reset = rulenode_reset,
    .go = all_go,
    .oldest_turn = rulenode_oldest_turn,
};
