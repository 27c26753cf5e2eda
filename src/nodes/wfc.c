/* wfc.c — the `wfc` node: its attributes and rules, the search for a good seed with the WFC module's solver
   (src/wfc), the steps that replay the solve, and then the children as a branch on the new grid. */
#include "wfc_node.h"
#include "../core/xmlutil.h"
#include "../engine/run.h"
#include "../core/mem.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const wfc_attrs[] = {"values", "sample", "tileset", "tiles", "n", "periodic", "periodicInput", "shannon",
                                 "tries", "symmetry", "overlap", "overlapz", "transparent", "folder", "outputValues",
                                 "density", "densityPower", "backtrack", NULL};

typedef struct wfc_state {
    branch_state b;              /* b.n == -1: still observing */
    bool firstgo;
    wfc_solver solver;
    /* The good seed's solve already made the final wave; the steps that
       replayed its observations one by one are only counted down. */
    long observations_left;
    uint8_t *cells;              /* the new grid */
    /* The step of the node's last failure (0: none since its reset): a node that fails again at the
       next step (its branch tries it at every step) is not warned of again. */
    long failed_at;
} wfc_state;

wfc_node *wfc_node_new(loader *ld, const xmlNode *el)
{
    wfc_node *w = node_new(ld, sizeof *w, &node_kind_wfc, el);
    if (!w) return NULL;
    xml_check_attrs(ld->d, el, wfc_attrs);
    const grid_def *g = ld->grid;
    w->pb.mx = g->mx;
    w->pb.my = g->my;
    w->pb.mz = g->mz;
    w->pb.cells = g->mx * g->my * g->mz;
    w->pb.N = 1;
    /* Read here, before any sample or tileset, so that a bad value is reported first. */
    if (!xml_get_int(ld->d, el, "backtrack", 0, &w->pb.backtrack)) return NULL;
    if (w->pb.backtrack < 0 || w->pb.backtrack > WFC_MAX_BACKTRACK) {
        diag_error(ld->d, SMALTI_ERR_MODEL, xml_line(el), "backtrack=\"%d\" must be from 0 to %d", w->pb.backtrack, WFC_MAX_BACKTRACK);
        return NULL;
    }
    return w;
}

void wfc_free(node *n)
{
    wfc_node *w = (wfc_node *)n;
    wfc_problem_free(&w->pb);
    for (int v = 0; v < w->allowed_values; v++) mem_free(w->allowed[v]);
    mem_free(w->allowed);
    mem_free(w->patterns);
    mem_free(w->tiles);
    mem_free(w->density);
    grid_free(&w->newgrid);
    branch_free(n);
}


bool wfc_load_rules(loader *ld, wfc_node *w, const xmlNode *el, const grid_def *grid, wfc_rule_fn parse, void *ctx)
{
    static const char *const rule_attrs[] = {"in", "out", NULL};
    diag *d = ld->d;
    for (xmlNode *x = xml_first_child(el); x; x = xml_next(x)) {
        if (!xml_is(x, "rule")) continue;
        xml_check_attrs(d, x, rule_attrs);
        const char *in = xml_attr(x, "in"), *out = xml_attr(x, "out");
        if (!in || !out) return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "a <rule> of <wfc> needs in and out attributes");
        if (strlen(in) != 1) return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "in=\"%s\" of a <wfc> rule should be one value", in);
        int v = grid->value_of[(unsigned char)in[0]];
        if (v < 0) return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "in=\"%s\" is not a value of the grid", in);
        if (!w->allowed) {
            if (!(w->allowed = mem_calloc((size_t)grid->c, sizeof *w->allowed))) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
            w->allowed_values = grid->c;
        }
        if (w->allowed[v]) return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "a second <rule> for in=\"%s\"", in);
        w->allowed[v] = mem_calloc((size_t)w->pb.P, sizeof(bool));
        if (!w->allowed[v]) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
        if (!parse(ld, w, x, "out", out, w->allowed[v], ctx)) return false;
    }
    return true;
}

bool wfc_finish_load(loader *ld, wfc_node *w, const xmlNode *el, symmetry_set parent_symmetry)
{
    diag *d = ld->d;
    bool shannon;
    if (!xml_get_bool(d, el, "shannon", false, &shannon) || !xml_get_int_range(d, el, "tries", 1000, 0, INT_MAX, &w->tries))
        return false;
    w->pb.heuristic = shannon ? WFC_ENTROPY : WFC_MRV;
    if (!wfc_problem_prepare(&w->pb)) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    /* The children's symmetry is read against the start grid's dimension, as the reference does. */
    bool d2 = ld->nodes[0]->grid->mz == 1;
    symmetry_set symmetry = parent_symmetry;
    const char *sym = xml_attr(el, "symmetry");
    if (sym && !symmetry_lookup(d2, sym, &symmetry))
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "unknown symmetry %s (use one of %s)%s", sym, symmetry_names(d2),
                   symmetry_dim_hint(d2, sym));
    grid_def *old = ld->grid;
    ld->grid = &w->newgrid;
    bool ok = branch_load_children(ld, &w->b, el, symmetry);
    ld->grid = old;
    return ok;
}

