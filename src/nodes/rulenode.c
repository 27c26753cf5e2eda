/* rulenode.c — what `one`, `all` and `prl` share: rules, step limit and match scanning. */
#include "rulenode.h"
#include "../core/xmlutil.h"
#include "../core/mem.h"
#include "../core/suggest.h"
#include "../core/sort.h"
#include <string.h>

static const char *const rulenode_attrs[] = {"in", "out", "p", "symmetry", "steps", "temperature", "fin", "fout", "file",
                                             "legend", "search", "limit", "depthCoefficient", NULL};
static const char *const root_attrs[] = {"in", "out", "p", "symmetry", "steps", "temperature", "fin", "fout", "file",
                                         "legend", "search", "limit", "depthCoefficient", "values", "origin", "folder",
                                         "transparent", NULL};
static const char *const rule_attrs[] = {"in", "out", "p", "symmetry", "fin", "fout", "file", "legend", NULL};

void rulenode_free(node *n)
{
    rulenode *rn = (rulenode *)n;
    for (int i = 0; i < rn->rule_count; i++) rule_free(rn->rules[i]);
    mem_free(rn->rules);
    mem_free(rn->shift_start);
    mem_free(rn->shifts);
    mem_free(rn->cell_pool);
    mem_free(rn->boxes);
    rulenode_free_inference(rn);
    mem_free(rn);
}

static bool load_rule_element(loader *ld, rulenode *rn, const xmlNode *xr, symmetry_set node_symmetry)
{
    diag *d = ld->d;
    bool d2 = ld->grid->mz == 1;
    if (diag_stopped(d)) return false;
    rule *r = rule_load(d, ld->res, xr, ld->grid, ld->grid);
    if (!r) return false;
    symmetry_set symmetry = node_symmetry;
    const char *sym = xml_attr(xr, "symmetry");
    if (sym && !symmetry_lookup(d2, sym, &symmetry)) {
        rule_free(r);
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(xr), "unknown symmetry %s (use one of %s)%s", sym, symmetry_names(d2),
                   symmetry_dim_hint(d2, sym));
    }
    return rule_expand(d, r, d2, symmetry, &rn->rules, &rn->rule_count);
}

/* Past this many cells, per-shift copies of the rules cost more (in memory
   and page faults) than testing the one known cell again saves. */
#define CELL_POOL_MAX (1 << 18)

/* Each value's box (shift_box) and the reciprocals the scans divide by. */
static bool build_shift_boxes(rulenode *rn, const grid_def *g)
{
    rn->boxes = mem_malloc((size_t)g->c * sizeof *rn->boxes);
    if (!rn->boxes) return false;
    for (int v = 0; v < g->c; v++) {
        int32_t lo[3] = {0, 0, 0}, hi[3] = {g->mx - 1, g->my - 1, g->mz - 1};
        for (int k = rn->shift_start[v]; k < rn->shift_start[v + 1]; k++) {
            const shift_entry *e = &rn->shifts[k];
            const int d[3] = {e->dx, e->dy, e->dz}, top[3] = {e->xmax, e->ymax, e->zmax};
            for (int a = 0; a < 3; a++) {
                if (d[a] > lo[a]) lo[a] = d[a];
                if (top[a] + d[a] < hi[a]) hi[a] = top[a] + d[a];
            }
        }
        /* No cell has all of v's entries inside: a box no coordinate falls in (the scans test
           (unsigned)(x - lo) <= span, so lo > hi would not do), made on the x axis, which
           every grid tests. */
        bool empty = false;
        for (int a = 0; a < 3; a++) empty |= lo[a] > hi[a];
        if (empty) lo[0] = hi[0] = -(1 << 30);
        shift_box *b = &rn->boxes[v];
        for (int a = 0; a < 3; a++) {
            b->lo[a] = empty && a > 0 ? 0 : lo[a];
            b->span[a] = empty && a > 0 ? 0 : (uint32_t)(hi[a] - lo[a]);
        }
    }
    rn->div_mx = ((uint64_t)1 << 63) / (uint64_t)g->mx + 1;
    rn->div_plane = ((uint64_t)1 << 63) / ((uint64_t)g->mx * (uint64_t)g->my) + 1;
    return true;
}

