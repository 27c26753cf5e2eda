/* rulenode_infer.c — fields, observations and search on rule nodes: loading them and the work they add to a step. */
#include "rulenode.h"
#include "../core/xmlutil.h"
#include "../core/mem.h"
#include <stdlib.h>
#include <string.h>

/* The cells each rule changes, for the potential deltas. */
static bool build_deltas(rulenode *rn, const grid_def *g)
{
    rn->delta = mem_calloc((size_t)rn->rule_count, sizeof *rn->delta);
    rn->delta_count = mem_calloc((size_t)rn->rule_count, sizeof *rn->delta_count);
    if (!rn->delta || !rn->delta_count) return false;
    for (int ri = 0; ri < rn->rule_count; ri++) {
        const rule *rl = rn->rules[ri];
        int n = rl->imx * rl->imy * rl->imz;
        rn->delta[ri] = mem_malloc((size_t)(n ? n : 1) * sizeof **rn->delta);
        if (!rn->delta[ri]) return false;
        int k = 0;
        for (int dz = 0; dz < rl->imz; dz++)
            for (int dy = 0; dy < rl->imy; dy++)
                for (int dx = 0; dx < rl->imx; dx++, k++) {
                    uint8_t out = rl->output[k];
                    if (out == RULE_KEEP || ((rl->input[k] >> out) & 1)) continue;
                    delta_cell *c = &rn->delta[ri][rn->delta_count[ri]++];
                    c->offset = dx + dy * g->mx + dz * g->mx * g->my;
                    c->value = out;
                }
    }
    return true;
}

/* The values whose potentials the node reads: search reads every value's;
   otherwise only field_delta reads them, at the cells a rule changes, for
   the new value and the old one (which the match has just been seen to
   fit), and the fields write theirs. */
static wave_bits potentials_read(const rulenode *rn, int c)
{
    if (rn->search) return wave_all(c);
    wave_bits read = 0;
    for (int k = 0; k < rn->field_count; k++) read |= wave_bit(rn->fields[k].value);
    for (int ri = 0; ri < rn->rule_count; ri++) {
        const rule *rl = rn->rules[ri];
        for (int k = 0, n = rl->imx * rl->imy * rl->imz; k < n; k++) {
            uint8_t out = rl->output[k];
            if (out == RULE_KEEP || ((rl->input[k] >> out) & 1)) continue;
            read |= rl->input[k] | wave_bit(out);
        }
    }
    return read;
}

bool rulenode_load_inference(loader *ld, rulenode *rn, const xmlNode *el)
{
    diag *d = ld->d;
    const grid_def *g = ld->grid;
    memset(rn->field_of, -1, sizeof rn->field_of);
    int fields = 0, observations = 0;
    for (xmlNode *c = xml_first_child(el); c; c = xml_next(c)) {
        fields += xml_is(c, "field");
        observations += xml_is(c, "observe");
    }
    if (fields) {
        rn->fields = mem_calloc((size_t)fields, sizeof *rn->fields);
        if (!rn->fields) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
        for (xmlNode *c = xml_first_child(el); c; c = xml_next(c)) {
            if (!xml_is(c, "field")) continue;
            field f;
            if (!field_load(d, c, g, &f)) return false;
            /* A later field for the same value replaces the earlier one. */
            int slot = rn->field_of[f.value] >= 0 ? rn->field_of[f.value] : rn->field_count++;
            rn->fields[slot] = f;
            rn->field_of[f.value] = (int8_t)slot;
            rn->inversed[f.value] = f.inversed;
        }
    }
    if (observations) {
        rn->observations = mem_calloc(GRID_MAX_VALUES, sizeof *rn->observations);
        if (!rn->observations) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
        for (xmlNode *c = xml_first_child(el); c; c = xml_next(c))
            if (xml_is(c, "observe") && !observation_load(d, c, g, rn->observations)) return false;
        if (!xml_get_bool(d, el, "search", false, &rn->search)) return false;
        if (rn->search) {
            if (!xml_get_int(d, el, "limit", -1, &rn->search_limit) ||
                !xml_get_double(d, el, "depthCoefficient", 0.5, &rn->depth_coefficient))
                return false;
            if (g->mz != 1) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "search works on 2-D grids only");
        }
        int64_t cells = (int64_t)g->mx * g->my * g->mz;
        if (g->c * cells > INT32_MAX)
            return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "the grid is too large for inference (%lld cells)", (long long)cells);
        if (!potential_rules_init(&rn->potential_rules, rn->rules, rn->rule_count, g->c, g->mx, g->my, g->mz,
                                  potentials_read(rn, g->c)))
            return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    } else if (xml_attr(el, "search")) {
        diag_warn(d, xml_line(el), "search needs <observe> children; it is ignored");
    }
    rn->uses_potentials = rn->fields || (rn->observations && !rn->search);
    if (rn->uses_potentials && !build_deltas(rn, g)) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    return true;
}

void rulenode_free_inference(rulenode *rn)
{
    mem_free(rn->fields);
    mem_free(rn->observations);
    potential_rules_free(&rn->potential_rules);
    for (int ri = 0; rn->delta && ri < rn->rule_count; ri++) mem_free(rn->delta[ri]);
    mem_free(rn->delta);
    mem_free(rn->delta_count);
}

/* Potential rows are allocated on first use: the kept values for inference,
   only the fields' values otherwise. */