bool wfc_read_density_children(loader *ld, wfc_node *w, const xmlNode *el, const char *key, int units, wfc_rule_fn parse,
                               void *ctx, double *density)
{
    diag *d = ld->d;
    const char *const attrs[] = {key, "d", NULL};
    for (xmlNode *x = xml_first_child(el); x; x = xml_next(x)) {
        if (!xml_is(x, "density")) continue;
        xml_check_attrs(d, x, attrs);
        if (!xml_attr(el, "density"))
            return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "<density> needs a density picture: density=\"NAME\" on the <wfc>");
        const char *which = xml_attr(x, key), *dtext = xml_attr(x, "d");
        if (!which || !dtext) return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "a <density> of <wfc> needs %s and d attributes", key);
        double v;
        if (!xml_get_double(d, x, "d", 0.5, &v)) return false;
        if (!(v >= 0 && v <= 1)) return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "d=\"%s\" must be from 0 to 1", dtext);
        bool *selected = mem_calloc((size_t)units, sizeof *selected);
        if (!selected) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
        bool ok = parse(ld, w, x, key, which, selected, ctx);
        for (int t = 0; ok && t < units; t++)
            if (selected[t]) density[t] = v;
        mem_free(selected);
        if (!ok) return false;
    }
    return true;
}

bool wfc_load_density(loader *ld, wfc_node *w, const xmlNode *el)
{
    diag *d = ld->d;
    int line = xml_line(el);
    const char *name = xml_attr(el, "density");
    int power;
    if (!xml_get_int(d, el, "densityPower", 2, &power)) return false;
    if (power < 0 || power > WFC_DENSITY_MAX_POWER)
        return diag_error(d, SMALTI_ERR_MODEL, line, "densityPower=\"%d\" must be from 0 to %d", power, WFC_DENSITY_MAX_POWER);
    if (!name && xml_attr(el, "densityPower")) diag_warn(d, line, "densityPower has no effect without a density picture");
    if (!name) return true;
    char *path = resource_find(ld->res, d, line, "density picture", "samples", name, ".png");
    if (!path) return false;
    uint8_t *level = wfc_density_levels(ld->res, d, line, path, w->pb.mx, w->pb.my, w->pb.mz);
    mem_free(path);
    if (!level) return false;
    bool ok = wfc_set_density(&w->pb, level, w->density, w->density_per_pattern, power);
    mem_free(level);
    return ok || diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
}

static node *wfc_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry)
{
    if (xml_attr(el, "sample")) return wfc_overlap_load(ld, el, parent_symmetry);
    if (xml_attr(el, "tileset")) return wfc_tile_load(ld, el, parent_symmetry);
    diag_error(ld->d, SMALTI_ERR_MODEL, xml_line(el), "<wfc> needs a sample (overlap model) or a tileset (tile model) attribute");
    return NULL;
}
/* ---- the node ---- */

static void wfc_state_free(void *state)
{
    wfc_state *st = state;
    if (!st) return;
    wfc_solver_free(&st->solver);
    mem_free(st->cells);
    mem_free(st);
}

static void *wfc_state_new(const node *n, const grid_def *g)
{
    (void)g;
    const wfc_node *w = (const wfc_node *)n;
    wfc_state *st = mem_calloc(1, sizeof *st);
    if (!st) return NULL;
    const grid_def *ng = &w->newgrid;
    st->cells = mem_calloc((size_t)ng->mx * ng->my * ng->mz, 1);
    if (!wfc_solver_init(&st->solver, &w->pb) || !st->cells) {
        wfc_state_free(st);
        return NULL;
    }
    st->b.n = -1;
    st->firstgo = true;
    return st;
}

static void wfc_reset(run_state *r, const node *n, void *state)
{
    branch_reset(r, n, state);
    wfc_state *st = state;
    st->b.n = -1;
    st->firstgo = true;
    st->failed_at = 0;
}

/* Try seeds drawn from the run's generator until one collapses the whole
   wave without contradiction (the solver then holds that wave); false when none does, with a
   run-time warning when every try ended in a contradiction (not when the run was stopped). */