/* The order the incremental scan tests a rule's cells in: any order gives
   the same answer, and the likeliest misfits first end it soonest. Those
   are the cells that accept fewer values, then the ones whose wave the rule
   uses least (a door among floor cells). Fills order[0 .. match_count). */
static bool order_cells(const rule *rl, int *order)
{
    const int n = rl->match_count;
    /* Sorted keys, n log n: a big 3-D rule has thousands of cells. */
    uint64_t *keys = mem_malloc((size_t)(n ? n : 1) * sizeof *keys);
    int *same = mem_malloc((size_t)(n ? n : 1) * sizeof *same);
    if (!keys || !same) {
        mem_free(keys);
        mem_free(same);
        return false;
    }
    /* How many cells share each cell's wave: runs of equal waves among (wave, cell) keys, sorted
       by the wave's low half, then each run by its high half (a key holds 32 bits of wave) when
       some wave has one. */
    bool high = false;
    for (int k = 0; k < n; k++) {
        keys[k] = (uint64_t)(uint32_t)rl->match[k].wave << 32 | (uint32_t)k;
        high |= rl->match[k].wave >> 32 != 0;
    }
    sort_u64(keys, n);
    for (int a = 0, b; a < n; a = b) {
        for (b = a; b < n && keys[b] >> 32 == keys[a] >> 32; b++) {}
        if (!high) {
            for (int j = a; j < b; j++) same[keys[j] & UINT32_MAX] = b - a;
            continue;
        }
        for (int j = a; j < b; j++) {
            const uint32_t k = (uint32_t)(keys[j] & UINT32_MAX);
            keys[j] = (uint64_t)(uint32_t)(rl->match[k].wave >> 32) << 32 | k;
        }
        sort_u64(keys + a, b - a);
        for (int e = a, f; e < b; e = f) {
            for (f = e; f < b && keys[f] >> 32 == keys[e] >> 32; f++) {}
            for (int j = e; j < f; j++) same[keys[j] & UINT32_MAX] = f - e;
        }
    }
    /* Fewer values first, then rarer waves; equal ranks keep the rule's order (the cell index). */
    for (int k = 0; k < n; k++) {
        const uint32_t rank = (uint32_t)__builtin_popcountll(rl->match[k].wave) * 65536u + (uint32_t)same[k];
        keys[k] = (uint64_t)rank << 32 | (uint32_t)k;
    }
    sort_u64(keys, n);
    for (int k = 0; k < n; k++) order[k] = (int)(keys[k] & UINT32_MAX);
    mem_free(keys);
    mem_free(same);
    return true;
}

/* False when out of memory, or when the load's deadline (`stop`, asked once per rule and pass)
   passed. */
