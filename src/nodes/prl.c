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
        uint8_t value = rl->write[k].value;
        if (value != r->state[i]) {
            st->newstate[i] = value;
            run_change(r, i);
        }
    }
    st->match_count++;
}

/* A one-cell rule over the whole grid, the bulk of most `prl` models (every
   cell of its input values is a match): per 64-cell word of a row, the
   matches come from the bitplanes and their draws from one rng_fill, in the
   reference's order (cells ascending, one draw per match). */
static void prl_scan_cell_rule(run_state *r, rulenode_state *st, const rule *rl)
{
    const int MX = r->mx, MY = r->my, words = r->planes.words, rows = r->my * r->mz;
    uint64_t *band = planes_scratch(r, 3 * (int64_t)words);
    if (!band) { r->out_of_memory = true; return; }
    uint64_t *any = band + words;
    const double p = rl->p;
    const bool writes = rl->write_count > 0;
    const uint8_t value = writes ? rl->write[0].value : 0;
    int32_t draws[64];
    for (int row = 0; row < rows; row++) {
        if (r->out_of_memory || stop_check(&r->stop, MX)) return; /* the work of a row: its cells */
        if (!planes_band(r, rl, row / MY, row % MY, band, any)) continue;
        const int32_t base = row * MX;
        for (int w = 0; w < words; w++) {
            uint64_t bits = band[w];
            if (!bits) continue;
            rng_fill(&r->random, draws, __builtin_popcountll(bits));
            for (int k = 0; bits; bits &= bits - 1, k++) {
                if (draws[k] * (1.0 / RNG_MBIG) > p) continue; /* as prl_add's rng_next_double(...) > p */
                st->match_count++;
                int32_t i = base + w * 64 + __builtin_ctzll(bits);
                if (writes && value != r->state[i]) {
                    st->newstate[i] = value;
                    run_change(r, i);
                }
            }
        }
    }
}

/* rulenode_scan_all with one-cell rules taken by prl_scan_cell_rule. */
static void prl_scan_all(run_state *r, const rulenode *rn, rulenode_state *st)
{
    st->match_count = 0;
    planes_sync(r);
    if (r->out_of_memory) return;
    for (int ri = 0; ri < rn->rule_count; ri++) {
        const rule *rl = rn->rules[ri];
        if (rl->imx == 1 && rl->imy == 1 && rl->imz == 1) prl_scan_cell_rule(r, st, rl);
        else if (planes_fit(rl)) rulenode_scan_rule_planes(r, rn, st, ri, prl_add);
        else rulenode_scan_rule_cells(r, rn, st, ri, prl_add);
    }
}

static bool prl_go(run_state *r, const node *n, void *state)
{
    const rulenode *rn = (const rulenode *)n;
    rulenode_state *st = state;
    /* rulenode_go's steps, with prl's own whole-grid scan (prl never matches incrementally). */
    if (rn->steps > 0 && st->counter >= rn->steps) return false;
    if (rn->observations && !st->future_computed && !rulenode_observe(r, rn, st)) return false;
    if (st->last_matched_turn >= 0) rulenode_scan_changes(r, rn, st, prl_add);
    else prl_scan_all(r, rn, st);
    if (stop_said(&r->stop)) return false; /* an interrupted scan: the run stops */
    if (rn->fields && !rulenode_compute_fields(r, rn, st)) return false;
    int64_t end = run_changes_end(r);
    for (int64_t p = run_first(r, r->counter); p < end; p++) {
        int32_t i = run_change_at(r, p);
        r->state[i] = st->newstate[i];
    }
    st->counter++;
    if (st->match_count > 0) r->acting_node = n->id;
    return st->match_count > 0;
}

static const char *const reference_extras[] = {"periodic", "d", NULL}; /* in the reference's models, read by none */

const node_kind node_kind_prl = {
    .name = "prl",
    .is_branch = false,
    .is_rule_node = true,
    .ignored_attrs = reference_extras,
    .load = prl_load,
    .free = rulenode_free,
    .state_new = prl_state_new,
    .state_free = rulenode_state_free,
    .reset = rulenode_reset,
    .go = prl_go,
    .oldest_turn = rulenode_oldest_turn,
};