static bool ensure_potentials(run_state *r, const rulenode *rn, rulenode_state *st, bool all_values)
{
    if (!st->potentials && !(st->potentials = mem_calloc(GRID_MAX_VALUES, sizeof *st->potentials))) return false;
    if (all_values) {
        if (st->potential_block) return true;
        for (int v = 0; v < GRID_MAX_VALUES; v++) {
            mem_free(st->potentials[v]);
            st->potentials[v] = NULL;
        }
        /* Only the rows the node reads (the rest stay NULL and are never read). */
        const potential_rules *pr = &rn->potential_rules;
        st->potential_block = mem_malloc((size_t)(pr->rows ? pr->rows : 1) * r->cells * sizeof *st->potential_block);
        if (!st->potential_block) return false;
        for (int v = 0; v < pr->c; v++)
            if (pr->row_of[v] >= 0) st->potentials[v] = st->potential_block + (int64_t)pr->row_of[v] * r->cells;
        return true;
    }
    for (int k = 0; k < rn->field_count; k++) {
        int v = rn->fields[k].value;
        if (!st->potentials[v] && !(st->potentials[v] = mem_malloc((size_t)r->cells * sizeof(int32_t)))) return false;
    }
    return true;
}

bool rulenode_observe(run_state *r, const rulenode *rn, rulenode_state *st)
{
    if (!st->future.was && !(st->future.was = mem_malloc((size_t)r->cells))) goto oom;
    if (!st->future.wave_of && !(st->future.wave_of = mem_malloc((GRID_MAX_VALUES + 1) * sizeof *st->future.wave_of))) goto oom;
    /* Observed cells turn into their `from` value; the reference writes them
       without logging. */
    for (int32_t i = 0; i < r->cells; i++) {
        const observation *o = &rn->observations[r->state[i]];
        if (o->present && o->from != r->state[i]) run_change_unlogged(r, i);
    }
    bool present = observe_future(rn->observations, r->grid->c, r->state, r->cells, &st->future);
    if (!present) return false;
    st->future_computed = true;
    if (rn->search) {
        search_result_free(&st->trajectory);
        st->has_trajectory = false;
        int tries = rn->search_limit < 0 ? 1 : 20;
        for (int k = 0; k < tries && !st->has_trajectory; k++) {
            int32_t seed = rng_next(&r->random);
            st->trajectory = search_run(r->state, &st->future, &rn->potential_rules, r->mx, r->my,
                                        rn->base.kind == &node_kind_all, rn->search_limit, rn->depth_coefficient, seed, &r->stop);
            if (st->trajectory.out_of_memory) goto oom;
            if (st->trajectory.stopped) return false;
            st->has_trajectory = st->trajectory.found;
        }
        return true;
    }
    if (!ensure_potentials(r, rn, st, true)) goto oom;
    if (!st->scratch.queue && !potential_scratch_init(&st->scratch, &rn->potential_rules, r->cells)) goto oom;
    st->scratch.stop = &r->stop;
    observe_backward_potentials(st->potential_block, &st->future, &rn->potential_rules, &st->scratch);
    return !stop_said(&r->stop); /* interrupted: half-computed potentials, and the run stops */
oom:
    r->out_of_memory = true;
    return false;
}

/* The breadth-first queue starts this many entries into its block. malloc puts the block right
   after the potentials', and with the queue at its very start the searches ran 7-10 % slower
   (BiasedVoronoi at 64², 80², 100² and 120², same instructions); any skew of 4 entries or more
   removed that. The likely cause is the queue's stores and the potentials' loads meeting at the
   same offsets within a 4 KB page (the store buffer then holds loads back) or in the same L1
   sets; it was not pinned down. */
#define FIELD_QUEUE_SKEW 16

bool rulenode_compute_fields(run_state *r, const rulenode *rn, rulenode_state *st)
{
    if (!st->field_borders) {
        st->field_borders = mem_malloc((size_t)r->cells);
        if (st->field_borders) field_borders(st->field_borders, r->mx, r->my, r->mz);
    }
    if (!ensure_potentials(r, rn, st, false) || !st->field_borders ||
        (!st->field_queue && !(st->field_queue = mem_malloc(((size_t)r->cells + FIELD_QUEUE_SKEW) * sizeof *st->field_queue)))) {
        r->out_of_memory = true;
        return false;
    }
    bool any_success = false, any_computed = false;
    for (int v = 0; v < r->grid->c; v++) {
        int k = rn->field_of[v];
        if (k < 0) continue;
        const field *f = &rn->fields[k];
        if (st->counter != 0 && !f->recompute) continue;
        bool success =
            field_compute(f, st->potentials[v], r->state, st->field_borders, r->mx, r->my, r->mz, st->field_queue + FIELD_QUEUE_SKEW, &r->stop);
        if (stop_said(&r->stop)) return false; /* half-computed potentials: the run stops */
        if (!success && f->essential) return false;
        any_success |= success;
        any_computed = true;
    }
    return !any_computed || any_success;
}

bool rulenode_replay(run_state *r, rulenode_state *st)
{
    if (st->counter >= st->trajectory.length) return false;
    const uint8_t *next = st->trajectory.states[st->counter];
    for (int32_t i = 0; i < r->cells; i++)
        if (r->state[i] != next[i]) {
            r->state[i] = next[i];
            run_change_unlogged(r, i);
        }
    st->counter++;
    return true;
}