static bool build_shift_table(rulenode *rn, const grid_def *g, run_stop *stop)
{
    int64_t total = 0, pool = 0, plain = 0;
    for (int ri = 0; ri < rn->rule_count; ri++) {
        total += rn->rules[ri]->ishift_start[g->c];
        pool += (int64_t)rn->rules[ri]->ishift_start[g->c] * rn->rules[ri]->match_count;
        plain += rn->rules[ri]->match_count;
    }
    bool per_shift = pool <= CELL_POOL_MAX;
    if (!per_shift) pool = plain;
    rn->shift_start = mem_calloc((size_t)g->c + 1, sizeof *rn->shift_start);
    rn->shifts = mem_malloc((size_t)(total ? total : 1) * sizeof *rn->shifts);
    rn->cell_pool = mem_malloc((size_t)(pool ? pool : 1) * sizeof *rn->cell_pool);
    if (!rn->shift_start || !rn->shifts || !rn->cell_pool) return false;
    /* Each rule's cells in test order: orders[order_start[ri] ..]. */
    int *orders = mem_malloc((size_t)(plain ? plain : 1) * sizeof *orders);
    int *order_start = mem_malloc((size_t)(rn->rule_count ? rn->rule_count : 1) * sizeof *order_start);
    bool ok = orders && order_start;
    for (int ri = 0, at = 0; ok && ri < rn->rule_count; ri++) {
        if (stop_requested(stop)) { ok = false; break; }
        order_start[ri] = at;
        ok = order_cells(rn->rules[ri], orders + at);
        at += rn->rules[ri]->match_count;
    }
    int k = 0, used = 0;
    int *rule_cells = NULL;
    if (ok && !per_shift) { /* one copy of each rule's cells, shared by its shifts */
        rule_cells = mem_malloc((size_t)rn->rule_count * sizeof *rule_cells);
        ok = rule_cells != NULL;
        for (int ri = 0; ok && ri < rn->rule_count; ri++) {
            rule_cells[ri] = used;
            const rule *rl = rn->rules[ri];
            for (int m = 0; m < rl->match_count; m++) {
                const rule_cell *cell = &rl->match[orders[order_start[ri] + m]];
                rn->cell_pool[used++] = (pool_cell){cell->wave, cell->offset};
            }
        }
    }
    for (int v = 0; ok && v < g->c; v++) {
        rn->shift_start[v] = k;
        for (int ri = 0; ok && ri < rn->rule_count; ri++) {
            const rule *rl = rn->rules[ri];
            if (stop_requested(stop)) { ok = false; break; }
            if (rl->imx > g->mx || rl->imy > g->my || rl->imz > g->mz) continue; /* never fits */
            for (int l = rl->ishift_start[v]; l < rl->ishift_start[v + 1]; l++, k++) {
                shift_entry *e = &rn->shifts[k];
                e->rule = ri;
                e->dx = rl->ishifts[l][0];
                e->dy = rl->ishifts[l][1];
                e->dz = rl->ishifts[l][2];
                e->offset = rl->ishift_offsets[l];
                e->xmax = g->mx - rl->imx;
                e->ymax = g->my - rl->imy;
                e->zmax = g->mz - rl->imz;
                if (!per_shift) {
                    e->cells = rule_cells[ri];
                    e->count = rl->match_count;
                    continue;
                }
                e->cells = used;
                for (int m = 0; m < rl->match_count; m++) {
                    const rule_cell *cell = &rl->match[orders[order_start[ri] + m]];
                    if (cell->dx == e->dx && cell->dy == e->dy && cell->dz == e->dz) continue;
                    rn->cell_pool[used++] = (pool_cell){cell->wave, cell->offset};
                }
                e->count = used - e->cells;
            }
        }
    }
    if (ok) rn->shift_start[g->c] = k;
    for (int v = 0; ok && v < g->c; v++) {
        const int32_t shifts = rn->shift_start[v + 1] - rn->shift_start[v];
        if (shifts >= RULENODE_EARLIER_MIN) rn->earlier_any = true;
        if (shifts > rn->most_shifts) rn->most_shifts = shifts;
    }
    mem_free(rule_cells);
    mem_free(orders);
    mem_free(order_start);
    return ok && build_shift_boxes(rn, g);
}