static bool good_seed(const wfc_node *w, wfc_state *st, run_state *r)
{
    for (int k = 0; k < w->tries; k++) {
        int32_t seed = rng_next(&r->random);
        wfc_result result = wfc_solve(&w->pb, &st->solver, seed, -1);
        if (result == WFC_DONE) return true;
        if (result == WFC_STOPPED) return false;
        if (result == WFC_NO_MEMORY) {
            r->out_of_memory = true;
            return false;
        }
    }
    if (st->failed_at == r->counter && r->counter > 0) { /* failed at the step before too: said then */
        st->failed_at = r->counter + 1;
        return false;
    }
    st->failed_at = r->counter + 1;
    if (w->tries == 0) {
        run_warn(r, ((const node *)w)->line,
                 "<wfc> found no solution (tries=\"0\" lets it make no try) at step %ld; the grid is as it was before the node",
                 r->counter + 1);
        return false;
    }
    char backtracking[64] = "";
    if (w->pb.backtrack > 0) snprintf(backtracking, sizeof backtracking, ", backtracking up to %d times each", w->pb.backtrack);
    run_warn(r, ((const node *)w)->line,
             "<wfc> found no solution (a contradiction in each of its %d %s%s) at step %ld; the grid is as it was before the node",
             w->tries, w->tries == 1 ? "try" : "tries", backtracking, r->counter + 1);
    return false;
}

static bool wfc_go(run_state *r, const node *n, void *state)
{
    const wfc_node *w = (const wfc_node *)n;
    const wfc_problem *pb = &w->pb;
    wfc_state *st = state;
    wfc_solver *s = &st->solver;
    if (st->b.n >= 0) return branch_go(r, n, state);
    if (st->firstgo) {
        s->stop = &r->stop;
        if (!wfc_solver_clear(s, pb)) return false; /* stopped */
        for (int i = 0; i < pb->cells; i++) {
            uint8_t v = r->state[i];
            const bool *allowed = v < w->allowed_values ? w->allowed[v] : NULL;
            if (!allowed) continue;
            for (int t = 0; t < pb->P; t++)
                if (!allowed[t]) wfc_ban(pb, s, i, t);
        }
        /* The reference prints "initial conditions are contradictive" here. */
        if (!wfc_propagate(pb, s)) {
            r->out_of_memory = s->out_of_memory;
            bool again = st->failed_at == r->counter && r->counter > 0; /* failed at the step before too: said then */
            if (!s->out_of_memory && !s->stopped && !stop_said(&r->stop)) st->failed_at = r->counter + 1;
            if (!s->out_of_memory && !s->stopped && !stop_said(&r->stop) && !again)
                run_warn(r, n->line,
                         "<wfc> found no solution (the grid's cells contradict its rules before any try) at step %ld; the "
                         "grid is as it was before the node", r->counter + 1);
            return false;
        }
        if (!wfc_solver_save_start(s, pb)) return false; /* stopped */
        if (!good_seed(w, st, r)) return false;
        /* The reference runs the good seed again, one observation per step.
           The solve is deterministic and its generator private, so the wave
           it left is the one those steps would make: only their count matters. */
        st->observations_left = s->observations;
        st->firstgo = false;

        const grid_def *g = &w->newgrid;
        memset(st->cells, 0, (size_t)g->mx * g->my * g->mz);
        if (!run_use_grid(r, g, st->cells)) return false;
        for (int32_t i = 0; i < r->cells; i++) run_change_unlogged(r, i);
        r->acting_node = n->id;
        return true;
    }
    if (st->observations_left > 0) {
        st->observations_left--;
    } else {
        st->b.n++;
        w->update_state(w, s->wave.data, st->cells);
        for (int32_t c = 0; c < r->cells; c++) run_change_unlogged(r, c);
    }
    r->acting_node = n->id;
    return true;
}

uint8_t wfc_vote_winner(const int32_t *votes, int c)
{
    int best = -1;
    uint8_t argmax = 0xff;
    for (int v = 0; v < c; v++)
        if (votes[v] > best) {
            best = votes[v];
            argmax = (uint8_t)v;
        }
    return argmax;
}

static const char *const wfc_own_children[] = {"rule", "density", NULL}; /* read by the wfc node (its rules, its densities) */

const node_kind node_kind_wfc = {
    .name = "wfc",
    .is_branch = true,
    .ends_run = true,
    .makes_grid = true,
    .own_children = wfc_own_children,
    .load = wfc_load,
    .free = wfc_free,
    .state_new = wfc_state_new,
    .state_free = wfc_state_free,
    .reset = wfc_reset,
    .go = wfc_go,
};