node *rulenode_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry, const node_kind *kind, size_t size)
{
    diag *d = ld->d;
    rulenode *rn = node_new(ld, size, kind, el);
    if (!rn) return NULL;
    xml_check_attrs_ignoring(d, el, rn->base.id == 0 ? root_attrs : rulenode_attrs, kind->ignored_attrs);

    bool d2 = ld->grid->mz == 1;
    symmetry_set symmetry = parent_symmetry;
    const char *sym = xml_attr(el, "symmetry");
    if (sym && !symmetry_lookup(d2, sym, &symmetry)) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "unknown symmetry %s (use one of %s)%s", sym, symmetry_names(d2),
                   symmetry_dim_hint(d2, sym));
        return NULL;
    }

    bool has_rule_children = false;
    for (xmlNode *c = xml_first_child(el); c; c = xml_next(c)) {
        if (xml_is(c, "rule")) {
            has_rule_children = true;
            xml_check_attrs(d, c, rule_attrs);
            if (!load_rule_element(ld, rn, c, symmetry)) return NULL;
        } else if (xml_is(c, "field") || xml_is(c, "observe")) {
            continue; /* read once the rules are known */
        } else if (!xml_is(c, "union")) {
            static const char *const children[] = {"rule", "field", "observe", "union", NULL};
            char hint[96];
            diag_error(d, SMALTI_ERR_MODEL, xml_line(c), "unknown element <%s> inside <%s>%s", xml_name(c), xml_name(el),
                       suggest_phrase(hint, sizeof hint, xml_name(c), children));
            return NULL;
        }
    }
    if (!has_rule_children && !load_rule_element(ld, rn, el, symmetry)) return NULL;
    if (has_rule_children && (xml_attr(el, "in") || xml_attr(el, "out")))
        diag_warn(d, xml_line(el), "in/out on <%s> are ignored because it has <rule> children", xml_name(el));

    for (int i = 0; i < rn->rule_count; i++)
        if (diag_stopped(d)) return NULL;
        else if (!rule_compile(rn->rules[i], ld->grid->mx, ld->grid->my)) {
            diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
            return NULL;
        }
    while ((1 << rn->rule_bits) < rn->rule_count) rn->rule_bits++;
    if (((int64_t)ld->grid->mx * ld->grid->my * ld->grid->mz) << rn->rule_bits > (int64_t)UINT32_MAX) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "the grid is too large for a node with %d rules", rn->rule_count);
        return NULL;
    }
    if (!build_shift_table(rn, ld->grid, d->stop)) {
        if (!diag_stopped(d)) diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
        return NULL;
    }
    if (!xml_get_int(d, el, "steps", 0, &rn->steps)) return NULL;
    if (!xml_get_double(d, el, "temperature", 0.0, &rn->temperature)) return NULL;
    if (!rulenode_load_inference(ld, rn, el)) return NULL;
    return &rn->base;
}

void *rulenode_state_new(const node *n, const grid_def *g)
{
    const rulenode *rn = (const rulenode *)n;
    rulenode_state *st = mem_calloc(1, sizeof *st);
    if (!st) return NULL;
    int64_t cells = (int64_t)g->mx * g->my * g->mz;
    st->match_cap = 64;
    st->matches = mem_malloc((size_t)st->match_cap * sizeof *st->matches);
    bool ok = st->matches != NULL;
    if (ok && rn->uses_mask) {
        st->mask_bits = rn->rule_bits;
        st->words = ((cells << rn->rule_bits) + 63) / 64;
        st->mask = mem_calloc((size_t)(st->words + 1), sizeof *st->mask);
        ok = st->mask != NULL;
    }
    if (!ok) { rulenode_state_free(st); return NULL; }
    st->last_matched_turn = -1;
    return st;
}

void rulenode_state_free(void *state)
{
    rulenode_state *st = state;
    if (!st) return;
    mem_free(st->matches);
    mem_free(st->mask);
    mem_free(st->newstate);
    mem_free(st->order);
    mem_free(st->potential_block);
    if (st->potentials && !st->potential_block)
        for (int v = 0; v < GRID_MAX_VALUES; v++) mem_free(st->potentials[v]);
    mem_free(st->potentials);
    mem_free(st->field_queue);
    mem_free(st->field_borders);
    mem_free(st->future.was);
    mem_free(st->future.wave_of);
    potential_scratch_free(&st->scratch);
    mem_free(st->keyed);
    search_result_free(&st->trajectory);
    mem_free(st);
}

void rulenode_reset(run_state *r, const node *n, void *state)
{
    (void)r;
    (void)n;
    rulenode_state *st = state;
    st->last_matched_turn = -1;
    st->counter = 0;
    st->future_computed = false;
}

long rulenode_oldest_turn(const void *state)
{
    return ((const rulenode_state *)state)->last_matched_turn;
}
